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
 *   applies it at that place in the order. Rejecting takes it out of the input in place and
 *   redacts its span by forget's rule (forget/take-out.ts): no row keeps its text, and no
 *   replay brings it back.
 */
import { takeOutFact } from '../forget/take-out';
import type { Candidate, SourceType } from '../schema';
import type { InputRow, PendingEntry, WriteInput } from '../storage/contract';
import { sameFactKey } from '../text';

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
 * Approve's inputs: what is left of the held input, then the candidate's own input made `at` the
 * approval (no messages: replay takes the stored candidate; no pending entry; marked `approved`,
 * so replay links it to its turn as approve did), appended in that order.
 */
export function splitApproved(held: HeldInput, at: number): WriteInput[] {
  const { seq: _seq, pending: _pending, ...row } = held.input;
  return [...restOf(held), { ...row, at, messages: [], candidates: [held.candidate], approved: true }];
}

/**
 * Reject's rewrite of the held input, in place: the candidate taken out and its span redacted by
 * forget's rule (forget/take-out.ts; `others`: the facts of the source's other inputs, which
 * share its sentences), the other pending entries re-indexed; null when nothing is left (a
 * remember of that fact).
 */
export function withoutRejected(held: HeldInput, others: readonly Candidate[] = []): { input: (InputRow & WriteInput) | null; spans: string[] } {
  const candidates = held.input.candidates ?? [];
  const taken = takeOutFact(held.input, candidates, (candidate) => candidate === held.candidate, { others });
  if (taken.input === null) return { input: null, spans: taken.spans };
  return { input: { ...taken.input, seq: held.input.seq! }, spans: taken.spans };
}
