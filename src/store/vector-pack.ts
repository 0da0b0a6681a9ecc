/**
 * Packed vector storage, so a partition loads in bulk instead of record by record:
 *
 * - `vectorPacks`: a snapshot of a partition's active rows at one version, in chunks of up to
 *   {@link PACK_CHUNK_ROWS} rows, each chunk one row holding columnar typed arrays.
 * - `vectorLog`: one row per committed write after the snapshot (`[partition+version]`), with
 *   the upserted rows' vector inputs and the removed ids. `commit` writes it in its own
 *   transaction, so snapshot + log always equals the records.
 *
 * Rules: a load is valid only if the log covers every version from the snapshot's (0 when
 * there is none) to the partition's current one; any gap (a database written before packs
 * existed, an erasure that dropped the packs) means "rebuild from the records". A commit that
 * wipes a vector (erasure blanks the embedding) deletes the partition's packs and log, so no
 * copy of the old vector survives in them.
 *
 * Rows also carry the lexical channel's term ids (chunks: `terms`/`termOffsets`; log rows:
 * `terms`). Packs written before the lexical channel have none: `lexical` is then false and the
 * index rebuilds the partition from its records, snapshotting it with terms at its next write
 * (a read never writes for this: opening an older database and only reading leaves it as it was).
 */
import { flattenTerms, lexicalTerms } from '../embed/terms';
import type { MemoryRecord } from '../schema';
import { SCOPE_CODE, type IndexRows } from '../worker/api';
import type { EngramDatabase, VectorLogRow, VectorPackRow, VectorRowInput } from './database';
import { partitionOf } from './owner';

/** Rows per snapshot chunk: ~8 MB at 256 dimensions, so no single clone is large. */
export const PACK_CHUNK_ROWS = 8192;

/** A partition as stored in packs: the snapshot's chunks, then the log to replay on top. */
export interface PackedPartition {
  /** The partition's current version (what the loaded state will reflect). */
  version: number;
  /** The snapshot's version (0 and no chunks when the partition has never been snapshotted). */
  base: number;
  chunks: IndexRows[];
  /** False when some chunk or logged row has no term ids (written before the lexical channel). */
  lexical: boolean;
  /** Log entries `base+1 … version`, in order; `foreign`: upserted ids another embedder wrote. */
  log: { version: number; upserts: IndexRows; removals: string[]; foreign: string[] }[];
}

export function emptyRows(): IndexRows {
  return {
    ids: [],
    vectors: new Float32Array(0),
    updatedAt: new Float64Array(0),
    halfLifeDays: new Float32Array(0),
    importance: new Float32Array(0),
    scopes: new Uint8Array(0),
    sessionIds: [],
    terms: new Uint32Array(0),
    termOffsets: new Uint32Array(1),
  };
}

/** A log row's inputs; `terms` is absent in rows written before the lexical channel. */
export type LoggedRowInput = VectorRowInput & { terms?: Uint32Array };

/** The vector inputs of one record, as the log stores them. */
export function toVectorInput(record: MemoryRecord): LoggedRowInput {
  return {
    terms: lexicalTerms(record.content),
    id: record.id,
    embedderId: record.embedderId,
    embedding: record.embedding,
    updatedAt: record.updatedAt,
    halfLifeDays: record.halfLifeDays,
    importance: record.importance,
    scope: record.scope,
    sessionId: record.sessionId ?? '',
  };
}

/**
 * True when an inactive record's vector was wiped (erasure stores a zero vector): packs must
 * not keep the old one. Active zero vectors (text of stopwords only) are ordinary rows.
 */
export function isWiped(record: MemoryRecord): boolean {
  return record.invalidatedAt !== undefined && record.embedding.every((value) => value === 0);
}

/** One log entry per touched partition (empty when only its version moved), or packs dropped when a vector was wiped. */
export async function writePackLog(db: EngramDatabase, versions: ReadonlyMap<string, [number, number]>, records: readonly MemoryRecord[]): Promise<string[]> {
  const dropped: string[] = [];
  const entries: VectorLogRow[] = [];
  for (const [key, [, to]] of versions) {
    const mine = records.filter((record) => partitionOf(record) === key);
    if (mine.some(isWiped)) {
      dropped.push(key);
      continue;
    }
    entries.push({
      partition: key,
      version: to,
      upserts: mine.filter((record) => record.invalidatedAt === undefined).map(toVectorInput),
      removals: mine.filter((record) => record.invalidatedAt !== undefined).map((record) => record.id),
    });
  }
  for (const key of dropped) await dropPacks(db, key);
  if (entries.length) await db.vectorLog.bulkPut(entries);
  return dropped;
}

function range(key: string): [[string, number], [string, number]] {
  return [
    [key, -Infinity],
    [key, Infinity],
  ];
}

export async function dropPacks(db: EngramDatabase, key: string): Promise<void> {
  const [lower, upper] = range(key);
  await db.vectorPacks.where('[partition+part]').between(lower, upper, true, true).delete();
  await db.vectorLog.where('[partition+version]').between(lower, upper, true, true).delete();
}

