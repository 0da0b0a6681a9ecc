/**
 * Loads the WebAssembly SIMD scan kernel (kernel.wat, shipped as bytes in kernel-wasm.ts).
 * The module is compiled once per realm, synchronously: it is ~1 kB, under the 4 kB limit
 * browsers put on synchronous compilation on the main thread. Where WebAssembly or its SIMD
 * proposal is missing, `loadKernelModule()` returns null and compute uses the JS kernel.
 */
import { KERNEL_WASM_BASE64 } from './kernel-wasm';

/** The kernel's exports, bound to one linear memory. All pointers are byte offsets. */
export interface KernelExports {
  scan(
    vectors: number,
    tags: number,
    importance: number,
    updatedAt: number,
    decay: number,
    rows: number,
    stride: number,
    query: number,
    mask: number,
    session: number,
    relevanceWeight: number,
    recencyWeight: number,
    importanceWeight: number,
    recencyMax: number,
    now: number,
    heap: number,
    k: number,
  ): number;
  dots(vectors: number, rows: number, stride: number, queries: number, queryCount: number, out: number): void;
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
  return cached;
}

/** Instantiates the kernel over `memory` (one instance per partition matrix). */
export function instantiateKernel(module: WebAssembly.Module, memory: WebAssembly.Memory): KernelExports {
  const instance = new WebAssembly.Instance(module, { env: { memory, exp: Math.exp } });
  return instance.exports as unknown as KernelExports;
}
