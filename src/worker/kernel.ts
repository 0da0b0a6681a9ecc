/**
 * The scan of one partition: for every row that passes the scope/session filter (checked
 * before any distance), `wRel·dot(row, query) + wRec·recency + wImp·importance`, kept in a
 * bounded top-k. Recency needs `exp`: the WASM kernel imports Math.exp and calls it only for
 * rows that could still enter the top-k (see kernel.wat); the JS fallback computes it per row.
 *
 * Two kernels share the matrix layout: the WASM SIMD one (kernel.wat) and a JS fallback.
 * Both push winners into `top` in row order, so ties keep the earlier row in both.
 */
import { dot } from '../embed/vector';
import { SCOPE_CODE, type ScanRequest } from './api';
import type { Partition } from './partition';
import type { TopK } from './top-k';

/**
 * The relevance term of one scan: `dense · dot(row, query) + lexical · bm25[row]`, where
 * `bm25` is the partition's `lexicalScores` for this query (read only when `lexical` ≠ 0).
 */
export interface RelevanceTerm {
  dense: number;
  lexical: number;
}

/** Scope mask and session number a row's tag is tested against. */
export interface RowFilter {
  mask: number;
  /** The request's session number in this partition; -1 matches no session row. */
  session: number;
}

export function filterFor(partition: Partition, mask: number, sessionId: string | null): RowFilter {
  return { mask, session: sessionId === null ? -1 : (partition.sessionNumbers.get(sessionId) ?? -1) };
}

export function passes(tag: number, filter: RowFilter): boolean {
  if ((tag & filter.mask) === 0) return false;
  return (tag & 7) !== SCOPE_CODE.session || tag >>> 3 === filter.session;
}

/** Scans one partition into `top` (entries tagged `tag`); `relevance` is filled for the JS kernel only. */
export function scanPartition(partition: Partition, request: ScanRequest, filter: RowFilter, top: TopK, tag: number, term: RelevanceTerm): void {
  const k = Math.min(request.k, partition.size);
  if (k <= 0) return;
  if (!partition.matrix.kernel) {
    scanPartitionJs(partition, request, filter, top, tag, term);
    return;
  }
  // 8-bit codes are scanned by quantised.ts, whose candidates are re-ranked where the f32 vectors are.
  if (partition.matrix.codes === 'i8') throw new RangeError('an 8-bit partition is scanned for candidates (quantisedCandidates), not into a top k');
  const found = runScan(partition, request, filter, term, k, null);
  for (const entry of found.entries) top.push(entry.score, Number.NaN, tag, entry.row);
}

/** The query as the 8-bit kernel reads it (quantised.ts `quantiseQuery`): value ≈ code · scale. */
export interface KernelQuery {
  packed: Int16Array;
  correction: number;
  scale: number;
  /** The signed codes, one per dimension (what a sparse query's dots are taken from: matrix.ts `sparseDots`). */
  codes: Int16Array;
}

/**
 * Rows from which an 8-bit scan takes a sparse query's dots from the codes by dimension
 * (matrix.ts `sparseDots`). Node, 384 dimensions, scan p50 row-major against by dimension: 0.08
 * against 0.06 ms at 2,000 rows, 0.19 against 0.08 at 5,000, 0.30 against 0.11 at 10,000. The
 * second copy of the codes (a byte a dimension a row) is built in the task after the first such
 * query, which takes the row-major scan: about 2.5 ms at 10,000 rows (kernel.wat `columns8`).
 */
export const SPARSE_SCAN_ROWS = 2_048;

/**
 * One WASM scan of the partition keeping the best `k` by the kernel's (f32) score; entries in
 * row order, and the k-th best score (`floor`, −∞ when fewer rows passed the filter than k).
 */
