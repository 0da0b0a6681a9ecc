/**
 * `npm run bench:browser -- --embedder-only [--memories=N] [--dtypes=q8,fp32] [--stores=q8,fp32] [--only=hash] [--threads=N]`
 * (issue #28): engram/transformers with a real-sized model. Writes the MiniLM-shaped model
 * (scripts/minilm-model.ts, fp32 and q8) beside a Vite build of bench/embedder.html, serves
 * transformers.js and ONNX Runtime's wasm from node_modules/@huggingface/transformers/dist, and
 * runs the page in headless Chromium: texts/s by batch (1, 8, 32) in engram's worker for each
 * of `--dtypes` (default q8 and fp32), then the hash-embedder baseline and, for each of
 * `--stores` (default q8), retrieve and ingest p50 on a store of N memories (default 10,000;
 * `--memories=0` skips it) and the main thread's longest stall. Publishes section `embedder`
 * of docs/benchmarks.md (not with `--only=hash`: the hash-embedder store alone, no model, for a quick
 * stall check or a profile). `ENGRAM_BENCH_MINIFY=0` keeps the page unminified (for a profile).
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { launchChromium, REPO_ROOT } from '../test/e2e/browser';
import { benchCommand, writeBenchSection } from './bench-doc';
import { writeMinilmShaped } from './minilm-model';
import { mainThreadTasks, traceTasks, type Task } from './trace-tasks';

const TRANSFORMERS_FILES = ['transformers.min.js', 'ort-wasm-simd-threaded.jsep.mjs', 'ort-wasm-simd-threaded.jsep.wasm'];

/** Builds and serves the page with the model and transformers.js beside it; resolves to its URL and a way to stop. */
export async function servePage(): Promise<{ url: string; close(): Promise<void> }> {
  const outDir = await mkdtemp(join(tmpdir(), 'engram-bench-embedder-'));
  await build({
    configFile: false,
    root: join(REPO_ROOT, 'bench'),
    base: './',
    logLevel: 'warn',
    // The adapter imports engram by its package name: here, the sources.
    resolve: { alias: [{ find: /^engram$/, replacement: join(REPO_ROOT, 'src/index.ts') }] },
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: process.env['ENGRAM_BENCH_MINIFY'] !== '0', rollupOptions: { input: join(REPO_ROOT, 'bench/embedder.html') } },
  });
  writeMinilmShaped(join(outDir, 'models'));
  await mkdir(join(outDir, 'vendor'));
  for (const file of TRANSFORMERS_FILES) await copyFile(join(REPO_ROOT, 'node_modules/@huggingface/transformers/dist', file), join(outDir, 'vendor', file));
  const server = await preview({
    configFile: false,
    root: join(REPO_ROOT, 'bench'),
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, open: false, headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
  });
  const url = server.resolvedUrls?.local[0];
  const close = async () => {
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  };
  if (!url) {
    await close();
    throw new Error('vite preview reported no local URL');
  }
  return { url, close };
}

/** The stall goal (bench/embedder.ts GOALS.stall): no main-thread task over this, in ms. */
const STALL_MS = 16;

/**
 * Per store and phase of the page (its marks, "model q8 import"), the page's main-thread tasks
 * over 16 ms and the longest, by wall time, with its thread's CPU time: on this machine the
 * model keeps a core busy, and a task that waited for a core is long in wall time only. The
 * trace's thread time is at times off (a 0.1 ms task with 19 ms of it), so it is shown capped
 * at the wall time and the goal is judged on wall time, what a user sees.
 */
function taskLines(tasks: readonly Task[]): string[] {
  const phases = [...new Set(tasks.map((task) => task.phase))].filter((phase) => / (import|retrieve|ingest|chat turn)$/.test(phase));
  if (phases.length === 0) return [];
  const out = ['', `main-thread tasks by phase, from a trace of the page (wall time; goal: no task over ${STALL_MS} ms):`, ''];
  out.push(`phase | tasks over ${STALL_MS} ms | longest | its thread CPU | goal`);
  out.push('----- | -------------- | ------- | -------------- | ----');
  for (const phase of phases) {
    const mine = tasks.filter((task) => task.phase === phase);
    const longest = mine.reduce((a, b) => (a.wallMs >= b.wallMs ? a : b));
    const cpu = longest.cpuMs === undefined ? '?' : `${Math.min(longest.cpuMs, longest.wallMs).toFixed(1)} ms`;
    out.push(`${phase} | ${mine.filter((task) => task.wallMs > STALL_MS).length} | ${longest.wallMs.toFixed(1)} ms | ${cpu} | ${longest.wallMs <= STALL_MS ? 'met' : 'not met'}`);
  }
  return out;
}

/** Runs the embedder bench; resolves to the process exit code (1 when the page crashed). */
export async function runEmbedderBench(args: readonly string[]): Promise<number> {
  const memories = args.find((arg) => arg.startsWith('--memories='))?.slice('--memories='.length) ?? '10000';
  const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const dtypes = option('dtypes');
  const stores = option('stores');
  const only = option('only');
  const threads = option('threads');
  const served = await servePage();
  const browser = await launchChromium().catch(async (error: unknown) => {
    await served.close();
    throw error;
  });
  const lines: string[] = [];
  try {
    const page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'log') {
        lines.push(message.text());
        console.log(message.text());
      } else if (message.type() === 'error') console.error(`[page] ${message.text()}`);
    });
    page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
    const trace = await traceTasks(await browser.context.newCDPSession(page));
    await page.goto(
      `${served.url}embedder.html?memories=${memories}${dtypes !== undefined ? `&dtypes=${dtypes}` : ''}${stores !== undefined ? `&stores=${stores}` : ''}${only !== undefined ? `&only=${only}` : ''}${threads !== undefined ? `&threads=${threads}` : ''}`,
    );
    const read = () => (window as unknown as { __engramBench?: { failures: string[]; error?: string } }).__engramBench;
    await page.waitForFunction(read, undefined, { timeout: 60 * 60_000, polling: 1000 });
    const result = (await page.evaluate(read))!;
    const tasks = mainThreadTasks(await trace.stop());
    if (result.error) {
      console.error(result.error);
      return 1;
    }
    for (const line of taskLines(tasks)) {
      lines.push(line);
      console.log(line);
    }
    // `--only=…` and `--memories=0` are partial runs (one store, or no store): not what the section reports.
    if (only === undefined && memories !== '0') writeBenchSection('embedder', 'A real-sized embedder: MiniLM-shaped model in the worker, headless Chromium', benchCommand('bench:browser', args), lines);
    return 0;
  } finally {
    await browser.close();
    await served.close();
  }
}
