/**
 * The scan over 8-bit codes (matrix.ts, `codes: 'i8'`). Compute keeps no f32 copy of the
 * rows, so the exact re-rank happens where the f32 vectors are read (exact.ts, from the
 * store, for just the candidates):
 *
 * 1. The query is quantised to 8 bits and the kernel keeps the best C rows by the code score.
 * 2. Each candidate gets every exact (f64) part of its score but the cosine.
 * 3. A row left out scored at most `floor` (the C-th code score), so its exact score is at
 *    most `floor + dense weight · ε`, ε the matrix's bound on a code dot product's error:
 *    that is the partition's ceiling. The caller re-ranks the candidates exactly; when the
 *    k-th clears every ceiling the top k is exact, otherwise it scans again with more.
 */
import type { ScanCandidate, ScanRequest } from './api';
import { runScan, type KernelQuery, type RelevanceTerm, type RowFilter } from './kernel';
import type { Partition } from './partition';

/** Candidates kept per partition on the first pass, at least (and 2k): more makes the kernel compute recency for more rows. */
export const FIRST_CANDIDATES = 32;
/** Covers the f32 rounding of the kernel's blend on top of the code error. */
const SLACK = 1e-5;

// Largest |query code|: packQuery's B = odd − 256 · even must fit i16.
const QUERY_TOP = 127;

/** Codes of `query` (|code| ≤ 127, value ≈ code · scale), their scale, error norm and kernel packing. */
export function quantiseQuery(query: Float32Array, stride: number): KernelQuery & { codes: Int16Array; error: number; norm: number } {
  let largest = 0;
  let norm = 0;
  for (let j = 0; j < query.length; j++) {
    largest = Math.max(largest, Math.abs(query[j]!));
    norm += query[j]! ** 2;
  }
  const scale = largest > 0 ? largest / QUERY_TOP : 0;
  const codes = new Int16Array(query.length);
  let error = 0;
  for (let j = 0; j < query.length; j++) {
    const code = scale > 0 ? Math.round(query[j]! / scale) : 0;
    codes[j] = code;
    error += (query[j]! - code * scale) ** 2;
  }
  return { codes, scale, error: Math.sqrt(error) * (1 + 1e-6), norm: Math.sqrt(norm), ...packQuery(codes, stride) };
}

/** The query as kernel.wat's $dot8x4 reads it (A, B and the correction: see there). */
export function packQuery(codes: Int16Array, stride: number): { packed: Int16Array; correction: number } {
  const packed = new Int16Array(stride);
  let correction = 0;
  for (let j = 0; j < stride; j += 2) {
    const even = codes[j] ?? 0;
    const odd = codes[j + 1] ?? 0;
    const at = (j & ~15) + ((j & 15) >> 1);
    packed[at] = even;
    packed[at + 8] = odd - 256 * even;
    correction += 128 * even;
  }
  return { packed, correction };
}

/**
 * One partition's candidates (the best `perPartition` rows by the code score) with the exact
 * parts of their score other than the cosine, and the partition's ceiling (see above).
 */
export function quantisedCandidates(partition: Partition, key: string, request: ScanRequest, filter: RowFilter, term: RelevanceTerm, perPartition: number): { candidates: ScanCandidate[]; ceiling: number } {
  const { matrix } = partition;
  const query = quantiseQuery(request.query, matrix.stride);
  const bound = Math.abs(term.dense) * matrix.quantisationError(query.norm, query.error) + SLACK;
  const wanted = Math.min(partition.size, perPartition);
  if (wanted <= 0) return { candidates: [], ceiling: Number.NEGATIVE_INFINITY };
  const { entries, floor } = runScan(partition, request, filter, term, wanted, query);
  const { weights, now } = request;
  const candidates = entries.map(({ row, score }): ScanCandidate => {
    const bm25 = term.lexical !== 0 ? partition.lexicalScores[row]! : 0;
    const recency = Math.exp(-Math.max(0, now - matrix.updatedAt[row]!) * matrix.decay[row]!);
    const importance = matrix.importance[row]!;
    const rest = term.lexical * bm25 + weights.recency * recency + weights.importance * importance;
    // Zero wherever bm25 is (fusion.ts fills both for every scan).
    return { id: partition.ids[row]!, partition: key, rest, ceiling: score + bound, bm25, semantic: partition.semantic[row]!, recency, importance };
  });
  // Fewer rows passed the filter than were asked for: none was left out.
  const ceiling = floor === Number.NEGATIVE_INFINITY || wanted >= partition.size ? Number.NEGATIVE_INFINITY : floor + bound;
  return { candidates, ceiling };
}

/**
 * 8-bit neighbour search: for each query the rows `keeps` admits whose code dot may reach
 * `threshold` given their own error bound, with their code dots and that bound (the exact
 * choice is made where the f32 vectors are: see compute.ts `neighbours`).
 */
export function quantisedNeighbours(partition: Partition, queries: readonly Float32Array[], threshold: number, keeps: (row: number) => boolean): { row: number; similarity: number; error: number }[][] {
  const { matrix, size } = partition;
  const kernel = matrix.kernel!;
  const stride = matrix.stride;
  const out: { row: number; similarity: number; error: number }[][] = [];
  const BATCH = 16;
  for (let first = 0; first < queries.length; first += BATCH) {
    const batch = queries.slice(first, first + BATCH).map((query) => quantiseQuery(query, stride));
    const rows = Math.ceil(size / 4) * 4;
    const correctionsAt = matrix.scratch(batch.length * (stride * 2 + 4 + rows * 4));
    const queriesAt = correctionsAt + batch.length * 4;
    const outAt = queriesAt + batch.length * stride * 2;
    batch.forEach((entry, q) => {
      new Int16Array(matrix.buffer, queriesAt, batch.length * stride).set(entry.packed, q * stride);
      new Int32Array(matrix.buffer, correctionsAt, batch.length)[q] = entry.correction;
    });
    kernel.dots8(0, size, stride, queriesAt, correctionsAt, batch.length, outAt, matrix.offsetOf('scales'));
    const found = batch.map((entry, q) => {
      const dots = new Float32Array(matrix.buffer, outAt + q * rows * 4, size);
      const error = matrix.quantisationError(entry.norm, entry.error) + SLACK;
      const near: { row: number; similarity: number; error: number }[] = [];
      // A code dot below the matrix-wide floor cannot reach the threshold; one above it is
      // tested against its own row's bound, which most rows keep well below the largest.
      const floor = entry.scale > 0 ? (threshold - error) / entry.scale : Number.NEGATIVE_INFINITY;
      for (let row = 0; row < size; row++) {
        if (dots[row]! < floor || !keeps(row)) continue;
        const similarity = dots[row]! * entry.scale;
        const rowError = matrix.rowQuantisationError(row, entry.norm, entry.error) + SLACK;
        if (similarity >= threshold - rowError) near.push({ row, similarity, error: rowError });
      }
      return near;
    });
    out.push(...found);
  }
  return out;
}
