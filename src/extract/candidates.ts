/**
 * From a stored input to validated candidates: the one path both `ingest` and regeneration
 * take, so a replay extracts exactly what the original ingest did.
 */
import { instructionSignal } from '../defences';
import { callPlugin, PluginError, toPluginError } from '../errors';
import { Candidate, type ChatMessage, type Fact } from '../schema';
import type { Extractor, ExtractContext } from './extractor';
import { sameClaimKey } from '../text';

/** Only `role: 'user'` messages: the assistant's guesses must never become facts about the user. */
export function userMessagesOf(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.filter((message) => message.role === 'user');
}

/**
 * One candidate as the extractor returned it, parsed. Parsing reads its fields, so a getter or a
 * proxy of the extractor's runs here: what it throws is the extractor's failure too.
 */
function parseCandidate(raw: readonly unknown[], i: number): ReturnType<typeof Candidate.safeParse> {
  try {
    return Candidate.safeParse(raw[i]);
  } catch (error) {
    throw toPluginError(`reading the extractor's candidate ${i}`, error);
  }
}

export async function extractCandidates(extractor: Extractor, userMessages: readonly ChatMessage[], context: ExtractContext): Promise<Candidate[]> {
  if (userMessages.length === 0) return [];
  const raw = await callPlugin('the extractor', () => extractor.extract(userMessages, context));
  if (!Array.isArray(raw)) throw new PluginError(`the extractor returned ${typeof raw}; expected an array of candidates`);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (let i = 0; i < raw.length; i++) {
    const result = parseCandidate(raw, i);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new PluginError(`the extractor's candidate ${i} is invalid at '${issue.path.join('.')}': ${issue.message}`, { cause: result.error });
    }
    // A custom extractor's candidate is screened as the built-in readers screen a message: text
    // that reads as an instruction to the model is never a memory (it would reach the prompt).
    if (instructionSignal(result.data.content) !== undefined || instructionSignal(result.data.excerpt) !== undefined) continue;
    // The same fact said twice in one conversation is one candidate: repeating it does not
    // corroborate it (one source), and a pasted wall of repeats must not cost a decision each.
    const key = sameClaimKey(result.data);
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push(result.data);
  }
  return candidates;
}

/** A fact written with `remember`: confidence defaults to 1 and is capped by the source's trust on apply. */
export function candidateOfFact(fact: Fact): Candidate {
  return {
    content: fact.content,
    topic: fact.topic,
    confidence: fact.confidence ?? 1,
    excerpt: fact.content,
    importance: fact.importance ?? 0.5,
    halfLifeDays: fact.halfLifeDays ?? 180,
  };
}
