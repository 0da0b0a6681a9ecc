/**
 * The demo's "Your memories" panel, driven in Chromium on the real page: edit (`correct`) changes
 * the text and `why` then shows the correction, and an edit given another topic moves the memory
 * under it; delete asks first, then, unless undone within a few seconds, (`forget`) removes a memory for good (also after a reload), a pin survives a reload, and the review inbox's approve moves a held write into
 * the list while reject drops it. Screenshots at 1280 and 390 px go to artifacts/demo-memories-*.png.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { UNDO_MS } from '../../demo/delayed-delete';
import { ARTIFACTS, idle, ready, storeShows, useDemo, type DemoRun } from './demo-page';

let demo: DemoRun;
let page: Page;

useDemo('demo-memories', (run) => {
  demo = run;
  page = run.page;
});

/** Ingests `text` through the playground as u_ada, session `sessionId`, source type `type`. */
async function ingest(target: Page, sessionId: string, type: string, text: string) {
  await target.getByTestId('pg-user').fill('u_ada');
  await target.getByTestId('pg-session').fill(sessionId);
  await target.getByTestId('pg-source-type').selectOption(type);
  await target.getByTestId('pg-messages').fill(text);
  await target.getByTestId('pg-ingest').click();
  await storeShows(target, 'u_ada');
  await panelSettled(target);
}

/** Waits until no action runs and the panel drew for u_ada. */
async function panelSettled(target: Page) {
  await idle(target);
  await target.waitForFunction(() => document.getElementById('memories')?.dataset['owner'] === 'u_ada', undefined, { polling: 100 });
}

/** The memories the panel lists, as shown. */
function listed(target: Page) {
  return target.$$eval('[data-testid="user-memory"]', (items) =>
    items.map((item) => ({
      id: (item as HTMLElement).dataset['id'] ?? '',
      topic: item.closest<HTMLElement>('[data-testid="mem-topic"]')?.dataset['topic'] ?? '',
      content: item.querySelector('[data-testid="mem-content"]')?.textContent ?? '',
      pinned: (item as HTMLElement).dataset['pinned'] === 'true' && item.querySelector('[data-testid="mem-pinned"]') !== null,
    })),
  );
}

/** Each listed fact's "said on" lines, by the fact's text. */
function saidOn(target: Page) {
  return target.$$eval('[data-testid="user-memory"]', (items) =>
    items.map((item) => [item.querySelector('[data-testid="mem-content"]')?.textContent ?? '', [...item.querySelectorAll('[data-testid="mem-said-on"]')].map((line) => line.textContent ?? '')] as const),
  );
}

