/**
 * The vector layer on Chroma's own nearest-neighbour search (cosine space: a distance is
 * `1 − cos`, converted back before anything is compared or blended).
 *
 * Retrieval ranks by engram's blend, `w.relevance·cos + rest` (rest = `w.recency·recency +
 * w.importance·importance`), and Chroma only ranks by distance, so the search asks for the
 * nearest `n` and blends them. A row it did not fetch has `cos ≤ cos_n` (the n-th fetched), so
 * it can enter the top k only if its own `rest > S_k − w.relevance·cos_n` (S_k: the k-th best
 * fetched score). The rests of every row are known here (the scoring columns), so those rows
 * are named, read by id with their vectors, and their cosine computed here (Chroma's query
 * restricted to ids scans); when there are none, the answer stands. Only when too many would qualify does it ask for
 * more neighbours (×4), up to every visible row. The top k is the one an exhaustive scan gives,
 * as on the IndexedDB path.
 *
 * There is no lexical channel on Chroma: `text` is ignored and relevance is the cosine
 * (`lexical` is 0), as on the IndexedDB path for a query that shares no term with any memory.
 */
import { appPartition, decayedConfidence, decayHalfLife, partitionOf, partitionsFor, userPartition, type Scope } from 'engram';
import type { VectorHit, VectorLayer, VectorSearch } from '../../storage/contract';
import type { Collections, ReadRow } from './collections';
import { readControl } from './intents';
import { and, eq, NOTHING, or, type Filter } from './where';

/** The first search asks for this many times k (at least MIN_FETCH). */
const FIRST_FETCH_FACTOR = 4;
const MIN_FETCH = 32;
/** Most rows a search names by id in its second query; beyond it, it asks for more neighbours. */
const MAX_NAMED = 2_000;

/** The visible, active rows of a search: the owner's user and session rows of the scopes asked, the app's rows. */
export function searchFilter(search: Pick<VectorSearch, 'owner' | 'scopes' | 'sessionId'>): Filter {
  const { owner, scopes, sessionId } = search;
  const own = or(
    scopes.includes('user') ? eq('scope', 'user') : NOTHING,
    scopes.includes('session') && sessionId !== undefined ? and(eq('scope', 'session'), eq('sessionId', sessionId)) : NOTHING,
  );
  return and(eq('active', true), or(and(eq('pk', userPartition(owner)), own), scopes.includes('app') ? eq('pk', appPartition(owner.appName)) : NOTHING));
}

/** What the blend needs of a row besides its cosine, kept per partition (see createVectorLayer). */
interface Scoring {
  updatedAt: number;
  halfLifeDays: number;
  importance: number;
}

interface Columns {
  version: number;
  rows: Map<string, Scoring>;
  /** Active rows another embedder wrote. */
  foreign: number;
}

function hitOf(id: string, distance: number, scoring: Scoring, search: VectorSearch): VectorHit {
  const cosine = 1 - distance;
  // Recency is the decay of a confidence of 1 (engram's one decay rule, exact: x · 1 = x).
  const recency = decayedConfidence({ ...scoring, confidence: 1 }, search.now);
  const { weights } = search;
  const { importance } = scoring;
  return { id, score: weights.relevance * cosine + weights.recency * recency + weights.importance * importance, relevance: cosine, cosine, lexical: 0, recency, importance };
}

const byScore = (a: VectorHit, b: VectorHit) => b.score - a.score || (a.id < b.id ? -1 : 1);

function cosine(query: Float32Array, vector: readonly number[]): number {
  let dot = 0;
  let norm = 0;
  let queryNorm = 0;
  for (let i = 0; i < query.length; i++) {
    dot += query[i]! * vector[i]!;
    norm += vector[i]! * vector[i]!;
    queryNorm += query[i]! * query[i]!;
  }
  return norm === 0 || queryNorm === 0 ? 0 : dot / Math.sqrt(norm * queryNorm);
}

/** Ids not fetched whose recency and importance alone exceed `need`: the only rows that could still enter the top k. */
function contenders(search: VectorSearch, held: readonly Map<string, Scoring>[], fetched: ReadonlySet<string>, need: number): string[] {
  const out: string[] = [];
  for (const rows of held) {
    for (const [id, scoring] of rows) {
      if (fetched.has(id)) continue;
      const hit = hitOf(id, 1, scoring, search); // distance 1: cos 0, so the score is the rest alone
      if (hit.score >= need) out.push(id);
    }
  }
  return out;
}

