/**
 * The IndexedDB schema. Records are stored as parsed `MemoryRecord`s plus derived index
 * fields; everything a query filters on is an index, everything else rides along.
 */
import { Dexie, type EntityTable } from 'dexie';
import type { Scope } from '../schema';
import type { EventRow, LineageRow, MemoryRow } from './rows';
import type { InputRow } from '../storage/input-row';
import { migrateToLineage } from './lineage-migration';
import { factHash } from '../text';
import type { IDBKeyRangeClass } from '../memory-options';

export type { EventRow, LineageRow, MemoryRow } from './rows';

/**
 * The owner's active memories right after the input `seq` was committed, by reference: each
 * memory's id and what changed in it since (confidence, updatedAt, how many of its own lineage
 * and event rows existed then). Regeneration replays from the last checkpoint before the
 * revoked source's first input instead of from the beginning (checkpoints.ts). No text.
 */
export interface CheckpointRow {
  userId: string;
  appName: string;
  seq: number;
  records: { id: string; confidence: number; updatedAt: number; sourceCount: number; historyCount: number }[];
}

export type { InputRow, PruneInput, WriteInput } from '../storage/input-row';

/**
 * A source an owner revoked with forgetSource, and the owner's partition version that revocation
 * produced. A write of that source decided against an older version was in flight during the
 * erasure and is refused, so erased text cannot come back through a racing ingest.
 */
export interface RevocationRow {
  userId: string;
  appName: string;
  sourceId: string;
  version: number;
  at: number;
}

/** Version of one partition's rows; bumped by every write transaction that touches it. */
export interface PartitionRow {
  key: string;
  version: number;
}

/**
 * Scope codes as stored in packed columns (`PackedColumns.scopes`). Fixed here, apart from the
 * compute's own codes, so a change to the worker's wire format is not a database migration.
 */
export const STORED_SCOPE_CODE: Readonly<Record<Scope, number>> = Object.freeze({ user: 1, session: 2, app: 4 });

/**
 * Rows of one partition in columnar form, as stored: row `i` is `vectors[i*dim .. (i+1)*dim)`,
 * `scopes[i]` a {@link STORED_SCOPE_CODE}, `sessionIds[i]` `''` outside session scope, and its
 * term ids `terms[termOffsets[i] .. termOffsets[i+1])` (absent in packs written before them).
 */
export interface PackedColumns {
  ids: string[];
  /**
   * f32 rows; beside 8-bit `codes`, empty, or the rows of a partition small enough for compute's
   * f32 copy (worker/matrix.ts). A version before codes rebuilds a snapshot of codes alone from the records.
   */
  vectors: Float32Array;
  /**
   * A snapshot written by an 8-bit compute holds its codes instead of f32 vectors: `codes` laid
   * out as worker/code-layout.ts says (`codeLayout`, `codeStride` bytes a row, whole blocks of
   * four rows), and per row `codeScales`, `codeErrors`, `codeNorms` (the scan's error bound).
   * Absent in packs written before them (f32 `vectors`, quantised on load).
   */
  codes?: Int8Array;
  codeLayout?: number;
  codeStride?: number;
  codeScales?: Float32Array;
  codeErrors?: Float32Array;
  codeNorms?: Float32Array;
  updatedAt: Float64Array;
  halfLifeDays: Float32Array;
  importance: Float32Array;
  scopes: Uint8Array;
  sessionIds: string[];
  terms?: Uint32Array;
  termOffsets?: Uint32Array;
  /**
   * The same terms grouped by term, so a load indexes them per term (worker/api.ts
   * `RowPostings`): ascending distinct `postingTerms`, for term `t` the entries
   * `postingEntries[postingStarts[t] … postingStarts[t+1])`, each `row << 16 | count`. Absent in
   * packs written before them (the index is then built row by row from `terms`).
   */
  postingTerms?: Uint32Array;
  postingStarts?: Uint32Array;
  postingEntries?: Uint32Array;
}