export function runScan(partition: Partition, request: ScanRequest, filter: RowFilter, term: RelevanceTerm, k: number, quantised: KernelQuery | null): { entries: { row: number; score: number }[]; floor: number } {
  const { matrix, size } = partition;
  const kernel = matrix.kernel!;
  const stride = matrix.stride;
  const queryBytes = quantised ? stride * 2 : stride * 4;
  // Rounded up to whole blocks of four: the 8-bit kernel reads four rows' scores at a time.
  const lexicalBytes = term.lexical !== 0 ? Math.ceil(size / 4) * 16 : 0;
  // A sparse query's dots, from the codes by dimension (in their own memory): scan8 reads them instead of the codes.
  const sparse = quantised && size >= SPARSE_SCAN_ROWS ? matrix.sparseDots(quantised.codes, size, () => partition.size) : null;
  const dotsBytes = sparse ? Math.ceil(size / 4) * 16 : 0;
  const queryAt = matrix.scratch(queryBytes + lexicalBytes + dotsBytes + k * 8 + 32);
  const lexicalAt = queryAt + queryBytes;
  const dotsAt = lexicalAt + lexicalBytes;
  const heapAt = dotsAt + dotsBytes;
  const buffer = matrix.buffer;
  if (sparse) new Int32Array(buffer, dotsAt, size).set(sparse);
  if (quantised) new Int16Array(buffer, queryAt, stride).set(quantised.packed);
  else {
    const query = new Float32Array(buffer, queryAt, stride);
    query.set(request.query);
    query.fill(0, request.query.length);
  }
  if (lexicalBytes) new Float32Array(buffer, lexicalAt, size).set(partition.lexicalScores.subarray(0, size));
  const { recency, importance } = request.weights;
  const columns = [matrix.offsetOf('tags'), matrix.offsetOf('importance'), matrix.offsetOf('updatedAt'), matrix.offsetOf('decay'), size, stride, queryAt] as const;
  const blend = [recency, importance, Math.max(0, recency), request.now, heapAt, k, lexicalAt, term.lexical] as const;
  const count = quantised
    ? kernel.scan8(0, ...columns, quantised.correction, filter.mask, filter.session, term.dense * quantised.scale, ...blend, matrix.offsetOf('scales'), sparse ? dotsAt : 0)
    : kernel.scan(0, ...columns, filter.mask, filter.session, term.dense, ...blend);
  const scores = new Float32Array(buffer, heapAt, count * 2);
  const rows = new Int32Array(buffer, heapAt, count * 2);
  const entries = Array.from({ length: count }, (_, i) => ({ row: rows[2 * i + 1]!, score: scores[2 * i]! })).sort((a, b) => a.row - b.row);
  // The heap is a min-heap: its root is the k-th best score once it is full.
  return { entries, floor: count === k ? scores[0]! : Number.NEGATIVE_INFINITY };
}

function scanPartitionJs(partition: Partition, request: ScanRequest, filter: RowFilter, top: TopK, tag: number, term: RelevanceTerm): void {
  const { matrix, size, dim, lexicalScores } = partition;
  const { query } = request;
  const { dense: wRel, lexical: wLex } = term;
  const { recency: wRec, importance: wImp } = request.weights;
  const { vectors, tags, stride, updatedAt, decay, importance } = matrix;
  const now = request.now;
  for (let row = 0; row < size; row++) {
    if (!passes(tags[row]!, filter)) continue;
    let sum = 0;
    const offset = row * stride;
    for (let j = 0; j < dim; j++) sum += vectors[offset + j]! * query[j]!;
    const age = now - updatedAt[row]!;
    const relevance = wLex !== 0 ? wRel * sum + wLex * lexicalScores[row]! : wRel * sum;
    top.push(relevance + wRec * Math.exp(-Math.max(age, 0) * decay[row]!) + wImp * importance[row]!, sum, tag, row);
  }
}

/** Dot product of one stored f32 row with `query` (f64 accumulation: the reported relevance). */
export function rowDot(partition: Partition, row: number, query: Float32Array): number {
  return dot(partition.matrix.exactRow(row), query);
}

/** For each query, the rows `keeps` admits whose dot product is ≥ threshold. */
export function neighbourRows(partition: Partition, queries: readonly Float32Array[], threshold: number, keeps: (row: number) => boolean): number[][] {
  const { matrix, size } = partition;
  const out = queries.map((): number[] => []);
  if (size === 0 || queries.length === 0) return out;
  const kernel = matrix.kernel;
  if (kernel && matrix.codes === 'i8') throw new RangeError('an 8-bit partition is searched by quantisedNeighbours');
  const stride = matrix.stride;
  const BATCH = 16;
  for (let first = 0; first < queries.length; first += BATCH) {
    const batch = queries.slice(first, first + BATCH);
    if (!kernel) {
      for (let row = 0; row < size; row++) {
        if (!keeps(row)) continue;
        batch.forEach((query, q) => {
          if (rowDot(partition, row, query) >= threshold) out[first + q]!.push(row);
        });
      }
      continue;
    }
    const queriesAt = matrix.scratch(batch.length * stride * 4 + size * batch.length * 4);
    const outAt = queriesAt + batch.length * stride * 4;
    const buffer = matrix.buffer;
    const packed = new Float32Array(buffer, queriesAt, batch.length * stride);
    packed.fill(0);
    batch.forEach((query, q) => packed.set(query, q * stride));
    kernel.dots(0, size, stride, queriesAt, batch.length, outAt);
    const dots = new Float32Array(buffer, outAt, size * batch.length);
    for (let row = 0; row < size; row++) {
      if (!keeps(row)) continue;
      for (let q = 0; q < batch.length; q++) if (dots[row * batch.length + q]! >= threshold) out[first + q]!.push(row);
    }
  }
  return out;
}
