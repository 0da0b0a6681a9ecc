/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import type { TestSequencerConstructor, TestSpecification } from 'vitest/node';

// The adapter entries import engram by its package name, so in the build they share the main
// entry's module (one set of error classes) instead of bundling a copy; tests resolve the
// names to the sources, as tsconfig's `paths` does for the type checker.
const SELF = [
  { find: /^engram$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  { find: /^engram\/mem0$/, replacement: fileURLToPath(new URL('./src/adapters/mem0/index.ts', import.meta.url)) },
  { find: /^engram\/ai-sdk$/, replacement: fileURLToPath(new URL('./src/adapters/ai-sdk.ts', import.meta.url)) },
  { find: /^engram\/openai$/, replacement: fileURLToPath(new URL('./src/adapters/openai/index.ts', import.meta.url)) },
  { find: /^engram\/chrome-ai$/, replacement: fileURLToPath(new URL('./src/adapters/chrome-ai/index.ts', import.meta.url)) },
  { find: /^engram\/transformers$/, replacement: fileURLToPath(new URL('./src/adapters/transformers/index.ts', import.meta.url)) },
  { find: /^engram\/chroma$/, replacement: fileURLToPath(new URL('./src/adapters/chroma/index.ts', import.meta.url)) },
];

// The slowest files, slowest first (their seconds in CI before this order, on 2 cores).
const SLOWEST = [
  'test/chroma/contract.test.ts', // 161
  'test/soak/ingest-growth.test.ts', // 50
  'test/soak/model.test.ts', // 46
  'test/soak/adversarial-decider.test.ts', // 44
  'test/soak/reembed-10k.test.ts', // 38
  'test/reliability/fuzz.test.ts', // 36
  'test/forget/equivalence.test.ts', // 35
  'test/soak/reference-model.test.ts', // 31
  'test/forget/erasure-partitions.test.ts', // 21
  'test/forget/checkpoints.test.ts', // 19
  'test/soak/isolation-property.test.ts', // 18
  'test/worker/quantised.test.ts', // 18
  // The e2e group's (its own pool of two workers): the two longest start first, one on each.
  'test/e2e/crash-erasure.test.ts', // 105
  'test/e2e/reliability.test.ts', // 93
  'test/e2e/package.test.ts', // 45
  'test/e2e/durability.test.ts', // 34
];

/**
 * The order `vitest run` starts files in: Vitest's own (by group, then project by project, then
 * the longest first as its cache of an earlier run says), except that the SLOWEST files go first
 * in their group, whichever project they belong to. A fresh clone (CI) has no cache, and Vitest
 * then starts the largest files first, which put the slowest file of the Chroma and soak group (a
 * 61-line file that runs 31 contract tests) last, alone on one core after everything else had
 * finished; the longest first leaves the least such tail. Loaded for test runs only, so the
 * library and demo builds do not load Vitest.
 */
async function slowestFirst(): Promise<TestSequencerConstructor> {
  const { BaseSequencer } = await import('vitest/node');
  const rank = (spec: TestSpecification) => {
    const path = spec.moduleId.replaceAll('\\', '/');
    const index = SLOWEST.findIndex((slow) => path.endsWith(`/${slow}`));
    return index === -1 ? SLOWEST.length : index;
  };
  const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
  return class SlowestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const position = new Map(sorted.map((spec, i) => [spec, i]));
      return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b) || position.get(a)! - position.get(b)!);
    }
  };
}

// ENGRAM_CPU_PROFILE=<file>: every test file appends its CPU seconds to <file> (test/helpers/cpu-profile.ts).
const PROFILE = process.env['ENGRAM_CPU_PROFILE'] ? { setupFiles: ['test/helpers/cpu-profile.ts'] } : {};

