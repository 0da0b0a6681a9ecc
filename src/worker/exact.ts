/**
 * The exact end of a scan, the same for both vector forms: a hit's reported parts and score
 * in f64, and (8-bit codes) the re-rank of the candidates from their f32 vectors, read from
 * the store for just those rows. Pure: runs wherever the vectors are.
 */
import { dot } from '../embed/vector';
import type { Weights } from '../schema';
import type { ScanCandidate, ScanCandidates, ScanHit, ScanRequest, ScanResult } from './api';
import { fusedRelevance } from './fusion';

/** One hit's reported parts and blended score, in f64 (what both vector forms report). */
export function hitOf(id: string, partition: string, parts: { cosine: number; bm25: number; semantic: number; best: number; recency: number; importance: number }, weights: Weights): ScanHit {
  const { relevance, cosine, lexical, semantic } = fusedRelevance(parts.cosine, parts.bm25, parts.best, parts.semantic);
  const { recency, importance } = parts;
  const score = weights.relevance * relevance + weights.recency * recency + weights.importance * importance;
  return { id, partition, score, relevance, cosine, lexical, semantic, recency, importance };
}

/**
 * The exact top k of an 8-bit scan, or null when the candidates cannot prove it (scan again
 * with more, `ScanRequest.candidates`, or read more of the `unread` ones). `vectors` holds the
 * f32 vector of each candidate id read that the store still has active; a read candidate
 * without one (tombstoned or deleted since the scan) is dropped, as a hit whose record is gone
 * would be. `unread`: candidates whose vectors were not read (yet); they count by their ceiling.
 *
 * Proof: a row left out of partition p's candidates scores exactly at most `ceilings[p]`, and
 * an unread candidate at most its own ceiling; so when the k-th best exact score among the
 * read candidates is at least all of those, nothing left out can displace one of the k.
 */
export function finishScan(request: ScanRequest, pending: ScanCandidates, vectors: ReadonlyMap<string, Float32Array>, unread: readonly ScanCandidate[] = []): ScanHit[] | null {
  const scored: { index: number; cosine: number; score: number }[] = [];
  pending.candidates.forEach((candidate, index) => {
    const vector = vectors.get(candidate.id);
    if (!vector || vector.length !== request.query.length) return;
    const cosine = dot(vector, request.query);
    scored.push({ index, cosine, score: pending.dense * cosine + candidate.rest });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  const kth = scored[request.k - 1]?.score ?? Number.NEGATIVE_INFINITY;
  if (pending.ceilings.some((ceiling) => ceiling > kth) || unread.some((candidate) => candidate.ceiling > kth)) return null;
  const hits = scored.slice(0, request.k).map(({ index, cosine }) => {
    const { id, partition, bm25, semantic, recency, importance } = pending.candidates[index]!;
    return hitOf(id, partition, { cosine, bm25, semantic, best: pending.best, recency, importance }, request.weights);
  });
  // Stable: near-ties keep the re-rank's order unless the reported f64 score separates them.
  return hits.sort((a, b) => b.score - a.score);
}

/**
 * The order to read an 8-bit scan's candidates in, highest ceiling first, and how many to read
 * first: the k best and a few more usually prove the top k (exact.ts `finishScan`), so the
 * rest are read only when they do not.
 */
export function readOrder(pending: ScanCandidates, k: number): { order: ScanCandidate[]; first: number } {
  const order = [...pending.candidates].sort((a, b) => b.ceiling - a.ceiling);
  return { order, first: Math.min(order.length, k + READ_MARGIN) };
}

/** Candidates read past k on the first read of a re-rank. */
const READ_MARGIN = 4;

type MaybePromise<T> = T | Promise<T>;

function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * The one loop of an exact scan, wherever the f32 vectors are: `scan` the request and hand the
 * answer to `finish`, which makes the result of it (f32 rows: from the hits; 8-bit codes: the
 * exact re-rank of the candidates), or null when the candidates cannot prove the top k; then
 * the scan runs again keeping 4× the candidates per partition (once they hold every row, every
 * ceiling is −∞ and the re-rank is final). Synchronous when `scan` and `finish` are, so the
 * kernel benchmarks time the scan alone; the store's path passes async ones (vector-index.ts).
 */
export function exactScan<Result>(scan: (request: ScanRequest) => ScanResult, request: ScanRequest, finish: (answer: ScanResult) => Result | null): Result;
export function exactScan<Result>(scan: (request: ScanRequest) => MaybePromise<ScanResult>, request: ScanRequest, finish: (answer: ScanResult) => MaybePromise<Result | null>): MaybePromise<Result>;
export function exactScan<Result>(scan: (request: ScanRequest) => MaybePromise<ScanResult>, request: ScanRequest, finish: (answer: ScanResult) => MaybePromise<Result | null>): MaybePromise<Result> {
  const pass = (candidates?: number): MaybePromise<Result> =>
    then(scan(candidates === undefined ? request : { ...request, candidates }), (answer) =>
      then(finish(answer), (result) => {
        if (result !== null) return result;
        if ('hits' in answer) throw new RangeError('a scan that returned hits needs no rescan');
        return pass(answer.candidates.perPartition * 4);
      }),
    );
  return pass();
}

/**
 * A whole scan where the f32 vectors are at hand (in-process compute, tests, the bench):
 * compute's hits, or its 8-bit candidates re-ranked from `vectors` ({@link exactScan}). The
 * library's own path reads the vectors from the store (vector-index.ts).
 */
export function scanWithVectors(compute: { scan(request: ScanRequest): ScanResult }, request: ScanRequest, vectors: ReadonlyMap<string, Float32Array>): ScanHit[] {
  return exactScan(
    (scan) => compute.scan(scan),
    request,
    (answer) => ('hits' in answer ? answer.hits : finishScan(request, answer.candidates, vectors)),
  );
}

/** Vectors by id from columnar rows (`dim` floats each), for {@link scanWithVectors}. */
export function vectorsOfRows(rows: { ids: readonly string[]; vectors: Float32Array }, dim: number): Map<string, Float32Array> {
  return new Map(rows.ids.map((id, i) => [id, rows.vectors.subarray(i * dim, (i + 1) * dim)]));
}
