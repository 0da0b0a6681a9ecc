/**
 * The vector layer over the partitions this instance holds (snapshot.ts): `ensure` brings them
 * to their current versions (one control read when nothing moved), and the searches run here,
 * exactly, over the held vectors: the cosine of every visible active row, blended as
 * `w.relevance·cos + w.recency·recency + w.importance·importance`, the top k by that score
 * (ties by id), which is what an exhaustive scan on the IndexedDB path returns. Each hit carries
 * its record, so retrieval reads nothing more. A search on partitions not held yet loads them.
 * Consolidation's neighbours take all of an ingest's candidates in one pass over a matrix of the
 * held vectors (held-vectors.ts), exact as the plain scan per candidate that remains the fallback.
 *
 * There is no lexical channel on Chroma: `text` is ignored and relevance is the cosine
 * (`lexical` is 0), as on the IndexedDB path for a query that shares no term with any memory.
 */
import { appPartition, decayedConfidence, decayHalfLife, isVisibleTo, partitionsFor, userPartition, type MemoryRecord } from 'engram';
import type { VectorHit, VectorLayer, VectorSearch } from '../../storage/contract';
import { exactCosine as cosine, HeldVectors, norm } from './held-vectors';
import type { Held, HeldRow, Snapshots } from './snapshot';
import { and, eq, NOTHING, or, type Filter } from './where';

/** The visible, active rows of a search: the owner's user and session rows of the scopes asked, the app's rows. */
export function searchFilter(search: Pick<VectorSearch, 'owner' | 'scopes' | 'sessionId'>): Filter {
  const { owner, scopes, sessionId } = search;
  const own = or(scopes.includes('user') ? eq('scope', 'user') : NOTHING, scopes.includes('session') && sessionId !== undefined ? and(eq('scope', 'session'), eq('sessionId', sessionId)) : NOTHING);
  return and(eq('active', true), or(and(eq('pk', userPartition(owner)), own), scopes.includes('app') ? eq('pk', appPartition(owner.appName)) : NOTHING));
}

/** Whether a held row is a candidate of `search` (the rows {@link searchFilter} admits). */
function admits(search: VectorSearch, record: MemoryRecord): boolean {
  if (record.invalidatedAt !== undefined || !isVisibleTo(record, search.owner)) return false;
  if (record.scope === 'app') return search.scopes.includes('app');
  if (record.scope === 'user') return search.scopes.includes('user');
  return search.scopes.includes('session') && search.sessionId !== undefined && record.sessionId === search.sessionId;
}

function hitOf(row: HeldRow, cosine: number, search: VectorSearch): VectorHit {
  const { record } = row;
  // Recency is the decay of a confidence of 1 (engram's one decay rule, exact: x · 1 = x).
  const recency = decayedConfidence({ updatedAt: record.updatedAt, halfLifeDays: decayHalfLife(record), confidence: 1 }, search.now);
  const { weights } = search;
  const { importance } = record;
  return { id: record.id, score: weights.relevance * cosine + weights.recency * recency + weights.importance * importance, relevance: cosine, cosine, lexical: 0, recency, importance, record };
}

const byScore = (a: VectorHit, b: VectorHit) => b.score - a.score || (a.id < b.id ? -1 : 1);

/** The top `k` of the held rows of `search`, best first. */
function rank(search: VectorSearch, partitions: readonly Held[], embedderId: string): VectorHit[] {
  const queryNorm = norm(search.vector);
  const top: VectorHit[] = [];
  for (const held of partitions) {
    for (const row of held.rows.values()) {
      if (row.record.embedderId !== embedderId || !admits(search, row.record)) continue;
      const hit = hitOf(row, cosine(search.vector, queryNorm, row), search);
      if (top.length === search.k && byScore(hit, top[top.length - 1]!) >= 0) continue;
      // Insert in order (k is small): the list stays sorted and at most k long.
      let at = top.length;
      while (at > 0 && byScore(hit, top[at - 1]!) < 0) at--;
      top.splice(at, 0, hit);
      if (top.length > search.k) top.pop();
    }
  }
  return top;
}

/** The `limit` most similar active rows of `scope` at or above `threshold`, most similar first: one pass over the rows per vector (what {@link HeldVectors} does in one pass for all). */
function nearest(held: Held, vector: Float32Array, threshold: number, scope: MemoryRecord['scope'], limit: number, embedderId: string, sessionId: string | undefined): string[] {
  const queryNorm = norm(vector);
  const found: { id: string; cosine: number }[] = [];
  for (const row of held.rows.values()) {
    const { record } = row;
    if (record.invalidatedAt !== undefined || record.scope !== scope || record.embedderId !== embedderId || !inSession(record, sessionId)) continue;
    const value = cosine(vector, queryNorm, row);
    if (value >= threshold) found.push({ id: record.id, cosine: value });
  }
  return found
    .sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((hit) => hit.id);
}

/** A neighbour search's session rule: for session scope with a session named, that session's rows only. */
function inSession(record: MemoryRecord, sessionId: string | undefined): boolean {
  return record.scope !== 'session' || sessionId === undefined || record.sessionId === sessionId;
}

export function createVectorLayer(snapshots: Snapshots, embedderId: string, dim: number): VectorLayer {
  /** The held partitions of `keys`, loading those not held yet (a search before any ensure). */
  async function heldFor(keys: readonly string[]): Promise<Held[]> {
    if (keys.some((key) => !snapshots.held(key))) await snapshots.sync(keys);
    return keys.map((key) => snapshots.held(key)!);
  }

  return {
    ensure: (keys) => snapshots.sync(keys),

    async neighbours(key, vectors, { threshold, scope, sessionId, limit }) {
      if (vectors.length === 0) return [];
      const [held] = await heldFor([key]);
      // The matrix answers a positive threshold for vectors of the embedder's length (a cosine of 0, which a
      // mismatched row scores, is then never a neighbour); anything else takes the plain scan.
      if (threshold > 0 && vectors.every((vector) => vector.length === dim)) {
        if (held!.vectors === undefined) held!.vectors = HeldVectors.of(dim, embedderId, held!.rows.values(), held!.rows.size);
        if (held!.vectors) return held!.vectors.nearest(vectors, threshold, scope, limit, sessionId);
      }
      return vectors.map((vector) => nearest(held!, vector, threshold, scope, limit, embedderId, sessionId));
    },

    async search(request) {
      if (request.k === 0 || searchFilter(request) === NOTHING) return [];
      return rank(request, await heldFor(partitionsFor(request.owner, request.scopes)), embedderId);
    },

    foreignRows: (key) => snapshots.held(key)?.foreign ?? 0,
    // The commit itself follows into the held partitions (commit.ts): it knows the rows as stored.
    afterCommit: async () => undefined,
    settled: async () => undefined,
    reset: async () => snapshots.clear(),
  };
}
