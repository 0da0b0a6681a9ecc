// The browser side of `npm run bench:browser -- --embedder-only` (scripts/bench-embedder.ts):
// the MiniLM-shaped model (scripts/minilm-model.ts, served from ./models/) run by
// engram/transformers in engram's module Worker on ONNX Runtime's WASM backend, transformers.js
// served from ./vendor/. Texts/s by batch for each weights variant of `?dtypes=` (default q8,
// transformers.js's default on WASM, and fp32), then a store of `?memories=N` filled by
// `import` (the model embeds every memory) for each variant of `?stores=` (default q8) after
// the hash-embedder baseline, retrieve and ingest p50 on it, and the main thread's longest
// stall meanwhile. `?only=hash` (or `q8`, `fp32`): that store alone, no throughput table (for profiling). The result is left
// on `window.__engramBench` for the driver.
import { transformersEmbedder } from '../src/adapters/transformers';
import { createComputeClient } from '../src/worker/client';
import { MAX_NEIGHBOURS } from '../src/consolidate/plan';
import type { Storage } from '../src/storage/contract';
import { BENCH_APP, openSettledMemory, BENCH_USER, conversation, createBenchData, createRandom, memoryText, ms, percentile, queryText, T0 } from '../scripts/bench-data';

declare global {
  interface Window {
    __engramBench?: { failures: string[]; error?: string };
  }
}

const out = document.getElementById('out')!;
const params = new URLSearchParams(location.search);
const size = Number(params.get('memories') ?? 10_000);
const only = params.get('only');
type Dtype = 'q8' | 'fp32';
const dtypesOf = (value: string | null, fallback: Dtype[]): Dtype[] => (value === null ? fallback : (value.split(',').filter((d) => d === 'q8' || d === 'fp32') as Dtype[]));
const dtypes = dtypesOf(params.get('dtypes'), ['q8', 'fp32']);
const stores = dtypesOf(params.get('stores'), ['q8']);
const chromium = /Chrom(?:e|ium)\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? 'unknown';
const OWNER = { userId: BENCH_USER, appName: BENCH_APP };
const GOALS = { retrieve: 25, ingest: 40, stall: 16 };
out.textContent = '';
const print = (line: string) => {
  console.log(line);
  out.textContent += `${line}\n`;
};
const here = (path: string) => new URL(path, location.href).href;
const threads = params.has('threads') ? Number(params.get('threads')) : undefined;
const embedder = (dtype: Dtype, on = threads) => transformersEmbedder({ model: 'minilm-shaped', localModelPath: here('./models/'), moduleUrl: here('./vendor/transformers.min.js'), dtype, ...(on !== undefined ? { threads: on } : {}) });
/** ONNX Runtime's own thread count on this page (half the cores up to 4 when cross-origin isolated, else 1). */
const defaultThreads = crossOriginIsolated ? Math.min(4, Math.ceil(navigator.hardwareConcurrency / 2)) : 1;
/** A row of the throughput table: a weights variant, on ONNX Runtime's default threads unless `threads` says. */
type Variant = { label: string; dtype: Dtype; threads?: number };

/**
 * The main thread's longest stall while it runs: the widest gap between animation frames (a
 * frame is due every 16.7 ms, so a gap over 16.7 + 16 ms held a frame back by more than 16 ms)
 * and the longest task the browser reports (Long Tasks API: only tasks over 50 ms).
 */
