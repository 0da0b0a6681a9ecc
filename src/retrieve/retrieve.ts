/**
 * Retrieval: embed the query, ask the storage's vector layer for the caller's top candidates
 * (scope filter first, then the fused relevance, recency and importance blended, bounded
 * top-k; on IndexedDB a scan in compute), then read only the k winners from the records layer.
 * The query text goes along for the lexical channel where the layer has one (src/worker/fusion.ts).
 */
import type { KeyedEmbedder } from '../embed/embedding-cache';
import { EmbedderMismatchError } from '../errors';
import { byCreation, type MemoryRecord, type Scope, type Weights } from '../schema';
import { partitionsFor, userPartition, type Owner, type Storage, type VectorHit } from '../storage/contract';
import { oneHitPerStatement } from './select';

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
  /**
   * The part of `lexical` that words related in meaning to the query's brought (the semantic
   * channel, WordNet: "lunch" ~ "eats"), on the same scale; 0 when only the query's own words
   * matched, absent where the storage has no lexical channel (Chroma).
   */
  semantic?: number;
  /** `0.5 ** (ageDays / halfLifeDays)`. */
  recency: number;
  importance: number;
  /**
   * The memories this hit stands for beside itself, by id: the episode a fact was read from, or
   * the facts read from an episode, when both ranked within k (one statement, one hit; see
   * `explain` for the others' scores). Absent when it stands for itself alone.
   */
  represents?: string[];
  /**
   * Set when the memory is one of the user's standing profile (retrieve's `profile` option,
   * src/retrieve/profile.ts): who the user is, shown whatever the question. A profile memory
   * that is no hit of the query has relevance 0 and is not counted in k.
   */
  profile?: true;
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
  /** The least fused relevance a hit needs (select.ts `RELEVANCE_FLOOR`); none when absent (a question about the user as a whole). */
  floor?: number;
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

/** Scans per retrieve at most while hits fail to come back as records: the first, plus rescans past them. */
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
  const floor = plan.floor ?? Number.NEGATIVE_INFINITY;
  // `want`: the relevant hits that fill k (more once some fail to come back as records or
  // stand for one another). `reach`: the hits asked for, one past `want` at least, to see
  // whether the memories tied with the want-th go on past them.
  let want = plan.k;
  let reach = want + 1;
  let stale = false;
  let out: Retrieved[] = [];
  for (let scans = 1; ; ) {
    if (stale && vectors.searchCatchesUp !== true) await vectors.ensure(keys);
    refuseForeignVectors(deps, keys);
    const hits = await vectors.search({
      owner,
      scopes,
      vector: vector!,
      text: query,
      now: deps.clock(),
      weights: plan.weights,
      k: reach,
      records: want,
      ...(plan.sessionId !== undefined ? { sessionId: plan.sessionId } : {}),
    });
    // What the search caught up on may hold another embedder's rows: refuse them all the same.
    if (vectors.searchCatchesUp === true) refuseForeignVectors(deps, keys);
    const all = hits.length < reach;
    // A hit with no relevance to the query is never returned, however high its importance:
    // while fewer relevant hits than wanted came back, more may lie further down the ranking.
    const relevant = hits.filter((hit) => hit.relevance >= floor);
    if (!all && relevant.length < want) {
      reach *= 4;
      continue;
    }
    const boundary = relevant[want - 1]?.score;
    // Which of the memories tied with the want-th make the cut is byRank's choice, not the
    // order the layer keeps its rows in (an import changes that): while the last hit still
    // ties with it, more of them may lie past the hits, so widen before reading any record.
    if (!all && boundary !== undefined && hits.at(-1)!.score >= boundary) {
      reach *= 2;
      continue;
    }
    const inCut = boundary === undefined ? relevant : relevant.filter((hit, i) => i < want || hit.score >= boundary);
    const found = await recordsOf(records, inCut, owner);
    // A hit can fail to come back as a record: tombstoned or deleted since the scan (another tab
    // wrote; the next ensure() reloads), or quarantined by the store as corrupt (it stays in the
    // matrix). Either way it must not take one of the k slots, so rescan asking for more.
    const read: Retrieved[] = [];
    for (const hit of inCut) {
      const memory = found.get(hit.id);
      if (!memory || memory.invalidatedAt !== undefined) continue;
      const { score, relevance, cosine, lexical, semantic, recency, importance } = hit;
      read.push({ memory, score, relevance, cosine, lexical, ...(semantic !== undefined ? { semantic } : {}), recency, importance });
    }
    // A fact and the episode it was read from take one slot: the rest of k goes further down.
    out = oneHitPerStatement(read.sort(byRank));
    // Enough, or the partitions hold no more rows than were returned.
    if (out.length >= plan.k || all || scans++ >= MAX_SCANS) break;
    want += plan.k - out.length;
    reach = Math.max(reach, want + 1);
    stale = read.length < inCut.length;
  }
  return out.slice(0, plan.k);
}

/**
 * The order of retrieved memories, the same on every backend and after an export → import:
 * best score first; of equal scores the pinned first, then {@link byCreation} (the oldest, then
 * by id: an import keeps both).
 */
export function byRank(a: RankedMemory, b: RankedMemory): number {
  return b.score - a.score || Number(b.memory.pinned === true) - Number(a.memory.pinned === true) || byCreation(a.memory, b.memory);
}

/** What {@link byRank} reads of a hit. */
export interface RankedMemory {
  score: number;
  memory: Pick<MemoryRecord, 'createdAt' | 'id' | 'pinned'>;
}
