/**
 * One partition's rows in one linear memory: the vectors (each row `stride` floats, zero
 * padded to a multiple of 16 so the SIMD kernel needs no scalar tail), then the per-row
 * columns the kernel reads (filter tag, importance, updatedAt, decay), then a scratch area
 * for the current call (query, heap).
 *
 * With the WASM kernel the memory is a `WebAssembly.Memory` owned by this matrix, so rows are
 * written into it once, on load or on each write, and never copied per query. Without it the
 * same layout lives in a plain ArrayBuffer and the JS kernel reads it.
 *
 * Rule: views are invalid after any call that may grow (`reserve`, `scratch`); take them after.
 */
import { instantiateKernel, type KernelExports } from './wasm-kernel';

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
] as const;
type Column = (typeof COLUMNS)[number][0];

export class RowMatrix {
  readonly stride: number;
  readonly kernel: KernelExports | null;
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

  constructor(
    readonly dim: number,
    capacity: number,
    module: WebAssembly.Module | null,
  ) {
    this.stride = strideOf(dim);
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

  /** Row-major vectors, `capacity * stride` floats. */
  get vectors(): Float32Array {
    this.refresh();
    return this.vectorView;
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
      next.set(source.subarray(0, old * this.stride * 4));
      for (const [column, size] of COLUMNS) {
        const from = this.columnOffset(column, old);
        next.set(source.subarray(from, from + old * size), this.columnOffset(column, capacity));
      }
      this.plain = next.buffer;
    }
    this.capacityRows = capacity;
    this.viewBuffer = null;
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

  /** Bytes held (the whole linear memory, scratch included). */
  get byteLength(): number {
    return this.buffer.byteLength;
  }

  private columnOffset(column: Column, capacity: number): number {
    let offset = capacity * this.stride * 4;
    for (const [name, size] of COLUMNS) {
      if (name === column) return offset;
      offset += capacity * size;
    }
    throw new RangeError(`unknown column ${column}`);
  }

  private layoutBytes(capacity: number): number {
    return align16(this.columnOffset('decay', capacity) + capacity * 8);
  }

  private growMemory(bytes: number): void {
    const memory = this.memory!;
    const current = memory.buffer.byteLength;
    if (bytes <= current) return;
    // Grow by at least a quarter so repeated small writes do not grow page by page.
    const target = Math.max(bytes, current + (current >> 2));
    memory.grow(Math.ceil((target - current) / PAGE));
  }

  private refresh(): void {
    const buffer = this.buffer;
    if (buffer === this.viewBuffer && this.viewCapacity === this.capacityRows) return;
    const capacity = this.capacityRows;
    this.viewBuffer = buffer;
    this.viewCapacity = capacity;
    this.vectorView = new Float32Array(buffer, 0, capacity * this.stride);
    this.tagView = new Int32Array(buffer, this.columnOffset('tags', capacity), capacity);
    this.importanceView = new Float32Array(buffer, this.columnOffset('importance', capacity), capacity);
    this.updatedAtView = new Float64Array(buffer, this.columnOffset('updatedAt', capacity), capacity);
    this.decayView = new Float64Array(buffer, this.columnOffset('decay', capacity), capacity);
  }
}
