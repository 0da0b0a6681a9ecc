/**
 * The plan's embeddings as sparse rows in flat arrays, for the sweep's scan (working-set.ts): a
 * fact of a long ingest is compared with every memory the call made before it, and that scan is
 * the one part of a call whose cost grows with the call's length twice over. A hash embedder's
 * text lights up about a tenth of its dimensions (a fact some 25 of 256), so a row holds only its
 * nonzero entries, every row in the same two arrays; the scan reads them in order and keeps the
 * best `k` as it goes instead of listing every memory at or above the threshold (half the call's
 * memories, in a batch of alike facts) and sorting them. A dense embedder's rows hold every
 * dimension and cost what a dot product did.
 *
 * A row's similarity is `dot(embedding, query)` (embed/vector.ts) exactly: the same products
 * added in the same order, less those of a zero entry, which are ±0 against a finite query and
 * leave a sum as it was (a sum that starts at +0 never becomes −0 in round-to-nearest). So
 * the sweep ranks and cuts at the threshold as the walk of every memory did, to the last bit.
 */

/** The rows' similarities to one query, as {@link SparseRows.closest} keeps them. */
export interface Closest {
  /** Row numbers, most similar first; of equal ones, the lower row first. */
  rows: number[];
  similarities: number[];
}

export class SparseRows {
  private dims = new Uint32Array(1024);
  private values = new Float32Array(1024);
  /** Row r's entries are [starts[r], starts[r + 1]). */
  private starts = new Int32Array(257);
  private live = new Uint8Array(256);
  private used = 0;
  /** How many rows were added (removed ones included). */
  count = 0;
  /** The highest dimension any row holds (−1 for none). */
  private widest = -1;

  /** Adds `embedding` as the next row; returns its number. */
  add(embedding: Float32Array): number {
    let nonzero = 0;
    for (let i = 0; i < embedding.length; i++) if (embedding[i] !== 0) nonzero++;
    this.reserve(nonzero);
    for (let i = 0; i < embedding.length; i++) {
      if (embedding[i] === 0) continue;
      this.dims[this.used] = i;
      this.values[this.used++] = embedding[i]!;
    }
    if (nonzero > 0) this.widest = Math.max(this.widest, this.dims[this.used - 1]!);
    const row = this.count++;
    this.live[row] = 1;
    this.starts[this.count] = this.used;
    return row;
  }

  /** Leaves row `row` out of every later {@link closest}. */
  remove(row: number): void {
    this.live[row] = 0;
  }

  /** `dot(embedding, query)` of row `row`'s embedding; `query` finite (see the module's note). */
  similarity(row: number, query: Float32Array): number {
    const { dims, values } = this;
    const length = query.length;
    const end = this.starts[row + 1]!;
    let sum = 0;
    for (let k = this.starts[row]!; k < end; k++) {
      const i = dims[k]!;
      if (i >= length) break;
      sum += values[k]! * query[i]!;
    }
    return sum;
  }

  /**
   * The `k` live rows most similar to `query` at or above `threshold`: of equal similarities the
   * lower row first, as a stable sort of every row at or above it would begin. `query` finite.
   */
  closest(query: Float32Array, threshold: number, k: number): Closest {
    const { dims, values, starts, live } = this;
    // A row reaching past the query's dimensions (another embedder's) is read as `similarity` reads it.
    if (this.widest >= query.length) return this.closestBy((row) => this.similarity(row, query), threshold, k);
    const q = Float64Array.from(query);
    const rows: number[] = [];
    const similarities: number[] = [];
    // What a row must beat to be kept: the threshold, then (once k are kept) the last kept.
    let bar = -Infinity;
    for (let row = 0; row < this.count; row++) {
      if (live[row] === 0) continue;
      const end = starts[row + 1]!;
      let sum = 0;
      for (let e = starts[row]!; e < end; e++) sum += values[e]! * q[dims[e]!]!;
      if (sum >= threshold && sum > bar) bar = keep(rows, similarities, row, sum, k);
    }
    return { rows, similarities };
  }

  /** {@link closest} with each live row's similarity from `measure`. */
  private closestBy(measure: (row: number) => number, threshold: number, k: number): Closest {
    const rows: number[] = [];
    const similarities: number[] = [];
    let bar = -Infinity;
    for (let row = 0; row < this.count; row++) {
      if (this.live[row] === 0) continue;
      const sum = measure(row);
      if (sum >= threshold && sum > bar) bar = keep(rows, similarities, row, sum, k);
    }
    return { rows, similarities };
  }

  private reserve(nonzero: number): void {
    if (this.used + nonzero > this.dims.length) {
      const size = Math.max(this.dims.length * 2, this.used + nonzero);
      this.dims = grown(this.dims, new Uint32Array(size));
      this.values = grown(this.values, new Float32Array(size));
    }
    // Room for the next row: its live flag and its end (starts holds one more than live).
    if (this.count === this.live.length) {
      this.live = grown(this.live, new Uint8Array(this.live.length * 2));
      this.starts = grown(this.starts, new Int32Array(this.live.length + 1));
    }
  }
}

/**
 * Keeps `row` (at `similarity`, above the bar) among the `k` most similar: most similar first, and
 * a later row equal to one kept after it. Returns the new bar: what a row must beat once k are kept.
 */
function keep(rows: number[], similarities: number[], row: number, similarity: number, k: number): number {
  let at = rows.length === k ? k - 1 : rows.length;
  while (at > 0 && similarity > similarities[at - 1]!) {
    rows[at] = rows[at - 1]!;
    similarities[at] = similarities[at - 1]!;
    at--;
  }
  rows[at] = row;
  similarities[at] = similarity;
  return rows.length === k ? similarities[k - 1]! : -Infinity;
}

function grown<T extends Uint32Array | Float32Array | Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
