/**
 * The scan over 8-bit codes (matrix.ts, `codes: 'i8'`) with an exact f32 re-rank, so the
 * answer is the one an f32 scan gives:
 *
 * 1. The query is quantised to i16 and the kernel keeps the best C rows by the code score.
 * 2. Those C are re-scored exactly (the f32 rows outside the linear memory, f64 sums).
 * 3. A row left out scored at most `floor` (the C-th code score), so its exact score is at
 *    most `floor + dense weight · ε`, ε the matrix's bound on a code dot product's error. When
 *    the k-th exact score clears that, the top k is exact; otherwise C grows and the scan runs
 *    again (at worst C reaches every row).
 */
import type { ScanRequest } from './api';
import { rowDot, runScan, type KernelQuery, type RelevanceTerm, type RowFilter } from './kernel';
import type { Partition } from './partition';
import type { TopK } from './top-k';

/** Candidates kept on the first pass, at least (and 2k): more makes the kernel compute recency for more rows. */
const FIRST_CANDIDATES = 32;
/** Covers the f32 rounding of the kernel's blend on top of the code error. */
const SLACK = 1e-5;

/** i16 codes of `query` (padded to `stride`), their scale, and the quantisation error's norm. */
export function quantiseQuery(query: Float32Array, stride: number): KernelQuery & { error: number; norm: number } {
  let largest = 0;
  let norm = 0;
  for (let j = 0; j < query.length; j++) {
    largest = Math.max(largest, Math.abs(query[j]!));
    norm += query[j]! ** 2;
  }
  // |code| · 127 · dims must stay inside i32 in the kernel's sum: 32767 up to 512 dims.
  const top = Math.floor(Math.min(32_767, (32_767 * 512) / Math.max(512, query.length)));
  const scale = largest > 0 ? largest / top : 0;
  const codes = new Int16Array(stride);
  let error = 0;
  for (let j = 0; j < query.length; j++) {
    const code = scale > 0 ? Math.round(query[j]! / scale) : 0;
    codes[j] = code;
    error += (query[j]! - code * scale) ** 2;
  }
  return { codes, scale, error: Math.sqrt(error) * (1 + 1e-6), norm: Math.sqrt(norm) };
}

/** The exact (f64) blended score of one row, as an f32 scan would rank it. */
function exactScore(partition: Partition, row: number, request: ScanRequest, term: RelevanceTerm): number {
  const { matrix } = partition;
  const age = Math.max(0, request.now - matrix.updatedAt[row]!);
  const lexical = term.lexical !== 0 ? term.lexical * partition.lexicalScores[row]! : 0;
  return (
    term.dense * rowDot(partition, row, request.query) +
    lexical +
    request.weights.recency * Math.exp(-age * matrix.decay[row]!) +
    request.weights.importance * matrix.importance[row]!
  );
}

export function scanQuantised(partition: Partition, request: ScanRequest, filter: RowFilter, top: TopK, tag: number, term: RelevanceTerm): void {
  const k = Math.min(request.k, partition.size);
  const query = quantiseQuery(request.query, partition.matrix.stride);
  const bound = Math.abs(term.dense) * partition.matrix.quantisationError(query.norm, query.error) + SLACK;
  let candidates = Math.min(partition.size, Math.max(FIRST_CANDIDATES, 2 * k));
  for (;;) {
    const { entries, floor } = runScan(partition, request, filter, term, candidates, query);
    const exact = entries.map(({ row }) => ({ row, score: exactScore(partition, row, request, term) }));
    const kth = exact.map((entry) => entry.score).sort((a, b) => b - a)[k - 1] ?? Number.NEGATIVE_INFINITY;
    if (floor === Number.NEGATIVE_INFINITY || kth >= floor + bound || candidates >= partition.size) {
      for (const entry of exact) top.push(entry.score, Number.NaN, tag, entry.row);
      return;
    }
    candidates = Math.min(partition.size, candidates * 4);
  }
}

/** 8-bit neighbour search: code dots of every row, then the exact dot for rows the error bound cannot rule out. */
export function quantisedNeighbours(partition: Partition, queries: readonly Float32Array[], threshold: number, code: number): number[][] {
  const { matrix, size } = partition;
  const kernel = matrix.kernel!;
  const stride = matrix.stride;
  const out = queries.map((): number[] => []);
  const BATCH = 16;
  for (let first = 0; first < queries.length; first += BATCH) {
    const batch = queries.slice(first, first + BATCH).map((query) => ({ query, ...quantiseQuery(query, stride) }));
    const queriesAt = matrix.scratch(batch.length * stride * 2 + size * batch.length * 4);
    const outAt = queriesAt + batch.length * stride * 2;
    const packed = new Int16Array(matrix.buffer, queriesAt, batch.length * stride);
    batch.forEach((entry, q) => packed.set(entry.codes, q * stride));
    kernel.dots(0, size, stride, queriesAt, batch.length, outAt, 1, matrix.offsetOf('scales'));
    const dots = new Float32Array(matrix.buffer, outAt, size * batch.length);
    const scopes = partition.scopes;
    const nq = batch.length;
    // A code dot below this cannot reach the threshold exactly (the error bound, per query).
    const floors = batch.map((entry) => (entry.scale > 0 ? (threshold - matrix.quantisationError(entry.norm, entry.error) - SLACK) / entry.scale : Number.NEGATIVE_INFINITY));
    for (let row = 0; row < size; row++) {
      if (scopes[row] !== code) continue;
      for (let q = 0; q < nq; q++) {
        if (dots[row * nq + q]! >= floors[q]! && rowDot(partition, row, batch[q]!.query) >= threshold) out[first + q]!.push(row);
      }
    }
  }
  return out;
}
