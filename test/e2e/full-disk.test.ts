/**
 * Erasure on a full disk in Chromium (issue 41, item 4): a real quota (CDP
 * Storage.overrideQuotaForOrigin, set before the origin's first IndexedDB connection as
 * RELIABILITY 5 does), writes filled until the quota refuses them. forgetSource then resolves by
 * deletes alone: the canary is in no row of any object store; once the quota is lifted the user's
 * next write rebuilds what the erasure left out, and the canary is still in no row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchProfile, openHarnessAt, serveHarness, type ServedHarness } from './harness-session';

let served: ServedHarness;
beforeAll(async () => {
  served = await serveHarness();
});
afterAll(async () => {
  await served?.close();
});

const NAME = 'full-disk';

describe('forgetSource on a full disk (Chromium, real quota)', () => {
  it('erases at an exhausted quota, leaves 0 canaries in the rows, and the next write with room rebuilds', { timeout: 120_000 }, async () => {
    const canary = `CNRY${Math.random().toString(36).slice(2, 10).toUpperCase()}zq`;
    const context = await launchProfile(await served.tempDir('engram-full-disk-'));
    try {
      const { page, problems } = await openHarnessAt(context, served.url);
      const origin = new URL(served.url).origin;
      const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 300 * 1024 });
      const filled = await page.evaluate(
        async ({ canary, name }) => {
          const owner = { userId: 'u' };
          /** k1 before and k2 after the canary's source, which updates k1's fact and says one of k2's again. */
          const fill = async (memory: NonNullable<Window['memory']>) => {
            const turn = (content: string, id: string) => memory.ingest([{ role: 'user', content }], { ...owner, sessionId: id, source: { type: 'user_explicit', id } });
            await turn("I'm vegetarian. I live in Porto.", 'k1');
            await turn(`I eat fish again. My locker code is ${canary}. I play the cello.`, 'canary');
            await memory.remember({ content: `The user's bike is called ${canary}.`, topic: 'other' }, { ...owner, source: { type: 'user_explicit', id: 'canary' } });
            await turn('I play the cello. I prefer the aisle seat.', 'k2');
          };
          // The control: the same store erased with room, in a database of its own.
          const control = await window.engram.createMemory({ name: `${name}-control` });
          await fill(control);
          await control.forgetSource('canary', owner);
          const expected = (await control.list(owner)).map((record) => record.content).sort();
          await control.close();
          const memory = (window.memory = await window.engram.createMemory({ name }));
          await fill(memory);
          // Random words (about 1.4 KB a write) until the quota refuses one.
          const word = () => Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => (byte % 36).toString(36)).join('');
          for (let i = 0; i < 3000; i++) {
            try {
              await memory.remember({ content: `Filler ${i}: ${Array.from({ length: 200 }, word).join(' ')}`, topic: `f${i}` }, { ...owner, source: { type: 'user_explicit', id: `f-${i}` } });
            } catch (error) {
              return { expected, writes: i, refused: error instanceof Error ? error.name : String(error), stored: (await window.harness.countInDatabase(name, canary)).hits };
            }
          }
          return { expected, writes: 3000, refused: null, stored: (await window.harness.countInDatabase(name, canary)).hits };
        },
        { canary, name: NAME },
      );
      expect(filled.refused).toBe('QuotaError');
      expect(filled.stored).toBeGreaterThan(0);

      const erased = await page.evaluate(
        async ({ canary, name }) => {
          const memory = window.memory!;
          const settled = await memory.forgetSource('canary', { userId: 'u' }).then(
            (report) => `erased ${report.erased.length}`,
            (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
          );
          const listed = await memory.list({ userId: 'u', includeInvalid: true });
          const retrieved = await memory.retrieve(`locker code ${canary}`, { userId: 'u' });
          // Still full: another write is refused, and leaves nothing of the canary either.
          const refused = await memory.remember({ content: 'The user owns a kayak.', topic: 'other' }, { userId: 'u', source: { type: 'user_explicit', id: 'k3' } }).then(
            () => null,
            (error: unknown) => (error instanceof Error ? error.name : String(error)),
          );
          return {
            settled,
            rows: (await window.harness.countInDatabase(name, canary)).where,
            read: JSON.stringify([listed, retrieved]).includes(canary),
            onlyCanary: listed.filter((record) => record.sources.some((source) => source.id === 'canary')).length,
            refused,
          };
        },
        { canary, name: NAME },
      );
      expect(erased.settled).toMatch(/^erased [1-9]/);
      expect(erased).toMatchObject({ rows: [], read: false, onlyCanary: 0, refused: 'QuotaError' });

      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
      const rebuilt = await page.evaluate(
        async ({ canary, name }) => {
          const memory = window.memory!;
          const action = (await memory.remember({ content: 'The user owns a kayak.', topic: 'other' }, { userId: 'u', source: { type: 'user_explicit', id: 'k3' } })).action;
          const active = (await memory.list({ userId: 'u' }))
            .map((record) => record.content)
            .filter((content) => !content.startsWith('Filler '))
            .sort();
          await memory.close();
          return { action, active, rows: (await window.harness.countInDatabase(name, canary)).where };
        },
        { canary, name: NAME },
      );
      console.log(`[full disk] ${filled.writes} filler writes before the quota refused one; forgetSource at quota: ${erased.settled}; after the rebuild ${rebuilt.active.length} active memories`);
      expect(rebuilt.action).toBe('CREATE');
      expect(rebuilt.rows).toEqual([]);
      // What an erasure with room leaves, and the write that ran the rebuild.
      expect(rebuilt.active).toEqual([...filled.expected, 'The user owns a kayak.'].sort());
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
