/**
 * Encryption at rest in real Chromium: with `encryptionKey`, no user text reaches the profile's
 * IndexedDB files, before or after LevelDB compaction, while the same scan finds a control text
 * written without a key; a wrong key is an EncryptionKeyError that leaves the files as they were.
 * After every erasing verb (forgetSource, forget, reject, undo, forget of a corrected memory), with
 * and without a key, no row, no read-back and (after compaction) no profile file holds the erased
 * text: a turn over 1,000 characters, "İ", accents and emoji.
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
      await page.evaluate(async () => window.harness.createLowDatabase('sealed-low'));
      expect(await openSealed(page, 'sealed', key)).toBeNull();
      await writeCanary(page, SEALED);
      expect(await openSealed(page, 'control', null)).toBeNull();
      await writeCanary(page, CONTROL);
      const api = await page.evaluate(async ({ SEALED, CONTROL }) => [await window.harness.countInDatabase('sealed', SEALED), await window.harness.countInDatabase('control', CONTROL)], { SEALED, CONTROL });
      const beforeCompaction = [scanIndexedDbFiles(browser.userDataDir, SEALED), scanIndexedDbFiles(browser.userDataDir, CONTROL)];

      // Forcing compaction: 64 MB through a third database of the origin flushes and merges LevelDB's files.
      await page.evaluate(async () => window.harness.churnOtherDatabase('sealed-churn', 64, 'sealed-low'));
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

/**
 * Opens `name` (with the raw key, or none), writes the erased canaries through every path and
 * erases them with every erasing verb; resolves to what the API reads back afterwards (list with
 * tombstones, why, export, explain) as one JSON text, and the memories that must stay.
 */
function eraseEverything(page: Page, name: string, key: number[] | null, canaries: string[]): Promise<{ read: string; kept: string[]; written: number }> {
  return page.evaluate(
    async ({ name, key, canaries }) => {
      const [dotted, accented, emoji] = canaries as [string, string, string];
      const encryptionKey = key ? await crypto.subtle.importKey('raw', new Uint8Array(key), 'AES-GCM', false, ['encrypt', 'decrypt']) : undefined;
      const memory = await window.engram.createMemory({ name, episodes: true, review: { sources: ['tool_output'] }, ...(encryptionKey ? { encryptionKey } : {}) });
      const user = { userId: 'u' };
      const at = (id: string, type: 'user_explicit' | 'tool_output' = 'user_explicit') => ({ ...user, sessionId: id, source: { type, id } });
      const fact = async (needle: string) => (await memory.list(user)).find((record) => record.topic !== 'episode' && record.content.includes(needle))!;
      const filler = 'Café crème ☕ by the river, naïve señor, the rain kept on. '.repeat(20);
      await memory.ingest([{ role: 'user', content: 'For flights, I prefer the aisle seat.' }], at('keep'));
      // forgetSource of a long turn.
      await memory.ingest([{ role: 'user', content: `${filler}I'm allergic to ${dotted} and I play the ${emoji}.` }], at('s1'));
      // Positive control: rows in clear (no key) hold the canary once written.
      const written = (await window.harness.countInDatabase(name, dotted)).hits;
      await memory.forgetSource('s1', user);
      // forget: each fact of a two-fact sentence of a long turn, then the turn's episode.
      await memory.ingest([{ role: 'user', content: `${filler}I'm allergic to ${accented} and I play squash.` }], at('s2'));
      await memory.forget((await fact(accented)).id, user);
      await memory.forget((await fact('squash')).id, user);
      const episode = (await memory.list(user)).find((record) => record.topic === 'episode' && record.sources.some((source) => source.id === 's2'));
      if (episode) await memory.forget(episode.id, user);
      // reject, after the other fact of the sentence was approved.
      await memory.ingest([{ role: 'user', content: `I'm allergic to ${dotted} and I play chess.` }], at('s3', 'tool_output'));
      const pending = (await memory.pending(user)).filter((entry) => entry.topic !== 'episode');
      await memory.approve(pending.find((entry) => entry.content.includes('chess'))!.id, user);
      await memory.reject(pending.find((entry) => entry.content.includes(dotted))!.id, user);
      // undo of a remember.
      await memory.undo(await memory.remember({ content: `The user collects ${emoji} stamps.`, topic: 'hobby' }, { ...user, source: { type: 'user_explicit', id: 's4' } }), user);
      // forget of a corrected memory: the replaced text and the correction.
      await memory.ingest([{ role: 'user', content: `I'm allergic to ${emoji}.` }], at('s5'));
      // The extractor reads the allergen without its emoji: the fact is found by the rest of the word.
      const corrected = await memory.correct((await fact(emoji.replace('🦊', ''))).id, `The user is allergic to ${accented}.`, user);
      await memory.forget(corrected.memoryId!, user);
      const all = await memory.list({ ...user, includeInvalid: true });
      const read = JSON.stringify([all, await Promise.all(all.map((record) => memory.why(record.id, user))), await memory.export(user), await memory.explain('allergic', user)]);
      const kept = (await memory.list(user)).filter((record) => record.topic !== 'episode').map((record) => record.content);
      await memory.close();
      return { read, kept, written };
    },
    { name, key, canaries },
  );
}

