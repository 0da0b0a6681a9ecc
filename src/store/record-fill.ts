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
import type { EngramDatabase, EventRow, MemoryRow } from './database';
import type { RecordCache } from './record-cache';

/**
 * Rows read per slice: one short read transaction and a few ms of parsing on the page. At most
 * 64: past that, hydrating reads the owner's whole lineage and event tables (lineage-read.ts
 * readLists), which would make the fill of a big partition quadratic.
 */
export const FILL_SLICE = 64;

export interface RecordFillDeps {
  db: EngramDatabase;
  active: ActiveSets;
  recent: RecordCache;
  /**
   * The full records of the rows `owner` may see (bad rows quarantined), inside the caller's
   * read transaction; `events` holds the event rows of those it has, by memory id.
   */
  hydrate(rows: readonly MemoryRow[], owner: Owner, events: ReadonlyMap<string, readonly EventRow[]>): Promise<MemoryRecord[]>;
}

/**
 * The event rows of `rows` in one request: a row's events are keyed [memoryId, n] for n from 0
 * to its historyCount (lineage.ts rowsOf appends at the count, a rewrite starts again at 0).
 * A row whose events are not all there is left out, for the hydration to read by range.
 */
async function eventsByKey(db: EngramDatabase, rows: readonly MemoryRow[]): Promise<Map<string, EventRow[]>> {
  const counted = rows.filter((row) => typeof row.historyCount === 'number' && row.historyCount > 0);
  const keys = counted.flatMap((row) => Array.from({ length: row.historyCount! }, (_, n) => [row.id, n] as [string, number]));
  const found = keys.length ? await db.events.bulkGet(keys) : [];
  const out = new Map<string, EventRow[]>();
  let at = 0;
  for (const row of counted) {
    const mine = found.slice(at, (at += row.historyCount!));
    if (mine.every((event) => event !== undefined)) out.set(row.id, mine);
  }
  return out;
}

/** The version recorded for a partition the cache holds nothing of. */
const NONE = -1;

/** `fill(owner, scope)`: resolves once the partition is in the cache, or the fill gave up for now. */
export function createRecordFill({ db, active, recent, hydrate }: RecordFillDeps): (owner: Owner, scope: Scope, idle?: () => Promise<void>) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  /**
   * Per partition: the cache's version of it (NONE when it held nothing) when a fill last ended
   * with every active row it could hold, or found the partition too big or empty.
   */
  const filledAt = new Map<string, number>();

  async function run(owner: Owner, scope: Scope, key: string, idle: () => Promise<void>): Promise<void> {
    const generation = recent.generation;
    const partition = await db.transaction('r', db.memories, db.partitions, db.vectorLog, () => active.read(owner, scope));
    const { version } = partition;
    // Nothing to read, or more than fits beside what the cache holds of other partitions.
    if (partition.rows.size === 0 || partition.rows.size + recent.size - recent.countOf(key) > recent.limit) {
      filledAt.set(key, recent.versionOf(key) ?? NONE);
      return;
    }
    const missing = [...partition.rows.keys()].filter((id) => !recent.holds(id, key, version));
    for (let at = 0; at < missing.length; at += FILL_SLICE) {
      // Between slices the page runs, and the searches: a slice waits for none in flight.
      await yieldToPage();
      await idle();
      if (recent.generation !== generation) return;
      const ids = missing.slice(at, at + FILL_SLICE);
      const read = await db.transaction('r', db.memories, db.lineage, db.events, db.partitions, async () => {
        if (((await db.partitions.get(key))?.version ?? 0) !== version) return null;
        const rows = (await db.memories.bulkGet(ids)).filter((row): row is MemoryRow => row !== undefined);
        const chains = new Map(rows.flatMap((row) => (row.chain === undefined ? [] : [[row.id, row.chain] as const])));
        return { records: await hydrate(rows, owner, await eventsByKey(db, rows)), chains };
      });
      if (!read) return;
      recent.put(read.records, new Map([[key, version]]), generation, read.chains);
    }
    if (recent.generation === generation) filledAt.set(key, recent.versionOf(key) ?? NONE);
  }

  return (owner, scope, idle = () => Promise.resolve()) => {
    const key = partitionOf({ ...owner, scope });
    const held = recent.versionOf(key);
    if (recent.limit <= 0 || filledAt.get(key) === (held ?? NONE)) return Promise.resolve();
    let task = running.get(key);
    if (!task) {
      // A fill is an optimisation: a failed read (the database closing) leaves the searches to read.
      task = run(owner, scope, key, idle)
        .catch(() => {})
        .finally(() => running.delete(key));
      running.set(key, task);
    }
    return task;
  };
}