/** A "said on" line as the panel writes it (the simulated clock's date, to the minute). */
const SAID = (words: string) => new RegExp(`^said on \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}: ${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

const pendingShown = (target: Page) => target.getByTestId('pending-memory').locator('[data-testid="pending-content"]').allTextContents();
const item = (target: Page, content: string): Locator => target.getByTestId('user-memory').filter({ hasText: content });
const status = async (target: Page) => (await target.getByTestId('mem-status').textContent()) ?? '';

/** Waits until no deletion waits for Undo any more (it ran, or was undone) and the page is idle. */
async function undoWindowOver(target: Page) {
  await target.waitForFunction(() => document.querySelector('[data-testid="mem-undo"]') === null && !document.body.classList.contains('busy'), undefined, { polling: 100, timeout: UNDO_MS + 10_000 });
}

async function reload(target: Page) {
  await target.reload();
  await ready(target);
  await panelSettled(target);
}

describe('demo page: Your memories', () => {
  it('lists the user’s memories grouped by topic, with nothing waiting for review', async () => {
    await ingest(page, 'p1', 'user_explicit', "I'm vegan.\nCall me Sam.\nI prefer the window seat.");
    const shown = await listed(page);
    expect(shown.map((memory) => [memory.topic, memory.content])).toEqual([
      ['diet', 'The user follows a vegan diet.'],
      ['identity', 'The user goes by Sam.'],
      ['travel', 'The user prefers window seating on flights.'],
    ]);
    expect(await page.getByTestId('inbox-empty').isVisible()).toBe(true);
    // Each fact with the turn it was read from, in the user's words; the turns are not listed as memories of their own.
    const said = await saidOn(page);
    expect(said.map(([fact, lines]) => [fact, lines.length])).toEqual([
      ['The user follows a vegan diet.', 1],
      ['The user goes by Sam.', 1],
      ['The user prefers window seating on flights.', 1],
    ]);
    expect(said.map(([, [line]]) => line)).toEqual([expect.stringMatching(SAID("I'm vegan.")), expect.stringMatching(SAID('Call me Sam.')), expect.stringMatching(SAID('I prefer the window seat.'))]);
    expect(await page.getByTestId('mem-episode').count()).toBe(0);
    expect(await status(page)).toBe('3 facts, 3 turns kept in your words, nothing waiting for review.');
  });

  it('edits a memory: the list shows the new text, and why shows the correction', async () => {
    const [before] = (await listed(page)).filter((memory) => memory.topic === 'diet');
    await item(page, 'vegan diet').getByTestId('mem-edit').click();
    const input = page.getByTestId('mem-edit-input');
    expect(await input.inputValue()).toBe('The user follows a vegan diet.');
    await input.fill('The user is vegetarian but eats eggs.');
    await page.getByTestId('mem-save').click();
    await panelSettled(page);
    const diet = (await listed(page)).filter((memory) => memory.topic === 'diet');
    expect(diet.map((memory) => memory.content)).toEqual(['The user is vegetarian but eats eggs.']);
    expect(diet[0]!.id).not.toBe(before!.id);
    expect(await status(page)).toBe('Edited: it now says “The user is vegetarian but eats eggs.”.');

    await item(page, 'eats eggs').getByTestId('mem-why').click();
    await panelSettled(page);
    const why = item(page, 'eats eggs').getByTestId('why');
    const sources = await why.getByTestId('why-source').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['sourceId']));
    expect(sources).toEqual(['p1', `correction:${before!.id}`]);
    expect(await why.getByTestId('why-source').first().textContent()).toContain("I'm vegan.");
    const events = await why.getByTestId('why-step').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['event']));
    expect(events).toContain('superseded');
    expect(await why.textContent()).toContain(`user_explicit correction:${before!.id}`);
    expect(await item(page, 'eats eggs').getByTestId('mem-why').getAttribute('aria-expanded')).toBe('true');
    await item(page, 'eats eggs').screenshot({ path: demo.shots.path('why-after-edit') });
  });

  it('asks before it deletes a memory: Cancel and Escape keep it, Delete erases it, and it does not come back after a reload', async () => {
    const dialog = page.getByTestId('confirm-delete');
    await item(page, 'goes by Sam').getByTestId('mem-delete').click();
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('“The user goes by Sam.”');
    expect(await dialog.textContent()).toContain('cannot be undone');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('confirm-delete-cancel');
    await demo.shots.take(page, 'delete-confirm');
    await page.getByTestId('confirm-delete-cancel').click();
    await panelSettled(page);
    expect((await listed(page)).map((memory) => memory.topic)).toEqual(['diet', 'identity', 'travel']);
    expect(await status(page)).toBe('Delete cancelled: “The user goes by Sam.” is still remembered.');
    await item(page, 'goes by Sam').getByTestId('mem-delete').click();
    await dialog.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await panelSettled(page);
    expect((await listed(page)).map((memory) => memory.topic)).toEqual(['diet', 'identity', 'travel']);

    await item(page, 'goes by Sam').getByTestId('mem-delete').click();
    await page.getByTestId('confirm-delete-ok').click();
    await panelSettled(page);
    // Hidden at once, erased once the few seconds for Undo are over.
    expect((await listed(page)).map((memory) => memory.topic)).toEqual(['diet', 'travel']);
    expect(await status(page)).toBe(`Deleting “The user goes by Sam.” in ${UNDO_MS / 1000} seconds: Undo keeps it.`);
    expect(await page.getByTestId('mem-undo-text').textContent()).toBe(`Deleting “The user goes by Sam.” in ${UNDO_MS / 1000} seconds.`);
    await undoWindowOver(page);
    expect((await listed(page)).map((memory) => memory.topic)).toEqual(['diet', 'travel']);
    expect(await status(page)).toContain('Deleted “The user goes by Sam.”');
    // Its words left the turn they were said in, and that turn held nothing else: no turn is left behind no fact.
    expect(await page.getByTestId('mem-list').textContent()).not.toContain('Sam');
    expect(await page.getByTestId('mem-episode').count()).toBe(0);
    await reload(page);
    expect((await listed(page)).map((memory) => memory.content)).toEqual(['The user is vegetarian but eats eggs.', 'The user prefers window seating on flights.']);
  });

  it('pins a memory, and it shows as pinned after a reload, its button then offering Unpin', async () => {
    await item(page, 'window seating').getByTestId('mem-pin').click();
    await panelSettled(page);
    expect(await status(page)).toContain('Pinned “The user prefers window seating on flights.”');
    await reload(page);
    const pinned = (await listed(page)).filter((memory) => memory.pinned).map((memory) => memory.content);
    expect(pinned).toEqual(['The user prefers window seating on flights.']);
    expect(await item(page, 'window seating').getByTestId('mem-unpin').isVisible()).toBe(true);
  });

  it('holds tool_output writes in the review inbox: approve moves one into the list, reject removes the other', async () => {
    await ingest(page, 't1', 'tool_output', 'Call me Max.\nThe export keeps failing.');
    expect((await pendingShown(page)).sort()).toEqual(['The user goes by Max.', 'The user reported a failing export/upload.']);
    // Each held fact shows the held turn it was read from; no turn waits on its own.
    expect(await page.getByTestId('pending-memory').filter({ hasText: 'Max' }).getByTestId('pending-said-on').textContent()).toMatch(SAID('Call me Max.'));
    expect(await page.getByTestId('pending-memory').filter({ hasText: 'export' }).getByTestId('pending-said-on').textContent()).toMatch(SAID('The export keeps failing.'));
    expect(await page.getByTestId('pending-episode').count()).toBe(0);
    // The edited diet fact stands on no turn (its turn retired with the version it stated).
    expect(await status(page)).toBe('2 facts, 1 turn kept in your words, 2 facts waiting for review.');
    // Held writes are not memories yet.
    expect((await listed(page)).map((memory) => memory.topic)).toEqual(['diet', 'travel']);

    await page.getByTestId('pending-memory').filter({ hasText: 'export' }).getByTestId('mem-approve').click();
    await panelSettled(page);
    expect(await status(page)).toContain('Approved “The user reported a failing export/upload.”');
    expect(await pendingShown(page)).toEqual(['The user goes by Max.']);
    expect((await listed(page)).map((memory) => memory.topic)).toEqual(['diet', 'issue', 'travel']);
    // Approving the fact kept the turn it was read from too: it no longer waits, and the panel shows it.
    expect(await page.getByTestId('mem-list').textContent()).toContain('The export keeps failing.');
    // ... as the fact's "said on" line: approving linked the fact to its turn.
    expect(await item(page, 'failing export').getByTestId('mem-said-on').textContent()).toMatch(SAID('The export keeps failing.'));

    await page.getByTestId('pending-memory').filter({ hasText: 'Max' }).getByTestId('mem-reject').click();
    await panelSettled(page);
    expect(await status(page)).toContain('Rejected “The user goes by Max.”');
    expect(await page.getByTestId('pending-memory').count()).toBe(0);
    // Rejecting the fact dropped its turn, which no other held fact stood on.
    expect(await page.getByTestId('pending-episode').count()).toBe(0);
    expect(await page.getByTestId('mem-list').textContent()).not.toContain('Max');
    expect((await listed(page)).map((memory) => memory.content)).toEqual(['The user is vegetarian but eats eggs.', 'The user reported a failing export/upload.', 'The user prefers window seating on flights.']);
    await reload(page);
    expect(await page.getByTestId('pending-memory').count()).toBe(0);
    expect((await listed(page)).map((memory) => memory.topic)).toEqual(['diet', 'issue', 'travel']);
  });

  it('shows a failed action as text on the status line, and keeps the draft', async () => {
    await item(page, 'eats eggs').getByTestId('mem-edit').click();
    const tooLong = 'x'.repeat(100_001);
    await page.getByTestId('mem-edit-input').fill(tooLong);
    await page.getByTestId('mem-save').click();
    await panelSettled(page);
    const line = page.getByTestId('mem-status');
    expect(await line.getAttribute('data-state')).toBe('error');
    expect(await line.getAttribute('role')).toBe('alert');
    expect(await status(page)).toMatch(/^Edit failed: \w+Error: \S/);
    // The draft is still there to fix; the memory is unchanged.
    expect((await page.getByTestId('mem-edit-input').inputValue()).length).toBe(100_001);
    await page.getByTestId('mem-edit-input').press('Escape');
    await panelSettled(page);
    expect(await status(page)).toBe('Edit cancelled.');
    expect((await listed(page)).filter((memory) => memory.topic === 'diet').map((memory) => memory.content)).toEqual(['The user is vegetarian but eats eggs.']);
  });

  it('reads at 1280 px and at 390 px without horizontal overflow, every button visible and labelled', async () => {
    await item(page, 'window seating').getByTestId('mem-why').click();
    await panelSettled(page);
    await ingest(page, 't2', 'tool_output', 'Call me Sam.');
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => new Promise(requestAnimationFrame));
      const layout = await page.evaluate(() => {
        const panel = document.getElementById('memories')!;
        const buttons = [...panel.querySelectorAll('button')].map((button) => {
          const box = button.getBoundingClientRect();
          return { label: button.getAttribute('aria-label') ?? '', text: button.textContent ?? '', left: box.left, right: box.right, width: box.width, height: box.height };
        });
        return { scrollWidth: document.documentElement.scrollWidth, innerWidth, panelRight: panel.getBoundingClientRect().right, buttons };
      });
      expect(layout.scrollWidth, `scrollWidth at ${viewport.width}`).toBeLessThanOrEqual(layout.innerWidth);
      expect(layout.panelRight).toBeLessThanOrEqual(viewport.width);
      // Four per fact and two per held fact. The approved export report's turn has no Delete of
      // its own: approving its fact linked the two, so the turn is listed under the fact.
      expect(layout.buttons.length).toBe(3 * 4 + 2);
      // The why opened before the ingest is still open (a redraw keeps it).
      expect(await item(page, 'window seating').getByTestId('why').isVisible()).toBe(true);
      for (const button of layout.buttons) {
        expect(button.label, button.text).not.toBe('');
        expect(button.width, button.label).toBeGreaterThan(0);
        expect(button.height, button.label).toBeGreaterThan(0);
        expect(button.left, button.label).toBeGreaterThanOrEqual(0);
        expect(button.right, button.label).toBeLessThanOrEqual(viewport.width);
      }
      const file = join(ARTIFACTS, `demo-memories-${viewport.width}.png`);
      await page.locator('#memories').screenshot({ path: file });
      await copyFile(file, demo.shots.path(`panel-${viewport.width}`));
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('can be used from the keyboard: Enter on a focused Pin pins, Space on Unpin unpins', async () => {
    await item(page, 'eats eggs').getByTestId('mem-pin').focus();
    await page.keyboard.press('Enter');
    await panelSettled(page);
    expect(
      (await listed(page))
        .filter((memory) => memory.pinned)
        .map((memory) => memory.topic)
        .sort(),
    ).toEqual(['diet', 'travel']);
    await item(page, 'window seating').getByTestId('mem-unpin').focus();
    await page.keyboard.press('Space');
    await panelSettled(page);
    expect((await listed(page)).filter((memory) => memory.pinned).map((memory) => memory.topic)).toEqual(['diet']);
    expect(await status(page)).toContain('Unpinned “The user prefers window seating on flights.”');
  });

  it('moves an edited memory under the topic it is given, and asks again before deleting a pinned one, saying it is pinned', async () => {
    await item(page, 'window seating').getByTestId('mem-edit').click();
    const topic = page.getByTestId('mem-edit-topic');
    expect(await topic.inputValue()).toBe('travel');
    await page.getByTestId('mem-edit-input').fill('The user lives in Lisbon.');
    await topic.fill('home');
    await page
      .getByTestId('user-memory')
      .filter({ has: topic })
      .screenshot({ path: demo.shots.path('editor-topic') });
    await page.getByTestId('mem-save').click();
    await panelSettled(page);
    const moved = (await listed(page)).map((memory) => [memory.topic, memory.content]);
    expect(moved).toContainEqual(['home', 'The user lives in Lisbon.']);
    expect(moved.map(([name]) => name)).not.toContain('travel');
    expect(await status(page)).toBe('Edited: it now says “The user lives in Lisbon.” under home.');
    await reload(page);
    expect((await listed(page)).map((memory) => [memory.topic, memory.content])).toEqual(moved);
    await page.locator('#memories').screenshot({ path: demo.shots.path('panel-after-move') });

    const dialog = page.getByTestId('confirm-delete');
    await item(page, 'eats eggs').getByTestId('mem-delete').click();
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('pinned');
    await page.getByTestId('confirm-delete-cancel').click();
    await panelSettled(page);
    expect((await listed(page)).filter((memory) => memory.pinned).map((memory) => memory.content)).toEqual(['The user is vegetarian but eats eggs.']);
  });

  it('offers Undo for a few seconds after Delete: Undo keeps the memory, still there once the time is up and after a reload', async () => {
    const before = await listed(page);
    const dialog = page.getByTestId('confirm-delete');
    await item(page, 'eats eggs').getByTestId('mem-delete').click();
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain(`You can undo it for ${UNDO_MS / 1000} seconds; after that it cannot be undone.`);
    await page.getByTestId('confirm-delete-ok').click();
    await panelSettled(page);
    expect((await listed(page)).map((memory) => memory.content)).not.toContain('The user is vegetarian but eats eggs.');
    await page.locator('#memories').screenshot({ path: demo.shots.path('undo-bar') });
    await page.getByTestId('mem-undo').click();
    await panelSettled(page);
    expect(await status(page)).toBe('Undone: “The user is vegetarian but eats eggs.” is still remembered; nothing was erased.');
    expect(await listed(page)).toEqual(before);
    expect(await page.getByTestId('mem-undo').count()).toBe(0);
    // Past the time a deletion would have run: nothing ran.
    await page.waitForTimeout(UNDO_MS + 1000);
    await idle(page);
    expect(await listed(page)).toEqual(before);
    await reload(page);
    expect(await listed(page)).toEqual(before);
  });

  it('remembers a new user’s “im allergic to peanuts” (the default extractor) with the turn behind it as “said on”, and says when a line keeps nothing', async () => {
    const say = async (text: string, sessionId: string) => {
      await page.getByTestId('pg-user').fill('u_newcomer');
      await page.getByTestId('pg-session').fill(sessionId);
      await page.getByTestId('pg-source-type').selectOption('user_implicit');
      await page.getByTestId('pg-messages').fill(text);
      await page.getByTestId('pg-ingest').click();
      await storeShows(page, 'u_newcomer');
      await idle(page);
      await page.waitForFunction(() => document.getElementById('memories')?.dataset['owner'] === 'u_newcomer', undefined, { polling: 100 });
    };
    await say('im allergic to peanuts', 'n1');
    const said = await saidOn(page);
    expect(said).toHaveLength(1);
    expect(said[0]![0]).toMatch(/peanut/i);
    expect(said[0]![1]).toEqual([expect.stringMatching(SAID('im allergic to peanuts'))]);
    expect(await page.getByTestId('mem-episode').count()).toBe(0);
    expect(await status(page)).toBe('1 fact, 1 turn kept in your words, nothing waiting for review.');
    // The write's result says the same: one fact, and the turn kept in the user's words.
    expect(await page.getByTestId('pg-result').getByTestId('operation').count()).toBe(1);
    expect(await page.getByTestId('pg-result').getByTestId('kept-turn').allTextContents()).toEqual([expect.stringMatching(/^im allergic to peanuts kept · mem_\w+$/)]);
    await page.locator('#memories').screenshot({ path: demo.shots.path('said-on') });

    await say('thanks!', 'n2');
    expect(await page.getByTestId('pg-result').getByTestId('operations').textContent()).toBe('Nothing to remember in that line.');
    expect(await saidOn(page)).toEqual(said);

    // Said again later: still one fact, now with both turns behind it.
    await say("I'm allergic to peanuts.", 'n3');
    const again = await saidOn(page);
    expect(again.map(([fact]) => fact)).toEqual([said[0]![0]]);
    expect(again[0]![1]).toEqual([expect.stringMatching(SAID('im allergic to peanuts')), expect.stringMatching(SAID("I'm allergic to peanuts."))]);
    expect(await status(page)).toBe('1 fact, 2 turns kept in your words, nothing waiting for review.');
  });

  it('logged no console errors', () => {
    expect(demo.problems.errors).toEqual([]);
  });
});
