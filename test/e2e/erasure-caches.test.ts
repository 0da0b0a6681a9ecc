/**
 * Erasure reaches every tab's caches of user text (src/storage/erasure-channel.ts) in Chromium:
 * real IndexedDB, compute in a module Worker in each tab, two tabs of one profile. Tab A embeds a
 * query and holds it; tab B erases; tab A's next retrieve of the same query embeds it again.
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

/** Opens the tab's memory with the hash embedder behind a recorder of the texts it is asked for (`window.embedded`). */
const open = (page: Page) =>
  page.evaluate(async () => {
    const inner = window.engram.createHashEmbedder(64);
    const embedded: string[] = [];
    Object.assign(window, { embedded });
    const embedder = { id: 'recorded-hash-64', dim: 64, embed: (texts: readonly string[]) => (embedded.push(...texts), inner.embed(texts)) };
    window.memory = await window.engram.createMemory({ name: 'erasure-caches', embedder });
  });

/** Tab `page` retrieves `query`, and reports how many times its embedder was asked for it. */
const retrieveCounting = (page: Page, query: string) =>
  page.evaluate(async (query) => {
    await window.memory!.retrieve(query, { userId: 'u' });
    return (window as unknown as { embedded: string[] }).embedded.filter((text) => text === query).length;
  }, query);

describe('erasure and the caches of other tabs (Chromium, real IndexedDB, module Worker)', () => {
  it('a tab embeds a query again after another tab erased, instead of keeping it in its cache', { timeout: 120_000 }, async () => {
    const context = await launchProfile(await served.tempDir('engram-erasure-caches-'));
    try {
      const [a, b] = [await openHarnessAt(context, served.url), await openHarnessAt(context, served.url)];
      for (const { page } of [a, b]) await open(page);
      await a.page.evaluate(async () => void (await window.memory!.remember({ content: 'The user is allergic to peanuts.', topic: 'allergy' }, { userId: 'u', source: { type: 'user_explicit', id: 's0' } })));
      const query = 'what is the user allergic to';
      expect(await retrieveCounting(a.page, query)).toBe(1);
      // Held: the same query again is not embedded again.
      expect(await retrieveCounting(a.page, query)).toBe(1);
      // The canary scan, from each tab: every raw row of every object store of the database.
      const hits = async () => Promise.all([a, b].map(({ page }) => page.evaluate(async () => (await window.harness.countInDatabase('erasure-caches', 'peanuts')).where)));
      expect((await hits())[0]).not.toEqual([]);
      await b.page.evaluate(async () => void (await window.memory!.forgetSource('s0', { userId: 'u' })));
      expect(await hits()).toEqual([[], []]);
      // The announcement reaches tab A a moment after B's erasure resolves.
      await expect.poll(() => retrieveCounting(a.page, query), { timeout: 10_000 }).toBeGreaterThan(1);
      // Tab A's reads after it (and both tabs closing) write nothing of the erased text back.
      await a.page.evaluate(async () => void (await window.memory!.list({ userId: 'u' })));
      for (const { page } of [a, b]) await page.evaluate(async () => window.memory!.close());
      expect(await hits()).toEqual([[], []]);
    } finally {
      await context.close();
    }
  });
});
