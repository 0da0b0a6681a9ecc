/**
 * The active rows of each partition a write touches, held in memory and exact at a stored
 * partition version: what the write path asks by topic, by fact and in full (the exclusive-topic
 * sweep, the identical-fact lookup, a checkpoint, an erasure's active set) without an index scan.
 *
 * Why not the indexes: a memory that stops being active leaves its old entry under the same
 * index key in both engines this runs on. Chromium's IndexedDB keeps stale index entries until
 * its tombstone sweeper runs at close and skips them on every read, and fake-indexeddb keeps
 * deleted nodes in its tree until they are two thirds of it. So `[userId+appName+topic+active]`
 * = diet reads past every diet memory ever superseded: 3.5 ms a read at 10,000 conversations,
 * against 0.09 ms at 100. Reading rows by primary key does not degrade.
 *
 * Rules this code keeps:
 * - An entry set is used only when its version equals the partition's stored version, read in
 *   the same transaction. A set behind it catches up from the vector log's entries of the
 *   commits between (caughtUp: the rows they wrote, read by id); where that log is not whole, it
 *   is rebuilt from the `active` index (O(history)), in batches so that no task on the page
 *   holds the whole partition (rebuild).
 * - Never built in a read-write transaction: there an encrypted database's rows come back still
 *   sealed (sealing.ts), so a rebuild would see no content. A commit only takes a set already
 *   exact at the version it starts from ({@link ActiveSets.exact}).
 * - A commit's rows are applied only after its transaction has committed, and only when the
 *   set was exact at the version the commit started from; otherwise the set is dropped.
 * - Only commit changes the fields kept here (lineage.ts writeRecords; redactSource changes
 *   none of them, nor does finishing an upgrade, which rewrites lineage fields and fact keys).
 * - Everything is dropped when the database closes under the store (another tab deleted or
 *   upgraded it: versions may restart).
 */
import { Dexie } from 'dexie';
import type { Scope } from '../schema';
import { factHash } from '../text';
import type { EngramDatabase, MemoryRow } from './database';
import { partitionOf, recordUserId, type Owner } from '../storage/owner';
import { readLog } from './vector-log';

/** One active row as the write path needs it: where it sits, and what a checkpoint records of it. */
export interface ActiveEntry {
  topic: string;
  scope: Scope;
  fact: number;
  confidence: number;
  updatedAt: number;
  /** Absent on a row that holds its lists inline (written before v4), which no checkpoint can reference. */
  sourceCount?: number;
  historyCount?: number;
}

/** One partition's active rows at `version`, by id, with lookups by (scope, topic) and (scope, fact). */
export interface ActivePartition {
  /** The partition key (owner.ts partitionOf). */
  key: string;
  version: number;
  rows: Map<string, ActiveEntry>;
  byTopic: Map<string, Set<string>>;
  byFact: Map<string, Set<string>>;
}

/** Rows of the set a rebuild reads and indexes at a time (see rebuild). */
export const REBUILD_ROWS = 256;

/** A rebuild reads key ranges while they hold at most this many rows per row of the set (see rebuild). */
const RANGE_SPREAD = 4;

/** Versions a kept set catches up through (see caughtUp) before a rebuild is the cheaper read. */
export const CATCH_UP_VERSIONS = 64;

/** Partitions kept at most: the least recently used is dropped beyond it. */
const KEPT = 16;

const topicKey = (scope: Scope, topic: string) => `${scope}\u0000${topic}`;
const factKey = (scope: Scope, fact: number) => `${scope}\u0000${fact}`;

function entryOf(row: Partial<MemoryRow>): ActiveEntry | null {
  const { topic, content, scope, confidence, updatedAt } = row;
  if (typeof topic !== 'string' || typeof content !== 'string' || typeof confidence !== 'number' || typeof updatedAt !== 'number') return null;
  if (scope !== 'user' && scope !== 'session' && scope !== 'app') return null;
  const entry: ActiveEntry = { topic, scope, fact: factHash(topic, content), confidence, updatedAt };
  if (typeof row.sourceCount === 'number' && typeof row.historyCount === 'number') Object.assign(entry, { sourceCount: row.sourceCount, historyCount: row.historyCount });
  return entry;
}

