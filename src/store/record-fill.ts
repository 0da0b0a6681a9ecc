/**
 * The record cache's fill (record-cache.ts): after a search, the active records of the
 * searched partitions that the cache lacks are read into it in the background, a slice at a
 * time, so that at steady state every winner of a retrieve is in memory and the retrieve waits
 * on IndexedDB only for the partitions' versions. A partition whose active rows do not fit the
 * cache (beside what it holds of other partitions) is not filled: searches keep its recently
 * returned records only.
 *
 * Each slice is read in a read transaction that checks the partition is still at the version
 * the fill started from; when it moved (a write of this instance or of another), the fill ends
 * and the next search starts another, which reads only what is missing. A cleared cache (an
 * erasure) ends it too, and nothing read before the clear is kept (the cache's generation).
 */
import type { MemoryRecord, Scope } from '../schema';
import { yieldToPage } from '../slices';
import { partitionOf, type Owner } from '../storage/owner';
import type { ActiveSets } from './active-set';
import type { EngramDatabase, MemoryRow } from './database';
import type { RecordCache } from './record-cache';

/** Rows read per slice: one short read transaction and a few ms of parsing on the page. */
export const FILL_SLICE = 256;

export interface RecordFillDeps {
  db: EngramDatabase;
  active: ActiveSets;
  recent: RecordCache;
  /** The full records of the rows `owner` may see (bad rows quarantined), inside the caller's read transaction. */
  hydrate(rows: readonly MemoryRow[], owner: Owner): Promise<MemoryRecord[]>;
}

/** `fill(owner, scope)`: resolves once the partition is in the cache, or the fill gave up for now. */
export function createRecordFill({ db, active, recent, hydrate }: RecordFillDeps): (owner: Owner, scope: Scope) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  /** Per partition: the version at which the cache held every active row it could (or the fill found it too big). */
  const filledAt = new Map<string, number>();

  async function run(owner: Owner, scope: Scope, key: string): Promise<void> {
    const generation = recent.generation;
    const partition = await db.transaction('r', db.memories, db.partitions, () => active.read(owner, scope));
    const { version } = partition;
    const others = recent.size - recent.countOf(key);
    if (partition.rows.size + others > recent.limit) {
      filledAt.set(key, version);
      return;
    }
    const missing = [...partition.rows.keys()].filter((id) => !recent.holds(id, key, version));
    for (let at = 0; at < missing.length; at += FILL_SLICE) {
      await yieldToPage();
      if (recent.generation !== generation) return;
      const ids = missing.slice(at, at + FILL_SLICE);
      const read = await db.transaction('r', db.memories, db.lineage, db.events, db.partitions, async () => {
        if (((await db.partitions.get(key))?.version ?? 0) !== version) return null;
        const rows = (await db.memories.bulkGet(ids)).filter((row): row is MemoryRow => row !== undefined);
        const chains = new Map(rows.flatMap((row) => (row.chain === undefined ? [] : [[row.id, row.chain] as const])));
        return { records: await hydrate(rows, owner), chains };
      });
      if (!read) return;
      recent.put(read.records, new Map([[key, version]]), generation, read.chains);
    }
    if (recent.generation === generation) filledAt.set(key, version);
  }

  return (owner, scope) => {
    const key = partitionOf({ ...owner, scope });
    const held = recent.versionOf(key);
    if (recent.limit <= 0 || (held !== undefined && filledAt.get(key) === held)) return Promise.resolve();
    let task = running.get(key);
    if (!task) {
      // A fill is an optimisation: a failed read (the database closing) leaves the searches to read.
      task = run(owner, scope, key)
        .catch(() => {})
        .finally(() => running.delete(key));
      running.set(key, task);
    }
    return task;
  };
}
