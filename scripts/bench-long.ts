/**
 * The "long user" section of the bench: one user whose conversations (one an hour) restate
 * and now and then change the same few preferences, as real users do. It grows one history
 * through the public API and, when it holds 100, 1,000, 2,000 and 10,000 conversations,
 * measures ingest (p50, p95), what one ingest reads from IndexedDB (rows and bytes, counted by
 * a DBCore middleware installed through the internal `openMemory` seam), and forgetSource of
 * an old, a middle and a recent source. Shared by Node and Chromium.
 */
import type { DBCore, DBCoreTable, Dexie } from 'dexie';
import { openMemory } from '../src/memory';
import type { ChatMessage } from '../src/schema';
import type { BenchEnvironment } from './bench-core';
import { createRandom, T0, percentile, ms, cpuMs } from './bench-data';

const HOUR = 3_600_000;
const OWNER = { userId: 'u_long', appName: 'bench-long' };
/** Ingests timed at each size (they join the history). */
const SAMPLES = 40;

export const LONG_USER_SIZES: readonly number[] = [100, 1_000, 2_000, 10_000];

/** Rows and bytes handed out by IndexedDB reads (get, getMany, query), cursors opened, rows of stored inputs read, rows put. */
export interface ReadCounter {
  rows: number;
  bytes: number;
  cursors: number;
  /** Rows read from the `inputs` table (stored conversations: what a replay reads). */
  inputs: number;
  /** Rows added or put, all tables. */
  written: number;
  install(db: Dexie): void;
  reset(): void;
}

/** Rough structured size: 2 bytes per string char, typed arrays by byteLength, 8 per number. */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length * 2;
  if (typeof value === 'number') return 8;
  if (typeof value === 'boolean') return 4;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + sizeOf(item), 0);
  if (value && typeof value === 'object') return Object.entries(value).reduce((sum, [key, item]) => sum + key.length * 2 + sizeOf(item), 0);
  return 0;
}

/** Every row a read handed out (`read`) or a write put (`put`), by table: what a test inspects beyond the counts. */
export type RowObserver = (table: string, kind: 'read' | 'put', values: readonly unknown[]) => void;

export function createReadCounter(observe?: RowObserver): ReadCounter {
  const counter: ReadCounter = {
    rows: 0,
    bytes: 0,
    cursors: 0,
    inputs: 0,
    written: 0,
    install(db) {
      const tallyOf = (name: string) => (values: readonly unknown[]) => {
        observe?.(name, 'read', values);
        for (const value of values) {
          if (value === undefined) continue;
          counter.rows++;
          counter.bytes += sizeOf(value);
          if (name === 'inputs') counter.inputs++;
        }
      };
      db.use({
        stack: 'dbcore',
        name: 'bench-read-counter',
        create: (down: DBCore): DBCore => ({
          ...down,
          table: (name: string): DBCoreTable => {
            const table = down.table(name);
            const tally = tallyOf(name);
            return {
              ...table,
              // .then on the promise the layer below returns, not async functions: a native
              // promise in between would let the transaction commit early.
              get: (request) => table.get(request).then((value: unknown) => (tally([value]), value)),
              getMany: (request) => table.getMany(request).then((values) => (tally(values), values)),
              query: (request) => table.query(request).then((response) => (tally(response.result), response)),
              mutate: (request) => {
                if (request.type === 'add' || request.type === 'put') {
                  counter.written += request.values.length;
                  observe?.(name, 'put', request.values);
                }
                return table.mutate(request);
              },
              openCursor: (request) => {
                counter.cursors++;
                return table.openCursor(request);
              },
            };
          },
        }),
      });
    },
    reset() {
      counter.rows = 0;
      counter.bytes = 0;
      counter.cursors = 0;
      counter.inputs = 0;
      counter.written = 0;
    },
  };
  return counter;
}

const NAMES = ['Ada', 'Bea', 'Cleo'];
/** The diets the long user states, one a turn, and changes between. */
export const DIETS = ["I'm vegetarian, so plan the meals around that.", "I'm vegan these days.", "I'm pescatarian now.", "I've started eating fish again."];
const SEATS = ['window', 'aisle'];
const FILLER = ['Can you find me a quiet hotel near the old town?', 'What should I pack for a rainy week?', 'Book the cheapest train on Friday.'];