const isActive = (row: MemoryRow) => row.active === 1 && row.invalidatedAt === undefined;

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key);
  if (set) set.add(id);
  else map.set(key, new Set([id]));
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) map.delete(key);
}

function put(partition: ActivePartition, id: string, entry: ActiveEntry | null): void {
  const old = partition.rows.get(id);
  if (old) {
    partition.rows.delete(id);
    removeFrom(partition.byTopic, topicKey(old.scope, old.topic), id);
    removeFrom(partition.byFact, factKey(old.scope, old.fact), id);
  }
  if (!entry) return;
  partition.rows.set(id, entry);
  addTo(partition.byTopic, topicKey(entry.scope, entry.topic), id);
  addTo(partition.byFact, factKey(entry.scope, entry.fact), id);
}

/**
 * The partition's active rows once `rows` (a commit's memory rows, not yet committed) are
 * applied, as a new map: `partition` itself changes only when the commit has committed.
 */
export function activeAfter(partition: ActivePartition, rows: readonly MemoryRow[]): Map<string, ActiveEntry> {
  const after = new Map(partition.rows);
  for (const [id, entry] of changesIn(partition.key, rows)) {
    after.delete(id);
    if (entry) after.set(id, entry);
  }
  return after;
}

/** What a commit's `rows` leave in partition `key`'s set: each row of it by id, with its entry, or null once it is not active. */
function changesIn(key: string, rows: readonly MemoryRow[]): [string, ActiveEntry | null][] {
  return rows.filter((row) => partitionOf(row) === key).map((row) => [row.id, isActive(row) ? entryOf(row) : null]);
}

export interface ActiveSets {
  /**
   * Inside a transaction over `memories` and `partitions` (and `vectorLog`, without which a set
   * behind the stored version is rebuilt instead of caught up): the active rows of the owner's
   * partition for `scope` (user and session scope share one), exact at its stored version.
   */
  read(owner: Owner, scope: Scope): Promise<ActivePartition>;
  /** The partition's set if it is exact at `version` (no read, no rebuild: for a commit's transaction). */
  exact(key: string, version: number): ActivePartition | undefined;
  /** Drops every set (the database closed under the store). */
  clear(): void;
  /** Ids of active rows of `scope` on `topic` in `partition`. */
  onTopic(partition: ActivePartition, scope: Scope, topic: string): readonly string[];
  /** Ids of active rows of `scope` whose topic and content hash to the same fact key. */
  withFact(partition: ActivePartition, scope: Scope, topic: string, content: string): readonly string[];
  /**
   * After a commit's transaction committed: `rows` are the memory rows it wrote, `versions` its
   * [before, after] per partition. A set exact at `before` moves to `after`; any other is dropped.
   */
  committed(versions: ReadonlyMap<string, readonly [number, number]>, rows: readonly MemoryRow[]): void;
}

