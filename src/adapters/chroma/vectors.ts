/**
 * The vector layer on Chroma's own nearest-neighbour search (cosine space: a distance is
 * `1 − cos`, converted back before anything is compared or blended).
 *
 * Retrieval ranks by engram's blend, `w.relevance·cos + w.recency·recency + w.importance·importance`,
 * and Chroma only ranks by distance, so the search asks for the nearest `n`, blends them, and
 * stops only when no row it did not fetch could still enter the top k: such a row has
 * `cos ≤` the n-th fetched cosine and recency, importance ≤ 1, so its score is at most
 * `w.relevance·cos_n + w.recency + w.importance`. Otherwise it asks for more (×4), up to every
 * visible row. The top k is then the one an exhaustive scan gives, as on the IndexedDB path.
 *
 * There is no lexical channel on Chroma: `text` is ignored and relevance is the cosine
 * (`lexical` is 0), as on the IndexedDB path for a query that shares no term with any memory.
 */
import { appPartition, decayedConfidence, userPartition, type Scope } from 'engram';
import type { VectorHit, VectorLayer, VectorSearch } from '../../storage/contract';
import type { Collections, ReadRow } from './collections';
import { readControl } from './intents';
import { and, eq, NOTHING, oneOf, or, type Filter } from './where';

/** The first search asks for this many times k (at least MIN_FETCH). */
const FIRST_FETCH_FACTOR = 4;
const MIN_FETCH = 32;

/** The visible, active rows of a search: the owner's user and session rows of the scopes asked, the app's rows. */
export function searchFilter(search: Pick<VectorSearch, 'owner' | 'scopes' | 'sessionId'>): Filter {
  const { owner, scopes, sessionId } = search;
  const own = or(
    scopes.includes('user') ? eq('scope', 'user') : NOTHING,
    scopes.includes('session') && sessionId !== undefined ? and(eq('scope', 'session'), eq('sessionId', sessionId)) : NOTHING,
  );
  return and(eq('active', true), or(and(eq('pk', userPartition(owner)), own), scopes.includes('app') ? eq('pk', appPartition(owner.appName)) : NOTHING));
}

/** A fetched row's hit (score blended from its metadata and the converted distance). */
function hitOf(row: ReadRow, search: VectorSearch): VectorHit {
  const cosine = 1 - row.distance!;
  const { updatedAt, halfLifeDays, importance } = row.metadata as { updatedAt: number; halfLifeDays: number; importance: number };
  // Recency is the decay of a confidence of 1 (engram's one decay rule, exact: x · 1 = x).
  const recency = decayedConfidence({ updatedAt, halfLifeDays, confidence: 1 }, search.now);
  const { weights } = search;
  return { id: row.id, score: weights.relevance * cosine + weights.recency * recency + weights.importance * importance, relevance: cosine, cosine, lexical: 0, recency, importance };
}

const byScore = (a: VectorHit, b: VectorHit) => b.score - a.score || (a.id < b.id ? -1 : 1);

export function createVectorLayer(collections: Collections, embedderId: string): VectorLayer {
  const foreign = new Map<string, number>();

  async function search(request: VectorSearch): Promise<VectorHit[]> {
    const where = searchFilter(request);
    if (request.k === 0 || where === NOTHING) return [];
    const { weights } = request;
    for (let n = Math.max(MIN_FETCH, request.k * FIRST_FETCH_FACTOR); ; n *= 4) {
      const rows = await collections.query('memories', { vectors: [request.vector], n, where });
      const hits = rows[0]!.map((row) => hitOf(row, request)).sort(byScore);
      const exhausted = rows[0]!.length < n;
      const last = rows[0]!.at(-1);
      const bound = last ? weights.relevance * (1 - last.distance!) + weights.recency + weights.importance : -Infinity;
      if (exhausted || (hits.length >= request.k && hits[request.k - 1]!.score > bound)) return hits.slice(0, request.k);
    }
  }

  return {
    async ensure(keys) {
      const [{ versions }, rows] = await Promise.all([
        readControl(collections, keys),
        collections.get('memories', { where: and(oneOf('pk', keys), eq('active', true), { embedderId: { $ne: embedderId } }) }),
      ]);
      for (const key of keys) foreign.set(key, rows.filter((row) => row.metadata.pk === key).length);
      return versions;
    },

    async neighbours(key, vectors, { threshold, scope, limit }) {
      if (vectors.length === 0) return [];
      const results = await collections.query('memories', { vectors, n: limit, where: and(eq('pk', key), eq('scope', scope as Scope), eq('active', true)) });
      return results.map((rows) => rows.filter((row) => 1 - row.distance! >= threshold).map((row) => row.id));
    },

    search,
    foreignRows: (key) => foreign.get(key) ?? 0,
    // Chroma holds the vectors the commit wrote: nothing to follow, nothing in the background.
    afterCommit: async () => undefined,
    settled: async () => undefined,
    reset: async () => foreign.clear(),
  };
}
