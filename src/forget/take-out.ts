/**
 * Taking one fact out of a stored input, purely: what `forget(id)` does to each conversation the
 * memory was extracted from. The fact's candidates leave the input's stored candidates, and the
 * spans they were read from are redacted wherever the input holds them (its messages, the other
 * candidates' excerpts and contents, a remembered fact), so the input keeps the rest of what the
 * user said and no replay can read the fact from it again.
 *
 * Rules this code keeps:
 * - A fact's span is where it was said ({@link spansOf}): for an episode its turn, for a fact the
 *   clauses of its excerpt that state it when other facts share the sentence (fact-span.ts), else
 *   its excerpt. The other facts of the sentence stay, with their own words.
 * - The input's candidates are stored explicitly afterwards (never re-extracted from the
 *   redacted text): the input is the suppression, stored, exported and imported with it.
 * - A span leaves no mark: it is cut out with the joining word and punctuation it leaves
 *   dangling (storage/redaction.ts), and a message left without a word goes.
 * - A candidate whose text keeps nothing durable once redacted (an episode of the forgotten
 *   sentence alone) leaves the input too, and an input left with no candidate and no message
 *   goes whole: no replay makes a memory of what is left.
 * - Spans are redacted by the one rule of storage/redaction.ts.
 */
import { episodeText } from '../episode/episode';
import { EPISODE_TOPIC } from '../extract/topics';
import type { Candidate, ChatMessage } from '../schema';
import type { WriteInput } from '../storage/contract';
import { createRedactor, keepsNothing, type Redactor } from '../storage/redaction';
import { sameClaimKey } from '../text';
import { factSpans } from './fact-span';

export { FORGOTTEN_SPAN } from '../storage/redaction';

/** An input with one fact taken out: null when nothing of it is left to keep (a remember of that fact). */
export interface TakenOut {
  input: WriteInput | null;
  /** The spans of the candidates taken out: what was redacted. */
  spans: string[];
  /** How many candidates were taken out. */
  removed: number;
}

export interface TakeOutOptions {
  /** Spans to redact beside the fact's own (forget redacts every input of a source with all of them). */
  extraSpans?: readonly string[];
  /** Facts the user stated in other inputs of the same source (an approved sibling's own input): the sentences they share are split with them too. */
  others?: readonly Candidate[];
}

const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Where `candidate` was said in `messages` (its input's): an episode's turn (the whole message, however long:
 * the episode's text may be cut), or the parts of its excerpt that state it apart from the
 * `others` stated in the same excerpt.
 */
export function spansOf(candidate: Pick<Candidate, 'content' | 'topic' | 'excerpt'>, messages: readonly ChatMessage[], others: readonly Candidate[]): string[] {
  if (candidate.topic === EPISODE_TOPIC) {
    const turns = messages.filter((message) => message.role === 'user' && episodeText(message.content) === candidate.content).map((message) => message.content);
    return turns.length ? turns : [candidate.excerpt];
  }
  const claim = sameClaimKey(candidate);
  const siblings = others.filter((other) => other.topic !== EPISODE_TOPIC && sameClaimKey(other) !== claim && sameText(other.excerpt, candidate.excerpt));
  return factSpans(candidate.content, candidate.excerpt, [...new Set(siblings.map((other) => other.content))]);
}

/**
 * `input` without the candidates `isFact` picks among `candidates` (what its write decided
 * over), their spans redacted in what stays. The input's seq is kept: it is rewritten in place.
 */
export function takeOutFact(input: WriteInput, candidates: readonly Candidate[], isFact: (candidate: Candidate) => boolean, options: TakeOutOptions = {}): TakenOut {
  const { extraSpans = [], others = [] } = options;
  const removed = candidates.filter(isFact);
  const rest = candidates.filter((candidate) => !isFact(candidate));
  const spans = [...new Set(removed.flatMap((candidate) => spansOf(candidate, input.messages, [...rest, ...others])).filter((span) => span.trim() !== ''))];
  if (removed.length === 0 && extraSpans.length === 0) return { input, spans, removed: 0 };
  const redact = createRedactor([...spans, ...extraSpans]);
  // Each kept candidate with its index among `candidates`: a pending entry names its candidate by index.
  const kept = candidates
    .map((candidate, index) => ({ candidate, index }))
    .filter(({ candidate }) => !isFact(candidate))
    .map(({ candidate, index }) => ({ index, was: candidate.content, candidate: { ...candidate, content: redact.text(candidate.content), excerpt: redact.excerpt(candidate.excerpt) } }))
    .filter(({ candidate, was }) => candidate.content === was || !keepsNothing(candidate.content));
  const messages = redactMessages(input.messages, redact);
  // Nothing of it left to keep: no fact, no word of a message.
  if (kept.length === 0 && (input.kind === 'remember' || messages.length === 0)) return { input: null, spans, removed: removed.length };
  const { fact, pending, ...restOfInput } = input;
  const indexOf = new Map(kept.map(({ index }, at) => [index, at]));
  // A held write's pending entries follow their candidates; one whose candidate went goes with it.
  const stillPending = pending?.flatMap((entry) => (indexOf.has(entry.index) ? [{ ...entry, index: indexOf.get(entry.index)! }] : []));
  return {
    input: {
      ...restOfInput,
      messages,
      candidates: kept.map(({ candidate }) => candidate),
      ...(stillPending ? { pending: stillPending } : {}),
      ...(fact && kept.length ? { fact: { ...fact, content: kept[0]!.candidate.content } } : {}),
    },
    spans,
    removed: removed.length,
  };
}

/** The messages with the spans taken out (storage/redaction.ts); a message that keeps no word goes. */
export function redactMessages(messages: readonly ChatMessage[], redactor: Redactor): ChatMessage[] {
  return messages.map((message) => ({ ...message, content: redactor.text(message.content) })).filter((message) => message.content.trim() !== '');
}

/**
 * `input` with `spans` redacted wherever it holds them (another input of the source that quotes a
 * sentence a fact was taken out of); undefined when it holds none, null when nothing of it is left
 * (a remember of the span alone). Stored candidates are redacted by the same rule as
 * {@link takeOutFact}'s; an input that stores none keeps it that way.
 */
export function redactInput(input: WriteInput, spans: readonly string[]): WriteInput | null | undefined {
  const redactor = createRedactor(spans);
  const quoted =
    input.messages.some((message) => redactor.quotes(message.content)) ||
    (input.candidates ?? []).some((candidate) => redactor.quotes(candidate.content) || redactor.quotes(candidate.excerpt)) ||
    (input.fact !== undefined && redactor.quotes(input.fact.content));
  if (!quoted) return undefined;
  if (input.candidates === undefined) return { ...input, messages: redactMessages(input.messages, redactor) };
  return takeOutFact(input, input.candidates, () => false, { extraSpans: spans }).input;
}
