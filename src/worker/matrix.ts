/**
 * One partition's rows in one linear memory: the vectors (each row `stride` floats, zero
 * padded to a multiple of 16 so the SIMD kernel needs no scalar tail), then the per-row
 * columns the kernel reads (filter tag, importance, updatedAt, decay, scale), then a scratch
 * area for the current call (query, heap).
 *
 * With `codes: 'i8'` the linear memory holds 8-bit codes instead (`stride` bytes a row, one
 * scale per row: value ≈ code · scale), a quarter of the bytes to hold and to scan; the exact
 * re-rank (exact.ts) needs the candidates' f32 vectors, from the copy below or from the store.
 * `quantisationError` bounds how far a code's dot product may be off.
 * The codes are in blocks of four rows (code-layout.ts). A matrix of up to
 * {@link EXACT_COPY_BYTES} of f32 rows also keeps an f32 copy of them beside the codes (outside
 * the kernel's memory), so compute re-ranks its own candidates exactly in the scan call and the
 * store reads only the winners; past that size the copy is dropped and the re-rank reads the
 * candidates' vectors from the store.
 *
 * With the WASM kernel the memory is a `WebAssembly.Memory` owned by this matrix, so rows are
 * written into it once, on load or on each write, and never copied per query. Without it the
 * same layout lives in a plain ArrayBuffer and the JS kernel reads it.
 *
 * Rule: views are invalid after any call that may grow (`reserve`, `scratch`); take them after.
 */
import { CODE_LAYOUT, type RowCodes } from './api';
import { BLOCK, codeAt, codeBytesOf, codeOf, copyCodes, moveCodes, writeCodes } from './code-layout';
import { instantiateKernel, type KernelExports } from './wasm-kernel';
import { CodeColumns } from './columns';

const PAGE = 65_536;

/** Floats per row: `dim` rounded up to 16 (four v128 accumulators per kernel step). */
export function strideOf(dim: number): number {
  return Math.ceil(dim / 16) * 16;
}

function align16(bytes: number): number {
  return Math.ceil(bytes / 16) * 16;
}

/** Per-row columns after the vectors, in memory order, with their element sizes. */
const COLUMNS = [
  ['tags', 4],
  ['importance', 4],
  ['updatedAt', 8],
  ['decay', 8],
  ['scales', 4],
  ['errors', 4],
  ['norms', 4],
] as const;

export type VectorCodes = 'f32' | 'i8';

/**
 * Bytes an 8-bit matrix may spend on its f32 copy: 32 MiB, 32,768 rows at 256 dimensions
 * (21,845 at 384). Within it a retrieve re-ranks in compute and reads only its winners from the
 * store; the copy costs 4 bytes a dimension a row on top of the codes' one.
 */
export const EXACT_COPY_BYTES = 32 * 2 ** 20;
type Column = (typeof COLUMNS)[number][0];

export class RowMatrix {
  readonly stride: number;
  /** Bytes per row in the linear memory: `stride · 4` for f32, `stride` for 8-bit codes. */
  readonly rowBytes: number;
  readonly codes: VectorCodes;
  readonly kernel: KernelExports | null;
  /** 8-bit mode: the largest ‖row − code · scale‖₂ and ‖row‖₂ written so far (never lowered: a bound). */
  private maxError = 0;
  private maxNorm = 0;
  private capacityRows = 0;
  private readonly memory: WebAssembly.Memory | null;
  private plain: ArrayBuffer | null;
  private viewBuffer: ArrayBuffer | null = null;
  private viewCapacity = -1;
  private vectorView = new Float32Array(0);
  private tagView = new Int32Array(0);
  private importanceView = new Float32Array(0);
  private updatedAtView = new Float64Array(0);
  private decayView = new Float64Array(0);
  private scaleView = new Float32Array(0);
  private errorView = new Float32Array(0);
  private normView = new Float32Array(0);
  private codeView = new Int8Array(0);
  /** 8-bit mode: the rows in f32 (`dim` floats each, unpadded) while they fit EXACT_COPY_BYTES; null once dropped. */
  private exactCopy: Float32Array | null = null;
  /** 8-bit mode: the codes by dimension (columns.ts), from the first sparse query on; every code write keeps them. */
  private columns: CodeColumns | null = null;
  /** Whether a task to build {@link columns} is queued. */
  private columnsPending = false;
  /** Set by {@link retire}: the matrix is no longer held, so a queued build does not run. */
  private retired = false;
  private readonly module: WebAssembly.Module | null;
  /** 8-bit mode: whether a sparse query may take its dots from the codes by dimension ({@link sparseDots}); compute's `sparseScan: false` turns it off. */
  sparseScan = true;

