/**
 * Encryption at rest in real Chromium: with `encryptionKey`, no user text reaches the profile's
 * IndexedDB files, before or after LevelDB compaction, while the same scan finds a control text
 * written without a key; a wrong key is an EncryptionKeyError that leaves the files as they were.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser';
import { openHarnessAt, serveHarness, type ServedHarness } from './harness-session';
import { scanIndexedDbFiles } from './profile-files';

let served: ServedHarness;

beforeAll(async () => {
  served = await serveHarness();
});

afterAll(async () => {
  await served?.close();
});

/** `createMemory({ name, encryptionKey })` in the page with the raw AES key `key` (none when null), as `window.memory`; resolves to the error name on failure. */
function openSealed(page: Page, name: string, key: number[] | null): Promise<string | null> {
  return page.evaluate(
    async ({ name, key }) => {
      const encryptionKey = key ? await crypto.subtle.importKey('raw', new Uint8Array(key), 'AES-GCM', false, ['encrypt', 'decrypt']) : undefined;
      try {
        window.memory = await window.engram.createMemory({ name, ...(encryptionKey ? { encryptionKey } : {}) });
        return null;
      } catch (error) {
        return error instanceof Error ? error.name : String(error);
      }
    },
    { name, key },
  );
}

/** Ingest, remember and retrieve with `canary` in the text, in the memory the page opened. */
function writeCanary(page: Page, canary: string): Promise<void> {
  return page.evaluate(async (canary) => {
    const memory = window.memory!;
    await memory.ingest(
      [
        { role: 'user', content: `Please call me ${canary}. I'm vegan.` },
        { role: 'assistant', content: 'Noted.' },
      ],
      {
        userId: 'u',
        sessionId: 'c1',
        source: { type: 'user_explicit', id: 's1' },
      },
    );
    await memory.remember({ content: `The user's passphrase is ${canary}.`, topic: 'secret' }, { userId: 'u', source: { type: 'user_explicit', id: 's2' } });
    await memory.retrieve(`passphrase ${canary}`, { userId: 'u', k: 5 });
    await memory.close();
  }, canary);
}

describe('createMemory({ encryptionKey }) in Chromium', () => {
  it('leaves 0 plaintext canaries in the profile files after LevelDB compaction while a control written without a key is found', { timeout: 120_000 }, async () => {
    const SEALED = `SEAL${randomBytes(5).toString('hex').toUpperCase()}zq`;
    const CONTROL = `CTRL${randomBytes(5).toString('hex').toUpperCase()}zq`;
    const key = [...randomBytes(32)];
    const browser = await launchChromium();
    try {
      const { page, problems } = await openHarnessAt(browser.context, served.url);
      expect(await openSealed(page, 'sealed', key)).toBeNull();
      await writeCanary(page, SEALED);
      expect(await openSealed(page, 'control', null)).toBeNull();
      await writeCanary(page, CONTROL);
      const api = await page.evaluate(async ({ SEALED, CONTROL }) => [await window.harness.countInDatabase('sealed', SEALED), await window.harness.countInDatabase('control', CONTROL)], { SEALED, CONTROL });
      const beforeCompaction = [scanIndexedDbFiles(browser.userDataDir, SEALED), scanIndexedDbFiles(browser.userDataDir, CONTROL)];

      // Forcing compaction: 64 MB through a third database of the origin flushes and merges LevelDB's files.
      await page.evaluate(async () => window.harness.churnOtherDatabase('sealed-churn', 64));
      const wrongKey = await openSealed(page, 'sealed', [...randomBytes(32)]);
      const reopened = await openSealed(page, 'sealed', key);
      const readBack = await page.evaluate(async () => (await window.memory!.list({ userId: 'u' })).map((record) => record.content).sort());
      await page.evaluate(async () => window.memory!.close());
      expect(problems.errors).toEqual([]);
      await browser.context.close();
      const [sealed, control] = [scanIndexedDbFiles(browser.userDataDir, SEALED), scanIndexedDbFiles(browser.userDataDir, CONTROL)];
      console.log(
        `[encryption at rest] object stores: sealed ${api[0]!.hits}/${api[0]!.rows} rows, control ${api[1]!.hits}/${api[1]!.rows}; ` +
          `profile files before compaction: sealed ${beforeCompaction[0]!.hits}, control ${beforeCompaction[1]!.hits}; ` +
          `after 64 MB churn and close: sealed ${sealed.hits} hits in ${sealed.files} files (${sealed.bytes} B), control ${control.hits} [${control.where.join(', ')}]`,
      );

      expect(api[0]!.hits).toBe(0);
      expect(api[1]!.hits).toBeGreaterThan(0);
      expect(beforeCompaction[0]!.hits).toBe(0);
      expect(sealed.hits, `sealed canary bytes in ${sealed.where.join(', ')}`).toBe(0);
      // Positive control: the same scan finds text stored in clear, compaction or not.
      expect(control.hits).toBeGreaterThan(0);
      expect(wrongKey).toBe('EncryptionKeyError');
      expect(reopened).toBeNull();
      // The turn is kept as an episode too, sealed like the facts (the file scan above covers it).
      expect(readBack).toEqual([`Please call me ${SEALED}. I'm vegan.`, `The user goes by ${SEALED}.`, `The user's passphrase is ${SEALED}.`, 'The user follows a vegan diet.'].sort());
    } finally {
      await browser.close();
    }
  });
});
