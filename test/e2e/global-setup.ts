/**
 * The `e2e` project's global setup: the two pages the browser tests load, built once per run
 * instead of once per file (nine files serve the harness, five the demo; each Vite build of the
 * library took about 4 s on the 2-core CI machine). Tests read the built harness's directory with
 * `inject('e2eBuilds')` (test/e2e/builds.ts); the demo is built where it always was, `dist-demo/`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildHarness } from './builds';
import { buildDemo } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eBuilds: { harness: string; demo: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const harness = await mkdtemp(join(tmpdir(), 'engram-harness-'));
  // One after the other: two builds at once take both cores from each other for no gain.
  await buildHarness(harness);
  const demo = await buildDemo();
  project.provide('e2eBuilds', { harness, demo });
  return () => rm(harness, { recursive: true, force: true });
}