  constructor(
    readonly dim: number,
    capacity: number,
    module: WebAssembly.Module | null,
    codes: VectorCodes = 'f32',
  ) {
    this.stride = strideOf(dim);
    this.module = module;
    // The codes need the SIMD kernel; the JS fallback always reads f32.
    this.codes = module ? codes : 'f32';
    this.rowBytes = this.codes === 'i8' ? this.stride : this.stride * 4;
    const bytes = this.layoutBytes(capacity);
    if (module) {
      this.memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
      this.kernel = instantiateKernel(module, this.memory);
      this.plain = null;
    } else {
      this.memory = null;
      this.kernel = null;
      this.plain = new ArrayBuffer(bytes);
    }
    this.capacityRows = capacity;
    if (this.codes === 'i8' && capacity * dim * 4 <= EXACT_COPY_BYTES) this.exactCopy = new Float32Array(capacity * dim);
  }

  /** Whether {@link exactRow} can answer: f32 mode, or 8-bit mode still within its f32 copy's budget. */
  get hasExactRows(): boolean {
    return this.codes === 'f32' || this.exactCopy !== null;
  }

  /** 8-bit mode: stops keeping the f32 copy (compute's `exactCopy: false`); every re-rank then reads the store. */
  dropExactCopy(): void {
    this.exactCopy = null;
  }

  get capacity(): number {
    return this.capacityRows;
  }

  get buffer(): ArrayBuffer {
    return this.memory ? this.memory.buffer : this.plain!;
  }

  /** Byte offset of a column at the current capacity. */
  offsetOf(column: Column): number {
    return this.columnOffset(column, this.capacityRows);
  }

  /** Byte offset where the scratch area starts. */
  get scratchOffset(): number {
    return this.layoutBytes(this.capacityRows);
  }

  /** Row-major vectors, `capacity * stride` floats (f32 mode only). */
  get vectors(): Float32Array {
    this.refresh();
    return this.vectorView;
  }

  /** The 8-bit codes (8-bit mode only), laid out as code-layout.ts says. */
  get codeBytes(): Int8Array {
    this.refresh();
    return this.codeView;
  }

  /** Per row: the scale of its codes (8-bit mode). */
  get scales(): Float32Array {
    this.refresh();
    return this.scaleView;
  }

  /**
   * 8-bit mode: row `row`'s own bound on |exact dot − code dot| for such a query (its code error
   * and code norm, not the matrix's largest): tighter than {@link quantisationError} for most rows.
   */
  rowQuantisationError(row: number, queryNorm: number, queryError: number): number {
    this.refresh();
    return this.errorView[row]! * queryNorm + queryError * (this.normView[row]! + this.errorView[row]!);
  }

  /** Row `row` in f32, `dim` floats (a view: copy it before the matrix changes). 8-bit mode: only while it keeps its f32 copy ({@link hasExactRows}). */
  exactRow(row: number): Float32Array {
    if (this.codes === 'i8') {
      if (!this.exactCopy) throw new RangeError('this 8-bit matrix is past its f32 copy budget; read the vectors from the store');
      return this.exactCopy.subarray(row * this.dim, (row + 1) * this.dim);
    }
    const offset = row * this.stride;
    return this.vectors.subarray(offset, offset + this.dim);
  }

  /** 8-bit mode: for a query with ‖q‖₂ = `queryNorm` quantised with error norm `queryError`, a bound on |exact dot − code dot| over every row. */
  quantisationError(queryNorm: number, queryError: number): number {
    return this.maxError * queryNorm + queryError * (this.maxNorm + this.maxError);
  }

