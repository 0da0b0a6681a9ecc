/**
 * The warm retrieve's record cache (src/store/record-cache.ts) across two tabs in Chromium: real
 * IndexedDB, compute in a module Worker in each tab. Tab A's retrieves cache their winners; tab
 * B pins one and erases another's source; tab A's next retrieve sees both, never its cached copy.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchProfile, openHarnessAt, serveHarness, type ServedHarness } from './harness-session';

let served: ServedHarness;
beforeAll(async () => {
  served = await serveHarness();
});
afterAll(async () => {
  await served?.close();
});

/** Tab `page`'s retrieve of `query`: each hit's content, pin and source ids. */
const retrieve = (page: Page, query: string) =>
  page.evaluate(
    async (query) =>
      (await window.memory!.retrieve(query, { userId: 'u', k: 3 })).map((hit) => ({ id: hit.memory.id, content: hit.memory.content, pinned: hit.memory.pinned === true, sources: hit.memory.sources.map((source) => source.id) })),
    query,
  );

describe('record cache across tabs (Chromium, real IndexedDB, module Worker)', () => {
  it('a tab’s next retrieve sees another tab’s pin and erasure of memories it returned (and cached) before', { timeout: 120_000 }, async () => {
    const context = await launchProfile(await served.tempDir('engram-record-cache-'));
    try {
      const [a, b] = [await openHarnessAt(context, served.url), await openHarnessAt(context, served.url)];
      for (const { page } of [a, b]) await page.evaluate(async () => void (window.memory = await window.engram.createMemory({ name: 'record-cache' })));
      await a.page.evaluate(async () => {
        const facts = ['The user likes ferries in Oslo.', 'The user likes quiet beaches in Lisbon.', 'The user likes museums in Kyoto.'];
        for (const [i, content] of facts.entries()) await window.memory!.remember({ content, topic: `trip-${i}` }, { userId: 'u', source: { type: 'user_explicit', id: `s${i}` } });
      });
      const first = await retrieve(a.page, 'ferries in Oslo');
      expect(first[0]).toMatchObject({ content: 'The user likes ferries in Oslo.', pinned: false });
      // Warm: the same winners again (from the cache).
      expect(await retrieve(a.page, 'ferries in Oslo')).toEqual(first);
      await b.page.evaluate(async (id) => void (await window.memory!.pin(id, { userId: 'u' })), first[0]!.id);
      const pinned = await retrieve(a.page, 'ferries in Oslo');
      expect(pinned[0]).toMatchObject({ id: first[0]!.id, pinned: true });
      await b.page.evaluate(async () => void (await window.memory!.forgetSource('s0', { userId: 'u' })));
      const erased = await retrieve(a.page, 'ferries in Oslo');
      expect(erased.map((hit) => hit.content)).not.toContain('The user likes ferries in Oslo.');
      expect(erased).toHaveLength(2);
    } finally {
      await context.close();
    }
  });
});
