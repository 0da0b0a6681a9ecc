/**
 * One partition's rows in one linear memory: the vectors (each row `stride` floats, zero
 * padded to a multiple of 16 so the SIMD kernel needs no scalar tail) followed by one i32
 * filter tag per row, then a scratch area for the current call (bias, query, heap).
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

export class RowMatrix {
  readonly stride: number;
  readonly kernel: KernelExports | null;
  private capacityRows = 0;
  private readonly memory: WebAssembly.Memory | null;
  private plain: ArrayBuffer | null;
  private viewBuffer: ArrayBuffer | null = null;
  private vectorView = new Float32Array(0);
  private tagView = new Int32Array(0);

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

  /** Byte offset of the tag column. */
  get tagsOffset(): number {
    return this.capacityRows * this.stride * 4;
  }

  /** Byte offset where the scratch area starts. */
  get scratchOffset(): number {
    return align16(this.tagsOffset + this.capacityRows * 4);
  }

  /** Row-major vectors, `capacity * stride` floats. */
  get vectors(): Float32Array {
    this.refresh();
    return this.vectorView;
  }

  get tags(): Int32Array {
    this.refresh();
    return this.tagView;
  }

  /** Grows to hold `capacity` rows, keeping rows and tags. */
  reserve(capacity: number): void {
    if (capacity <= this.capacityRows) return;
    const oldTags = this.tagsOffset;
    const oldCapacity = this.capacityRows;
    const needed = this.layoutBytes(capacity);
    if (this.memory) {
      this.growMemory(needed);
      this.capacityRows = capacity;
      // The tag column moves up behind the longer vector block; copyWithin handles the overlap.
      new Uint8Array(this.memory.buffer).copyWithin(this.tagsOffset, oldTags, oldTags + oldCapacity * 4);
    } else {
      const next = new ArrayBuffer(needed);
      const bytes = new Uint8Array(next);
      bytes.set(new Uint8Array(this.plain!, 0, oldCapacity * this.stride * 4));
      this.capacityRows = capacity;
      bytes.set(new Uint8Array(this.plain!, oldTags, oldCapacity * 4), this.tagsOffset);
      this.plain = next;
    }
    this.viewBuffer = null;
  }

  /** Makes room for `bytes` of scratch after the tags; returns its byte offset. */
  scratch(bytes: number): number {
    const offset = this.scratchOffset;
    const needed = offset + bytes;
    if (needed > this.buffer.byteLength) {
      if (this.memory) this.growMemory(needed);
      else {
        const next = new ArrayBuffer(needed);
        new Uint8Array(next).set(new Uint8Array(this.plain!, 0, offset));
        this.plain = next;
      }
      this.viewBuffer = null;
    }
    return offset;
  }

  /** Bytes held (the whole linear memory, scratch included). */
  get byteLength(): number {
    return this.buffer.byteLength;
  }

  private layoutBytes(capacity: number): number {
    return align16(capacity * this.stride * 4 + capacity * 4);
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
    if (buffer === this.viewBuffer && this.vectorView.length === this.capacityRows * this.stride) return;
    this.viewBuffer = buffer;
    this.vectorView = new Float32Array(buffer, 0, this.capacityRows * this.stride);
    this.tagView = new Int32Array(buffer, this.tagsOffset, this.capacityRows);
  }
}
