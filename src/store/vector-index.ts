/**
 * Keeps the compute's per-partition matrices coherent with the store. Each write transaction
 * bumps its partitions' versions; this instance applies its own commits incrementally, and a
 * version it did not produce (another tab, another instance) makes it reload that partition
 * before the next scan.
 */
import type { MemoryRecord } from '../schema';
import type { ComputeClient } from '../worker/client';
import type { CommitResult, Store } from './store';
import { partitionOf } from './owner';
import { toIndexRows, toRow } from './store';

export interface VectorIndex {
  /** Brings the given partitions up to the store's current versions; returns those versions. */
  ensure(keys: readonly string[]): Promise<Map<string, number>>;
  /** Applies a committed write to the loaded matrices (or marks them stale). */
  afterCommit(result: CommitResult, records: readonly MemoryRecord[]): Promise<void>;
}

export function createVectorIndex(store: Store, compute: ComputeClient, embedder: { id: string; dim: number }): VectorIndex {
  // One load at a time per partition: two concurrent retrieves must not both read 100k rows.
  const loading = new Map<string, Promise<void>>();

  async function load(key: string): Promise<void> {
    const { version, rows } = await store.readIndexRows(key, embedder.id, embedder.dim);
    await compute.loadPartition(key, version, embedder.dim, rows);
  }

  return {
    async ensure(keys) {
      const versions = await store.versions(keys);
      await Promise.all(
        keys.map(async (key) => {
          if ((await compute.partitionVersion(key)) === versions.get(key)) return;
          let pending = loading.get(key);
          if (!pending) {
            pending = load(key).finally(() => loading.delete(key));
            loading.set(key, pending);
          }
          await pending;
        }),
      );
      return versions;
    },

    async afterCommit(result, records) {
      for (const [key, [from, to]] of result.versions) {
        const mine = records.filter((record) => partitionOf(record) === key);
        const active = mine.filter((record) => record.invalidatedAt === undefined).map(toRow);
        const removed = mine.filter((record) => record.invalidatedAt !== undefined).map((record) => record.id);
        await compute.applyChanges(key, from, to, toIndexRows(active, key, embedder.id, embedder.dim), removed);
      }
    },
  };
}
