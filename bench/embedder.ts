// The browser side of `npm run bench:browser -- --embedder-only` (scripts/bench-embedder.ts):
// the MiniLM-shaped model (scripts/minilm-model.ts, served from ./models/) run by
// engram/transformers in engram's module Worker on ONNX Runtime's WASM backend, transformers.js
// served from ./vendor/. Texts/s by batch, then a store of `?memories=N` filled by `import`
// (the model embeds every memory), retrieve and ingest p50 on it, and the main thread's longest
// stall meanwhile. The result is left on `window.__engramBench` for the driver.
import { createMemory } from '../src/index';
import { transformersEmbedder } from '../src/adapters/transformers';
import { createComputeClient } from '../src/worker/client';
import { BENCH_APP, BENCH_USER, conversation, createBenchData, createRandom, memoryText, ms, percentile, queryText, T0 } from '../scripts/bench-data';

declare global {
  interface Window {
    __engramBench?: { failures: string[]; error?: string };
  }
}

const out = document.getElementById('out')!;
const params = new URLSearchParams(location.search);
const size = Number(params.get('memories') ?? 10_000);
/** `?only=hash`: the hash-embedder store alone (no model load), for profiling the main thread. */
const only = params.get('only');
const chromium = /Chrom(?:e|ium)\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? 'unknown';
const OWNER = { userId: BENCH_USER, appName: BENCH_APP };
const GOALS = { retrieve: 25, ingest: 40, stall: 16 };
out.textContent = '';
const print = (line: string) => {
  console.log(line);
  out.textContent += `${line}\n`;
};
const here = (path: string) => new URL(path, location.href).href;
const embedder = () => transformersEmbedder({ model: 'minilm-shaped', localModelPath: here('./models/'), moduleUrl: here('./vendor/transformers.min.js'), dtype: 'fp32' });

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

async function throughput(): Promise<void> {
  const client = createComputeClient();
  try {
    const { worker: spec } = embedder();
    const loadStarted = performance.now();
    const { dim } = await client.loadModel(spec);
    print(`model load in the worker (fetch 90 MB, compile, one probe): ${ms(performance.now() - loadStarted)} ms, dim ${dim}`);
    const random = createRandom(28);
    print('');
    print('batch | texts/s | ms per call p50 | calls');
    print('----- | ------- | --------------- | -----');
    for (const batch of [1, 8, 32]) {
      const calls = batch === 1 ? 30 : batch === 8 ? 10 : 5;
      const texts = () => Array.from({ length: batch }, () => memoryText(random));
      for (let i = 0; i < 2; i++) await client.embedModel(spec, texts());
      const times: number[] = [];
      for (let i = 0; i < calls; i++) {
        const input = texts();
        const started = performance.now();
        await client.embedModel(spec, input);
        times.push(performance.now() - started);
      }
      const total = times.reduce((a, b) => a + b, 0);
      print(`${batch} | ${((batch * calls) / (total / 1000)).toFixed(1)} | ${ms(percentile(times, 50))} | ${calls}`);
    }
    // Consolidation's neighbour search is by cosine (threshold 0.6): say how spread these random-weight vectors are.
    const vectors = await client.embedModel(
      spec,
      Array.from({ length: 32 }, () => memoryText(random)),
    );
    const cosines = vectors.flatMap((a, i) => vectors.slice(i + 1).map((b) => a.reduce((sum, value, j) => sum + value * b[j]!, 0)));
    print(`cosine between 32 bench texts: min ${percentile(cosines, 0).toFixed(2)}, median ${percentile(cosines, 50).toFixed(2)}, max ${percentile(cosines, 100).toFixed(2)}`);
  } finally {
    client.close();
  }
}

