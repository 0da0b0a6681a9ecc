/**
 * Loads the WebAssembly SIMD scan kernel (kernel.wat, shipped as bytes in kernel-wasm.ts).
 * The module is compiled once per realm, synchronously: it is ~1 kB, under the 4 kB limit
 * browsers put on synchronous compilation on the main thread. Where WebAssembly or its SIMD
 * proposal is missing, `loadKernelModule()` returns null and compute uses the JS kernel.
 */
import { KERNEL_WASM_BASE64 } from './kernel-wasm';

/** The scans' leading arguments: the matrix columns (byte offsets), the row count and stride, the query. */
type ScanColumns = [vectors: number, tags: number, importance: number, updatedAt: number, decay: number, rows: number, stride: number, query: number];
/** The row filter (scope mask, session number). */
type ScanFilter = [mask: number, session: number];
/** The blend weights, the clock and the heap. */
type ScanBlend = [relevanceWeight: number, recencyWeight: number, importanceWeight: number, recencyMax: number, now: number, heap: number, k: number, lexicalScores: number, lexicalWeight: number];

/** The kernel's exports, bound to one linear memory. All pointers are byte offsets. */
export interface KernelExports {
  /** The f32 scan: rows of `stride` floats, query `stride` floats; returns the heap entries written. */
  scan(...args: [...ScanColumns, ...ScanFilter, ...ScanBlend]): number;
  /**
   * The 8-bit scan (rows as code-layout.ts lays them out), the query packed by quantised.ts `packQuery`
   * with its `correction`; per-row columns are read 16 bytes at a time (keep them readable past
   * the last row) and 32 bytes after the heap are scratch.
   */
  scan8(...args: [...ScanColumns, correction: number, ...ScanFilter, ...ScanBlend, scales: number, dots: number]): number;
  /**
   * Code dots of rows `[0, rows)` from codes held by dimension (columns.ts), the query's
   * dimensions in `pairs`: two column addresses per pair at `columns` (i32s) and the pair's two
   * query codes at `codes` (one i32, the first in its low 16 bits); out[row] an i32, for rows
   * rounded up to 16. `dots` of scan8, when not 0, is such an output: scan8 then reads it
   * instead of computing the dots from the row-major codes.
   */
  sparse8(columns: number, codes: number, pairs: number, rows: number, out: number): void;
  /** The codes by dimension from `blocks` blocks of 8-bit rows at `src`, `chunks` 16-code chunks each: column d of row r at out + d · capacity + row0 + r. */
  columns8(src: number, blocks: number, stride: number, chunks: number, out: number, capacity: number, row0: number): void;
  /** f32 rows against `queryCount` f32 queries: out[row · queryCount + q]. */
  dots(vectors: number, rows: number, stride: number, queries: number, queryCount: number, out: number): void;
  /** 8-bit rows against packed queries (one i32 correction each): out[q · rows + row], `rows` rounded up to 4. */
  dots8(vectors: number, rows: number, stride: number, queries: number, corrections: number, queryCount: number, out: number, scales: number): void;
  read(pointer: number, bytes: number): number;
}

let cached: WebAssembly.Module | null | undefined;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The compiled kernel, or null where WebAssembly SIMD is unavailable. */
export function loadKernelModule(): WebAssembly.Module | null {
  if (cached !== undefined) return cached;
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') return (cached = null);
  const bytes = decodeBase64(KERNEL_WASM_BASE64);
  // The kernel uses v128 throughout, so validating it is the SIMD feature test.
  cached = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  if (cached) warmUp(cached);
  return cached;
}

/**
 * Runs the kernel a few hundred times on a small matrix so V8 tiers it up to optimised code
 * (compiled in the background) while the caller is still loading its vectors. Without this the
 * first queries of a page ran in the baseline tier: a 100k scan took 7.8 ms instead of 4.7 ms in
 * Chromium when nothing had warmed it up. Costs a few milliseconds once per realm.
 */
function warmUp(module: WebAssembly.Module): void {
  const rows = 128;
  const stride = 256;
  const memory = new WebAssembly.Memory({ initial: 4 });
  const kernel = instantiateKernel(module, memory);
  const vectors = 0;
  const tags = vectors + rows * stride * 4;
  const importance = tags + rows * 4;
  const updatedAt = importance + rows * 4;
  const decay = updatedAt + rows * 8;
  const query = decay + rows * 8;
  const heap = query + stride * 4;
  const out = heap + 16 * 8 + 32;
  const zeros = out + rows * 4 * 2;
  const floats = new Float32Array(memory.buffer, 0, rows * stride);
  for (let i = 0; i < floats.length; i++) floats[i] = ((i * 2654435761) % 1000) / 1000;
  new Int32Array(memory.buffer, tags, rows).fill(1);
  new Float32Array(memory.buffer, importance, rows).fill(0.5);
  new Float64Array(memory.buffer, decay, rows).fill(1e-9);
  new Float32Array(memory.buffer, query, stride).set(floats.subarray(0, stride));
  // Both scans read the same bytes: the 8-bit one as codes (rows · stride · 4 of them), the query as i16.
  const columns = [vectors, tags, importance, updatedAt, decay, rows, stride, query] as const;
  const blend = [0.6, 0.25, 0.15, 0.25, 1, heap, 10, importance] as const;
  for (let i = 0; i < 300; i++) {
    kernel.scan(...columns, 1, 0, ...blend, i & 1);
    kernel.scan8(...columns, 0, 1, 0, ...blend, i & 1, importance, 0);
    kernel.dots(vectors, rows, stride, query, 1, out);
    kernel.dots8(vectors, rows, stride, query, tags, 1, out, importance);
    // Two pairs of columns at address 0 (the zeros below say so), their codes 0.
    kernel.sparse8(zeros, zeros, 2, rows, zeros + 64);
    // The first rows' bytes as 8-bit rows, by dimension (rows · stride bytes), after the zeros.
    if (i % 30 === 0) kernel.columns8(vectors, rows / 4, stride, stride / 16, zeros + 4096, rows, 0);
  }
  kernel.read(0, rows * stride * 4);
}

/** Instantiates the kernel over `memory` (one instance per partition matrix). */
export function instantiateKernel(module: WebAssembly.Module, memory: WebAssembly.Memory): KernelExports {
  const instance = new WebAssembly.Instance(module, { env: { memory, exp: Math.exp } });
  return instance.exports as unknown as KernelExports;
}
