/**
 * Consolidation's neighbours over a held partition (snapshot.ts) in one pass: the vectors of the
 * rows that can be neighbours (active, this embedder's, `dim` long, not all zero) sit in one
 * contiguous matrix, and the WASM SIMD kernel of engram's compute (src/worker/matrix.ts,
 * `dots`) takes every candidate of an ingest against every row at once. At 10k rows and ten
 * candidates that is about 5 ms, where a JS pass per candidate over the rows' own arrays took
 * about 90 ms (scripts/bench-chroma.ts, docs/benchmarks.md).
 *
 * Exact, as the scan it replaces: the kernel sums in float32, so it only shortlists (a row whose
 * kernel cosine is within {@link MARGIN} of the threshold), and each shortlisted row's cosine is
 * computed again in float64 from its record's vector, the same way the plain scan computes it,
 * before the threshold, the order and the limit are applied. Float32 rounding over `dim` terms is
 * off by at most about `dim · 2⁻²⁴` of ‖q‖·‖v‖ (1.5e-5 at 256 dimensions), far inside the margin.
 *
 * The matrix is built the first time a partition is searched for neighbours and then follows
 * every row the snapshot merges (new, changed, tombstoned, quarantined): a row that can no longer
 * be a neighbour leaves it (swap-remove). It costs `dim · 4` bytes a row beside the records.
 * Without WebAssembly SIMD there is no matrix and the caller scans the rows as before.
 */
import type { MemoryRecord } from 'engram';
import { RowMatrix } from '../../worker/matrix';
import { loadKernelModule } from '../../worker/wasm-kernel';

/** What the matrix needs of a held row: its record and its vector's norm. */
export interface VectorRow {
  readonly record: MemoryRecord;
  readonly norm: number;
}

/** How far below the threshold (in cosine) a kernel cosine still shortlists its row. */
const MARGIN = 1e-3;
/** Candidates per kernel call (the scratch holds rows × this many dot products). */
const BATCH = 16;

/** The f64 cosine of a query and a row, as the plain scan computes it (vectors.ts). */
export function exactCosine(query: Float32Array, queryNorm: number, row: VectorRow): number {
  const vector = row.record.embedding;
  if (vector.length !== query.length || row.norm === 0 || queryNorm === 0) return 0;
  let dot = 0;
  for (let i = 0; i < query.length; i++) dot += query[i]! * vector[i]!;
  return dot / (row.norm * queryNorm);
}

export function norm(vector: Float32Array): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}

export class HeldVectors {
  private readonly matrix: RowMatrix;
  private readonly slotOf = new Map<string, number>();
  /** Slot → its row (the matrix holds the vector, this the record and norm). */
  private readonly rows: VectorRow[] = [];
  private norms = new Float64Array(64);

  private constructor(
    readonly dim: number,
    private readonly embedderId: string,
    module: WebAssembly.Module,
    capacity: number,
  ) {
    this.matrix = new RowMatrix(dim, Math.max(64, capacity), module);
    this.norms = new Float64Array(this.matrix.capacity);
  }

  /** The matrix of `rows` (a held partition's), or null where the SIMD kernel is unavailable. */
  static of(dim: number, embedderId: string, rows: Iterable<VectorRow>, count: number): HeldVectors | null {
    const module = loadKernelModule();
    if (!module) return null;
    const vectors = new HeldVectors(dim, embedderId, module, count);
    for (const row of rows) vectors.set(row);
    return vectors;
  }

  get size(): number {
    return this.rows.length;
  }

  /** Puts `row` in (or replaces it), or takes it out when it can no longer be a neighbour. */
  set(row: VectorRow): void {
    const { record } = row;
    if (record.invalidatedAt !== undefined || record.embedderId !== this.embedderId || record.embedding.length !== this.dim || row.norm === 0) {
      this.delete(record.id);
      return;
    }
    let slot = this.slotOf.get(record.id);
    if (slot === undefined) {
      slot = this.rows.length;
      if (slot >= this.matrix.capacity) {
        this.matrix.reserve(this.matrix.capacity * 2);
        const norms = new Float64Array(this.matrix.capacity);
        norms.set(this.norms);
        this.norms = norms;
      }
      this.slotOf.set(record.id, slot);
      this.rows.push(row);
    } else this.rows[slot] = row;
    this.norms[slot] = row.norm;
    this.matrix.writeVector(slot, record.embedding);
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    const last = this.rows.length - 1;
    const moved = this.rows.pop()!;
    if (slot === last) return;
    this.rows[slot] = moved;
    this.norms[slot] = this.norms[last]!;
    this.slotOf.set(moved.record.id, slot);
    this.matrix.moveVector(last, slot);
  }

  /**
   * For each query (`dim` long), the ids of the rows of `scope` whose cosine is ≥ `threshold`
   * (> 0), most similar first (ties by id), at most `limit`: what the plain scan returns.
   */
  nearest(queries: readonly Float32Array[], threshold: number, scope: MemoryRecord['scope'], limit: number, sessionId?: string): string[][] {
    const size = this.rows.length;
    const found = queries.map((): { id: string; cosine: number }[] => []);
    const { matrix } = this;
    const kernel = matrix.kernel!;
    const stride = matrix.stride;
    for (let first = 0; first < queries.length && size > 0; first += BATCH) {
      const batch = queries.slice(first, first + BATCH);
      const count = batch.length;
      const queryNorms = batch.map(norm);
      const queriesAt = matrix.scratch(count * stride * 4 + size * count * 4);
      const outAt = queriesAt + count * stride * 4;
      const packed = new Float32Array(matrix.buffer, queriesAt, count * stride);
      packed.fill(0);
      batch.forEach((query, q) => packed.set(query, q * stride));
      kernel.dots(0, size, stride, queriesAt, count, outAt);
      const dots = new Float32Array(matrix.buffer, outAt, size * count);
      // Per query, the dot a row must reach (over its norm) to be shortlisted.
      const floors = queryNorms.map((queryNorm) => (threshold - MARGIN) * queryNorm);
      const { norms, rows } = this;
      for (let slot = 0; slot < size; slot++) {
        const rowNorm = norms[slot]!;
        const at = slot * count;
        for (let q = 0; q < count; q++) {
          if (dots[at + q]! < floors[q]! * rowNorm) continue;
          const row = rows[slot]!;
          if (row.record.scope !== scope || (scope === 'session' && sessionId !== undefined && row.record.sessionId !== sessionId)) continue;
          const cosine = exactCosine(batch[q]!, queryNorms[q]!, row);
          if (cosine >= threshold) found[first + q]!.push({ id: row.record.id, cosine });
        }
      }
    }
    return found.map((hits) =>
      hits
        .sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : 1))
        .slice(0, limit)
        .map((hit) => hit.id),
    );
  }
}
