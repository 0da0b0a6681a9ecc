/**
 * The extraction contract. The rule extractor ships offline; an LLM extractor replaces it
 * with `createMemory({ extractor })`. The pipeline hands an extractor the user's messages
 * only: no extractor can turn what the assistant said into a memory about the user.
 */
import type { CandidateInput, ChatMessage } from '../schema';

/** A fact the offline extractor read from a user message (src/extract/speech): a candidate before validation. */
export interface ExtractedFact {
  content: string;
  topic: string;
  confidence: number;
  /** The user's sentence it came from, as typed. */
  excerpt: string;
  importance: number;
  halfLifeDays: number;
}

export interface ExtractContext {
  userId: string;
  appName: string;
  sessionId: string;
  /**
   * When the messages were written (ms since epoch): the time "yesterday" and "last week" are
   * read against. The same on replay as on the original ingest, so a replay extracts the same facts.
   */
  at?: number;
}

export interface Extractor {
  /** Candidate facts about the user; each is validated before consolidation sees it. */
  extract(userMessages: readonly ChatMessage[], context: ExtractContext): Promise<CandidateInput[]> | CandidateInput[];
}
