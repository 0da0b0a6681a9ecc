/**
 * The write side of packed vector storage (vector-pack.ts reads it): every commit logs what it
 * changed in each partition's vectors, in its own transaction, so snapshot + log always equals
 * the records. Stored shapes only (database.ts); nothing here knows the compute's wire format.
 *
 * Rule: a commit that wipes a vector (erasure blanks the embedding) deletes the partition's
 * packs and log instead, so no copy of the old vector survives in them.
 */
import { lexicalTerms } from '../embed/terms';
import { decayHalfLife, type MemoryRecord } from '../schema';
import type { EngramDatabase, MemoryRow, VectorLogRow, VectorRowInput } from './database';
import { partitionOf } from '../storage/owner';
// A wiped record's vector (erasure stores a zero vector): packs must not keep the old one.
import { isWiped } from '../storage/erasure-channel';

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
    halfLifeDays: decayHalfLife(record),
    importance: record.importance,
    scope: record.scope,
    sessionId: record.sessionId ?? '',
  };
}

/** The key range of one partition in `[partition+part]` and `[partition+version]`. */
export function partitionRange(key: string): [[string, number], [string, number]] {
  return [
    [key, -Infinity],
    [key, Infinity],
  ];
}

export async function dropPacks(db: EngramDatabase, key: string): Promise<void> {
  const [lower, upper] = partitionRange(key);
  await db.vectorPacks.where('[partition+part]').between(lower, upper, true, true).delete();
  await db.vectorLog.where('[partition+version]').between(lower, upper, true, true).delete();
}

/**
 * Inside a transaction over `vectorLog`: partition `key`'s entries of the versions after `after`
 * up to `upTo`, in order, or null when one of them is missing (the log was dropped or compacted).
 */
export async function readLog(db: EngramDatabase, key: string, after: number, upTo: number): Promise<VectorLogRow[] | null> {
  if (upTo === after) return [];
  const entries = await db.vectorLog.where('[partition+version]').between([key, after], [key, upTo], false, true).toArray();
  if (entries.length !== upTo - after) return null;
  return entries.every((entry, i) => entry.version === after + 1 + i) ? entries : null;
}

/**
 * The log entry of one partition's `records` at `version`: active ones upserted, tombstones
 * removed; `chains` (VectorLogRow) when those are all the commit changed there.
 */
export function logEntry(key: string, version: number, records: readonly MemoryRecord[], chains?: string[]): VectorLogRow {
  return {
    partition: key,
    version,
    upserts: records.filter((record) => record.invalidatedAt === undefined).map(toVectorInput),
    removals: records.filter((record) => record.invalidatedAt !== undefined).map((record) => record.id),
    ...(chains ? { chains } : {}),
  };
}

/**
 * Upserts past which a commit drops the partition's packs instead of logging them (the vector
 * layer then writes a fresh snapshot from the worker, compactLater). The log entry of an
 * import of 10,000 memories is one row of 10,000 small objects: one put, one structured clone
 * of about 300 ms on the page's thread; the snapshot is columnar and written in chunks.
 */
export const LOG_UPSERTS_LIMIT = 2048;

/**
 * Inside the commit transaction: one log entry per touched partition (empty when only its
 * version moved), or the partition's packs dropped when a vector was wiped. Returns those keys.
 * `written`: the memory rows the commit wrote, when they are every memory row it changed (their
 * chains go in each entry: VectorLogRow `chains`); null when it changed others too.
 */
export async function writePackLog(db: EngramDatabase, versions: ReadonlyMap<string, [number, number]>, records: readonly MemoryRecord[], written: readonly Pick<MemoryRow, 'id' | 'chain'>[] | null): Promise<string[]> {
  const dropped: string[] = [];
  const entries: VectorLogRow[] = [];
  const chainOf = new Map(written?.map((row) => [row.id, row.chain]));
  for (const [key, [, to]] of versions) {
    const mine = records.filter((record) => partitionOf(record) === key);
    if (mine.some(isWiped) || mine.length > LOG_UPSERTS_LIMIT) {
      dropped.push(key);
      continue;
    }
    const chains = written ? [...new Set(mine.flatMap((record) => chainOf.get(record.id) ?? []))] : undefined;
    entries.push(logEntry(key, to, mine, chains));
  }
  for (const key of dropped) await dropPacks(db, key);
  if (entries.length) await db.vectorLog.bulkPut(entries);
  return dropped;
}
