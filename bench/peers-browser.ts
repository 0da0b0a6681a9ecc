/** The peers table's browser side (`npm run bench:browser -- --peers`): memory from the UA's own measurement, voy-search's wasm by URL. */
// @ts-expect-error voy-search declares only its bundler entry; this is that entry's own glue module.
import * as glue from 'voy-search/voy_search_bg.js';
import voyWasm from 'voy-search/voy_search_bg.wasm?url';
import type { PeersEnvironment } from '../scripts/bench-peers';

type Glue = Record<string, unknown> & { __wbg_set_wasm(exports: unknown): void };

async function loadVoy(): Promise<typeof import('voy-search')> {
  const { instance } = await WebAssembly.instantiateStreaming(fetch(voyWasm), { './voy_search_bg.js': glue as unknown as WebAssembly.ModuleImports });
  (glue as unknown as Glue).__wbg_set_wasm(instance.exports);
  return glue as unknown as typeof import('voy-search');
}

type MemoryMeasure = { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> };

export const browserPeers = (label: string): PeersEnvironment => ({
  label,
  // Cross-origin isolated pages can ask Chromium for every byte the page holds (JS heaps, ArrayBuffers, wasm memories).
  // Chromium answers at its next garbage collection, which after a big build can take tens of seconds.
  async resident() {
    (globalThis as { gc?: () => void }).gc?.();
    const measure = (performance as unknown as MemoryMeasure).measureUserAgentSpecificMemory;
    if (!measure || !crossOriginIsolated) return null;
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000));
    const result = await Promise.race([measure.call(performance), timeout]);
    return result ? result.bytes : null;
  },
  loadVoy,
});