// One config, switched on `mode`: the default builds the library (ESM + the worker as its
// own file), `--mode demo` builds the demo page. `base: './'` in both: with the default '/'
// the emitted worker URL points at the site root and breaks for anyone serving from a path.
export default defineConfig(async ({ mode }): Promise<UserConfig> => {
  if (mode === 'demo') {
    return {
      root: 'demo',
      base: './',
      // The demo's Models panel uses the model adapters, which import engram by its name.
      resolve: { alias: SELF },
      worker: { format: 'es' },
      build: { outDir: '../dist-demo', emptyOutDir: true, target: 'es2022' },
      preview: { host: '127.0.0.1', port: 4173, strictPort: false },
    };
  }
  return {
    base: './',
    // The worker ships as one file: a consumer's bundler copies it as an asset (the library
    // refers to it by URL) and follows none of its imports, so a chunk it split off (the model
    // runtime it loads on first use) would be missing from the consumer's build. For the same
    // reason it ships minified: the consumer's build copies it as it is, and every page that
    // starts engram downloads it. Function names are kept for stack traces, and its source map
    // leads into src/.
    worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false, minify: true, keepNames: true } } },
    build: {
      target: 'es2022',
      // Readable output: a user's stack trace names engram's functions (`at consolidate`, not
      // `at Z`), and the maps (sources inlined) lead into src/ without shipping it.
      minify: false,
      sourcemap: true,
      lib: {
        entry: {
          engram: 'src/index.ts',
          mem0: 'src/adapters/mem0/index.ts',
          'ai-sdk': 'src/adapters/ai-sdk.ts',
          openai: 'src/adapters/openai/index.ts',
          'chrome-ai': 'src/adapters/chrome-ai/index.ts',
          transformers: 'src/adapters/transformers/index.ts',
          chroma: 'src/adapters/chroma/index.ts',
        },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rollupOptions: {
        external: ['dexie', 'comlink', 'zod', 'zod/mini', 'engram', 'ai', '@ai-sdk/provider', 'chromadb'],
        // One file per module (dist/ mirrors src/; the entries keep their names): an application's
        // bundler then splits engram as it would the sources, so what only a lazily loaded verb needs
        // stays out of the page's first chunk instead of riding along in a chunk the entry shares.
        output: { preserveModules: true, preserveModulesRoot: 'src' },
      },
    },
    test: {
      // The JSON report is what .ci/run reads to print its closing 'N passed, N failed' line.
      reporters: ['default', ['json', { outputFile: 'artifacts/test-results.json' }]],
      // The slowest files first in their group (slowestFirst above).
      ...(mode === 'test' ? { sequence: { sequencer: await slowestFirst() } } : {}),
      projects: [
        {
          resolve: { alias: SELF },
          test: {
            name: 'unit',
            ...PROFILE,
            sequence: { groupOrder: 0 },
            // Both cores: Vitest's default on a 2-core machine is one worker (cores − 1), which ran
            // the unit files one after another (wall 158 s against 120 s with two).
            maxWorkers: 2,
            environment: 'node',
            include: ['test/**/*.test.ts'],
            exclude: ['test/e2e/**', 'test/chroma/**', 'test/soak/**'],
            testTimeout: 30_000,
          },
        },
        {
          // Soak and property runs (hundreds of random histories, a 10k-memory store): apart from
          // the fast unit suite, last, and still in `npm test`. In one group with Chroma's files
          // (groupOrder 2, see there); its one growth check times CPU (test/helpers/growth.ts), not
          // the wall clock, so a neighbour does not move it.
          resolve: { alias: SELF },
          test: {
            name: 'soak',
            ...PROFILE,
            sequence: { groupOrder: 2 },
            maxWorkers: 2,
            environment: 'node',
            include: ['test/soak/**/*.test.ts'],
            testTimeout: 600_000,
          },
        },
        {
          // Against a real Chroma server that the global setup starts and stops (one per run).
          // After unit and e2e, beside the soak files (groupOrder 2): the server and its tests would otherwise
          // take CPU from their timing-sensitive tests on a 2-core machine. Its files mostly wait
          // on the server's answers (one file at a time used well under a core), so they share the
          // group's two workers with the soak files instead of running before them alone (CI:
          // chroma 220 s and then soak 136 s, one after the other). Two Chroma files may then run
          // at once: each opens its own collection prefix (or its own server, fault and
          // server.test.ts), so they never see each other's rows.
          resolve: { alias: SELF },
          test: {
            name: 'chroma',
            ...PROFILE,
            sequence: { groupOrder: 2 },
            // Vitest runs a group's files on one pool: its projects must name the same count.
            maxWorkers: 2,
            environment: 'node',
            include: ['test/chroma/**/*.test.ts'],
            globalSetup: ['test/chroma/global-setup.ts'],
            testTimeout: 60_000,
            hookTimeout: 60_000,
          },
        },
        {
          // Type tests (*.test-d.ts): the public API and the worker's wire types, checked by tsc
          // through vitest's typecheck (nothing runs); a changed signature fails here. That tsc
          // run is `tsc --noEmit -p tsconfig.json`, the whole project (src, test, demo, bench,
          // scripts, examples), and a type error outside the test-d files fails the run as an
          // "Unhandled Source Error": so it is the run's one type check, and `npm test` no longer
          // runs `tsc --noEmit` before vitest (the same ~54 s of CPU twice, the first alone on the
          // critical path). `npm run typecheck` is still the quick check on its own.
          resolve: { alias: SELF },
          test: {
            name: 'types',
            sequence: { groupOrder: 0 },
            include: [],
            typecheck: { enabled: true, only: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
          },
        },
        {
          // Right after unit (groupOrder 1), alone: the browser tests are the most CPU-bound and
          // time-sensitive. Left without an order they ran last, after Chroma's tests, and took 1.7x
          // their time alone (two tabs × 500 facts: 72 s against 43 s on a quiet machine).
          // Two files at a time: each launches its own browsers on its own profiles (on tmpfs,
          // test/helpers/memory-dir.ts) and serves the built pages on its own port, and most of a
          // file's time is spent waiting on the browser; one at a time the group took ~400 s.
          test: {
            name: 'e2e',
            ...PROFILE,
            sequence: { groupOrder: 1 },
            maxWorkers: 2,
            environment: 'node',
            include: ['test/e2e/**/*.test.ts'],
            // The harness and demo pages, built once for every file (each build took about 4 s).
            globalSetup: ['test/e2e/global-setup.ts'],
            testTimeout: 120_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