/** One chunk of a partition's packed snapshot (see vector-pack.ts): columnar rows at `version`. */
export interface VectorPackRow extends PackedColumns {
  partition: string;
  part: number;
  /** How many chunks the snapshot has; a load checks it saw them all. */
  parts: number;
  version: number;
  embedderId: string;
  dim: number;
  /**
   * On the last chunk: the partition's active rows at `version` that another embedder wrote
   * (the chunks leave them out), so a load from the snapshot still counts them as foreign.
   */
  foreign?: string[];
}

/** The vector inputs of one record in a log entry. */
export interface VectorRowInput {
  id: string;
  embedderId: string;
  embedding: Float32Array;
  updatedAt: number;
  halfLifeDays: number;
  importance: number;
  scope: Scope;
  sessionId: string;
}

/** What one commit changed in one partition's index: written in the commit's transaction. */
export interface VectorLogRow {
  partition: string;
  /** The partition version this commit produced. */
  version: number;
  upserts: VectorRowInput[];
  removals: string[];
  /**
   * The lineage chains of the memory rows the commit wrote in this partition, present only when
   * those rows (the upserts and removals) are every memory row it changed there: another
   * instance's record cache then follows the commit by dropping just those rows and the entries
   * on their chains (record-cache.ts `followLog`). Absent when the commit also reached rows it
   * does not name (an erasure's redactions, a rewrite of stored conversations), and in entries
   * written before this field: the cache drops the whole partition then.
   */
  chains?: string[];
}

export interface DatabaseOptions {
  /** IndexedDB factory; pass fake-indexeddb's under Node. */
  indexedDB?: IDBFactory | undefined;
  IDBKeyRange?: IDBKeyRangeClass | undefined;
}

/** The value of a held input's `held` field: what the review queue's index `[userId+appName+held]` finds. */
export const HELD = 1;

/**
 * An input as stored: `held` marks one that holds writes waiting for review (a `pending` entry),
 * so the queue reads those rows by index, not every input of the owner. Set on every write of an
 * input ({@link markHeld}), never read back (the parse drops it).
 */
export type StoredInputRow = InputRow & { held?: typeof HELD };

function isHeld(row: InputRow): boolean {
  return row.kind !== 'prune' && Array.isArray(row.pending) && row.pending.length > 0;
}

/** `input` as it is written: marked held exactly when it holds a pending entry. */
export function markHeld(input: InputRow): StoredInputRow {
  const { held: _held, ...row } = input as StoredInputRow;
  return isHeld(row) ? { ...row, held: HELD } : row;
}

/** v6's step for one row, in place: the held mark (also run again for an upgrade cut short, unfinished-upgrades.ts). */
export function addHeldMark(row: StoredInputRow): void {
  if (isHeld(row)) row.held = HELD;
  else delete row.held;
}

/** Whether a stored row lacks the mark it should carry, or carries one it should not. */
export function heldMarkWrong(row: StoredInputRow): boolean {
  return isHeld(row) !== (row.held === HELD);
}

/** v5's step for one row: its identical-fact key (also run again for an upgrade cut short, unfinished-upgrades.ts). */
export function addFactKey(row: MemoryRow): void {
  if (typeof row.topic === 'string' && typeof row.content === 'string') row.fact = factHash(row.topic, row.content);
}

export class EngramDatabase extends Dexie {
  memories!: EntityTable<MemoryRow, 'id'>;
  inputs!: EntityTable<StoredInputRow, 'seq'>;
  partitions!: EntityTable<PartitionRow, 'key'>;
  vectorPacks!: Dexie.Table<VectorPackRow, [string, number]>;
  vectorLog!: Dexie.Table<VectorLogRow, [string, number]>;
  revocations!: Dexie.Table<RevocationRow, [string, string, string]>;
  lineage!: Dexie.Table<LineageRow, [string, number]>;
  events!: Dexie.Table<EventRow, [string, number]>;
  checkpoints!: Dexie.Table<CheckpointRow, [string, string, number]>;