/** Import, retrieve and ingest on a store of `size`: with the model, or (`model` false) with the built-in hash embedder, the baseline of the same run. */
async function store(model: boolean): Promise<{ retrieve: number; ingest: number }> {
  const label = model ? 'model' : 'hash (baseline)';
  const memory = await createMemory({ name: `embedder-bench-${label}-${Date.now()}`, ...(model ? { embedder: embedder() } : {}), clock: () => T0 });
  try {
    const { records } = createBenchData(size, 0);
    // What an export of this store holds: the memories without vectors, and each source's conversation as its stored input.
    const conversations = new Map<string, { at: number; lines: string[] }>();
    for (const { sources } of records) for (const { id, at, excerpt } of sources) conversations.set(id, { at: Math.min(at, conversations.get(id)?.at ?? at), lines: [...(conversations.get(id)?.lines ?? []), excerpt] });
    const inputs = [...conversations].map(([id, { at, lines }]) => ({ kind: 'ingest', at, sessionId: `s-${id}`, source: { type: 'user_implicit', id }, messages: [{ role: 'user', content: lines.join(' ') }] }));
    const data = { format: 'engram-export/1', exportedAt: T0, ...OWNER, memories: records.map(({ embedding: _vector, ...record }) => record), inputs };
    print('');
    let watch = watchMainThread();
    const started = performance.now();
    const report = await memory.import(data);
    const seconds = (performance.now() - started) / 1000;
    print(`${label} store: ${report.memories} memories by import, each embedded in the worker: ${seconds.toFixed(1)} s (${(report.memories / seconds).toFixed(1)} memories/s)`);
    print(stallLine(`${label}, main thread during the import`, watch.stop()));
    const random = createRandom(7 + size);
    const queries = Array.from({ length: 40 }, () => queryText(random));
    for (let i = 0; i < 3; i++) await memory.retrieve(queries[i]!, { ...OWNER, k: 10 });
    watch = watchMainThread();
    const retrieve: number[] = [];
    for (const query of queries) {
      const at = performance.now();
      await memory.retrieve(query, { ...OWNER, k: 10 });
      retrieve.push(performance.now() - at);
    }
    const ingest: number[] = [];
    for (let i = 0; i < 20; i++) {
      const at = performance.now();
      await memory.ingest(conversation(i), { ...OWNER, sessionId: `bench-s${i}`, source: { type: 'user_implicit', id: `bench-c${i}` } });
      ingest.push(performance.now() - at);
    }
    const stall = watch.stop();
    const verdict = (value: number, goal: number) => `goal ≤ ${goal} ms: ${value <= goal ? 'met' : 'not met'}`;
    const r50 = percentile(retrieve, 50);
    const i50 = percentile(ingest, 50);
    print(`${label} retrieve at ${report.memories} memories (k 10): p50 ${ms(r50)} ms, p95 ${ms(percentile(retrieve, 95))} ms over ${retrieve.length} — ${verdict(r50, GOALS.retrieve)}`);
    print(`${label} ingest (a 10-message conversation): p50 ${ms(i50)} ms, p95 ${ms(percentile(ingest, 95))} ms over ${ingest.length} — ${verdict(i50, GOALS.ingest)}`);
    print(stallLine(`${label}, main thread during retrieve and ingest`, stall));
    return { retrieve: r50, ingest: i50 };
  } finally {
    await memory.close();
  }
}

(async () => {
  print(
    `MiniLM-shaped model (scripts/minilm-model.ts: 6 layers, 384-d, 12 heads, 30,522 WordPiece vocab, random weights, fp32), Chromium ${chromium} (headless), ONNX Runtime WASM in engram's module Worker, ${navigator.hardwareConcurrency} hardware threads, crossOriginIsolated ${crossOriginIsolated}`,
  );
  if (only === 'hash') {
    await store(false);
    return [];
  }
  await throughput();
  if (size > 0) {
    const hash = await store(false);
    const model = await store(true);
    print('');
    print(`model / hash baseline, same run: retrieve p50 ${(model.retrieve / hash.retrieve).toFixed(2)}×, ingest p50 ${(model.ingest / hash.ingest).toFixed(2)}×`);
  }
  return [];
})().then(
  (failures: string[]) => (window.__engramBench = { failures }),
  (error: unknown) => (window.__engramBench = { failures: ['bench crashed'], error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) }),
);
