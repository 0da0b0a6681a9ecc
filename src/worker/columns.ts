/**
 * An 8-bit matrix's codes held a second time, dimension by dimension: for each dimension, every
 * row's code for it (signed, one byte). A query with few nonzero dimensions then takes its code
 * dot with every row from those columns alone (kernel.wat `sparse8`): the built-in hash
 * embedder's query has about 24 nonzero of 256 or 384 dimensions (a short text's words and
 * trigrams), so the scan reads a tenth of the codes instead of all of them. The integers are the
 * row-major scan's, so the scores, the candidates and the exactness proof are the same.
 *
 * Kept in a linear memory of its own, with its own instance of the kernel: growing it relays
 * every column, and the matrix's memory layout stays as it is. Built in the task after the first
 * query that would use it (matrix.ts `sparseDots`; that query takes the row-major scan), then
 * kept up to date by every write of the matrix's codes.
 * Costs one byte a dimension a row, as the codes do.
 */
import { codeOf } from './code-layout';
import { instantiateKernel, type KernelExports } from './wasm-kernel';

const PAGE = 65_536;

/** Rows per kernel step: a column's codes are read 16 at a time. */
const ROWS_PER_STEP = 16;

/** Blocks of four rows `setRows` copies into scratch at a time (384 kB at 384 dimensions). */
const SLAB_BLOCKS = 256;

export class CodeColumns {
  private readonly memory: WebAssembly.Memory;
  private readonly kernel: KernelExports;
  /** Rows each column has room for: a multiple of 16. */
  private capacity = 0;
  private bytes = new Int8Array(0);

  constructor(
    readonly dim: number,
    capacity: number,
    module: WebAssembly.Module,
  ) {
    this.memory = new WebAssembly.Memory({ initial: 1 });
    this.kernel = instantiateKernel(module, this.memory);
    this.reserve(capacity);
  }

  /** Bytes held (the whole linear memory). */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Room for `rows` rows in every column; what the columns held stays. */
  reserve(rows: number): void {
    const capacity = Math.ceil(Math.max(rows, 1) / ROWS_PER_STEP) * ROWS_PER_STEP;
    if (capacity <= this.capacity) return;
    const old = this.capacity;
    const needed = this.layoutBytes(capacity);
    if (needed > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((needed - this.memory.buffer.byteLength) / PAGE));
    const bytes = new Int8Array(this.memory.buffer);
    // Each column moves up to its new place, the last first: every one's new start lies at or
    // above its old one, and above every column not yet moved, so nothing is overwritten before it moved.
    for (let d = this.dim - 1; d >= 0 && old > 0; d--) {
      bytes.copyWithin(d * capacity, d * old, d * old + old);
      bytes.fill(0, d * capacity + old, (d + 1) * capacity);
    }
    this.capacity = capacity;
    this.bytes = bytes;
  }

  /** Row `row`'s codes (`dim` signed codes, value ≈ code · the row's scale). */
  setRow(row: number, codes: ArrayLike<number>): void {
    const { bytes, capacity } = this;
    for (let d = 0; d < this.dim; d++) bytes[d * capacity + row] = codes[d]!;
  }

  /**
   * Rows `[0, rows)` from the matrix's row-major codes (code-layout.ts: blocks of four rows, 16
   * codes of each in turn, even codes stored + 128), in the source's order, a block's four codes
   * of one dimension side by side in its column. The whole blocks' whole 16-code chunks are
   * copied here in slabs and transposed by the kernel (`columns8`); a last part block, and the
   * codes past the last whole chunk of a dimension count that is not a multiple of 16, in JS.
   */
  setRows(source: Int8Array, rows: number, stride: number): void {
    const blocks = rows >> 2;
    const chunks = this.dim >> 4;
    if (blocks > 0 && chunks > 0) {
      const slabBytes = Math.min(blocks, SLAB_BLOCKS) * 4 * stride;
      const at = this.layoutBytes(this.capacity);
      this.room(at + slabBytes);
      for (let block = 0; block < blocks; block += SLAB_BLOCKS) {
        const count = Math.min(SLAB_BLOCKS, blocks - block);
        const from = block * 4 * stride;
        this.bytes.set(source.subarray(from, from + count * 4 * stride), at);
        this.kernel.columns8(at, count, stride, chunks, 0, this.capacity, block * 4);
      }
    }
    if (chunks * 16 < this.dim) this.setCodes(source, 0, blocks * 4, chunks * 16, stride);
    if (blocks * 4 < rows) this.setCodes(source, blocks * 4, rows, 0, stride);
  }

  /** Rows `[from, to)`, their codes from dimension `first` on, one byte at a time. */
  private setCodes(source: Int8Array, from: number, to: number, first: number, stride: number): void {
    const { bytes, capacity, dim } = this;
    for (let row = from; row < to; row++) for (let j = first; j < dim; j++) bytes[j * capacity + row] = codeOf(source, row, j, stride);
  }

  /** Copies row `from` over row `to` (the matrix's swap-remove). */
  moveRow(from: number, to: number): void {
    const { bytes, capacity } = this;
    for (let d = 0; d < this.dim; d++) bytes[d * capacity + to] = bytes[d * capacity + from]!;
  }

  /**
   * Each of rows `[0, n)`'s code dot with the query's nonzero codes (`dims[i]` holds
   * `codes[i]`, |code| ≤ 127): a view of the kernel's output, valid until the next call.
   */
  dots(dims: readonly number[], codes: readonly number[], n: number): Int32Array {
    const rows = Math.ceil(n / ROWS_PER_STEP) * ROWS_PER_STEP;
    // In pairs (kernel.wat sparse8): two column addresses and one i32 of both codes per pair.
    const pairs = Math.ceil(dims.length / 2);
    const columnsAt = this.layoutBytes(this.capacity);
    const codesAt = columnsAt + pairs * 8;
    const outAt = Math.ceil((codesAt + pairs * 4) / 16) * 16;
    this.room(outAt + rows * 4);
    const words = new Int32Array(this.memory.buffer, columnsAt, pairs * 3);
    for (let p = 0; p < pairs; p++) {
      const first = dims[2 * p]!;
      const lone = 2 * p + 1 === dims.length;
      words[2 * p] = first * this.capacity;
      words[2 * p + 1] = (lone ? first : dims[2 * p + 1]!) * this.capacity;
      words[2 * pairs + p] = (codes[2 * p]! & 0xffff) | ((lone ? 0 : codes[2 * p + 1]!) << 16);
    }
    this.kernel.sparse8(columnsAt, codesAt, pairs, n, outAt);
    return new Int32Array(this.memory.buffer, outAt, n);
  }

  /** Grows the memory to at least `bytes` (the columns, then scratch after them). */
  private room(bytes: number): void {
    if (bytes <= this.memory.buffer.byteLength) return;
    this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE));
    this.bytes = new Int8Array(this.memory.buffer);
  }

  private layoutBytes(capacity: number): number {
    return Math.ceil((this.dim * capacity) / 16) * 16;
  }
}
