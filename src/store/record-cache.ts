/**
 * The hydrated records of this instance's partitions, by id, each valid only while its
 * partition is at the store version it was read at: a warm retrieve whose winners are all here
 * (and whose partitions' versions, read beside the scan, are still those) waits on IndexedDB
 * for nothing after the scan (vector-index.ts). Searches put what they read here, and a fill
 * (record-fill.ts) brings in the rest of a partition that fits, so at steady state every winner
 * is here. What keeps it from ever answering with something the store no longer holds:
 *
 * - Every partition's entries carry one version. A lookup at a newer version for it (another
 *   tab or instance wrote) drops all of its entries first; a lookup at an older one (a scan
 *   behind this instance's own commit) takes nothing from it.
 * - Another instance's commits are followed when compute catches up from the vector log
 *   ({@link RecordCache.followLog}, before the search that found them scans again): each entry
 *   names the rows its commit wrote and their lineage chains, which leave the cache, and the
 *   partition moves on. An entry of an erasure (or of a rewrite of stored conversations) names
 *   no chains, since its redactions reach rows it does not list: the partition's entries go.
 * - This instance's own commits are applied as they commit ({@link RecordCache.committed}):
 *   the rows a commit wrote leave the cache, and so does every entry on one of their lineage
 *   chains (a chain's rows are where a memory's sources live); the partition moves to the
 *   commit's version only when it was at the version the commit started from. A commit that
 *   erases or redacts anything (a forgotten source, excerpt or input) clears the whole cache
 *   (store.ts): its redactions reach records it does not list. So an erasure leaves no text here.
 * - {@link RecordCache.clear} bumps a generation: a search that read before the clear does not
 *   put what it read back after it; a put at a version older than a partition's is dropped.
 * - A lookup checks the owner on every record (as every read of the records layer does) and
 *   hands out copies, so a caller changing a returned record does not change the cache.
 *
 * Bounded (least recently used out first).
 */
import type { MemoryRecord } from '../schema';
import { isVisibleTo, partitionOf, type Owner } from '../storage/owner';

/**
 * Records held at most. A record with a 256-d vector is about 1.5 kB here (the vector is a
 * Float32Array), so a full cache is some 25 MB of the page: a user with up to this many
 * memories has them all in memory, and a bigger partition keeps the recently returned ones.
 */
export const RECORD_CACHE_LIMIT = 16_384;

/** What a commit wrote, as the cache needs it: the row's id and its lineage chain. */
export interface WrittenRow {
  id: string;
  chain?: string;
}

export interface RecordCache {
  /** Bumped by every {@link clear}: pass the value read before a store read to {@link put}. */
  readonly generation: number;
  readonly size: number;
  readonly limit: number;
  /**
   * Copies of the cached records of `ids` that `owner` may see, those whose partition is at the
   * version `versions` gives it (the store's current one); a partition at a newer version loses
   * every entry it had. Ids not returned are to be read from the store.
   */
  take(ids: readonly string[], versions: ReadonlyMap<string, number>, owner: Owner): Map<string, MemoryRecord>;
  /**
   * Keeps copies of `records` (read when their partitions were at `versions`), unless
   * {@link clear} ran since `generation`. `chains` gives the lineage chain of each record that
   * has one (the row's `chain`).
   */
  put(records: Iterable<MemoryRecord>, versions: ReadonlyMap<string, number>, generation: number, chains?: ReadonlyMap<string, string>): void;
  /** Whether `id` is held with its partition at `version`. */
  holds(id: string, key: string, version: number): boolean;
  /** The version the partition's entries are at, or undefined when it holds none. */
  versionOf(key: string): number | undefined;
  /** Ids held of the partition. */
  countOf(key: string): number;
  /**
   * After a commit of this instance committed (one that erased nothing): `versions` its
   * [before, after] per partition, `rows` the memory rows it wrote.
   */
  committed(versions: ReadonlyMap<string, readonly [number, number]>, rows: readonly WrittenRow[]): void;
  /**
   * After compute caught partition `key` up from the vector log (another instance's commits):
   * each entry's version, the ids it names and, when those are all its commit changed, their
   * lineage chains (VectorLogRow `chains`). From the version the partition's entries are at,
   * entry by entry: the named rows and every entry on one of their chains leave the cache and
   * the partition moves to the entry's version. An entry without chains, or a gap before the
   * next version, drops the partition's entries instead. Entries at or below that version
   * (this instance's own commits, already applied) are skipped.
   */
  followLog(key: string, entries: readonly LoggedCommit[]): void;
  /** Drops everything (an erasure of this instance, a failed commit, the database closed under it). */
  clear(): void;
}

