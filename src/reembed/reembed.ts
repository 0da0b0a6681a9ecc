/**
 * Embedder migration: every active memory whose vector another embedder wrote is embedded
 * again with this memory's embedder, in batches, each partition's share committed under its
 * write lock against the version it was read at. Progress needs no bookkeeping of its own:
 * the records still carrying another `embedderId` are exactly the remaining work, so a run
 * that was aborted or cut short by a reload resumes by being called again.
 */
import { NEEDS_VECTOR, type Embedder } from '../embed/embedder';
import { AbortedError } from '../errors';
import type { MemoryRecord } from '../schema';
import type { Scope } from '../schema';
import { partitionOf, type Owner, type Storage } from '../storage/contract';
import { writeOwner } from '../storage/write-owner';

/** Reported after every batch. `total` is what remained when the run began (it grows if another embedder keeps writing). */
export interface ReembedProgress {
  done: number;
  total: number;
  embedderId: string;
}

/** What `memory.reembed()` resolves to. */
export interface ReembedReport {
  /** Memories re-embedded by this run. */
  reembedded: number;
  embedderId: string;
}

export interface ReembedDeps {
  storage: Storage;
  embedder: Embedder;
}

export interface ReembedRequest {
  batchSize: number;
  onProgress?: ((progress: ReembedProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Leaves the memories an erasure stored without a vector ({@link NEEDS_VECTOR}) to the
   * owner's next retrieve or write: the migration on open (`reembed: 'auto'`) must not keep the
   * memory from opening while the embedder is offline for them alone.
   */
  skipPending?: boolean;
}

interface PartitionBatch {
  owner: Owner;
  /** A scope of the partition's records: which of the owner's partitions it is. */
  scope: Scope;
  ids: string[];
}

function groupByPartition(records: readonly Pick<MemoryRecord, 'id' | 'userId' | 'appName' | 'scope'>[]): Map<string, PartitionBatch> {
  const groups = new Map<string, PartitionBatch>();
  for (const record of records) {
    const key = partitionOf(record);
    const group = groups.get(key) ?? { owner: { userId: record.userId, appName: record.appName }, scope: record.scope, ids: [] };
    group.ids.push(record.id);
    groups.set(key, group);
  }
  return groups;
}

/** Re-reads the batch under the lock (another writer may have superseded some), embeds and commits it. */
function reembedPartition(deps: ReembedDeps, { owner, scope, ids }: PartitionBatch, skipPending = false): Promise<number> {
  const { embedder } = deps;
  const store = deps.storage.records;
  // Versions from the records alone: the walk never searches, so it loads no partition's vectors.
  return writeOwner(
    deps.storage,
    owner,
    async (write) => {
      const stale = (await store.getMany(ids, owner)).filter((record) => record.invalidatedAt === undefined && record.embedderId !== embedder.id && !(skipPending && record.embedderId === NEEDS_VECTOR));
      if (stale.length === 0) return 0;
      const vectors = await embedder.embed(stale.map((record) => record.content));
      // Only the vector and its embedder change: updatedAt drives recency and must not move.
      const records = stale.map((record, i) => ({ ...record, embedding: vectors[i]!, embedderId: embedder.id }));
      await write.commit({ records });
      return records.length;
    },
    { scope, versions: 'records' },
  );
}

/**
 * Gives the owner's memories an erasure stored without a vector ({@link NEEDS_VECTOR}) their
 * vectors, in one write of the owner's partition; resolves to how many. Retrieval calls it
 * when it finds foreign vectors in the caller's partition, before it refuses them, and a write
 * after its commit when the partition holds foreign vectors.
 */
export async function embedPending(deps: ReembedDeps, owner: Owner): Promise<number> {
  const ids = await pendingIds(deps.storage.records, owner);
  return ids.length === 0 ? 0 : reembedPartition(deps, { owner, scope: 'user', ids });
}

/** The owner's active memories waiting for a vector, by the store's index when it has one (user and session scope: the one partition an erasure writes). */
async function pendingIds(store: Storage['records'], owner: Owner): Promise<string[]> {
  if (store.activeOfEmbedder) return store.activeOfEmbedder(owner, NEEDS_VECTOR);
  const records = await store.list(owner, { scopes: ['user', 'session'], includeInvalid: false });
  return records.filter((record) => record.embedderId === NEEDS_VECTOR).map((record) => record.id);
}

/** Re-embeds every active memory another embedder wrote; see the file comment. */
export async function reembed(deps: ReembedDeps, request: ReembedRequest): Promise<ReembedReport> {
  const { embedder } = deps;
  const store = deps.storage.records;
  const total = await store.countForeign(embedder.id);
  let done = 0;
  let after: string | undefined;
  for (;;) {
    if (request.signal?.aborted) {
      throw new AbortedError(`reembed() was aborted after ${done} of ${total} memories; those are stored with '${embedder.id}'. Call reembed() again to re-embed the remaining ${Math.max(0, total - done)}`, { cause: request.signal.reason });
    }
    const { rows, lastId } = await store.foreignActive(embedder.id, after, request.batchSize);
    if (lastId === undefined) break;
    after = lastId;
    for (const batch of groupByPartition(rows).values()) done += await reembedPartition(deps, batch, request.skipPending);
    request.onProgress?.({ done, total: Math.max(total, done), embedderId: embedder.id });
  }
  return { reembedded: done, embedderId: embedder.id };
}
