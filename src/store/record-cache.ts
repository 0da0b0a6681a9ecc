/**
 * The hydrated records a search recently returned, by id, each valid only while its partition
 * is at the store version it was read at: a warm retrieve whose winners are all here (and whose
 * partitions' versions, read beside the scan, are still those) waits on IndexedDB for nothing
 * after the scan (vector-index.ts). What keeps it from ever answering with something the store
 * no longer holds:
 *
 * - Every entry carries its partition's version; a lookup with another version for that
 *   partition (another tab or instance wrote, or this one did) drops all of its entries first.
 * - This instance's own commits clear the whole cache (store.ts), so its erasures leave no text
 *   here, and {@link RecordCache.clear} bumps a generation: a search that read before the clear
 *   does not put what it read back after it.
 * - A lookup checks the owner on every record (as every read of the records layer does) and
 *   hands out copies, so a caller changing a returned record does not change the cache.
 *
 * Bounded (least recently used out first): a cache of what was returned, not of the store.
 */
import type { MemoryRecord } from '../schema';
import { isVisibleTo, partitionOf, type Owner } from '../storage/owner';

/** Records held at most (a few MB: a record with a 256-d vector is about 2 kB). */
export const RECORD_CACHE_LIMIT = 1024;

export interface RecordCache {
  /** Bumped by every {@link clear}: pass the value read before a store read to {@link put}. */
  readonly generation: number;
  readonly size: number;
  /**
   * Copies of the cached records of `ids` that `owner` may see, those whose partition is at the
   * version `versions` gives it (the store's current one); a partition at another version loses
   * every entry it had. Ids not returned are to be read from the store.
   */
  take(ids: readonly string[], versions: ReadonlyMap<string, number>, owner: Owner): Map<string, MemoryRecord>;
  /** Keeps copies of `records` (read when their partitions were at `versions`), unless {@link clear} ran since `generation`. */
  put(records: Iterable<MemoryRecord>, versions: ReadonlyMap<string, number>, generation: number): void;
  /** Drops everything (a commit of this instance, the database closed under it). */
  clear(): void;
}

export function createRecordCache(limit: number = RECORD_CACHE_LIMIT): RecordCache {
  const entries = new Map<string, { record: MemoryRecord; key: string }>();
  /** The version every held entry of a partition was read at. */
  const versionOf = new Map<string, number>();
  let generation = 0;

  function purge(key: string): void {
    versionOf.delete(key);
    for (const [id, entry] of entries) if (entry.key === key) entries.delete(id);
  }

  function follow(versions: ReadonlyMap<string, number>): void {
    for (const [key, version] of versions) if (versionOf.has(key) && versionOf.get(key) !== version) purge(key);
  }

  return {
    get generation() {
      return generation;
    },
    get size() {
      return entries.size;
    },

    take(ids, versions, owner) {
      follow(versions);
      const out = new Map<string, MemoryRecord>();
      for (const id of ids) {
        const entry = entries.get(id);
        if (!entry || versionOf.get(entry.key) !== versions.get(entry.key) || !isVisibleTo(entry.record, owner)) continue;
        // Most recently used last.
        entries.delete(id);
        entries.set(id, entry);
        out.set(id, structuredClone(entry.record));
      }
      return out;
    },

    put(records, versions, seen) {
      if (seen !== generation) return;
      follow(versions);
      for (const record of records) {
        const key = partitionOf(record);
        const version = versions.get(key);
        if (version === undefined || record.invalidatedAt !== undefined) continue;
        versionOf.set(key, version);
        entries.delete(record.id);
        entries.set(record.id, { record: structuredClone(record), key });
      }
      for (const id of entries.keys()) {
        if (entries.size <= limit) break;
        entries.delete(id);
      }
    },

    clear() {
      generation++;
      entries.clear();
      versionOf.clear();
    },
  };
}
