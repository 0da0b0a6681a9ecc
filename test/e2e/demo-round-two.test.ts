/**
 * The demo page as a new user met it in issue 27: the Models panel's radio buttons beside their
 * labels and the store panel never sliding over it, an erasure report that says what was active
 * and what became of it, no revoked source shown as inherited, Reset saying what it deletes, and
 * no Prompt API warning on load. Screenshots go to artifacts/demo-round-two-*.png.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openTab, ready, storeShows, useDemo, type DemoRun } from './demo-page';

let demo: DemoRun;
let page: Page;

useDemo('demo-round-two', (run) => {
  demo = run;
  page = run.page;
});

/** Clicks "Next step" until `done` steps are done. */
async function walkTo(done: number) {
  for (let step = Number(await page.getByTestId('next-step').getAttribute('data-done')); step < done; step++) {
    await page.getByTestId('next-step').click();
    await page.waitForFunction((count) => document.querySelector<HTMLElement>('[data-testid="next-step"]')?.dataset['done'] === String(count) && !document.body.classList.contains('busy'), step + 1, { polling: 100 });
  }
}

/** Each radio of the Models panel: its width, and the gap from its right edge to the first glyph of its label. */
function radioLayout(target: Page) {
  return target.$$eval('#models input[type="radio"]', (radios) =>
    radios.map((radio) => {
      const box = radio.getBoundingClientRect();
      const range = document.createRange();
      range.setStartAfter(radio);
      range.setEnd(radio.parentElement!, radio.parentElement!.childNodes.length);
      const text = [...range.getClientRects()].find((rect) => rect.width > 4)!;
      return { value: (radio as HTMLInputElement).value, width: box.width, gap: text.left - box.right, middle: Math.abs(text.top + text.height / 2 - (box.top + box.height / 2)) };
    }),
  );
}

