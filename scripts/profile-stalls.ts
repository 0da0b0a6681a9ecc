/**
 * `npx tsx scripts/profile-stalls.ts [--memories=N] [--over=MS] [--top=K]` (issue #28): what runs
 * in the page's long tasks during the embedder bench's hash-embedder store (bench/embedder.html
 * `?only=hash`: import, retrieve, ingest). Records a Chrome DevTools Protocol CPU profile and a
 * trace of the page's main-thread tasks (`toplevel`, plus the bench's `performance.mark`s, which
 * name the phase) at once, then prints per phase the tasks over `--over` ms (default 30) and, for
 * the `--top` longest (default 8), the functions that ran in them (self and inclusive time).
 * The page is built unminified so the names are the sources'. Times are wall time: on a loaded
 * machine a descheduled task looks long, so each task also gives its thread CPU time (the
 * trace's `tdur`): a task far longer than its CPU time waited for a core.
 */
import { launchChromium } from '../test/e2e/browser';
import { servePage } from './bench-embedder';
import { mainThreadTasks, marksOf, traceTasks, type TraceEvent } from './trace-tasks';

type Frame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };

const option = (name: string, fallback: number) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const memories = option('memories', 10_000);
const over = option('over', 30) * 1000;
const top = option('top', 8);
// The store to profile: the hash baseline (default), or the model's `q8` / `fp32` one (bench/embedder.ts `?only=`).
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? 'hash';

process.env['ENGRAM_BENCH_MINIFY'] = '0';
const served = await servePage();
const browser = await launchChromium();
let profile: Profile;
let events: TraceEvent[] = [];
try {
  const page = await browser.context.newPage();
  page.on('console', (message) => console.log(message.text()));
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const trace = await traceTasks(cdp);
  await page.goto(`${served.url}embedder.html?memories=${memories}&only=${only}`);
  await page.waitForFunction(() => (window as unknown as { __engramBench?: unknown }).__engramBench, undefined, { timeout: 30 * 60_000, polling: 1000 });
  profile = (await cdp.send('Profiler.stop')).profile as unknown as Profile;
  events = await trace.stop();
} finally {
  await browser.close();
  await served.close();
}

const tasks = mainThreadTasks(events, over / 1000);
const marks = marksOf(events);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const label = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode) => `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
let clock = profile.startTime;
const times = profile.timeDeltas.map((delta) => (clock += delta));

console.log(`\nmain-thread tasks ≥ ${over / 1000} ms by phase (bench marks):`);
for (const phase of [...new Set(tasks.map((task) => task.phase))]) {
  const durations = tasks.filter((task) => task.phase === phase).map((task) => task.wallMs);
  console.log(`  ${phase}: ${durations.length}, longest ${Math.max(...durations).toFixed(0)} ms`);
}
/** Self and inclusive time by function over the samples in [from, to] (µs, the trace's clock). */
function functionsIn(from: number, to: number): { self: Map<string, number>; inclusive: Map<string, number> } {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (let i = 0; i < times.length; i++) {
    if (times[i]! < from || times[i]! > to) continue;
    const dt = (times[i + 1] ?? times[i]!) - times[i]!;
    const leaf = byId.get(profile.samples[i]!)!;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const name = label(byId.get(id)!);
      if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
      seen.add(name);
    }
  }
  return { self, inclusive };
}
const list = (map: Map<string, number>, n: number) =>
  [...map]
    .filter(([name]) => !name.startsWith('(idle)') && !name.startsWith('(program)') && !name.startsWith('(root)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `      ${(us / 1000).toFixed(1)} ms ${name}`)
    .join('\n');
// `--phase=NAME`: what the page's thread ran over the whole of that phase, long tasks or not.
const phase = process.argv.find((arg) => arg.startsWith('--phase='))?.slice('--phase='.length);
if (phase !== undefined) {
  // Marks name the store and the phase ("hash (baseline) import"); `--phase=import` is the first store's.
  const start = marks.find((mark) => mark.phase === phase || mark.phase.endsWith(` ${phase}`));
  const end = start && marks.find((mark) => mark.ts > start.ts);
  if (start) {
    const { self, inclusive } = functionsIn(start.ts, end?.ts ?? Number.POSITIVE_INFINITY);
    console.log(`\nthe whole ${start.phase} phase, ${(((end?.ts ?? times.at(-1)!) - start.ts) / 1000).toFixed(0)} ms:\n    self:\n${list(self, 20)}\n    inclusive:\n${list(inclusive, 40)}`);
  }
}
for (const task of [...tasks].sort((a, b) => b.wallMs - a.wallMs).slice(0, top)) {
  const { self, inclusive } = functionsIn(task.ts, task.ts + task.wallMs * 1000);
  const since = marks.filter((mark) => mark.ts <= task.ts).pop()?.ts ?? task.ts;
  console.log(
    `\n  ${task.phase}, +${((task.ts - since) / 1000).toFixed(0)} ms into it: ${task.wallMs.toFixed(1)} ms (thread CPU ${task.cpuMs === undefined ? '?' : task.cpuMs.toFixed(1)} ms)\n    self:\n${list(self, 6)}\n    inclusive:\n${list(inclusive, 16)}`,
  );
}
