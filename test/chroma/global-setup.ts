/**
 * The `chroma` test project's global setup: one real Chroma server on a free loopback port for
 * the whole run, stopped by its pid in teardown (and by scripts/chroma-server.ts's exit hook
 * when the run dies). Tests read its address with `inject('chroma')`; each test opens its own
 * `collectionPrefix`, so tests never see each other's rows.
 */
import type { TestProject } from 'vitest/node';
import { startChromaServer } from '../../scripts/chroma-server';

declare module 'vitest' {
  export interface ProvidedContext {
    chroma: { host: string; port: number };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startChromaServer();
  project.provide('chroma', { host: server.host, port: server.port });
  return () => server.stop();
}
