/**
 * Writes held for review, as pure functions over stored inputs. A write whose source type is
 * under review (`createMemory({ review: { sources } })`) is decided as usual, but nothing of it
 * is applied: its input is stored with the candidates that would change memories and one
 * {@link PendingEntry} per candidate (the memory id it would make, CREATE or UPDATE of which
 * memory). Rules this code keeps:
 *
 * - A pending memory lives only in its input: no record, no vector, no lexical row, so no read
 *   path (retrieve, list, the vector layer, prune, the exclusive-topic rule) can see it.
 * - Every candidate of a held input is pending, and replay skips pending candidates: a replay
 *   (forgetSource, asOf, undo's check) never makes a memory the user has not approved.
 * - Approving takes the candidate out of its held input into an input of its own, appended
 *   after every other (it took effect then), without the pending entry: from then on replay
 *   applies it at that place in the order. Rejecting takes it out and redacts its span from the
 *   input's messages: no row keeps its text, and no replay brings it back.
 */
import type { Candidate, ChatMessage, SourceType } from '../schema';
import type { InputRow, PendingEntry, WriteInput } from '../storage/contract';
import { sameFactKey } from '../text';

/** What replaces a rejected memory's span in the stored messages. */
export const REJECTED = '[redacted: rejected in review]';

/** One memory waiting for review, as `memory.pending` lists it. */
export interface PendingMemory {
  /** The id it will have once approved; what `approve` and `reject` take. */
  id: string;
  /** CREATE: a new memory. UPDATE: it supersedes `targetId` when approved (not before). */
  action: 'CREATE' | 'UPDATE';
  targetId?: string;
  topic: string;
  content: string;
  importance: number;
  halfLifeDays: number;
  /** The extractor's confidence (capped by the source's trust when approved). */
  confidence: number;
  scope: 'user' | 'session';
  sessionId?: string;
  source: { type: SourceType; id: string; excerpt: string; at: number };
}

/** The stored write input that holds `id` pending, and its entry; undefined when none does. */
export interface HeldInput {
  input: InputRow & WriteInput;
  entry: PendingEntry;
  candidate: Candidate;
}

/** The key two facts share when they are the same fact (topic and {@link sameFactKey}): the review queue holds one of each. */
export function pendingKey(fact: { topic: string; content: string }): string {
  return `${fact.topic}\u0000${sameFactKey(fact.content)}`;
}

/** The candidates replay decides over: the input's own, without the pending ones. */
export function replayedCandidates(input: WriteInput, candidates: readonly Candidate[]): readonly Candidate[] {
  if (!input.pending?.length) return candidates;
  const held = new Set(input.pending.map((entry) => entry.index));
  return candidates.filter((_, i) => !held.has(i));
}

/** Every pending entry of `inputs`, with its input and candidate, in write order. */
export function heldEntries(inputs: readonly InputRow[]): HeldInput[] {
  const out: HeldInput[] = [];
  for (const input of inputs) {
    if (input.kind === 'prune' || !input.pending) continue;
    for (const entry of input.pending) {
      const candidate = input.candidates?.[entry.index];
      if (candidate) out.push({ input, entry, candidate });
    }
  }
  return out;
}

/** How `memory.pending` shows one entry. */
export function describePending({ input, entry, candidate }: HeldInput): PendingMemory {
  return {
    id: entry.id,
    action: entry.action,
    ...(entry.targetId !== undefined ? { targetId: entry.targetId } : {}),
    topic: candidate.topic,
    content: candidate.content,
    importance: candidate.importance,
    halfLifeDays: candidate.halfLifeDays,
    confidence: candidate.confidence,
    scope: input.scope === 'session' ? 'session' : 'user',
    ...(input.scope === 'session' ? { sessionId: input.sessionId } : {}),
    source: { type: input.source.type, id: input.source.id, excerpt: candidate.excerpt, at: input.at },
  };
}

/** The input without `entry`'s candidate, the other entries re-indexed; without its `seq` (the commit appends it anew). */
function without(input: InputRow & WriteInput, entry: PendingEntry): WriteInput {
  const { seq: _seq, ...row } = input;
  const candidates = (input.candidates ?? []).filter((_, i) => i !== entry.index);
  const pending = (input.pending ?? []).filter((other) => other.id !== entry.id).map((other) => (other.index > entry.index ? { ...other, index: other.index - 1 } : other));
  return { ...row, candidates, pending };
}

/**
 * What is left of a held input once one candidate is out: the rest, or nothing for a remember
 * (its fact is that one candidate, so the row would keep the text of nothing).
 */
function restOf(held: HeldInput): WriteInput[] {
  const rest = without(held.input, held.entry);
  return rest.kind === 'remember' && rest.candidates!.length === 0 ? [] : [rest];
}

/**
 * Approve's inputs: what is left of the held input, then the candidate's own input (no messages:
 * replay takes the stored candidate; no pending entry), appended in that order.
 */
export function splitApproved(held: HeldInput): WriteInput[] {
  const { seq: _seq, pending: _pending, ...row } = held.input;
  return [...restOf(held), { ...row, messages: [], candidates: [held.candidate] }];
}

/** Reject's inputs: what is left of the held input, the candidate's excerpt redacted from every message. */
export function withoutRejected(held: HeldInput): WriteInput[] {
  const { excerpt, content } = held.candidate;
  return restOf(held).map((rest) => ({ ...rest, messages: rest.messages.map((message) => redactMessage(message, [excerpt, content])) }));
}

/** `message` with every occurrence of each non-empty span replaced by {@link REJECTED}. */
function redactMessage(message: ChatMessage, spans: readonly string[]): ChatMessage {
  let content = message.content;
  for (const span of spans) if (span.trim() !== '') content = content.split(span).join(REJECTED);
  return content === message.content ? message : { ...message, content };
}
