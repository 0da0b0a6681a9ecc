/**
 * Driving the harness page (test/e2e/harness/: the library bundled from src/ by Vite, exposed on
 * `window.engram`) in real Chromium: serve it (built once a run, test/e2e/global-setup.ts), launch
 * persistent profiles that survive a kill, open tabs on it, and find the browser processes a test
 * launched so it can SIGKILL them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { fastTempRoot } from '../helpers/memory-dir';
import { CHROMIUM_ARGS, chromiumPath, collectConsoleErrors, serveBuilt, type ConsoleProblems, type Served } from './browser';
import { builtHarness } from './builds';

export interface ServedHarness extends Served {
  /** A new temporary directory, removed by `close`. */
  tempDir(prefix: string): Promise<string>;
}

/** Serves the harness the run built (test/e2e/global-setup.ts); `close` stops the server and removes every temporary directory. */
export async function serveHarness(): Promise<ServedHarness> {
  const dirs: string[] = [];
  const served = await serveBuilt(builtHarness());
  return {
    ...served,
    async tempDir(prefix) {
      const dir = await mkdtemp(join(fastTempRoot(), prefix));
      dirs.push(dir);
      return dir;
    },
    async close() {
      await served.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** A persistent Chromium context on `profile` (kept after close, so it can be reopened). */
export async function launchProfile(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 800, height: 600 },
  });
}

export interface HarnessPage {
  page: Page;
  problems: ConsoleProblems;
}

/** Opens the harness at `url` in a new tab of `context` and waits until `window.engram` is there. */
export async function openHarnessAt(context: BrowserContext, url: string): Promise<HarnessPage> {
  const page = await context.newPage();
  const problems = collectConsoleErrors(page);
  await page.goto(url);
  await page.waitForFunction(() => window.harnessReady === true);
  return { page, problems };
}

/** Pids of the Chromium processes this test process launched on `profile` (their group leaders). */
export function chromiumPidsFor(profile: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && cmdline.includes(`--user-data-dir=${profile}`)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
