/**
 * Retrieval: embed the query, ask the storage's vector layer for the caller's top candidates
 * (scope filter first, then the fused relevance, recency and importance blended, bounded
 * top-k; on IndexedDB a scan in compute), then read only the k winners from the records layer.
 * The query text goes along for the lexical channel where the layer has one (src/worker/fusion.ts).
 */
import type { KeyedEmbedder } from '../embed/embedding-cache';
import { EmbedderMismatchError } from '../errors';
import type { MemoryRecord, Scope, Weights } from '../schema';
import { partitionsFor, userPartition, type Owner, type Storage, type VectorHit } from '../storage/contract';

/** One retrieved memory and the parts of its score. */
export interface Retrieved {
  memory: MemoryRecord;
  /** `weights.relevance·relevance + weights.recency·recency + weights.importance·importance`. */
  score: number;
  /**
   * The fused relevance: `0.05·cosine + 0.95·lexical`, or `cosine` alone when no memory the
   * caller may see shares a term with the query (see src/worker/fusion.ts).
   */
  relevance: number;
  /**
   * Cosine similarity between the query and the memory. Always set by `retrieve`; optional so
   * that a `Retrieved` built by hand for `inject` (which reads only `memory`) still type-checks.
   */
  cosine?: number;
  /** The lexical channel: BM25 relative to the query's best lexical match (1 = the best, 0 = no shared term). Always set by `retrieve`. */
  lexical?: number;
  /** `0.5 ** (ageDays / halfLifeDays)`. */
  recency: number;
  importance: number;
}

export interface RetrieveDeps {
  storage: Storage;
  /** Called with the caller's partition as its cache key: a query is that user's text. */
  embedder: KeyedEmbedder;
  clock: () => number;
}

export interface RetrievePlan {
  owner: Owner;
  sessionId?: string;
  scopes: Scope[];
  k: number;
  weights: Weights;
}

/**
 * Memories another embedder wrote are not in the scan (their vectors mean nothing to this one):
 * answering without them would be a silently partial answer, so retrieval refuses instead.
 */
function refuseForeignVectors(deps: RetrieveDeps, keys: readonly string[]): void {
  const foreign = keys.reduce((sum, key) => sum + deps.storage.vectors.foreignRows(key), 0);
  if (foreign > 0) {
    throw new EmbedderMismatchError(
      `${foreign} active memor${foreign === 1 ? 'y was' : 'ies were'} embedded by another embedder than '${deps.embedder.id}', so retrieve cannot rank ${foreign === 1 ? 'it' : 'them'} and would return a partial answer. Run memory.reembed() to re-embed them with '${deps.embedder.id}' (or open with createMemory({ reembed: 'auto' })), or reopen with the embedder they were written with.`,
    );
  }
}

/** The hits' records by id: as the vector layer handed them back when it read them all, else read now. */
async function recordsOf(records: Storage['records'], hits: readonly VectorHit[], owner: Owner): Promise<Map<string, MemoryRecord>> {
  if (hits.every((hit) => hit.record !== undefined)) {
    return new Map(hits.flatMap((hit) => (hit.record ? [[hit.id, hit.record] as const] : [])));
  }
  return new Map(
    (
      await records.getMany(
        hits.map((hit) => hit.id),
        owner,
      )
    ).map((record) => [record.id, record]),
  );
}

/** Scans per retrieve at most: the first, plus rescans past hits that did not come back as records. */
const MAX_SCANS = 4;

export async function retrieveMemories(deps: RetrieveDeps, query: string, plan: RetrievePlan): Promise<Retrieved[]> {
  const { owner, scopes } = plan;
  if (plan.k === 0 || scopes.length === 0) return [];
  const { records, vectors } = deps.storage;
  const keys = partitionsFor(owner, scopes);
  // The query's vector and the first catch-up of the partitions do not depend on each other;
  // a layer whose search catches up itself is not asked to ensure first (one read, not two).
  const catchUp = vectors.searchCatchesUp === true ? undefined : vectors.ensure(keys);
  const [[vector]] = await Promise.all([deps.embedder.embed([query], userPartition(owner)), catchUp]);
  // A hit can fail to come back as a record: tombstoned or deleted since the scan (another tab
  // wrote; the next ensure() reloads), or quarantined by the store as corrupt (it stays in the
  // matrix). Either way it must not take one of the k slots, so rescan asking for more.
  let want = plan.k;
  let out: Retrieved[] = [];
  for (let attempt = 0; attempt < MAX_SCANS; attempt++) {
    if (attempt > 0 && vectors.searchCatchesUp !== true) await vectors.ensure(keys);
    refuseForeignVectors(deps, keys);
    const hits = await vectors.search({
      owner,
      scopes,
      vector: vector!,
      text: query,
      now: deps.clock(),
      weights: plan.weights,
      k: want,
      ...(plan.sessionId !== undefined ? { sessionId: plan.sessionId } : {}),
    });
    // What the search caught up on may hold another embedder's rows: refuse them all the same.
    if (vectors.searchCatchesUp === true) refuseForeignVectors(deps, keys);
    const found = await recordsOf(records, hits, owner);
    out = [];
    for (const hit of hits) {
      const memory = found.get(hit.id);
      if (!memory || memory.invalidatedAt !== undefined) continue;
      const { score, relevance, cosine, lexical, recency, importance } = hit;
      out.push({ memory, score, relevance, cosine, lexical, recency, importance });
    }
    // Enough, or the partitions hold no more rows than were returned.
    if (out.length >= plan.k || hits.length < want) break;
    want += hits.length - out.length;
  }
  return pinnedFirst(out).slice(0, plan.k);
}

/** Best score first, as the vector layer ranked them; of equal scores, the pinned ones first (a stable sort keeps the rest). */
function pinnedFirst(hits: Retrieved[]): Retrieved[] {
  return hits.sort((a, b) => b.score - a.score || Number(b.memory.pinned === true) - Number(a.memory.pinned === true));
}
