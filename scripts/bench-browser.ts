/**
 * `npm run bench:browser`: builds bench/ (the same benchmark as `npm run bench`) with Vite,
 * serves it, and runs it in headless Chromium: real IndexedDB, compute in a module Worker.
 * Sizes: `npm run bench:browser -- 1000 10000`; `--long=…`, `--long-only`, `--no-long`,
 * `--sealed=…`, `--sealed-only`, `--codes-only`, `--topic-only` and `--speech-only` as for `npm run bench`.
 * Exits 1 if any top-k is wrong.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { launchChromium, REPO_ROOT } from '../test/e2e/browser';

type BenchResult = { failures: string[]; error?: string };

const args = process.argv.slice(2);
const sizes = args.map(Number).filter((n) => Number.isInteger(n) && n > 0);
const long = args.find((arg) => arg.startsWith('--long='))?.slice('--long='.length);
const sealed = args.find((arg) => arg.startsWith('--sealed='))?.slice('--sealed='.length);
const extra = `${long ? `&long=${long}` : ''}${args.includes('--long-only') ? '&longOnly' : ''}${args.includes('--no-long') ? '&noLong' : ''}${sealed ? `&sealed=${sealed}` : ''}${args.includes('--sealed-only') ? '&sealedOnly' : ''}${args.includes('--codes-only') ? '&codesOnly' : ''}${args.includes('--topic-only') ? '&topicOnly' : ''}${args.includes('--speech-only') ? '&speechOnly' : ''}`;
const outDir = await mkdtemp(join(tmpdir(), 'engram-bench-'));

await build({
  configFile: false,
  root: join(REPO_ROOT, 'bench'),
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: { outDir, emptyOutDir: true, target: 'es2022' },
});
// Cross-origin isolated, so performance.now() has 5 µs resolution instead of 100 µs.
const server = await preview({
  configFile: false,
  root: join(REPO_ROOT, 'bench'),
  logLevel: 'warn',
  build: { outDir },
  preview: {
    host: '127.0.0.1',
    port: 0,
    open: false,
    headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
  },
});
const url = server.resolvedUrls?.local[0];
if (!url) throw new Error('vite preview reported no local URL');
// --expose-gc: the bench collects its own garbage (the 100k records it built the store from)
// before probing the main thread, so the probe measures engram's pauses, not the bench's.
const browser = await launchChromium({ args: ['--js-flags=--expose-gc'] });
let failed = true;
try {
  const page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'log') console.log(message.text());
    else if (message.type() === 'error') console.error(`[page] ${message.text()}`);
  });
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  await page.goto(`${url}?sizes=${(sizes.length ? sizes : [1_000, 10_000, 100_000]).join(',')}${extra}`);
  const read = () => (window as unknown as { __engramBench?: BenchResult }).__engramBench;
  await page.waitForFunction(read, undefined, { timeout: 30 * 60_000, polling: 1000 });
  const result = (await page.evaluate(read))!;
  if (result.error) console.error(result.error);
  failed = result.failures.length > 0;
} finally {
  await browser.close();
  await server.close();
  await rm(outDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