  /** Writes row `row` from `dim` floats (codes and scale in 8-bit mode). */
  writeVector(row: number, source: Float32Array): void {
    if (this.codes === 'f32') {
      const vectors = this.vectors;
      const offset = row * this.stride;
      vectors.set(source, offset);
      vectors.fill(0, offset + this.dim, offset + this.stride);
      return;
    }
    this.writeExactRow(row, source);
    const { scale, error, norm } = writeCodes(this.codeBytes, row, source, this.dim, this.stride);
    this.scales[row] = scale;
    // Rounded up a little: the bound must hold after the kernel's f32 arithmetic too.
    this.errorView[row] = error * (1 + 1e-6);
    this.normView[row] = norm * (1 + 1e-6);
    this.maxError = Math.max(this.maxError, this.errorView[row]!);
    this.maxNorm = Math.max(this.maxNorm, this.normView[row]!);
    this.columns?.setRow(row, this.rowCodes(row));
  }

  /** Whether {@link writeStoredCodes} takes `codes`: this is an 8-bit matrix of the same stride and layout. */
  takes(codes: RowCodes): boolean {
    return this.codes === 'i8' && codes.stride === this.stride && codes.layout === CODE_LAYOUT;
  }

  /**
   * 8-bit mode: rows `[row, row + count)` from rows `[from, from + count)` of stored codes (see
   * {@link takes}), scales and bounds copied as they are: what {@link writeVector} wrote for
   * the same vectors, without quantising them again. Aligned whole blocks are one byte copy.
   */
  writeStoredCodes(row: number, codes: RowCodes, from: number, count: number): void {
    const { stride } = this;
    const target = this.codeBytes;
    // Only whole blocks of the rows written go as bytes: a partial block would overwrite its neighbours.
    const blocked = row % BLOCK === 0 && from % BLOCK === 0 ? count - (count % BLOCK) : 0;
    if (blocked) target.set(codes.bytes.subarray(from * stride, (from + blocked) * stride), row * stride);
    for (let i = blocked; i < count; i++) copyCodes(codes.bytes, from + i, target, row + i, stride);
    const errors = codes.errors.subarray(from, from + count);
    const norms = codes.norms.subarray(from, from + count);
    this.scales.set(codes.scales.subarray(from, from + count), row);
    this.errorView.set(errors, row);
    this.normView.set(norms, row);
    let maxError = this.maxError;
    let maxNorm = this.maxNorm;
    for (let i = 0; i < count; i++) {
      if (errors[i]! > maxError) maxError = errors[i]!;
      if (norms[i]! > maxNorm) maxNorm = norms[i]!;
    }
    this.maxError = maxError;
    this.maxNorm = maxNorm;
    if (this.columns) for (let i = 0; i < count; i++) this.columns.setRow(row + i, this.rowCodes(row + i));
  }

  /** 8-bit mode: rows `[start, end)` as stored codes (own buffers; the rows past `end` in its last block zero). */
  storedCodes(start: number, end: number): RowCodes {
    const { stride } = this;
    const count = end - start;
    const bytes = new Int8Array(codeBytesOf(count, stride));
    const source = this.codeBytes;
    if (start % BLOCK === 0) {
      bytes.set(source.subarray(start * stride, start * stride + codeBytesOf(count, stride)));
      // The block's rows past `end` may hold a removed row's codes: none may reach the store.
      for (let i = count; i % BLOCK !== 0; i++) for (let j = 0; j < stride; j += 16) bytes.fill(0, codeAt(i, j, stride), codeAt(i, j, stride) + 16);
    } else {
      for (let i = 0; i < count; i++) copyCodes(source, start + i, bytes, i, stride);
    }
    this.refresh();
    return { layout: CODE_LAYOUT, stride, bytes, scales: this.scaleView.slice(start, end), errors: this.errorView.slice(start, end), norms: this.normView.slice(start, end) };
  }

  /** Copies row `from`'s vector over row `to`'s (the partition's swap-remove). */
  moveVector(from: number, to: number): void {
    if (this.codes === 'f32') {
      this.vectors.copyWithin(to * this.stride, from * this.stride, (from + 1) * this.stride);
      return;
    }
    moveCodes(this.codeBytes, from, to, this.stride);
    this.columns?.moveRow(from, to);
    this.exactCopy?.copyWithin(to * this.dim, from * this.dim, (from + 1) * this.dim);
    this.scales[to] = this.scales[from]!;
    this.errorView[to] = this.errorView[from]!;
    this.normView[to] = this.normView[from]!;
  }