function watchMainThread(): { stop(): { frameGap: number; longTask: number } } {
  let frameGap = 0;
  let longTask = 0;
  let last = performance.now();
  let running = true;
  const frame = (now: number) => {
    frameGap = Math.max(frameGap, now - last);
    last = now;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTask = Math.max(longTask, entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  return {
    stop() {
      running = false;
      observer.disconnect();
      return { frameGap, longTask };
    },
  };
}

const stallLine = (label: string, { frameGap, longTask }: { frameGap: number; longTask: number }) => {
  const held = Math.max(0, frameGap - 1000 / 60);
  return `${label}: widest frame gap ${ms(frameGap)} ms (a frame held back ${ms(held)} ms), longest long task ${longTask ? `${ms(longTask)} ms` : 'none (> 50 ms)'} — goal: no stall over ${GOALS.stall} ms: ${held <= GOALS.stall && longTask <= GOALS.stall ? 'met' : 'not met'}`;
};

const BATCHES = [1, 8, 32] as const;
const CALLS: Record<number, number> = { 1: 30, 8: 10, 32: 5 };

/**
 * Texts/s by batch for each weights variant, in two rounds over all of them: the first is a
 * warm-up and is not printed. V8 runs ONNX Runtime's wasm from a baseline compile first and
 * swaps in optimised code in the background; whichever variant ran first was measured on the
 * slow code (q8 once came out at 0.15× fp32 at batch 1 that way, 1.7× under Node).
 * Resolves to texts/s by batch size per variant.
 */
async function throughput(variants: readonly Variant[]): Promise<Map<string, Map<number, number>>> {
  const clients = new Map<string, { client: ReturnType<typeof createComputeClient>; spec: ReturnType<typeof embedder>['worker'] }>();
  const rates = new Map<string, Map<number, number>>();
  try {
    for (const { label, dtype, threads: on } of variants) {
      const client = createComputeClient();
      const { worker: spec } = embedder(dtype, on ?? threads);
      clients.set(label, { client, spec });
      const loadStarted = performance.now();
      const { dim } = await client.loadModel(spec);
      print(`${label}: model load in the worker (fetch ${dtype === 'q8' ? '23' : '90'} MB, compile, one probe): ${ms(performance.now() - loadStarted)} ms, dim ${dim}`);
    }
    const random = createRandom(28);
    const texts = (batch: number) => Array.from({ length: batch }, () => memoryText(random));
    const rows: string[] = [];
    for (const round of [0, 1]) {
      for (const { label } of variants) {
        const { client, spec } = clients.get(label)!;
        const byBatch = new Map<number, number>();
        for (const batch of BATCHES) {
          const calls = CALLS[batch]!;
          await timedEmbeds(client, spec, [texts(batch), texts(batch)]);
          const times = await timedEmbeds(
            client,
            spec,
            Array.from({ length: calls }, () => texts(batch)),
          );
          const total = times.reduce((a, b) => a + b, 0);
          byBatch.set(batch, (batch * calls) / (total / 1000));
          if (round === 1) rows.push(`${label} | ${batch} | ${byBatch.get(batch)!.toFixed(1)} | ${ms(percentile(times, 50))} | ${calls}`);
        }
        rates.set(label, byBatch);
      }
    }
    print('');
    print('texts/s by batch (second round; the first, a warm-up of every variant, not shown):');
    print('');
    print('weights | batch | texts/s | ms per call p50 | calls');
    print('------- | ----- | ------- | --------------- | -----');
    for (const row of rows) print(row);
    // Consolidation's neighbour search is by cosine (threshold 0.6): say how spread these random-weight vectors are.
    const sample = texts(32);
    const vectorsOf = new Map<string, Float32Array[]>();
    for (const { label: dtype } of variants.filter((variant) => variant.threads === undefined)) {
      const { client, spec } = clients.get(dtype)!;
      const vectors = await client.embedModel(spec, sample);
      vectorsOf.set(dtype, vectors);
      const cosines = vectors.flatMap((a, i) => vectors.slice(i + 1).map((b) => a.reduce((sum, value, j) => sum + value * b[j]!, 0)));
      print(`${dtype}: cosine between 32 bench texts: min ${percentile(cosines, 0).toFixed(2)}, median ${percentile(cosines, 50).toFixed(2)}, max ${percentile(cosines, 100).toFixed(2)}`);
    }
    const q8 = vectorsOf.get('q8');
    const fp32 = vectorsOf.get('fp32');
    if (q8 && fp32) {
      const agreement = q8.map((a, i) => a.reduce((sum, value, j) => sum + value * fp32[i]![j]!, 0));
      print(`q8 against fp32, same 32 texts: cosine min ${percentile(agreement, 0).toFixed(5)}, median ${percentile(agreement, 50).toFixed(5)}`);
    }
  } finally {
    for (const { client } of clients.values()) client.close();
  }
  return rates;
}

/** How many texts the calls hold: "9", or "7–9" when they differ. */
const textCounts = (calls: readonly string[][]) => {
  const counts = calls.map((texts) => texts.length);
  const [low, high] = [Math.min(...counts), Math.max(...counts)];
  return low === high ? `${low}` : `${low}–${high}`;
};

/** One `embedModel` call per batch, in turn: each call's time in ms, into the worker and back. */
async function timedEmbeds(client: ReturnType<typeof createComputeClient>, spec: ReturnType<typeof embedder>['worker'], batches: readonly string[][]): Promise<number[]> {
  const times: number[] = [];
  for (const batch of batches) {
    const input = [...batch];
    const started = performance.now();
    await client.embedModel(spec, input);
    times.push(performance.now() - started);
  }
  return times;
}

/** The model's time on `texts` (each ingest's), one call each on a worker of its own once warm: its p50, in ms. */
async function modelFloor(dtype: Dtype, texts: readonly string[][]): Promise<number> {
  const client = createComputeClient();
  try {
    const { worker: spec } = embedder(dtype);
    await client.loadModel(spec);
    await timedEmbeds(client, spec, texts.slice(0, 3));
    return percentile(await timedEmbeds(client, spec, texts), 50);
  } finally {
    client.close();
  }
}

/** Import, retrieve and ingest on a store of `size`: with the model's `dtype` weights, or (`dtype` undefined) with the built-in hash embedder, the baseline of the same run. */
async function store(dtype?: Dtype): Promise<{ retrieve: number; steady: number; ingest: number }> {
  const label = dtype ? `model ${dtype}` : 'hash (baseline)';
  // The memories each consolidation decides over beside the facts (the similarity neighbours):
  // what the embedder's vectors cost the ingest besides the model call.
  let neighbours = 0;
  const countNeighbours = ({ vectors }: Storage) => {
    const find = vectors.neighbours.bind(vectors);
    vectors.neighbours = async (...args) => {
      const found = await find(...args);
      neighbours += new Set(found.flat()).size;
      return found;
    };
  };
  const { memory, settled, clearEmbedCache } = await openSettledMemory({ name: `embedder-bench-${dtype ?? 'hash'}-${Date.now()}`, ...(dtype ? { embedder: embedder(dtype) } : {}), clock: () => T0 }, countNeighbours);
  try {
    const { records } = createBenchData(size, 0);
    // What an export of this store holds: the memories without vectors, and each source's conversation as its stored input.
    const conversations = new Map<string, { at: number; lines: string[] }>();
    for (const { sources } of records) for (const { id, at, excerpt } of sources) conversations.set(id, { at: Math.min(at, conversations.get(id)?.at ?? at), lines: [...(conversations.get(id)?.lines ?? []), excerpt] });
    const inputs = [...conversations].map(([id, { at, lines }]) => ({ kind: 'ingest', at, sessionId: `s-${id}`, source: { type: 'user_implicit', id }, messages: [{ role: 'user', content: lines.join(' ') }] }));
    const data = { format: 'engram-export/1', exportedAt: T0, ...OWNER, memories: records.map(({ embedding: _vector, ...record }) => record), inputs };
    print('');
    // The data above is built in one task of the bench's own (some 400 ms at 10,000): let it end
    // before the watch starts, or its long task is counted against the import.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    performance.mark(`bench:${label} import`);
    let watch = watchMainThread();
    const started = performance.now();
    const report = await memory.import(data);
    const seconds = (performance.now() - started) / 1000;
    print(`${label} store: ${report.memories} memories by import, each embedded in the worker: ${seconds.toFixed(1)} s (${(report.memories / seconds).toFixed(1)} memories/s)`);
    print(stallLine(`${label}, main thread during the import`, watch.stop()));
    const random = createRandom(7 + size);
    const queries = Array.from({ length: 40 }, () => queryText(random));
    for (let i = 0; i < 3; i++) await memory.retrieve(queries[i]!, { ...OWNER, k: 10 });
    performance.mark(`bench:${label} retrieve`);
    watch = watchMainThread();
    const retrieve: number[] = [];
    // Each timed call embeds its texts anew (the memory's cache of recent texts emptied first): the
    // queries repeat, and the conversations are templated.
    for (const query of queries) {
      clearEmbedCache();
      const at = performance.now();
      await memory.retrieve(query, { ...OWNER, k: 10 });
      retrieve.push(performance.now() - at);
    }
    const retrieveStall = watch.stop();
    // The same queries once the import's background work (the snapshot write, the record
    // cache's fill) has finished: what a user who imported a while ago waits for.
    const waited = performance.now();
    await settled();
    const settling = performance.now() - waited;
    const steady: number[] = [];
    for (const query of queries) {
      clearEmbedCache();
      const at = performance.now();
      await memory.retrieve(query, { ...OWNER, k: 10 });
      steady.push(performance.now() - at);
    }
    performance.mark(`bench:${label} ingest`);
    watch = watchMainThread();
    const ingest: number[] = [];
    // What each ingest embedded: its candidates (episodes and facts), one text per operation.
    const embedded: string[][] = [];
    const found: number[] = [];
    for (let i = 0; i < 20; i++) {
      clearEmbedCache();
      const at = performance.now();
      neighbours = 0;
      const operations = await memory.ingest(conversation(i), { ...OWNER, sessionId: `bench-s${i}`, source: { type: 'user_implicit', id: `bench-c${i}` } });
      ingest.push(performance.now() - at);
      found.push(neighbours);
      embedded.push(operations.map((operation) => operation.content));
    }
    const ingestStall = watch.stop();
    // A chat app's turn: retrieve for the user's message before the reply, then ingest the
    // message and the reply (one user turn: its episode, which retrieve just embedded, and its facts).
    performance.mark(`bench:${label} chat turn`);
    watch = watchMainThread();
    const turnRetrieve: number[] = [];
    // Alternate conversations: the turn as engram runs it, and the same turn with the cache emptied
    // between its retrieve and its ingest (the message embedded again, as before the cache).
    const turnIngest = { reused: [] as number[], again: [] as number[] };
    for (let i = 20; i < 28; i++) {
      const messages = conversation(i);
      const reused = i % 2 === 0;
      for (let turn = 0; turn + 1 < messages.length; turn += 2) {
        const [user, reply] = [messages[turn]!, messages[turn + 1]!];
        // Only what the turn itself embeds twice may be reused: its user message, retrieve's query and then its episode.
        clearEmbedCache();
        const at = performance.now();
        await memory.retrieve(user.content, { ...OWNER, k: 10 });
        const retrieved = performance.now();
        if (!reused) clearEmbedCache();
        const from = performance.now();
        await memory.ingest([user, reply], { ...OWNER, sessionId: `bench-s${i}`, source: { type: 'user_implicit', id: `bench-c${i}-${turn}` } });
        turnRetrieve.push(retrieved - at);
        turnIngest[reused ? 'reused' : 'again'].push(performance.now() - from);
      }
    }
    const turnStall = watch.stop();
    performance.mark(`bench:${label} end`);
    // Once the ingests' background work is done, so the model runs alone.
    await settled();
    const floor = dtype ? await modelFloor(dtype, embedded) : undefined;
    const verdict = (value: number, goal: number) => `goal ≤ ${goal} ms: ${value <= goal ? 'met' : 'not met'}`;
    const r50 = percentile(retrieve, 50);
    const i50 = percentile(ingest, 50);
    const s50 = percentile(steady, 50);
    print(`${label} retrieve at ${report.memories} memories (k 10), right after the import: p50 ${ms(r50)} ms, p95 ${ms(percentile(retrieve, 95))} ms over ${retrieve.length} — ${verdict(r50, GOALS.retrieve)}`);
    print(
      `${label} retrieve at ${report.memories} memories (k 10), once its background work settled (${ms(settling)} ms after those): p50 ${ms(s50)} ms, p95 ${ms(percentile(steady, 95))} ms over ${steady.length} — ${verdict(s50, GOALS.retrieve)}`,
    );
    print(`${label} ingest (a 10-message conversation): p50 ${ms(i50)} ms, p95 ${ms(percentile(ingest, 95))} ms over ${ingest.length}, the first ${ms(ingest[0]!)} ms — ${verdict(i50, GOALS.ingest)}`);
    print(`${label} ingest, the memories its consolidation read and decided over as similar (cosine ≥ the candidate threshold, at most ${MAX_NEIGHBOURS} a candidate): p50 ${percentile(found, 50)}`);
    if (floor !== undefined) {
      print(
        `${label} ingest, the model alone: the texts each ingest embedded (${textCounts(embedded)} each), in one call as it makes it (a worker of its own, after the store's background work): p50 ${ms(floor)} ms — the ingest's other work ${ms(i50 - floor)} ms (p50 less p50)`,
      );
    }
    const t50 = percentile(turnIngest.reused, 50);
    const again50 = percentile(turnIngest.again, 50);
    print(
      `${label} chat turn (retrieve for the user's message, then ingest it with the reply), ${turnIngest.reused.length} turns: ingest p50 ${ms(t50)} ms, p95 ${ms(percentile(turnIngest.reused, 95))} ms; its retrieve p50 ${ms(percentile(turnRetrieve, 50))} ms — ${verdict(t50, GOALS.ingest)}`,
    );
    print(`${label} chat turn with the message embedded again by its ingest (the cache emptied after the retrieve), ${turnIngest.again.length} turns: ingest p50 ${ms(again50)} ms; reused / again ${(t50 / again50).toFixed(2)}×`);
    print(stallLine(`${label}, main thread during retrieve`, retrieveStall));
    print(stallLine(`${label}, main thread during ingest`, ingestStall));
    print(stallLine(`${label}, main thread during the chat turns`, turnStall));
    return { retrieve: r50, steady: s50, ingest: i50 };
  } finally {
    await memory.close();
  }
}

(async () => {
  print(
    `MiniLM-shaped model (scripts/minilm-model.ts: 6 layers, 384-d, 12 heads, 30,522 WordPiece vocab, random weights; q8 = dynamically quantised int8, transformers.js's default on WASM, and fp32), Chromium ${chromium} (headless), ONNX Runtime WASM in engram's module Worker, ${navigator.hardwareConcurrency} hardware threads, crossOriginIsolated ${crossOriginIsolated}`,
  );
  if (only === 'hash' || only === 'q8' || only === 'fp32') {
    await store(only === 'hash' ? undefined : only);
    return [];
  }
  print('');
  // Beside each variant on ONNX Runtime's default threads, q8 on every core, when that is more.
  const cores = navigator.hardwareConcurrency;
  const variants: Variant[] = dtypes.map((dtype) => ({ label: dtype, dtype }));
  if (threads === undefined && dtypes.includes('q8') && crossOriginIsolated && cores > defaultThreads) variants.push({ label: `q8, ${cores} threads`, dtype: 'q8', threads: cores });
  print(`ONNX Runtime threads: ${threads ?? `its default, ${defaultThreads} here`}`);
  const rates = await throughput(variants);
  if (rates.has('q8') && rates.has('fp32')) {
    print('');
    print(`q8 / fp32 texts/s, same run: ${[...rates.get('q8')!].map(([batch, rate]) => `batch ${batch} ${(rate / rates.get('fp32')!.get(batch)!).toFixed(2)}×`).join(', ')}`);
  }
  const wide = rates.get(`q8, ${cores} threads`);
  if (wide && rates.has('q8')) print(`q8 on ${cores} threads / on ${defaultThreads}, texts/s, same run: ${[...wide].map(([batch, rate]) => `batch ${batch} ${(rate / rates.get('q8')!.get(batch)!).toFixed(2)}×`).join(', ')}`);
  if (size > 0) {
    const hash = await store();
    for (const dtype of stores) {
      const model = await store(dtype);
      print('');
      print(`model ${dtype} / hash baseline, same run: retrieve p50 ${(model.retrieve / hash.retrieve).toFixed(2)}× (settled ${(model.steady / hash.steady).toFixed(2)}×), ingest p50 ${(model.ingest / hash.ingest).toFixed(2)}×`);
    }
  }
  return [];
})().then(
  (failures: string[]) => (window.__engramBench = { failures }),
  (error: unknown) => (window.__engramBench = { failures: ['bench crashed'], error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) }),
);