/** Opens the Reset dialog, reads its text, takes a screenshot of it, and cancels. */
async function resetDialogText(shot: string): Promise<string> {
  await page.getByTestId('reset').click();
  const dialog = page.getByTestId('confirm-reset');
  await dialog.waitFor({ state: 'visible' });
  const text = (await page.locator('#confirm-reset-body').textContent()) ?? '';
  await dialog.screenshot({ path: demo.shots.path(shot) });
  await page.getByTestId('confirm-cancel').click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

describe('demo page (round two)', () => {
  it('sends no Prompt API request without languages on load, when the browser has the Prompt API', async () => {
    const tab = await demo.browser.context.newPage();
    const messages: string[] = [];
    tab.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
    await tab.goto(demo.served.url);
    await ready(tab);
    // The panel asks Chrome for availability on load; the warning came with that answer.
    await tab.waitForFunction(() => document.querySelector('[data-testid="models-status"]')?.textContent?.includes('Chrome’s model:'), undefined, { polling: 100 });
    expect(await tab.evaluate(() => typeof (globalThis as { LanguageModel?: unknown }).LanguageModel)).toBe('function');
    await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(messages.filter((message) => /language/i.test(message))).toEqual([]);
    await tab.close();
  });

  it('says the database holds no memories yet when Reset is clicked on a fresh page', async () => {
    const text = await resetDialogText('reset-fresh-page');
    expect(text).toContain('The IndexedDB database engram-demo holds no memories yet.');
    expect(text).toContain("Reset starts the walkthrough's progress and the simulated clock over");
    expect(text).not.toMatch(/users? seen/);
  });

  it('keeps each radio of the Models panel beside its label, at 1280 px and at 390 px', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const { tab, errors } = await openTab(demo, viewport);
      const radios = await radioLayout(tab);
      expect(radios.map((radio) => radio.value)).toEqual(['offline', 'openai', 'chrome']);
      for (const radio of radios) {
        expect(radio.width, radio.value).toBeLessThan(24);
        expect(radio.gap, radio.value).toBeGreaterThanOrEqual(0);
        expect(radio.gap, radio.value).toBeLessThan(16);
      }
      await tab.locator('#models').screenshot({ path: demo.shots.path(`models-${viewport.width}`) });
      await tab.close();
      expect(errors.errors).toEqual([]);
    }
  });

  it('scrolls the Models panel away under a sticky Store panel that never covers it', async () => {
    await walkTo(9);
    await storeShows(page, 'u_ada');
    // A laptop's short window, so the page scrolls well past the Models panel.
    await page.setViewportSize({ width: 1280, height: 600 });
    // From the top, through the Models panel, just past it, and on to the end of the page.
    const modelsBottom = await page.evaluate(() => {
      window.scrollTo(0, 0);
      return document.getElementById('models')!.getBoundingClientRect().bottom;
    });
    const end = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
    expect(end).toBeGreaterThan(modelsBottom + 100);
    const overlaps: number[] = [];
    for (const y of [0, modelsBottom / 2, modelsBottom + 50, (modelsBottom + end) / 2, end]) {
      overlaps.push(
        await page.evaluate((at) => {
          window.scrollTo(0, at);
          const models = document.getElementById('models')!.getBoundingClientRect();
          const store = document.getElementById('store')!.getBoundingClientRect();
          return Math.max(0, Math.min(models.bottom, store.bottom) - Math.max(models.top, store.top));
        }, y),
      );
      if (y === modelsBottom + 50) {
        // Past the Models panel, the store panel follows the scroll at its sticky offset.
        expect(await page.evaluate(() => Math.round(document.getElementById('store')!.getBoundingClientRect().top))).toBe(16);
        await page.screenshot({ path: demo.shots.path('scrolled-past-models') });
      }
    }
    expect(overlaps).toEqual([0, 0, 0, 0, 0]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('reports what was active and what became of it when s1 is revoked, the superseded memory apart', async () => {
    await walkTo(9);
    const step = page.getByTestId('step');
    expect(await step.getByTestId('forget-summary').textContent()).toBe('u_ada had 3 active facts; s1 supported 3 of them. What became of each:');
    // The turn of s1 still kept in her words goes with it, said apart from the facts.
    expect(await step.getByTestId('turns-erased').textContent()).toBe("1 turn kept in u_ada's words (an episode) came from s1: it is erased with it.");
    const erased = await step.getByTestId('erased').allTextContents();
    expect(erased.map((row) => /\[(\w+)\]/.exec(row)?.[1]).sort()).toEqual(['identity', 'travel']);
    for (const row of erased) expect(row).toContain('only s1 supported it: its text is gone');
    const rebuilt = await step.getByTestId('regenerated').allTextContents();
    expect(rebuilt).toHaveLength(1);
    expect(rebuilt[0]).toMatch(/^REBUILT\[diet\] “The user eats fish again\.” rebuilt without s1 from s2, s3, still active: mem_\w+ → mem_\w+$/);
    const superseded = step.getByTestId('superseded-outcome');
    expect(await superseded.count()).toBe(1);
    expect(await superseded.getAttribute('data-outcome')).toBe('rebuilt');
    const [, activeId] = /→ (mem_\w+)$/.exec(rebuilt[0]!)!;
    expect(await superseded.textContent()).toMatch(new RegExp(`^LINEAGE\\[diet\\] “The user follows a vegetarian diet\\.” mem_\\w+ stays superseded; its lineage now leads to ${activeId}, the active memory$`));
    expect(await step.getByTestId('superseded-outcomes').textContent()).toContain('already superseded before (never retrieved, kept for lineage) no longer lists s1');
    expect(await step.getByTestId('superseded-outcomes').textContent()).toContain('Also cleaned: 1 fact already superseded');
    await step.screenshot({ path: demo.shots.path('erasure-report') });
  });

  it('marks s1 as revoked wherever it still stands in the store, and never as inherited', async () => {
    await storeShows(page, 'u_ada');
    const chips = await page.locator('[data-testid="store"] .chip[data-source-id="s1"]').evaluateAll((elements) => elements.map((element) => ({ state: (element as HTMLElement).dataset['state'] ?? '', text: element.textContent ?? '' })));
    expect(chips.length).toBeGreaterThan(0);
    expect(chips.every((chip) => chip.state === 'revoked' && chip.text.endsWith('revoked'))).toBe(true);
    expect(await page.locator('[data-testid="lineage"] .chip.inherited[data-source-id="s1"]').count()).toBe(0);
    // Sources that were not revoked are still inherited and wired: s2 on every edge, s3 where kept.
    expect(await page.locator('[data-testid="lineage"] .lineage-node.new .chip.inherited[data-source-id="s2"]').count()).toBe(await page.getByTestId('lineage-edge').count());
    const wires = await page.getByTestId('lineage-edge').evaluateAll((edges) => edges.map((edge) => [edge.querySelectorAll('path.inherit').length, edge.querySelectorAll('.lineage-node.old .chip.inherited').length]));
    for (const [drawn, inherited] of wires) expect(drawn).toBe(inherited);
    expect(await page.locator('.lineage-caption').textContent()).toContain('except a revoked one');
    await demo.shots.take(page, 'store-after-erasure');
  });

  it('says whose memories Reset deletes, and how many, once the walkthrough ran', async () => {
    const text = await resetDialogText('reset-after-walkthrough');
    expect(text).toMatch(
      /^This deletes the IndexedDB database engram-demo: 1 active fact, 1 turn kept in their words and 7 invalidated of u_ada, with their sources and the conversations they came from; also the walkthrough's progress \(9 of 9 steps\)/,
    );
    // A second user with memories is counted apart.
    await page.getByTestId('pg-user').fill('u_carol');
    await page.getByTestId('pg-session').fill('c1');
    await page.getByTestId('pg-messages').fill("I'm vegetarian. Call me Carol.");
    await page.getByTestId('pg-ingest').click();
    await storeShows(page, 'u_carol');
    expect(await resetDialogText('reset-two-users')).toMatch(/^This deletes the IndexedDB database engram-demo: 3 active facts, 2 turns kept in their words and 7 invalidated of 2 users \(u_ada 1, u_carol 2\), with/);
  });

  it('logged no console errors', () => {
    expect(demo.problems.errors).toEqual([]);
  });
});