  /** Scope code (low 3 bits) | session number << 3. */
  get tags(): Int32Array {
    this.refresh();
    return this.tagView;
  }

  get importance(): Float32Array {
    this.refresh();
    return this.importanceView;
  }

  get updatedAt(): Float64Array {
    this.refresh();
    return this.updatedAtView;
  }

  /** `ln 2 / (halfLifeDays · day in ms)`: recency = exp(−age_ms · decay). */
  get decay(): Float64Array {
    this.refresh();
    return this.decayView;
  }

  /** Grows to hold `capacity` rows, keeping rows and columns. */
  reserve(capacity: number): void {
    if (capacity <= this.capacityRows) return;
    const old = this.capacityRows;
    const needed = this.layoutBytes(capacity);
    if (this.memory) {
      this.growMemory(needed);
      const bytes = new Uint8Array(this.memory.buffer);
      // Columns move up behind the longer vector block. Last column first: each one's new
      // place lies above every old column below it, so nothing is overwritten before it moved.
      for (const [column, size] of [...COLUMNS].reverse()) {
        const from = this.columnOffset(column, old);
        bytes.copyWithin(this.columnOffset(column, capacity), from, from + old * size);
      }
    } else {
      const next = new Uint8Array(needed);
      const source = new Uint8Array(this.plain!);
      next.set(source.subarray(0, old * this.rowBytes));
      for (const [column, size] of COLUMNS) {
        const from = this.columnOffset(column, old);
        next.set(source.subarray(from, from + old * size), this.columnOffset(column, capacity));
      }
      this.plain = next.buffer;
    }
    this.capacityRows = capacity;
    this.viewBuffer = null;
    this.columns?.reserve(capacity);
  }

  /** Makes room for `bytes` of scratch after the columns; returns its byte offset. */
  scratch(bytes: number): number {
    const offset = this.scratchOffset;
    const needed = offset + bytes;
    if (needed > this.buffer.byteLength) {
      if (this.memory) this.growMemory(needed);
      else {
        const next = new Uint8Array(needed);
        next.set(new Uint8Array(this.plain!, 0, offset));
        this.plain = next.buffer;
      }
      this.viewBuffer = null;
    }
    return offset;
  }

  /** Bytes held (the whole linear memory, scratch included, and the f32 copy and the codes by dimension of an 8-bit matrix). */
  get byteLength(): number {
    return this.buffer.byteLength + (this.exactCopy?.byteLength ?? 0) + (this.columns?.byteLength ?? 0);
  }

  /**
   * 8-bit mode: each of rows `[0, rows)`'s code dot with `query` (its signed codes), taken from
   * the codes by dimension (columns.ts) when the query has at most a quarter of its dimensions
   * nonzero; null otherwise (the row-major scan reads less then). The same integers as the
   * kernel's own dot less its correction (kernel.wat `sparse8`). The first such query answers
   * from the row-major scan and has the columns built in a task of their own right after it
   * (`rowsNow`: the rows then), so a cold start's first answer does not wait for them (about
   * 50 ms at 100k × 256 in Chromium); the next query finds them.
   */
  sparseDots(query: Int16Array, rows: number, rowsNow: () => number): Int32Array | null {
    if (this.codes !== 'i8' || !this.module || !this.sparseScan) return null;
    const dims: number[] = [];
    const codes: number[] = [];
    for (let d = 0; d < this.dim; d++) {
      if (query[d] === 0) continue;
      dims.push(d);
      codes.push(query[d]!);
    }
    if (dims.length * 4 > this.dim) return null;
    if (!this.columns) {
      this.buildColumnsSoon(rowsNow);
      return null;
    }
    return this.columns.dots(dims, codes, rows);
  }

  /**
   * Its holder let it go (compute dropped or replaced the partition): a column build queued by
   * {@link sparseDots} does not run (at 100k × 256 it would allocate and fill 25 MB for nothing).
   */
  retire(): void {
    this.retired = true;
  }

