/// <reference types="vitest/config" />
import { defineConfig } from 'vite';

// One config, switched on `mode`: the default builds the library (ESM + the worker as its
// own file), `--mode demo` builds the demo page. `base: './'` in both: with the default '/'
// the emitted worker URL points at the site root and breaks for anyone serving from a path.
export default defineConfig(({ mode }) => {
  if (mode === 'demo') {
    return {
      root: 'demo',
      base: './',
      worker: { format: 'es' },
      build: { outDir: '../dist-demo', emptyOutDir: true, target: 'es2022' },
      preview: { host: '127.0.0.1', port: 4173, strictPort: false },
    };
  }
  return {
    base: './',
    worker: { format: 'es' },
    build: {
      target: 'es2022',
      // Readable output: a user's stack trace names engram's functions (`at consolidate`, not
      // `at Z`), and the maps (sources inlined) lead into src/ without shipping it.
      minify: false,
      sourcemap: true,
      lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'engram.js' },
      rollupOptions: { external: ['dexie', 'comlink', 'zod'] },
    },
    test: {
      // The JSON report is what .ci/run reads to print its closing 'N passed, N failed' line.
      reporters: ['default', ['json', { outputFile: 'artifacts/test-results.json' }]],
      projects: [
        {
          test: {
            name: 'unit',
            environment: 'node',
            include: ['test/**/*.test.ts'],
            exclude: ['test/e2e/**'],
            testTimeout: 30_000,
          },
        },
        {
          test: {
            name: 'e2e',
            environment: 'node',
            include: ['test/e2e/**/*.test.ts'],
            testTimeout: 120_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
