/**
 * The pages the browser tests load, as the e2e project's global setup built them for the whole
 * run (test/e2e/global-setup.ts). Only test files import this: it reads vitest's `inject`.
 */
import { join } from 'node:path';
import { build } from 'vite';
import { inject } from 'vitest';
import { REPO_ROOT } from './browser';

const HARNESS = join(REPO_ROOT, 'test/e2e/harness');

/** Builds the harness page (test/e2e/harness/: the library bundled from src/ by Vite, on `window.engram`) into `outDir`. */
export async function buildHarness(outDir: string): Promise<void> {
  await build({ configFile: false, root: HARNESS, base: './', logLevel: 'warn', worker: { format: 'es' }, build: { outDir, emptyOutDir: true, target: 'es2022' } });
}

/** The directory of the harness page built for this run. */
export const builtHarness = (): string => inject('e2eBuilds').harness;

/** The directory of the demo page built for this run (`dist-demo/`). */
export const builtDemo = (): string => inject('e2eBuilds').demo;
