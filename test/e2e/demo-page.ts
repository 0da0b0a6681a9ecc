/**
 * Helpers for the e2e tests that drive the demo page: screenshots into artifacts/, waiting for
 * the page to be ready or idle, and reading the store panel the way a person sees it.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { collectConsoleErrors, launchChromium, REPO_ROOT, serveBuilt, type ConsoleProblems, type LaunchedBrowser, type Served } from './browser';
import { builtDemo } from './builds';

export const ARTIFACTS = join(REPO_ROOT, 'artifacts');

export interface ActiveView {
  id: string;
  topic: string;
  content: string;
  confidence: string;
  decayed: number;
  sources: string[];
}

export interface Screenshots {
  /** The path the next screenshot named `name` goes to (numbered in order). */
  path(name: string): string;
  /**
   * A full-page screenshot. The viewport is grown to the page height first: the store panel is
   * sticky and capped at the viewport height, so a plain full-page capture would show it
   * wherever the last click scrolled it, and cut.
   */
  take(page: Page, name: string): Promise<string>;
}

/** Screenshots named `<prefix>-NN-<name>.png`; those of an earlier run are deleted first, since they would mislead whoever looks. */
export async function screenshots(prefix: string): Promise<Screenshots> {
  await mkdir(ARTIFACTS, { recursive: true });
  const earlier = new RegExp(`^${prefix}-\\d+-.*\\.png$`);
  for (const file of await readdir(ARTIFACTS)) if (earlier.test(file)) await rm(join(ARTIFACTS, file));
  let shot = 0;
  const path = (name: string) => join(ARTIFACTS, `${prefix}-${String(++shot).padStart(2, '0')}-${name}.png`);
  return {
    path,
    async take(page, name) {
      const file = path(name);
      const viewport = page.viewportSize() ?? { width: 1280, height: 900 };
      const height = await page.evaluate(() => {
        const store = document.getElementById('store');
        return Math.max(document.documentElement.scrollHeight, store ? store.scrollHeight + store.getBoundingClientRect().top + window.scrollY + 40 : 0);
      });
      await page.setViewportSize({ width: viewport.width, height: Math.ceil(Math.max(viewport.height, height)) });
      await page.evaluate(() => new Promise(requestAnimationFrame));
      await page.screenshot({ path: file, fullPage: true });
      await page.setViewportSize(viewport);
      return file;
    },
  };
}

export interface DemoRun {
  served: Served;
  browser: LaunchedBrowser;
  /** The demo, opened and ready. */
  page: Page;
  problems: ConsoleProblems;
  shots: Screenshots;
}

/**
 * Builds and serves the demo, launches Chromium and opens the page. Call it in a try in
 * `beforeAll` and rethrow its error from `beforeEach`: a failing beforeAll would only mark the
 * tests skipped, and a skipped browser test reads like a passing run.
 */
export async function startDemo(prefix: string): Promise<DemoRun> {
  const shots = await screenshots(prefix);
  const served = await serveBuilt(builtDemo());
  const browser = await launchChromium().catch(async (error: unknown) => {
    await served.close();
    throw error;
  });
  const page = await browser.context.newPage();
  const problems = collectConsoleErrors(page);
  await page.goto(served.url);
  await ready(page);
  return { served, browser, page, problems, shots };
}

/**
 * A suite's demo, as {@link startDemo} says to hold it: started once before the tests (and
 * handed to `started`), closed after them. A launch failure fails every test with its error
 * instead of skipping them, and each test brings the main page to the front: a background tab
 * gets no animation frames, so its CSS animations and Playwright's frame-based polling stand still.
 */
export function useDemo(prefix: string, started: (demo: DemoRun) => void): void {
  let demo: DemoRun | undefined;
  let launchError: unknown;
  beforeAll(async () => {
    try {
      demo = await startDemo(prefix);
      started(demo);
    } catch (error) {
      launchError = error;
    }
  });
  beforeEach(async () => {
    if (launchError) throw launchError;
    await demo!.page.bringToFront();
  });
  afterAll(async () => {
    await demo?.browser.close();
    await demo?.served.close();
  });
}

/** A second page of the demo's browser profile (another tab), at `viewport`, ready, its console errors collected. */
export async function openTab(demo: DemoRun, viewport = { width: 1280, height: 900 }): Promise<{ tab: Page; errors: ConsoleProblems }> {
  const tab = await demo.browser.context.newPage();
  const errors = collectConsoleErrors(tab);
  await tab.setViewportSize(viewport);
  await tab.goto(demo.served.url);
  await ready(tab);
  return { tab, errors };
}

// The waits poll on a timer, not on animation frames: a page in the background (another tab
// of the test is in front) gets no frames, and frame-based polling would stand still.

/** Waits until the page finished starting (memory open, store rendered). */
export async function ready(page: Page) {
  await page.waitForSelector('body[data-ready="true"]:not(.busy)');
}

/** Waits until no action is running: every action sets body.busy until the store is redrawn. */
export async function idle(page: Page) {
  await page.waitForFunction(() => !document.body.classList.contains('busy'), undefined, { polling: 100 });
}

/** Waits until the store panel shows `userId` and no action runs. */
export async function storeShows(page: Page, userId: string) {
  await page.waitForFunction((user) => document.querySelector<HTMLElement>('[data-testid="store"]')?.dataset['owner'] === user && !document.body.classList.contains('busy'), userId, { polling: 100 });
}

export async function storeOwner(page: Page): Promise<string> {
  return (await page.getByTestId('store').getAttribute('data-owner')) ?? '';
}

/** The active memories in the store panel, as shown. */
export async function active(page: Page): Promise<ActiveView[]> {
  return page.$$eval('[data-testid="active-memory"]', (cards) =>
    cards.map((card) => {
      const text = (testId: string) => card.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '';
      const element = card as HTMLElement;
      return {
        id: element.dataset['id'] ?? '',
        topic: element.dataset['topic'] ?? '',
        content: text('memory-content'),
        confidence: text('memory-confidence'),
        decayed: Number(text('memory-decayed')),
        sources: (element.dataset['sources'] ?? '').split(',').filter(Boolean),
      };
    }),
  );
}

/** Clicks Reset and answers its confirmation dialog. */
export async function resetAnswering(page: Page, answer: 'confirm' | 'cancel') {
  await page.getByTestId('reset').click();
  await page.getByTestId('confirm-reset').waitFor({ state: 'visible' });
  await page.getByTestId(answer === 'confirm' ? 'confirm-ok' : 'confirm-cancel').click();
  await page.getByTestId('confirm-reset').waitFor({ state: 'hidden' });
  await idle(page);
}