  /** Builds the codes by dimension in a task after this one; writes until then are in the codes it reads. */
  private buildColumnsSoon(rowsNow: () => number): void {
    if (this.columnsPending) return;
    this.columnsPending = true;
    setTimeout(() => {
      this.columnsPending = false;
      if (this.retired || this.columns || !this.module) return;
      const columns = new CodeColumns(this.dim, this.capacityRows, this.module);
      columns.setRows(this.codeBytes, Math.min(rowsNow(), this.capacityRows), this.stride);
      this.columns = columns;
    }, 0);
  }

  /** 8-bit mode: row `row`'s `dim` signed codes, read back from the block layout (even codes are stored + 128). */
  private rowCodes(row: number): Int16Array {
    const out = (this.rowScratch ??= new Int16Array(this.dim));
    const bytes = this.codeBytes;
    const { stride } = this;
    for (let j = 0; j < this.dim; j++) out[j] = codeOf(bytes, row, j, stride);
    return out;
  }
  private rowScratch: Int16Array | null = null;

  /**
   * 8-bit mode: row `row`'s f32 vector into the f32 copy only (its codes written by
   * {@link writeVector} or {@link writeStoredCodes}; a row written from codes without it ends
   * the copy, {@link dropExactCopy}, which must never answer for a row it does not hold). The
   * copy grows by doubling up to its budget and is dropped for good past it.
   */
  writeExactRow(row: number, source: Float32Array): void {
    let copy = this.exactCopy;
    if (!copy) return;
    const { dim } = this;
    if ((row + 1) * dim > copy.length) {
      const rows = Math.max(row + 1, Math.min(2 * (copy.length / dim), Math.floor(EXACT_COPY_BYTES / 4 / dim)), 64);
      if (rows * dim * 4 > EXACT_COPY_BYTES) {
        this.exactCopy = null;
        return;
      }
      const next = new Float32Array(rows * dim);
      next.set(copy);
      this.exactCopy = copy = next;
    }
    copy.set(source.subarray(0, dim), row * dim);
  }

  // The vector area: whole blocks of four rows in 8-bit mode.
  private vectorBytes(capacity: number): number {
    return (this.codes === 'i8' ? Math.ceil(capacity / BLOCK) * BLOCK : capacity) * this.rowBytes;
  }

  private columnOffset(column: Column, capacity: number): number {
    let offset = this.vectorBytes(capacity);
    for (const [name, size] of COLUMNS) {
      if (name === column) return offset;
      offset += capacity * size;
    }
    throw new RangeError(`unknown column ${column}`);
  }

  private layoutBytes(capacity: number): number {
    return align16(this.columnOffset('norms', capacity) + capacity * 4);
  }

  private growMemory(bytes: number): void {
    const memory = this.memory!;
    const current = memory.buffer.byteLength;
    if (bytes <= current) return;
    // Grow by at least a quarter so repeated small writes do not grow page by page.
    const target = Math.max(bytes, current + (current >> 2));
    memory.grow(Math.ceil((target - current) / PAGE));
    this.viewBuffer = null;
  }

  private refresh(): void {
    // Only growMemory and reserve replace the buffer (the kernel never grows its memory), and
    // both drop the views: so a view set taken at this capacity is current without asking
    // WebAssembly.Memory for its buffer, which costs more than the write it guards.
    if (this.viewBuffer !== null && this.viewCapacity === this.capacityRows) return;
    const buffer = this.buffer;
    const capacity = this.capacityRows;
    this.viewBuffer = buffer;
    this.viewCapacity = capacity;
    if (this.codes === 'f32') this.vectorView = new Float32Array(buffer, 0, capacity * this.stride);
    else this.codeView = new Int8Array(buffer, 0, this.vectorBytes(capacity));
    this.tagView = new Int32Array(buffer, this.columnOffset('tags', capacity), capacity);
    this.importanceView = new Float32Array(buffer, this.columnOffset('importance', capacity), capacity);
    this.updatedAtView = new Float64Array(buffer, this.columnOffset('updatedAt', capacity), capacity);
    this.decayView = new Float64Array(buffer, this.columnOffset('decay', capacity), capacity);
    this.scaleView = new Float32Array(buffer, this.columnOffset('scales', capacity), capacity);
    this.errorView = new Float32Array(buffer, this.columnOffset('errors', capacity), capacity);
    this.normView = new Float32Array(buffer, this.columnOffset('norms', capacity), capacity);
  }
}
