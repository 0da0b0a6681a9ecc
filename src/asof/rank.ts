/**
 * Ranking a past state: the records `recordsAsOf` rebuilt, scored by the same compute engine
 * retrieval scans with (worker/compute.ts: the fused relevance, recency and importance), on an
 * engine of its own that holds just these rows for the one query and is dropped after it.
 */
import { flattenTerms, lexicalTerms } from '../embed/terms';
import { decayHalfLife, type MemoryRecord } from '../schema';
import { partitionOf, partitionsFor } from '../storage/contract';
import { byRank, type RetrievePlan, type Retrieved } from '../retrieve/retrieve';
import { SCOPE_CODE, type IndexRows } from '../worker/api';
import { createCompute } from '../worker/compute';
import { WorkerError } from '../errors';

/** The compute's columnar rows for `records` (all of one partition, vectors of `dim`). */
function rowsOf(records: readonly MemoryRecord[], dim: number): IndexRows {
  const vectors = new Float32Array(records.length * dim);
  records.forEach((record, i) => vectors.set(record.embedding, i * dim));
  return {
    ids: records.map((record) => record.id),
    vectors,
    updatedAt: Float64Array.from(records, (record) => record.updatedAt),
    halfLifeDays: Float32Array.from(records, (record) => decayHalfLife(record)),
    importance: Float32Array.from(records, (record) => record.importance),
    scopes: Uint8Array.from(records, (record) => SCOPE_CODE[record.scope]),
    sessionIds: records.map((record) => record.sessionId ?? ''),
    ...flattenTerms(records.map((record) => lexicalTerms(record.content))),
  };
}

/**
 * The top `plan.k` of the active `records` for the query, scored as of `now`, in live
 * retrieval's order (retrieve.ts `byRank`). Every row is ranked before the cut (a past state is
 * small and already in memory), so of the memories tied with the k-th, the first by that order
 * make the cut.
 */
export function rankRecords(records: readonly MemoryRecord[], query: { vector: Float32Array; text: string }, plan: RetrievePlan, now: number): Retrieved[] {
  const dim = query.vector.length;
  const keys = partitionsFor(plan.owner, plan.scopes);
  const active = records.filter((record) => record.invalidatedAt === undefined && record.embedding.length === dim);
  if (active.length === 0 || plan.k === 0) return [];
  // The JS kernel holds f32 rows, so a scan answers with exact hits (no re-rank from the store).
  const compute = createCompute({ kernel: 'js' });
  for (const key of keys)
    compute.loadPartition(
      key,
      1,
      dim,
      rowsOf(
        active.filter((record) => partitionOf(record) === key),
        dim,
      ),
    );
  const result = compute.scan({
    partitions: keys,
    query: query.vector,
    queryText: query.text,
    now,
    weights: plan.weights,
    k: active.length,
    scopes: [...plan.scopes],
    ...(plan.sessionId !== undefined ? { sessionId: plan.sessionId } : {}),
  });
  if (!('hits' in result)) throw new WorkerError('ranking a past state: the JS kernel answered with candidates instead of hits (it holds f32 rows, so this is a bug in engram)');
  const byId = new Map(active.map((record) => [record.id, record]));
  const ranked = result.hits.map(({ id, score, relevance, cosine, lexical, semantic, recency, importance }) => ({ memory: byId.get(id)!, score, relevance, cosine, lexical, semantic, recency, importance }));
  return ranked.sort(byRank).slice(0, plan.k);
}