describe('erasing verbs in Chromium', () => {
  it('leave 0 erased canaries (İ, accents, emoji, a long turn) in the rows, the read-back and the compacted profile files, with and without a key', { timeout: 180_000 }, async () => {
    const tag = randomBytes(4).toString('hex').toUpperCase();
    const canaries = [`İNCI${tag}zq`, `crème${tag}zq`, `🦊${tag}zq`];
    const FILLER = 'naïve señor, the rain';
    const browser = await launchChromium();
    try {
      const { page, problems } = await openHarnessAt(browser.context, served.url);
      await page.evaluate(async () => window.harness.createLowDatabase('erase-low'));
      const runs = { plain: await eraseEverything(page, 'erase-plain', null, canaries), sealed: await eraseEverything(page, 'erase-sealed', [...randomBytes(32)], canaries) };
      const rows = await page.evaluate(async (needles) => Promise.all(['erase-plain', 'erase-sealed'].flatMap((name) => needles.map(async (needle) => (await window.harness.countInDatabase(name, needle)).hits))), [...canaries, FILLER]);
      // Forcing compaction as RELIABILITY 23 does: rounds of churn through another database of the
      // origin until the files hold no canary (LevelDB keeps overwritten values until it compacts).
      const scan = () => [...canaries, FILLER].map((canary) => scanIndexedDbFiles(browser.userDataDir, canary));
      let churned = 0;
      while (churned < 256 && (churned === 0 || scan().some((found) => found.hits > 0))) {
        await page.evaluate(async () => window.harness.churnOtherDatabase('erase-churn', 32, 'erase-low'));
        churned += 32;
      }
      expect(problems.errors).toEqual([]);
      await browser.context.close();
      const files = scan();
      console.log(`[erasing verbs] rows holding a canary: ${rows.join(', ')}; profile files after ${churned} MB churn and close: ${files.map((found) => found.hits).join(', ')} hits in ${files[0]!.files} files`);
      expect(runs.plain.written).toBeGreaterThan(0);
      expect(runs.sealed.written).toBe(0);
      for (const run of Object.values(runs)) {
        for (const canary of [...canaries, FILLER]) expect(run.read).not.toContain(canary);
        // The facts the user did not erase stay: the aisle seat and the approved sibling of the rejected one.
        expect(run.kept.sort()).toEqual(['The user plays chess.', 'The user prefers aisle seating on flights.']);
      }
      expect(rows.every((hits) => hits === 0)).toBe(true);
      for (const found of files) expect(found.hits, `canary bytes in ${found.where.join(', ')}`).toBe(0);
    } finally {
      await browser.close();
    }
  });
});