/** One commit of the vector log, as {@link RecordCache.followLog} takes it. */
export interface LoggedCommit {
  version: number;
  ids: readonly string[];
  chains?: readonly string[] | undefined;
}

interface Entry {
  record: MemoryRecord;
  key: string;
  chain: string | undefined;
}

export function createRecordCache(limit: number = RECORD_CACHE_LIMIT): RecordCache {
  const entries = new Map<string, Entry>();
  /** The version every held entry of a partition was read at. */
  const versions = new Map<string, number>();
  /** Entries held per partition. */
  const counts = new Map<string, number>();
  let generation = 0;

  function remove(id: string, entry: Entry): void {
    entries.delete(id);
    const left = (counts.get(entry.key) ?? 1) - 1;
    if (left > 0) counts.set(entry.key, left);
    else counts.delete(entry.key);
  }

  function purge(key: string): void {
    versions.delete(key);
    if (!counts.has(key)) return;
    for (const [id, entry] of entries) if (entry.key === key) remove(id, entry);
  }

  /** Drops the entries of `ids` and every entry on one of `chains` (a chain's rows are where a memory's sources live). */
  function drop(ids: readonly string[], chains: readonly string[]): void {
    if (ids.length === 0 && chains.length === 0) return;
    const named = new Set(ids);
    const onChain = new Set(chains);
    for (const [id, entry] of entries) if (named.has(id) || (entry.chain !== undefined && onChain.has(entry.chain))) remove(id, entry);
  }

  /** Drops each partition the store has moved past (`seen` is newer than what it holds). */
  function follow(seen: ReadonlyMap<string, number>): void {
    for (const [key, version] of seen) {
      const held = versions.get(key);
      if (held !== undefined && version > held) purge(key);
    }
  }

  return {
    get generation() {
      return generation;
    },
    get size() {
      return entries.size;
    },
    limit,

    take(ids, seen, owner) {
      follow(seen);
      const out = new Map<string, MemoryRecord>();
      for (const id of ids) {
        const entry = entries.get(id);
        if (!entry || versions.get(entry.key) !== seen.get(entry.key) || !isVisibleTo(entry.record, owner)) continue;
        // Most recently used last.
        entries.delete(id);
        entries.set(id, entry);
        out.set(id, structuredClone(entry.record));
      }
      return out;
    },

    put(records, seen, at, chains) {
      if (at !== generation || limit <= 0) return;
      follow(seen);
      for (const record of records) {
        const key = partitionOf(record);
        const version = seen.get(key);
        if (version === undefined || record.invalidatedAt !== undefined) continue;
        const held = versions.get(key);
        // Read before one of this instance's commits moved the partition on: perhaps stale.
        if (held !== undefined && version < held) continue;
        versions.set(key, version);
        const old = entries.get(record.id);
        if (old) remove(record.id, old);
        entries.set(record.id, { record: structuredClone(record), key, chain: chains?.get(record.id) });
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      for (const [id, entry] of entries) {
        if (entries.size <= limit) break;
        remove(id, entry);
      }
    },

    holds: (id, key, version) => entries.get(id)?.key === key && versions.get(key) === version,

    versionOf: (key) => versions.get(key),

    countOf: (key) => counts.get(key) ?? 0,

    committed(moved, rows) {
      if (!rows.length && !moved.size) return;
      drop(
        rows.map((row) => row.id),
        rows.flatMap((row) => (row.chain === undefined ? [] : [row.chain])),
      );
      for (const [key, [before, after]] of moved) {
        const held = versions.get(key);
        if (held === undefined || held === after) continue;
        if (held === before) versions.set(key, after);
        else purge(key);
      }
    },

    followLog(key, logged) {
      let at = versions.get(key);
      if (at === undefined) return;
      for (const { version, ids, chains } of logged) {
        if (version <= at) continue;
        if (version !== at + 1 || chains === undefined) return purge(key);
        drop(ids, chains);
        at = version;
      }
      versions.set(key, at);
    },

    clear() {
      generation++;
      entries.clear();
      versions.clear();
      counts.clear();
    },
  };
}
