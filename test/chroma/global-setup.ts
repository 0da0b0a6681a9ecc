/**
 * The `chroma` test project's global setup: one real Chroma server on a free loopback port for
 * the whole run, stopped by its pid in teardown (and by scripts/chroma-server.ts's exit hook
 * when the run dies). Tests read its address with `inject('chroma')`; each test opens its own
 * `collectionPrefix`, so tests never see each other's rows.
 *
 * Its data lives in memory (/dev/shm, where there is one): Chroma syncs every write to disk, and
 * on this CI's disk an upsert took 45–70 ms against 12 ms on tmpfs, which was most of the
 * project's time. The tests kill and restart processes, never the machine, so what they check
 * (rows as the server returns them, after a process dies) is the same on either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startChromaServer } from '../../scripts/chroma-server';
import { fastTempRoot } from '../helpers/memory-dir';

declare module 'vitest' {
  export interface ProvidedContext {
    chroma: { host: string; port: number };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(fastTempRoot(), 'engram-chroma-'));
  // Also when the run is killed before teardown (scripts/chroma-server.ts then kills the server
  // and exits): the directory holds memory, not disk.
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  process.once('exit', remove);
  const server = await startChromaServer({ dataDir }).catch((error: unknown) => {
    remove();
    throw error;
  });
  project.provide('chroma', { host: server.host, port: server.port });
  return async () => {
    await server.stop();
    remove();
  };
}
