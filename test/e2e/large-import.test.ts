/**
 * A large import in Chromium (real IndexedDB, compute in a module Worker), through the paths
 * that keep the page responsive at that size: the commit placing and writing its records in
 * batches with pauses (store/lineage.ts writeRecords), the snapshot written by the worker's
 * export, its buffers transferred, in chunks of PACK_CHUNK_ROWS (vector-pack.ts), and a fresh
 * instance's active set rebuilt in batches of key ranges (active-set.ts). What another tab reads
 * afterwards must be what the importing tab reads: the same top-k, the same identical-fact match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_APP, BENCH_USER, createBenchData, queryText, createRandom, T0 } from '../../scripts/bench-data';
import { launchProfile, openHarnessAt, serveHarness, type ServedHarness } from './harness-session';

let served: ServedHarness;
beforeAll(async () => {
  served = await serveHarness();
});
afterAll(async () => {
  await served?.close();
});

const OWNER = { userId: BENCH_USER, appName: BENCH_APP };
/** Past LOG_UPSERTS_LIMIT (2,048): the import drops the log and the partition is snapshotted from the worker, in several chunks. */
const SIZE = 2600;

/** What an export of SIZE bench memories holds (as bench/embedder.ts builds it): the memories without vectors, each source's conversation as its input. */
function exportData() {
  const { records } = createBenchData(SIZE, 0);
  const conversations = new Map<string, { at: number; lines: string[] }>();
  for (const { sources } of records) for (const { id, at, excerpt } of sources) conversations.set(id, { at: Math.min(at, conversations.get(id)?.at ?? at), lines: [...(conversations.get(id)?.lines ?? []), excerpt] });
  const inputs = [...conversations].map(([id, { at, lines }]) => ({ kind: 'ingest', at, sessionId: `s-${id}`, source: { type: 'user_implicit', id }, messages: [{ role: 'user', content: lines.join(' ') }] }));
  return { data: { format: 'engram-export/1', exportedAt: T0, ...OWNER, memories: records.map(({ embedding: _vector, ...record }) => record), inputs }, records };
}

describe('a large import (Chromium, real IndexedDB, module Worker)', () => {
  it('reads the same in another tab as in the importing one: top-k after a cold load from the snapshot, and the identical-fact match', { timeout: 240_000 }, async () => {
    const { data, records } = exportData();
    const random = createRandom(5);
    const queries = Array.from({ length: 5 }, () => queryText(random));
    const context = await launchProfile(await served.tempDir('engram-large-import-'));
    try {
      const a = await openHarnessAt(context, served.url);
      const imported = await a.page.evaluate(async (data) => {
        window.memory = await window.engram.createMemory({ name: 'large-import' });
        const report = await window.memory.import(data);
        return report.memories;
      }, data);
      expect(imported).toBe(SIZE);
      const retrieveAll = (page: typeof a.page) =>
        page.evaluate(async ({ queries, owner }) => Promise.all(queries.map(async (query) => (await window.memory!.retrieve(query, { ...owner, k: 8 })).map((hit) => hit.memory.id))), { queries, owner: OWNER });
      const inA = await retrieveAll(a.page);
      expect(inA.flat()).toHaveLength(queries.length * 8);
      // Let the snapshot the import left to the background be written, then read from a fresh instance in another tab.
      await a.page.evaluate(async () => window.memory!.close());
      const b = await openHarnessAt(context, served.url);
      await b.page.evaluate(async () => void (window.memory = await window.engram.createMemory({ name: 'large-import' })));
      expect(await retrieveAll(b.page)).toEqual(inA);
      const packs = await b.page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('large-import');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const count = open.result.transaction('vectorPacks').objectStore('vectorPacks').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
      );
      expect(packs).toBeGreaterThanOrEqual(Math.ceil(SIZE / 512));
      // The write path's active set is rebuilt in this instance: an identical fact is a corroboration of the stored memory, not a second one.
      const target = records.find((record) => record.invalidatedAt === undefined)!;
      const operation = await b.page.evaluate(async ({ fact, owner }) => window.memory!.remember(fact, { ...owner, source: { type: 'user_explicit', id: 'again' } }), { fact: { content: target.content, topic: target.topic }, owner: OWNER });
      expect(operation).toMatchObject({ action: 'NOOP', memoryId: target.id });
      expect(a.problems.errors).toEqual([]);
      expect(b.problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