/** `count` conversations of the long user: mostly restating, sometimes changing diet, seat or name. */
export function longUserConversations(count: number, seed = 16): ChatMessage[][] {
  const random = createRandom(seed);
  let diet = 0;
  let seat = 0;
  let name = 0;
  const out: ChatMessage[][] = [];
  for (let i = 0; i < count; i++) {
    if (random() < 0.2) diet = (diet + 1 + Math.floor(random() * 3)) % DIETS.length;
    if (random() < 0.15) seat = 1 - seat;
    if (random() < 0.05) name = (name + 1) % NAMES.length;
    const turns: string[] = [];
    if (random() < 0.3) turns.push(`Hi, call me ${NAMES[name]}.`);
    if (random() < 0.6) turns.push(DIETS[diet]!);
    if (random() < 0.5) turns.push(`On long flights I prefer the ${SEATS[seat]} seat.`);
    if (random() < 0.4) turns.push('Also, the export keeps failing when I sync my itinerary.');
    turns.push(FILLER[i % FILLER.length]!);
    out.push(
      turns.flatMap((content): ChatMessage[] => [
        { role: 'user', content },
        { role: 'assistant', content: 'Noted.' },
      ]),
    );
  }
  return out;
}

/** The last conversation at or before `from` that states a diet other than the last one stated before it. */
export function changesDiet(conversations: readonly ChatMessage[][], from: number): number {
  let last = -1;
  let found = -1;
  for (const [i, messages] of conversations.slice(0, from + 1).entries()) {
    const diet = DIETS.findIndex((text) => messages.some((message) => message.role === 'user' && message.content === text));
    if (diet < 0) continue;
    if (last >= 0 && diet !== last) found = i;
    last = diet;
  }
  if (found < 0) throw new Error(`no conversation up to ${from} changes the diet`);
  return found;
}

/** The last conversation at or before `from` that states the diet it restates (the one stated last before it). */
export function restatesDiet(conversations: readonly ChatMessage[][], from: number): number {
  for (let i = from; i > 0; i--) if (changesDiet(conversations, i) !== i && conversations[i]!.some((message) => message.role === 'user' && DIETS.includes(message.content))) return i;
  throw new Error(`no conversation up to ${from} restates the diet`);
}

interface ForgetRows {
  read: number;
  inputs: number;
  written: number;
}

interface LongRow {
  n: number;
  p50: number;
  p95: number;
  /** CPU ms of the process per ingest (Node only; NaN elsewhere): wall time on a loaded machine is mostly waiting. */
  cpu: number;
  rows: number;
  bytes: number;
  cursors: number;
  forget: { old: number; middle: number; recent: number };
  forgetCpu: { old: number; middle: number; recent: number };
  /** What each forgetSource did in IndexedDB, independent of the machine's load: rows read, rows of stored inputs among them (what it replayed from), rows put. */
  forgetRows: { old: ForgetRows; middle: ForgetRows; recent: ForgetRows };
  /** MB of JS heap the page or process holds after a collection, right after the timed ingests (NaN where the runtime cannot tell). */
  heap: number;
}

/**
 * MB of JS heap held after a full collection (both bench runners pass --expose-gc): whether
 * the main thread keeps more as the history grows. Node: heapUsed; Chromium: performance.memory.
 */
function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const node = (globalThis as { process?: { memoryUsage?: () => { heapUsed: number } } }).process?.memoryUsage?.().heapUsed;
  const page = (performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;
  const bytes = node ?? page;
  return bytes === undefined ? Number.NaN : bytes / 1e6;
}

