/**
 * `npm run bench:browser`: builds bench/ (the same benchmark as `npm run bench`) with Vite,
 * serves it, and runs it in headless Chromium: real IndexedDB, compute in a module Worker.
 * Sizes: `npm run bench:browser -- 1000 10000`; `--long=…`, `--long-only`, `--no-long`,
 * `--sealed=…`, `--sealed-only`, `--codes-only`, `--topic-only` and `--speech-only` as for `npm run bench`.
 * `--peers`: only the peers table (scripts/bench-peers.ts; pass the sizes, e.g. 10000 100000).
 * `--embedder-only [--memories=N]`: only the real-sized embedder bench (scripts/bench-embedder.ts).
 * `--e2e-only`: only the end-to-end table and its stage breakdown. `--baseline <rev>` (or
 * `--baseline=<rev>`, e.g. 86b3334): also builds that release's own bench page from git and runs
 * it in the same Chromium, alternating with this tree's for `--rounds=N` rounds (default 2), then
 * prints the end-to-end comparison (implies `--e2e-only` for this tree; scripts/bench-baseline.ts).
 * Exits 1 if any top-k is wrong.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { PreviewServer } from 'vite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { launchChromium, REPO_ROOT } from '../test/e2e/browser';
import { checkoutRelease, parseEndToEnd, printComparison, publishComparison, stageLines, type EndToEndRow } from './bench-baseline';
import { benchCommand, writeBenchSection } from './bench-doc';

type BenchResult = { failures: string[]; error?: string };

const args = process.argv.slice(2);
const sizes = args
  .filter((_, i) => args[i - 1] !== '--baseline')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const long = args.find((arg) => arg.startsWith('--long='))?.slice('--long='.length);
const sealed = args.find((arg) => arg.startsWith('--sealed='))?.slice('--sealed='.length);
const extra = `${long ? `&long=${long}` : ''}${args.includes('--long-only') ? '&longOnly' : ''}${args.includes('--no-long') ? '&noLong' : ''}${sealed ? `&sealed=${sealed}` : ''}${args.includes('--sealed-only') ? '&sealedOnly' : ''}${args.includes('--codes-only') ? '&codesOnly' : ''}${args.includes('--topic-only') ? '&topicOnly' : ''}${args.includes('--speech-only') ? '&speechOnly' : ''}${args.includes('--peers') ? '&peers' : ''}`;
const baselineRev = args.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length) ?? (args.includes('--baseline') ? args[args.indexOf('--baseline') + 1] : undefined);
const rounds = Number(args.find((arg) => arg.startsWith('--rounds='))?.slice('--rounds='.length) ?? 2);
const e2eOnly = args.includes('--e2e-only') || baselineRev !== undefined;
const query = `?sizes=${(sizes.length ? sizes : [1_000, 10_000, 100_000]).join(',')}${extra}${e2eOnly ? '&e2eOnly' : ''}`;

if (args.includes('--embedder-only')) {
  const { runEmbedderBench } = await import('./bench-embedder');
  process.exit(await runEmbedderBench(args));
}

/** Builds the bench/ page of the tree at `root` and serves it (cross-origin isolated, so performance.now() has 5 µs resolution). */
async function servePage(root: string): Promise<{ url: string; server: PreviewServer; outDir: string }> {
  const outDir = await mkdtemp(join(tmpdir(), 'engram-bench-'));
  await build({
    configFile: false,
    root: join(root, 'bench'),
    base: './',
    logLevel: 'warn',
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  const server = await preview({
    configFile: false,
    root: join(root, 'bench'),
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
  return { url, server, outDir };
}

const release = baselineRev ? await checkoutRelease(REPO_ROOT, baselineRev) : null;
const pages = { current: await servePage(REPO_ROOT), baseline: release ? await servePage(release.dir) : null };
// --expose-gc: the bench collects its own garbage (the 100k records it built the store from)
// before probing the main thread, so the probe measures engram's pauses, not the bench's.
const browser = await launchChromium({ args: ['--js-flags=--expose-gc'] });

/** Runs one page to its end; returns whether every top-k was exact and the lines it printed. */
async function runPage(url: string, prefix: string): Promise<{ failed: boolean; lines: string[] }> {
  const lines: string[] = [];
  const page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'log') {
      lines.push(message.text());
      console.log(`${prefix}${message.text()}`);
    } else if (message.type() === 'error') console.error(`${prefix}[page] ${message.text()}`);
  });
  page.on('pageerror', (error) => console.error(`${prefix}[page error] ${error.message}`));
  try {
    await page.goto(url);
    const read = () => (window as unknown as { __engramBench?: BenchResult }).__engramBench;
    await page.waitForFunction(read, undefined, { timeout: 60 * 60_000, polling: 1000 });
    const result = (await page.evaluate(read))!;
    if (result.error) console.error(result.error);
    return { failed: result.failures.length > 0, lines };
  } finally {
    await page.close();
  }
}

let failed = true;
try {
  if (!pages.baseline) {
    const run = await runPage(`${pages.current.url}${query}`, '');
    failed = run.failed;
    // The page runs one section, or all of them in turn: its lines go to docs/benchmarks.md as one.
    const only = ['--speech-only', '--codes-only', '--topic-only', '--long-only', '--sealed-only', '--e2e-only', '--peers'].find((flag) => args.includes(flag));
    const name = only ? `browser-${only.replace(/^--|-only$/g, '')}` : 'browser';
    // The peers run on the page's own thread (engram's row is its compute module there, as each peer is).
    const title = only === '--peers' ? "Peers (headless Chromium, the page's main thread)" : `Headless Chromium, real IndexedDB, compute in a module Worker${only ? ` (${only})` : ''}`;
    writeBenchSection(name, title, benchCommand('bench:browser', args), run.lines);
  } else {
    const results: { baseline: EndToEndRow[]; current: EndToEndRow[] }[] = [];
    let stages: string[] = [];
    failed = false;
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always runs on the warmer (or more loaded) machine.
      const order = round % 2 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
      const got: Partial<Record<'baseline' | 'current', EndToEndRow[]>> = {};
      for (const which of order) {
        const page = pages[which]!;
        const run = await runPage(`${page.url}${query}`, `[${which} ${round + 1}] `);
        // The baseline's own checks are its business; only this tree's top-k decides the exit code.
        if (which === 'current') failed ||= run.failed;
        if (which === 'current') stages = stageLines(run.lines);
        got[which] = parseEndToEnd(run.lines);
      }
      results.push({ baseline: got.baseline!, current: got.current! });
    }
    const table: string[] = [];
    printComparison((line) => (console.log(line), table.push(line)), { baseline: release!.commit.slice(0, 7), current: 'this tree' }, results);
    // Published only when this tree's top-k all matched: a table of wrong answers is no figure.
    if (!failed) publishComparison(release!.commit.slice(0, 7), table, stages);
  }
} finally {
  await browser.close();
  for (const page of [pages.current, pages.baseline]) {
    if (!page) continue;
    await page.server.close();
    await rm(page.outDir, { recursive: true, force: true });
  }
  await release?.dispose();
}
process.exit(failed ? 1 : 0);
