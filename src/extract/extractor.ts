/**
 * The extraction contract. The rule extractor ships offline; an LLM extractor replaces it
 * with `createMemory({ extractor })`. The pipeline hands an extractor the user's messages
 * only: no extractor can turn what the assistant said into a memory about the user.
 */
import type { CandidateInput, ChatMessage } from '../schema';

export interface ExtractContext {
  userId: string;
  appName: string;
  sessionId: string;
}

export interface Extractor {
  /** Candidate facts about the user; each is validated before consolidation sees it. */
  extract(userMessages: readonly ChatMessage[], context: ExtractContext): Promise<CandidateInput[]> | CandidateInput[];
}