/**
 * Chroma answers the searches with ids and distances only; the scoring fields of each
 * partition's active rows are kept here as of its version (loaded by `ensure` when the version
 * moved, kept in step by `afterCommit` for this instance's own writes), so a search that has to
 * look deep does not carry every row's metadata back.
 */
export function createVectorLayer(collections: Collections, embedderId: string): VectorLayer {
  const columns = new Map<string, Columns>();

  async function load(key: string, version: number): Promise<void> {
    const rows = await collections.get('memories', { where: and(eq('pk', key), eq('active', true)) });
    const scoring = new Map<string, Scoring>();
    let foreign = 0;
    for (const { id, metadata } of rows) {
      if (metadata.embedderId !== embedderId) foreign++;
      const { updatedAt, halfLifeDays, importance } = metadata;
      if (typeof updatedAt === 'number' && typeof halfLifeDays === 'number' && typeof importance === 'number') scoring.set(id, { updatedAt, halfLifeDays, importance });
    }
    columns.set(key, { version, rows: scoring, foreign });
  }

  async function search(request: VectorSearch): Promise<VectorHit[]> {
    const where = searchFilter(request);
    if (request.k === 0 || where === NOTHING) return [];
    const keys = partitionsFor(request.owner, request.scopes);
    if (keys.some((key) => !columns.has(key))) await ensure(keys);
    const held = keys.map((key) => columns.get(key)!.rows);
    // Not found: written by another instance after the last ensure, so not in this answer.
    const scoringOf = (id: string) => held.find((rows) => rows.has(id))?.get(id);
    const blend = (rows: readonly ReadRow[]) =>
      rows.flatMap((row) => {
        const scoring = scoringOf(row.id);
        return scoring ? [hitOf(row.id, row.distance!, scoring, request)] : [];
      });
    for (let n = Math.max(MIN_FETCH, request.k * FIRST_FETCH_FACTOR); ; n *= 4) {
      const [rows] = await collections.query('memories', { vectors: [request.vector], n, where, metadata: false });
      const hits = blend(rows!).sort(byScore);
      if (rows!.length < n) return hits.slice(0, request.k);
      if (hits.length < request.k) continue;
      const named = contenders(request, held, new Set(rows!.map((row) => row.id)), hits[request.k - 1]!.score - request.weights.relevance * (1 - rows!.at(-1)!.distance!));
      if (named.length === 0) return hits.slice(0, request.k);
      if (named.length > MAX_NAMED) continue;
      // Their vectors, and the cosine here: Chroma's query restricted to ids is slow (a scan).
      const more = await collections.get('memories', { ids: named, where, embeddings: true, documents: false });
      const distances = more.map((row) => ({ ...row, distance: 1 - cosine(request.vector, row.embedding!) }));
      return [...hits, ...blend(distances)].sort(byScore).slice(0, request.k);
    }
  }

  async function ensure(keys: readonly string[]): Promise<Map<string, number>> {
    const { versions } = await readControl(collections, keys);
    await Promise.all(keys.map((key) => (columns.get(key)?.version === versions.get(key) ? undefined : load(key, versions.get(key)!))));
    return versions;
  }

  return {
    ensure,

    async neighbours(key, vectors, { threshold, scope, limit }) {
      if (vectors.length === 0) return [];
      const results = await collections.query('memories', { vectors, n: limit, where: and(eq('pk', key), eq('scope', scope as Scope), eq('active', true)), metadata: false });
      return results.map((rows) => rows.filter((row) => 1 - row.distance! >= threshold).map((row) => row.id));
    },

    search,
    foreignRows: (key) => columns.get(key)?.foreign ?? 0,

    // Chroma holds the vectors the commit wrote; only the scoring columns follow it here.
    async afterCommit(result, records) {
      for (const [key, [before, after]] of result.versions) {
        const held = columns.get(key);
        if (!held || held.version !== before) {
          columns.delete(key);
          continue;
        }
        for (const record of records) {
          if (partitionOf(record) !== key) continue;
          if (record.invalidatedAt !== undefined) {
            if (held.rows.delete(record.id) && record.embedderId !== embedderId) held.foreign--;
            continue;
          }
          if (!held.rows.has(record.id) && record.embedderId !== embedderId) held.foreign++;
          held.rows.set(record.id, { updatedAt: record.updatedAt, halfLifeDays: decayHalfLife(record), importance: record.importance });
        }
        held.version = after;
      }
    },
    settled: async () => undefined,
    reset: async () => columns.clear(),
  };
}
