/**
 * Retrieval: embed the query, scan the caller's partitions in compute (scope filter first,
 * then cosine, recency and importance blended, bounded top-k), then read only the k winners.
 */
import type { Embedder } from '../embed/embedder';
import type { MemoryRecord, Scope, Weights } from '../schema';
import { appPartition, userPartition, type Owner } from '../store/owner';
import type { Store } from '../store/store';
import type { VectorIndex } from '../store/vector-index';
import type { ComputeClient } from '../worker/client';

/** One retrieved memory and the parts of its score. */
export interface Retrieved {
  memory: MemoryRecord;
  /** `weights.relevance·relevance + weights.recency·recency + weights.importance·importance`. */
  score: number;
  /** Cosine similarity between the query and the memory. */
  relevance: number;
  /** `0.5 ** (ageDays / halfLifeDays)`. */
  recency: number;
  importance: number;
}

export interface RetrieveDeps {
  store: Store;
  index: VectorIndex;
  compute: ComputeClient;
  embedder: Embedder;
  clock: () => number;
}

export interface RetrievePlan {
  owner: Owner;
  sessionId?: string;
  scopes: Scope[];
  k: number;
  weights: Weights;
}

export async function retrieveMemories(deps: RetrieveDeps, query: string, plan: RetrievePlan): Promise<Retrieved[]> {
  const { owner, scopes } = plan;
  if (plan.k === 0 || scopes.length === 0) return [];
  const keys = [
    ...(scopes.includes('user') || scopes.includes('session') ? [userPartition(owner)] : []),
    ...(scopes.includes('app') ? [appPartition(owner.appName)] : []),
  ];
  const [vector] = await deps.embedder.embed([query]);
  for (let attempt = 0; attempt < 3; attempt++) {
    await deps.index.ensure(keys);
    const hits = await deps.compute.scan({
      partitions: keys,
      query: vector!,
      now: deps.clock(),
      weights: plan.weights,
      k: plan.k,
      scopes,
      ...(plan.sessionId !== undefined ? { sessionId: plan.sessionId } : {}),
    });
    const records = new Map((await deps.store.getMany(hits.map((hit) => hit.id), owner)).map((record) => [record.id, record]));
    const out: Retrieved[] = [];
    let stale = false;
    for (const hit of hits) {
      const memory = records.get(hit.id);
      // Tombstoned or gone since the scan (another tab wrote): rescan against the new version.
      if (!memory || memory.invalidatedAt !== undefined) {
        stale = true;
        continue;
      }
      out.push({ memory, score: hit.score, relevance: hit.relevance, recency: hit.recency, importance: hit.importance });
    }
    if (!stale || attempt === 2) return out;
  }
  return [];
}