/** Log inputs as index rows for `embedderId`; rows of another embedder or dimension become removals. */
export function logRows(entry: VectorLogRow, embedderId: string, dim: number): { upserts: IndexRows; removals: string[]; foreign: string[] } {
  const usable = (entry.upserts as LoggedRowInput[]).filter((row) => row.embedderId === embedderId && row.embedding.length === dim);
  const removals = [...entry.removals, ...entry.upserts.filter((row) => !usable.includes(row)).map((row) => row.id)];
  const foreign = entry.upserts.filter((row) => row.embedderId !== embedderId).map((row) => row.id);
  const n = usable.length;
  const { terms, termOffsets } = flattenTerms(usable.map((row) => row.terms ?? []));
  const upserts: IndexRows = {
    ids: usable.map((row) => row.id),
    vectors: new Float32Array(n * dim),
    updatedAt: new Float64Array(n),
    halfLifeDays: new Float32Array(n),
    importance: new Float32Array(n),
    scopes: new Uint8Array(n),
    sessionIds: usable.map((row) => row.sessionId),
    terms,
    termOffsets,
  };
  usable.forEach((row, i) => {
    upserts.vectors.set(row.embedding, i * dim);
    upserts.updatedAt[i] = row.updatedAt;
    upserts.halfLifeDays[i] = row.halfLifeDays;
    upserts.importance[i] = row.importance;
    upserts.scopes[i] = SCOPE_CODE[row.scope];
  });
  return { upserts, removals, foreign };
}

function chunkRows(row: VectorPackRow): IndexRows {
  const { ids, vectors, updatedAt, halfLifeDays, importance, scopes, sessionIds, terms, termOffsets } = row;
  return { ids, vectors, updatedAt, halfLifeDays, importance, scopes, sessionIds, ...(terms && termOffsets ? { terms, termOffsets } : {}) };
}

function isConsistent(chunks: readonly VectorPackRow[], embedderId: string, dim: number): boolean {
  const first = chunks[0]!;
  return chunks.every(
    (chunk, i) =>
      chunk.part === i &&
      chunk.parts === chunks.length &&
      chunk.version === first.version &&
      chunk.embedderId === embedderId &&
      chunk.dim === dim &&
      chunk.vectors instanceof Float32Array &&
      chunk.vectors.length === chunk.ids.length * dim &&
      chunk.updatedAt.length === chunk.ids.length &&
      ((chunk.terms === undefined && chunk.termOffsets === undefined) ||
        (chunk.terms instanceof Uint32Array &&
          chunk.termOffsets instanceof Uint32Array &&
          chunk.termOffsets.length === chunk.ids.length + 1 &&
          chunk.termOffsets[chunk.ids.length] === chunk.terms.length)),
  );
}

/** Whether every chunk and logged row carries term ids (false: written before the lexical channel). */
function carriesTerms(chunks: readonly VectorPackRow[], log: readonly VectorLogRow[]): boolean {
  return chunks.every((chunk) => chunk.terms !== undefined) && log.every((entry) => (entry.upserts as LoggedRowInput[]).every((row) => row.terms instanceof Uint32Array));
}

/**
 * Reads a partition from packs (call inside a read transaction over partitions, vectorPacks,
 * vectorLog). With `from` (the version compute already holds) it returns only the log after
 * it when that log is complete. Null: the packs cannot produce this version; rebuild from records.
 */
export async function readPacks(db: EngramDatabase, key: string, embedderId: string, dim: number, from: number | null): Promise<PackedPartition | null> {
  const version = (await db.partitions.get(key))?.version ?? 0;
  const [lower, upper] = range(key);
  if (from !== null && from >= 0 && from <= version) {
    const log = await readLog(db, key, from, version);
    if (log) return { version, base: from, chunks: [], lexical: carriesTerms([], log), log: log.map((entry) => ({ version: entry.version, ...logRows(entry, embedderId, dim) })) };
  }
  const stored = await db.vectorPacks.where('[partition+part]').between(lower, upper, true, true).toArray();
  if (stored.length && !isConsistent(stored, embedderId, dim)) return null;
  const base = stored[0]?.version ?? 0;
  if (base > version) return null;
  const log = await readLog(db, key, base, version);
  if (!log) return null;
  return {
    version,
    base,
    lexical: carriesTerms(stored, log),
    chunks: stored.map(chunkRows),
    log: log.map((entry) => ({ version: entry.version, ...logRows(entry, embedderId, dim) })),
  };
}

async function readLog(db: EngramDatabase, key: string, after: number, upTo: number): Promise<VectorLogRow[] | null> {
  if (upTo === after) return [];
  const entries = await db.vectorLog.where('[partition+version]').between([key, after], [key, upTo], false, true).toArray();
  if (entries.length !== upTo - after) return null;
  return entries.every((entry, i) => entry.version === after + 1 + i) ? entries : null;
}

/**
 * Replaces the partition's snapshot with `chunks` at `version` and drops the log up to it
 * (call inside a read-write transaction). Skipped (false) when the partition has moved past
 * `version` or a newer snapshot exists: the caller's copy is then not the latest.
 */
export async function writeSnapshot(db: EngramDatabase, key: string, embedderId: string, dim: number, version: number, chunks: readonly IndexRows[]): Promise<boolean> {
  const current = (await db.partitions.get(key))?.version ?? 0;
  if (current !== version) return false;
  const [lower, upper] = range(key);
  await db.vectorPacks.where('[partition+part]').between(lower, upper, true, true).delete();
  // One put per chunk, awaited: each clone is serialised on the calling thread, so this keeps
  // every synchronous slice short (a 100k × 256 snapshot is ~100 MB).
  for (let part = 0; part < chunks.length; part++) {
    await db.vectorPacks.put({ partition: key, part, parts: chunks.length, version, embedderId, dim, ...chunks[part]! });
  }
  await db.vectorLog.where('[partition+version]').between([key, -Infinity], [key, version], true, true).delete();
  return true;
}
