/**
 * engram/transformers in headless Chromium: the tiny BERT-shaped model (helpers/tiny-bert.ts)
 * and transformers.js served from this origin, loaded inside engram's module Worker and run on
 * ONNX Runtime's WASM backend; the vector stored equals the one computed here from the weights.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { expectedVector, HIDDEN, idOf, writeTinyBert } from '../helpers/tiny-bert';
import { launchChromium, REPO_ROOT, serveBuilt, type ConsoleProblems, type LaunchedBrowser, type Served } from './browser';
import { openHarnessAt } from './harness-session';

const VENDOR = join(REPO_ROOT, 'node_modules/@huggingface/transformers/dist');

let outDir: string;
let served: Served;
let browser: LaunchedBrowser;
let page: Page;
let problems: ConsoleProblems;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'engram-transformers-'));
  await build({
    configFile: false,
    root: join(REPO_ROOT, 'test/e2e/transformers-harness'),
    base: './',
    logLevel: 'warn',
    // The adapter imports engram by its package name, as an application's would.
    resolve: { alias: [{ find: /^engram$/, replacement: join(REPO_ROOT, 'src/index.ts') }] },
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  mkdirSync(join(outDir, 'vendor'));
  for (const file of ['transformers.min.js', 'ort-wasm-simd-threaded.jsep.mjs', 'ort-wasm-simd-threaded.jsep.wasm']) copyFileSync(join(VENDOR, file), join(outDir, 'vendor', file));
  writeTinyBert(join(outDir, 'models'), 'tiny-bert');
  served = await serveBuilt(outDir);
  browser = await launchChromium();
  ({ page, problems } = await openHarnessAt(browser.context, served.url));
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('transformersEmbedder (Chromium)', () => {
  it("embeds in engram's module Worker on the WASM backend, storing the mean-pooled vector of the model's tokens", async () => {
    const result = await page.evaluate(() =>
      (window as unknown as { embedInWorker(text: string): Promise<{ location: string; embedderId: string; vector: number[]; relevance: number; mainThreadDim: number }> }).embedInWorker('The user likes green tea.'),
    );
    expect(result).toMatchObject({ location: 'worker', embedderId: `transformers:tiny-bert:fp32:${HIDDEN}`, mainThreadDim: 0 });
    const expected = expectedVector(['[CLS]', 'the', 'user', 'likes', 'green', 'tea', '.', '[SEP]'].map(idOf));
    expected.forEach((value, i) => expect(result.vector[i]!).toBeCloseTo(value, 5));
    expect(result.relevance).toBeCloseTo(1, 4);
    expect(problems.errors).toEqual([]);
  });

  it('takes a thread count for ONNX Runtime, and on a page that is not cross-origin isolated runs on one thread, as before, with no error', async () => {
    const result = await page.evaluate(() => (window as unknown as { embedInWorker(text: string, threads: number): Promise<{ isolated: boolean; vector: number[] }> }).embedInWorker('The user likes green tea.', 2));
    expect(result.isolated).toBe(false);
    const expected = expectedVector(['[CLS]', 'the', 'user', 'likes', 'green', 'tea', '.', '[SEP]'].map(idOf));
    expected.forEach((value, i) => expect(result.vector[i]!).toBeCloseTo(value, 5));
    expect(problems.errors).toEqual([]);
  });

  it('fails createMemory with PluginError when the model is not on the server', async () => {
    const outcome = await page.evaluate(() => (window as unknown as { openMissing(): Promise<string> }).openMissing());
    expect(outcome).toMatch(/^PluginError: transformersEmbedder could not load model 'no-such-model'/);
    expect(outcome).toMatch(/no model there: http:\/\/127\.0\.0\.1:\d+\/models\/no-such-model\/config\.json answered with an HTML page/);
  });
});
