/**
 * Taking one fact out of a stored input, purely: what `forget(id)` does to each conversation the
 * memory was extracted from. The fact's candidates leave the input's stored candidates, and the
 * spans they were read from (their excerpts) are redacted wherever the input holds them (its
 * messages, the other candidates' excerpts and contents, a remembered fact), so the input keeps
 * the rest of what the user said and no replay can read the fact from it again.
 *
 * Rules this code keeps:
 * - The input's candidates are stored explicitly afterwards (never re-extracted from the
 *   redacted text): the input is the suppression, stored, exported and imported with it.
 * - Spans are redacted by the one rule of storage/redaction.ts.
 */
import type { Candidate, ChatMessage } from '../schema';
import type { WriteInput } from '../storage/contract';
import { createRedactor } from '../storage/redaction';

export { FORGOTTEN_SPAN } from '../storage/redaction';

/** An input with one fact taken out: null when nothing of it is left to keep (a remember of that fact). */
export interface TakenOut {
  input: WriteInput | null;
  /** The excerpts of the candidates taken out: the spans redacted. */
  spans: string[];
  /** How many candidates were taken out. */
  removed: number;
}

/**
 * `input` without the candidates `isFact` picks among `candidates` (what its write decided
 * over), their spans redacted in what stays. The input's seq is kept: it is rewritten in place.
 */
export function takeOutFact(input: WriteInput, candidates: readonly Candidate[], isFact: (candidate: Candidate) => boolean, extraSpans: readonly string[] = []): TakenOut {
  const removed = candidates.filter(isFact);
  const spans = [...new Set(removed.map((candidate) => candidate.excerpt).filter((excerpt) => excerpt.trim() !== ''))];
  if (removed.length === 0 && extraSpans.length === 0) return { input, spans, removed: 0 };
  const redact = createRedactor([...spans, ...extraSpans]);
  const kept = candidates.filter((candidate) => !isFact(candidate)).map((candidate) => ({ ...candidate, content: redact.text(candidate.content), excerpt: redact.excerpt(candidate.excerpt) }));
  if (input.kind === 'remember' && kept.length === 0) return { input: null, spans, removed: removed.length };
  const messages: ChatMessage[] = input.messages.map((message) => ({ ...message, content: redact.text(message.content) }));
  const { fact, ...rest } = input;
  return {
    input: { ...rest, messages, candidates: kept, ...(fact && kept.length ? { fact: { ...fact, content: kept[0]!.content } } : {}) },
    spans,
    removed: removed.length,
  };
}