/** Grows the long user's history to the largest size, measuring at each; prints the table. */
export async function runLongUserBench(env: BenchEnvironment, sizes: readonly number[] = LONG_USER_SIZES): Promise<LongRow[]> {
  const largest = Math.max(...sizes);
  const conversations = longUserConversations(largest + SAMPLES * sizes.length);
  const counter = createReadCounter();
  const name = `engram-long-${Date.now()}`;
  let now = T0;
  const memory = await openMemory({ ...env.memoryOptions(name), clock: () => now }, { onDatabase: (db) => counter.install(db) });
  let next = 0;
  const ingest = (i: number) => memory.ingest(conversations[i]!, { ...OWNER, sessionId: `long-s${i}`, source: { type: 'user_explicit', id: `long-c${i}` } });
  const out: LongRow[] = [];
  const started = performance.now();
  let building = 0;
  for (const size of [...sizes].sort((a, b) => a - b)) {
    const buildStarted = performance.now();
    for (; next < size; next++, now += HOUR) await ingest(next);
    building += performance.now() - buildStarted;
    const times: number[] = [];
    counter.reset();
    const cpuBefore = cpuMs();
    for (let s = 0; s < SAMPLES; s++, next++, now += HOUR) {
      const t = performance.now();
      await ingest(next);
      times.push(performance.now() - t);
    }
    const cpu = (cpuMs() - cpuBefore) / SAMPLES;
    const reads = { rows: counter.rows / SAMPLES, bytes: counter.bytes / SAMPLES, cursors: counter.cursors / SAMPLES };
    const heap = heapMb();
    const forget = async (index: number) => {
      counter.reset();
      const [t, c] = [performance.now(), cpuMs()];
      await memory.forgetSource(`long-c${index}`, OWNER);
      return { wall: performance.now() - t, cpu: cpuMs() - c, rows: { read: counter.rows, inputs: counter.inputs, written: counter.written } };
    };
    // Distinct sources at each size: an old one near the start, one from the middle, the newest.
    // Newest first: forgetting a source drops the checkpoints after its first input, so each
    // figure is taken on a history whose checkpoints later writes would have left in place.
    const recent = await forget(next - 1);
    const middle = await forget(Math.floor(size / 2) + out.length);
    const old = await forget(1 + out.length);
    const row: LongRow = {
      n: size,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      cpu,
      ...reads,
      forget: { old: old.wall, middle: middle.wall, recent: recent.wall },
      forgetCpu: { old: old.cpu, middle: middle.cpu, recent: recent.cpu },
      forgetRows: { old: old.rows, middle: middle.rows, recent: recent.rows },
      heap,
    };
    out.push(row);
    env.print(`  long user: ${size} conversations stored, ingest p50 ${ms(row.p50)} ms, forget ${ms(row.forget.old)}/${ms(row.forget.middle)}/${ms(row.forget.recent)} ms`);
  }
  await memory.close();
  await env.openDatabase(name).delete();
  printLongUser(env, out, { building, total: performance.now() - started });
  return out;
}

function printLongUser(env: BenchEnvironment, rows: readonly LongRow[], time: { building: number; total: number }): void {
  const pad = (cells: readonly string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(7) : cell.padStart(11))).join(' ');
  const cpu = (value: number) => (Number.isNaN(value) ? '-' : ms(value));
  env.print('');
  env.print('Long user: one user, one conversation an hour, restating and now and then changing diet, seat, name, an export issue');
  env.print(pad(['stored', 'ingest p50', 'ingest p95', 'ingest cpu', 'rows/ingest', 'kB/ingest', 'forget old', 'forget mid', 'forget new', 'cpu old', 'cpu mid', 'cpu new', 'heap MB']));
  for (const row of rows) {
    env.print(
      pad([
        String(row.n),
        ms(row.p50),
        ms(row.p95),
        cpu(row.cpu),
        row.rows.toFixed(1),
        (row.bytes / 1000).toFixed(1),
        ms(row.forget.old),
        ms(row.forget.middle),
        ms(row.forget.recent),
        cpu(row.forgetCpu.old),
        cpu(row.forgetCpu.middle),
        cpu(row.forgetCpu.recent),
        cpu(row.heap),
      ]),
    );
  }
  env.print('');
  env.print('forgetSource in rows (load-independent): rows read, of them stored inputs (what the replay starts from), rows put');
  env.print(pad(['stored', 'old read', 'old inputs', 'old put', 'mid read', 'mid inputs', 'mid put', 'new read', 'new inputs', 'new put']));
  for (const row of rows) {
    const { old, middle, recent } = row.forgetRows;
    env.print(pad([String(row.n), ...[old, middle, recent].flatMap((counts) => [counts.read, counts.inputs, counts.written].map(String))]));
  }
  const base = rows[0]!;
  const ratios = rows
    .slice(1)
    .map((row) => `${row.n}: ${(row.p50 / base.p50).toFixed(2)}×`)
    .join(', ');
  env.print(`ingest p50 relative to ${base.n}: ${ratios} (target ≤ 1.5×). ms; ${SAMPLES} timed ingests per size, which join the history;`);
  env.print('ingest cpu: mean CPU ms of this process per ingest (Node only; wall time on a loaded machine is mostly waiting). heap: MB of');
  env.print("JS heap held after a collection, after the timed ingests (the page's in Chromium, not the worker's).");
  env.print('rows/kB read: every row IndexedDB handed out (get, getMany, query) during one ingest, all tables (cursors opened:');
  env.print(`${rows.map((row) => row.cursors.toFixed(1)).join('/')}); forget: wall ms, then cpu ms, one source each, newest first (an erasure drops the`);
  env.print(
    `checkpoints after its source, so right after an old one a recent one replays further back); building the ${Math.max(...rows.map((row) => row.n))}-conversation history took ${(time.building / 1000).toFixed(1)} s, the section ${(time.total / 1000).toFixed(1)} s.`,
  );
}
