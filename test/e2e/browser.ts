/**
 * Real-browser helpers shared by the end-to-end tests and the browser benchmark: launch the
 * system Chromium through playwright-core (it never downloads a browser), build the demo with
 * Vite, and serve any built directory with Vite's preview server on a free port.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { fastTempRoot } from '../helpers/memory-dir';
import { build, preview, type PreviewServer } from 'vite';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const DEMO_OUT_DIR = join(REPO_ROOT, 'dist-demo');

// Without the network flags Chromium keeps trying to reach Google services and floods the
// closed network here; --no-sandbox because the tests run as root in containers.
export const CHROMIUM_ARGS: readonly string[] = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** `CHROMIUM_PATH`, else `/usr/bin/chromium`. Throws (never skips) when it is not installed. */
export function chromiumPath(): string {
  const path = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`Chromium not found at ${path}. Install it with \`apt-get install -y chromium\` ` + '(Debian/Ubuntu; about a minute), or set CHROMIUM_PATH to a Chromium or Chrome executable.');
  }
  return path;
}

export interface LaunchedBrowser {
  context: BrowserContext;
  /** The profile directory: it holds IndexedDB and localStorage, so a reload keeps them. */
  userDataDir: string;
  /** Closes the browser and deletes the profile. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  /** Extra Chromium flags, appended to {@link CHROMIUM_ARGS}. */
  args?: readonly string[];
}

/**
 * Headless Chromium with a fresh persistent profile. `launchPersistentContext` rather than
 * `launch()`: the latter refuses a user data dir, and a fixed profile is what makes reload
 * and two-tab tests meaningful.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const executablePath = chromiumPath();
  const userDataDir = await mkdtemp(join(fastTempRoot(), 'engram-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  return {
    context,
    userDataDir,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface ConsoleProblems {
  /** Every `console.error` and uncaught page error seen so far, as text. */
  readonly errors: string[];
}

/** Records console errors and uncaught exceptions of a page (and its workers' console output). */
export function collectConsoleErrors(page: Page): ConsoleProblems {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { errors };
}

/** Builds the demo page (`vite build --mode demo`) into `dist-demo/` and returns that path. */
export async function buildDemo(): Promise<string> {
  await build({ configFile: join(REPO_ROOT, 'vite.config.ts'), mode: 'demo', logLevel: 'warn' });
  return DEMO_OUT_DIR;
}

export interface Served {
  /** Base URL ending in `/`, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  server: PreviewServer;
  close(): Promise<void>;
}

/**
 * Serves a built directory with Vite's preview server on 127.0.0.1 and a free port. `outDir`
 * defaults to the demo's; pass another built directory (a benchmark page) to serve that.
 */
export async function serveBuilt(outDir: string = DEMO_OUT_DIR, mode = 'demo'): Promise<Served> {
  const server = await preview({
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    mode,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) {
    await server.close();
    throw new Error('vite preview started but reported no local URL');
  }
  return {
    url,
    server,
    close: () => server.close(),
  };
}