/** `rebuildRows`: rows a rebuild reads at a time (tests pass a few, to cross many batches). */
export function createActiveSets(db: EngramDatabase, { rebuildRows = REBUILD_ROWS }: { rebuildRows?: number } = {}): ActiveSets {
  const kept = new Map<string, ActivePartition>();

  async function rebuild(owner: Owner, scope: Scope, key: string, version: number): Promise<ActivePartition> {
    const userId = recordUserId(owner, scope);
    const partition: ActivePartition = { key, version, rows: new Map(), byTopic: new Map(), byFact: new Map() };
    const add = (row: MemoryRow | undefined): boolean => {
      // What the index query `[userId+appName+active] = [userId, appName, 1]` selects, then what the set keeps of it.
      if (row === undefined || row.userId !== userId || row.appName !== owner.appName || (row.scope === 'app') !== (scope === 'app') || !isActive(row)) return false;
      put(partition, row.id, entryOf(row));
      return true;
    };
    // One read of every row is one task of ~200 ms on the page at 10,000 (each row cloned out,
    // then indexed). So the ids first (keys only, no row cloned; in key order, which equal index
    // keys keep), then their rows `rebuildRows` at a time, each read's success event a task of
    // its own with frames between them. Still one read transaction: it stays active while a
    // read is pending and sees one snapshot throughout. A batch is read as the key range from
    // its first id to its last (one request) while such ranges are mostly this set's rows; the
    // range also holds tombstones and other owners' rows, and once those dominate (a shared
    // database, a long history) the ids are read one by one (a request each, none wasted).
    const ids = await db.memories.where('[userId+appName+active]').equals([userId, owner.appName, 1]).primaryKeys();
    let ranges = true;
    for (let at = 0; at < ids.length; at += rebuildRows) {
      const batch = ids.slice(at, at + rebuildRows);
      let rest = batch;
      if (ranges) {
        const limit = rebuildRows * RANGE_SPREAD;
        const rows = await db.memories.where(':id').between(batch[0]!, batch.at(-1)!, true, true).limit(limit).toArray();
        const kept = rows.filter(add).length;
        const last = rows.at(-1)?.id;
        // Cut off by the limit: the batch's ids past the last row read are still to be read.
        rest = rows.length < limit || last === undefined ? [] : batch.filter((id) => id > last);
        if (rest.length > 0 || kept * RANGE_SPREAD < rows.length) ranges = false;
      }
      if (rest.length > 0) for (const row of await db.memories.bulkGet(rest)) add(row);
    }
    return partition;
  }

  /**
   * `partition` moved to `version` by the commits since its own version (another tab's, or this
   * instance's that it missed), from their vector-log entries (vector-log.ts): each commit's
   * entry names every record it wrote in the partition, so the rows of those ids, read now, are
   * all that changed. Undefined (rebuild instead) when the transaction does not cover the log,
   * when more than CATCH_UP_VERSIONS passed, or when an entry is missing: a commit that wiped a
   * vector or wrote past LOG_UPSERTS_LIMIT dropped the log, and a snapshot compacts it. The set
   * changes only once every read has answered, in one synchronous step.
   */
  async function caughtUp(partition: ActivePartition, version: number): Promise<ActivePartition | undefined> {
    if (version < partition.version || version - partition.version > CATCH_UP_VERSIONS || !Dexie.currentTransaction?.storeNames.includes('vectorLog')) return undefined;
    const entries = await readLog(db, partition.key, partition.version, version);
    if (!entries) return undefined;
    const ids = [...new Set(entries.flatMap((entry) => [...entry.upserts.map((row) => row.id), ...entry.removals]))];
    const rows = await db.memories.bulkGet(ids);
    ids.forEach((id, i) => {
      const row = rows[i];
      put(partition, id, row !== undefined && partitionOf(row) === partition.key && isActive(row) ? entryOf(row) : null);
    });
    partition.version = version;
    return partition;
  }

  return {
    async read(owner, scope) {
      if (Dexie.currentTransaction?.mode === 'readwrite') throw new RangeError('active sets are built in read transactions only: an encrypted database hands out sealed rows in a write transaction');
      const key = partitionOf({ ...owner, scope });
      const version = (await db.partitions.get(key))?.version ?? 0;
      const cached = kept.get(key);
      kept.delete(key);
      const partition = cached?.version === version ? cached : ((cached && (await caughtUp(cached, version))) ?? (await rebuild(owner, scope, key, version)));
      kept.set(key, partition);
      for (const stale of [...kept.keys()].slice(0, Math.max(0, kept.size - KEPT))) kept.delete(stale);
      return partition;
    },

    exact: (key, version) => (kept.get(key)?.version === version ? kept.get(key) : undefined),

    clear: () => kept.clear(),

    onTopic: (partition, scope, topic) => [...(partition.byTopic.get(topicKey(scope, topic)) ?? [])],

    withFact: (partition, scope, topic, content) => [...(partition.byFact.get(factKey(scope, factHash(topic, content))) ?? [])],

    committed(versions, rows) {
      for (const [key, [before, after]] of versions) {
        const partition = kept.get(key);
        // Rebuilt at `after` by a read that ran between this commit and this call: already exact.
        if (!partition || partition.version === after) continue;
        if (partition.version !== before) {
          kept.delete(key);
          continue;
        }
        for (const [id, entry] of changesIn(key, rows)) put(partition, id, entry);
        partition.version = after;
      }
    },
  };
}
