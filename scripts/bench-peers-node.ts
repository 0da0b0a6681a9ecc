/** The peers table's Node side (`npm run bench -- --peers`): memory from process.memoryUsage, voy-search instantiated by hand. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PeersEnvironment } from './bench-peers';

/** voy-search ships a bundler build (an ESM import of its .wasm); under Node its glue is instantiated by hand. */
async function loadVoy(): Promise<typeof import('voy-search')> {
  const require = createRequire(import.meta.url);
  // @ts-expect-error voy-search declares only its bundler entry; this is that entry's own glue module.
  const glue = (await import('voy-search/voy_search_bg.js')) as Record<string, unknown> & { __wbg_set_wasm(exports: unknown): void };
  const bytes = await readFile(require.resolve('voy-search/voy_search_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './voy_search_bg.js': glue as WebAssembly.ModuleImports });
  glue.__wbg_set_wasm(instance.exports);
  return glue as unknown as typeof import('voy-search');
}

export const nodePeers: PeersEnvironment = {
  label: `Node ${process.versions.node}`,
  // JS heap plus memory outside it (ArrayBuffers, WebAssembly memories), after gc.
  async resident() {
    // Twice, a task apart: memory an engine frees only once it is unreachable (PGlite's
    // WebAssembly heap) goes on the first, so it is not counted against the next engine.
    for (let round = 0; round < 2; round++) {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  },
  loadVoy,
};
