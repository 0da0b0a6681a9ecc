/**
 * The export format, 'engram-export/1': one owner's memories (tombstones included, vectors left
 * out) and the stored inputs they were derived from, as plain JSON. `memory.export` writes it and
 * `memory.import` parses it with these schemas: the schema is the type, and data from another
 * device is parsed at the edge like any other caller input.
 */
import { z } from 'zod/mini';
import { Candidate, ChatMessage, Fact, Id, MemoryRecord, MetadataText, SourceInput, Timestamp } from '../schema';
import { PendingEntry, Replaces } from '../storage/input-row';

/** The only format version this release reads and writes. */
export const EXPORT_FORMAT = 'engram-export/1';

/** Bounds on one export, so a damaged or hostile file is refused before anything is built from it. */
export const EXPORT_LIMITS = Object.freeze({ memories: 200_000, inputs: 200_000, sources: 10_000, history: 10_000, messages: 10_000 });

/** A stored memory without its vector (vectors belong to one embedder; import embeds again). */
export const ExportedMemory = z.strictObject({
  ...z.omit(MemoryRecord, { embedding: true }).shape,
  sources: MemoryRecord.shape.sources.check(z.maxLength(EXPORT_LIMITS.sources, { error: `must hold at most ${EXPORT_LIMITS.sources} sources` })),
  history: MemoryRecord.shape.history.check(z.maxLength(EXPORT_LIMITS.history, { error: `must hold at most ${EXPORT_LIMITS.history} entries` })),
});
export type ExportedMemory = z.infer<typeof ExportedMemory>;

const Messages = z.array(z.strictObject(ChatMessage.shape)).check(z.maxLength(EXPORT_LIMITS.messages, { error: `must hold at most ${EXPORT_LIMITS.messages} messages` }));

/**
 * The candidates a conversation's write decided over, as stored with it: replay uses them instead
 * of extracting again, so a fact taken out by `undo` stays out on the importing device, and a
 * device with another extractor replays what this one decided.
 */
const Candidates = z.array(Candidate).check(z.maxLength(EXPORT_LIMITS.messages, { error: `must hold at most ${EXPORT_LIMITS.messages} candidates` }));

/** The write's decisions that wait for review, each naming one of its `candidates` (review/held.ts): they stay pending on the importing device. */
const Pending = z.array(PendingEntry).check(z.maxLength(EXPORT_LIMITS.messages, { error: `must hold at most ${EXPORT_LIMITS.messages} pending entries` }));

/** Marks an approval's input (review/held.ts `splitApproved`): replay links what it makes to its turn, as approve did. */
const Approved = z.optional(z.literal(true));

/** The user messages of one `ingest` (user scope) or `summarizeSession` (that session's scope). */
const ConversationInput = z.strictObject({
  kind: z.enum(['ingest', 'summary']),
  at: Timestamp,
  sessionId: Id,
  source: SourceInput,
  messages: Messages,
  metadata: z.optional(MetadataText),
  candidates: z.optional(Candidates),
  pending: z.optional(Pending),
  approved: Approved,
});

/** One `remember`d fact; `scope` only for a session-scope fact (user scope otherwise), `sessionId` when the write named one. */
const RememberInput = z.strictObject({
  kind: z.literal('remember'),
  at: Timestamp,
  scope: z.optional(z.literal('session')),
  sessionId: z.optional(Id),
  source: SourceInput,
  fact: Fact,
  metadata: z.optional(MetadataText),
  replaces: z.optional(Replaces),
  /** Only when the fact waits for review: its candidate and pending entry. */
  candidates: z.optional(Candidates),
  pending: z.optional(Pending),
  approved: Approved,
});

/** One `prune` call: replay prunes at the same time with the same floor. */
const PruneInput = z.strictObject({ kind: z.literal('prune'), at: Timestamp, floor: z.number().check(z.gte(0)).check(z.lte(1)) });

export const ExportedInput = z.discriminatedUnion('kind', [ConversationInput, RememberInput, PruneInput]);
export type ExportedInput = z.infer<typeof ExportedInput>;

/** What `memory.export` returns and `memory.import` takes. */
export const OwnerExport = z.strictObject({
  format: z.literal(EXPORT_FORMAT, { error: `must be '${EXPORT_FORMAT}', the only export format this version of engram reads` }),
  exportedAt: Timestamp,
  userId: Id,
  appName: Id,
  memories: z.array(ExportedMemory).check(z.maxLength(EXPORT_LIMITS.memories, { error: `must hold at most ${EXPORT_LIMITS.memories} memories` })),
  /** Stored inputs in the order they were written: the user messages of each ingest or summary, each remembered fact, each prune. */
  inputs: z.array(ExportedInput).check(z.maxLength(EXPORT_LIMITS.inputs, { error: `must hold at most ${EXPORT_LIMITS.inputs} inputs` })),
});
export type OwnerExport = z.infer<typeof OwnerExport>;

/** What `memory.import` wrote. */
export interface ImportReport {
  userId: string;
  appName: string;
  /** Memories written (tombstones included). */
  memories: number;
  /** Stored inputs written, in their original order. */
  inputs: number;
}