  constructor(name: string, options: DatabaseOptions = {}) {
    super(name, {
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
    });
    this.version(1).stores({
      memories: 'id, [userId+appName+scope], [appName+scope], [userId+appName+topic], *sourceIds',
      inputs: '++seq, [userId+appName], [userId+appName+scope], [userId+appName+source.id]',
      partitions: 'key',
    });
    // v2: packed vectors for bulk loading. No upgrade step: a partition without packs is
    // rebuilt from its records on first load, then snapshotted.
    this.version(2).stores({
      vectorPacks: '[partition+part]',
      vectorLog: '[partition+version]',
    });
    // v3: revoked sources (see RevocationRow). New table only; nothing to migrate.
    this.version(3).stores({
      revocations: '[userId+appName+sourceId]',
    });
    // v4: a write reads only what its decision needs. The topic sweep reads active memories
    // by index (`active`), and sources and history move to side tables so a row stays the
    // same size however often it is corroborated (lineage.ts); checkpoints let regeneration
    // start late (checkpoints.ts). The upgrade moves every existing row's lists out and fills
    // `active`; nothing is dropped. (A v3 database has no checkpoints: its first
    // forgetSource replays from the beginning, as v3 did.)
    this.version(4)
      .stores({
        memories: 'id, [userId+appName+scope], [appName+scope], [userId+appName+topic+active], [userId+appName+active], [userId+appName+changed], [chain+depth]',
        inputs: '++seq, [userId+appName], [userId+appName+scope], [userId+appName+source.id], [userId+appName+seq]',
        lineage: '[memoryId+n], [chain+depth], [chain+sourceId], [userId+appName+sourceId]',
        events: '[memoryId+n], [userId+appName]',
        checkpoints: '[userId+appName+seq]',
      })
      .upgrade((transaction) => migrateToLineage(transaction));
    // v5: the identical-fact index (MemoryRow.fact). On a non-exclusive topic a write's sweep
    // needs only the same fact, not every memory of the topic; the upgrade fills `fact` in
    // every row (a row whose topic or content is not a string is corrupt and left as it was).
    this.version(5)
      .stores({
        memories: 'id, [userId+appName+scope], [appName+scope], [userId+appName+topic+active], [userId+appName+active], [userId+appName+changed], [chain+depth], [userId+appName+fact+active]',
      })
      .upgrade((transaction) => transaction.table<MemoryRow, string>('memories').toCollection().modify(addFactKey));
    // v6: the review queue's index (StoredInputRow `held`). The queue (memory.pending, approve,
    // reject, and every write under review) read all of the owner's inputs to find the few that
    // hold pending writes; it reads those alone now. The upgrade marks the existing ones.
    this.version(6)
      .stores({
        inputs: '++seq, [userId+appName], [userId+appName+scope], [userId+appName+source.id], [userId+appName+seq], [userId+appName+held]',
      })
      .upgrade((transaction) => transaction.table<StoredInputRow, number>('inputs').toCollection().modify(addHeldMark));
    // v7: the embedder index. A write in a partition holding foreign vectors looks for the
    // owner's memories an erasure left waiting for a vector (reembed.ts `embedPending`) after
    // its commit; it read every memory of the owner to find them, and reads those alone now.
    // No upgrade step: IndexedDB fills a new index from the rows (embedderId and active are clear fields).
    this.version(7).stores({
      memories: 'id, [userId+appName+scope], [appName+scope], [userId+appName+topic+active], [userId+appName+active], [userId+appName+changed], [chain+depth], [userId+appName+fact+active], [userId+appName+embedderId+active]',
    });
    // v8: the prunes' index. forgetSource of a source that only restated what the store held is
    // made without a replay unless a prune came after it (forget/restated.ts), which it read every
    // later input to find; it reads this index alone now. No upgrade step: `kind` is a clear
    // field, IndexedDB fills the index from the rows.
    this.version(8).stores({
      inputs: '++seq, [userId+appName], [userId+appName+scope], [userId+appName+source.id], [userId+appName+seq], [userId+appName+held], [userId+appName+kind+seq]',
    });
  }
}
