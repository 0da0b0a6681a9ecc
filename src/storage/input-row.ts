/**
 * The stored inputs, as zod schemas: the type of each is inferred from its schema, and every
 * input read back is parsed with it. Replay rebuilds memories from these rows, so a damaged one
 * (a planted row, a half-migrated database) must stop a replay with a typed error before it
 * starts, not crash it halfway or, skipped, silently rebuild a history without it.
 */
import { z } from 'zod/mini';
import { StorageError } from '../errors';
import { describeValue, issueMessage, issueValue } from '../issues';
import { Candidate, ChatMessage, Fact, Id, MAX_ID_LENGTH, MetadataText, Scope, SourceInput, Timestamp } from '../schema';
import { recordUserId } from './owner';

const Seq = z.int().check(z.positive());

/**
 * What a remember replaces: that memory's topic and {@link factHash} (never its text, which
 * belongs to another source). Replay replaces the active memory that matches, if any.
 */
export const Replaces = z.strictObject({ topic: Id, fact: z.int().check(z.nonnegative()) });

/**
 * One decision of a write held for review (`createMemory({ review })`): the memory it would make
 * (`id`), from the candidate at `index` of the input's `candidates`, and what was decided (an
 * UPDATE names the memory it would supersede). No text of its own: the text is the candidate's,
 * so erasing the candidate erases it. Replay skips held candidates; approve moves one into an
 * input of its own, replayed from then on (review/held.ts).
 */
export const PendingEntry = z.strictObject({
  id: Id,
  index: z.int().check(z.nonnegative()),
  action: z.enum(['CREATE', 'UPDATE']),
  targetId: z.optional(Id),
});
export type PendingEntry = z.infer<typeof PendingEntry>;

/**
 * One write input, kept so `forgetSource` can replay the remaining ones: the user messages of
 * an `ingest` (assistant text is never stored), the fact of a `remember`, or the messages a
 * session summary was made from.
 */
export const WriteInput = z
  .object({
    /** Auto-incremented: the global order of inputs, across tabs. Absent until stored. */
    seq: z.optional(Seq),
    /** `''` only for an app-scope `remember`, which belongs to the whole app. */
    userId: z.string().check(z.maxLength(MAX_ID_LENGTH)),
    appName: Id,
    scope: Scope,
    /** `''` when the write names no session (a `remember`). */
    sessionId: z.string().check(z.maxLength(MAX_ID_LENGTH)),
    source: SourceInput,
    at: Timestamp,
    kind: z.enum(['ingest', 'remember', 'summary']),
    messages: z.array(ChatMessage),
    fact: z.optional(Fact),
    /**
     * What the write decided over (extracted, or the fact): replay takes them instead of running
     * the extractor again. Text of this input only, so erasing the input erases them.
     */
    candidates: z.optional(z.array(Candidate)),
    /** The caller's metadata (JSON text): replay gives it to the memories it rebuilds from this input. */
    metadata: z.optional(MetadataText),
    /** A remember that replaces a memory ({@link Replaces}). */
    replaces: z.optional(Replaces),
    /** The decisions of this write that wait for review ({@link PendingEntry}), one per held candidate. */
    pending: z.optional(z.array(PendingEntry)),
    /**
     * An approval's input (review/held.ts `splitApproved`): its one candidate was held and then
     * approved, so replay links it to its turn after the plan, as approve did (review/turn-links.ts).
     */
    approved: z.optional(z.literal(true)),
  })
  .check(z.refine((input) => input.kind !== 'remember' || input.fact !== undefined, { error: 'a remember input must hold its fact', path: ['fact'] }))
  .check(z.refine((input) => (input.scope === 'app') === (input.userId === ''), { error: "must be '' exactly for app scope", path: ['userId'] }));
export type WriteInput = z.infer<typeof WriteInput>;

/** Where a write goes and what it came from, as parsed at the edge. */
export interface WriteTarget {
  /** Ignored for app scope, which belongs to the whole app (stored as `''`). */
  userId: string;
  appName: string;
  scope: Scope;
  sessionId?: string | undefined;
  source: SourceInput;
  /** The caller's metadata, as JSON text. */
  metadata?: string | undefined;
  /** The memory a remember replaces, by topic and fact hash (WriteInput `replaces`). */
  replaces?: WriteInput['replaces'];
}

/** The one way a write input is built: the owner rule for app scope and the stored shape live here. */
export function writeInput(kind: WriteInput['kind'], target: WriteTarget, at: number, content: { messages: ChatMessage[] } | { fact: Fact }): WriteInput {
  return {
    userId: recordUserId(target, target.scope),
    appName: target.appName,
    scope: target.scope,
    sessionId: target.sessionId ?? '',
    source: target.source,
    at,
    kind,
    messages: 'messages' in content ? content.messages : [],
    ...('fact' in content ? { fact: content.fact } : {}),
    ...(target.metadata !== undefined ? { metadata: target.metadata } : {}),
    ...(target.replaces !== undefined ? { replaces: target.replaces } : {}),
  };
}

/**
 * A `prune` call, kept in the same ordered log: replaying the history without a revoked source
 * must prune at the same times, or regeneration would bring pruned memories back.
 */
export const PruneInput = z.object({
  seq: z.optional(Seq),
  userId: Id,
  appName: Id,
  at: Timestamp,
  kind: z.literal('prune'),
  floor: z.number().check(z.gte(0)).check(z.lte(1)),
});
export type PruneInput = z.infer<typeof PruneInput>;

/** Everything replayed by regeneration, in `seq` order. */
export const InputRow = z.discriminatedUnion('kind', [WriteInput, PruneInput]);
export type InputRow = z.infer<typeof InputRow>;

/** A stored input as read back: `seq` is always there. */
const StoredInputRow = z.discriminatedUnion('kind', [z.safeExtend(WriteInput, { seq: Seq }), z.extend(PruneInput, { seq: Seq })]);

/**
 * Parses stored inputs read back for `action`. A damaged row rejects the whole read with a
 * StorageError naming its seq, the field and the value: nothing has been written yet, and a
 * replay without it would rebuild a history that never happened.
 */
export function parseInputRows(rows: readonly unknown[], action: string): InputRow[] {
  return rows.map((row) => {
    // Plain first: `reportInput` makes zod 2.5x slower on every row, and only a damaged row needs it.
    const plain = StoredInputRow.safeParse(row);
    if (plain.success) return plain.data;
    const result = StoredInputRow.safeParse(row, { error: issueMessage, reportInput: true });
    if (result.success) return result.data;
    const issue = result.error.issues[0]!;
    const seq = describeValue(typeof row === 'object' && row !== null ? (row as { seq?: unknown }).seq : row);
    const field = issue.path.length ? issue.path.map(String).join('.') : 'the row';
    throw new StorageError(
      `${action}: stored input ${seq} is damaged (${field}: ${issue.message}; got ${describeValue(issueValue(issue))}), so nothing was changed. The other memories stay readable; the damaged row has to be repaired or deleted before this owner's history can be replayed.`,
      { cause: result.error },
    );
  });
}
