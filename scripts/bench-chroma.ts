/**
 * `npm run bench:chroma`: engram end to end on a real Chroma server beside the IndexedDB
 * backend (fake-indexeddb under Node: not a browser's figures), in the same run, on the same
 * seeded data: ingest p50 (a 10-message conversation: extract, consolidate, commit) and
 * retrieve p50 (k = 10) at each size, and how many HTTP requests each call sends to the server
 * (counted on `fetch`, the client's transport, by collection and operation). Starts its own
 * server and stops it by its pid; publishes the table as the `chroma` section of
 * docs/benchmarks.md. Sizes: `npm run bench:chroma -- 1000 10000` (the default). Not part of CI.
 */
import { loadavg } from 'node:os';
import { ChromaClient } from 'chromadb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { HASH_DIM } from '../src/embed/hash-embedder';
import { createMemory } from '../src/index';
import { createChromaStorage } from '../src/adapters/chroma/index';
import type { StorageBackend } from '../src/storage/contract';
import { indexedDbStorage } from '../src/store/indexeddb';
import { createComputeClient } from '../src/worker/client';
import { BENCH_APP, BENCH_USER, conversation, createBenchData, createRandom, EMBEDDER_ID, queryText, T0, median } from './bench-data';
import { startChromaServer } from './chroma-server';
import { benchCommand, writeBenchSection } from './bench-doc';

const OWNER = { userId: BENCH_USER, appName: BENCH_APP };
const K = 10;
const RETRIEVES = 50;
const INGESTS = 20;
/** Records per build commit (a Chroma commit is one intent document holding all of them). */
const BUILD_CHUNK = 500;

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);

/** Counts the requests the Chroma client sends (it calls the global `fetch` on every request). */
const requests = {
  log: [] as string[],
  names: new Map<string, string>(),
  /** Each operation's round-trip times (ms), for the breakdown. */
  times: new Map<string, number[]>(),
  /** [start, end] of every request since the last `take`: the time some request was in flight. */
  spans: [] as [number, number][],
  take(): string[] {
    const out = requests.log;
    requests.log = [];
    return out;
  },
};
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const path = new URL(url).pathname;
  const collection = /\/collections\/([^/]+)\/(\w+)$/.exec(path);
  const op = collection ? `${requests.names.get(collection[1]!) ?? 'collection'} ${collection[2]}` : `${init?.method ?? 'GET'} ${path.split('/').at(-1)}`;
  requests.log.push(op);
  const started = performance.now();
  return realFetch(input, init).finally(() => {
    const ended = performance.now();
    (requests.times.get(op) ?? requests.times.set(op, []).get(op)!).push(ended - started);
    requests.spans.push([started, ended]);
  });
};

/** Names the prefix's collections by table, for the per-operation counts. */
async function nameCollections(client: ChromaClient, prefix: string): Promise<void> {
  for (const collection of await client.listCollections({ limit: 1000 })) {
    if (collection.name.startsWith(prefix)) requests.names.set(collection.id, collection.name.slice(prefix.length));
  }
}

/** How long at least one of `spans` was in flight (their union), ms. */
function inFlight(spans: readonly [number, number][]): number {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

interface Timing {
  p50: number;
  /** Median ms of a call with no request in flight: the client's own work (and the event loop's). */
  client: number;
  /** Median requests per call, and the breakdown of the median call. */
  requests: number;
  breakdown: string;
}

async function timed(count: number, body: (i: number) => Promise<unknown>): Promise<Timing> {
  const times: number[] = [];
  const client: number[] = [];
  const calls: string[][] = [];
  requests.times.clear();
  for (let i = 0; i < count; i++) {
    requests.take();
    requests.spans = [];
    const started = performance.now();
    await body(i);
    const took = performance.now() - started;
    times.push(took);
    client.push(took - inFlight(requests.spans));
    calls.push(requests.take());
  }
  const counts = calls.map((call) => call.length).sort((a, b) => a - b);
  const middle = counts[Math.floor(counts.length / 2)]!;
  const typical = calls.find((call) => call.length === middle) ?? [];
  const tally = new Map<string, number>();
  for (const op of typical) tally.set(op, (tally.get(op) ?? 0) + 1);
  const each = (op: string) => median(requests.times.get(op) ?? [Number.NaN]).toFixed(0);
  return { p50: median(times), client: median(client), requests: middle, breakdown: [...tally].map(([op, n]) => `${n}× ${op} (${each(op)} ms)`).join(', ') };
}

/** Builds the store through the contract's commit, then measures the library on it. */
async function measure(backend: StorageBackend, name: string, n: number, named?: () => Promise<void>) {
  const data = createBenchData(n, Math.round(n / 10));
  const started = performance.now();
  const storage = await backend.open({ name, embedder: { id: EMBEDDER_ID, dim: HASH_DIM } });
  for (let start = 0; start < data.records.length; start += BUILD_CHUNK) {
    await storage.records.commit({ records: data.records.slice(start, start + BUILD_CHUNK), expected: new Map() });
  }
  await storage.vectors.settled();
  await storage.close();
  const build = performance.now() - started;
  await named?.();

  const memory = await createMemory({ name, storage: backend, clock: () => T0, worker: 'off' });
  const random = createRandom(7 + n);
  const queries = Array.from({ length: RETRIEVES }, () => queryText(random));
  for (const query of queries.slice(0, 5)) await memory.retrieve(query, { ...OWNER, k: K });
  const retrieve = await timed(RETRIEVES, (i) => memory.retrieve(queries[i]!, { ...OWNER, k: K }));
  const ingest = await timed(INGESTS, (i) => memory.ingest(conversation(i), { ...OWNER, sessionId: `bench-s${i}`, source: { type: 'user_implicit', id: `bench-c${i}` } }));
  await memory.close();
  return { build, retrieve, ingest };
}

/** The IndexedDB backend needs a compute for its matrices (createMemory makes its own for the memory). */
async function measureIndexedDb(n: number, stamp: string) {
  const compute = createComputeClient({ worker: 'off' });
  try {
    return await measure(indexedDbStorage({ compute, indexedDB: new IDBFactory(), IDBKeyRange }), `bench-idb-${n}-${stamp}`, n);
  } finally {
    compute.close();
  }
}

const server = await startChromaServer();
/** The lines printed, also written to docs/benchmarks.md when the run ends. */
const lines: string[] = [];
const print = (line: string) => {
  console.log(line);
  lines.push(line);
};
try {
  const client = new ChromaClient({ host: server.host, port: server.port });
  print(`engram on Chroma (local server, chromadb 3.5.0 client, binding 1.0.5) beside IndexedDB (fake-indexeddb), Node ${process.versions.node}, compute in-process; load ${loadavg()[0]!.toFixed(1)} at start`);
  print('| backend | memories | build (s) | retrieve p50 (ms) | requests / retrieve | ingest p50 (ms) | requests / ingest |');
  print('|---|---:|---:|---:|---:|---:|---:|');
  const breakdowns: string[] = [];
  for (const n of sizes.length ? sizes : [1_000, 10_000]) {
    const stamp = Date.now().toString(36);
    const prefix = `bench_${n}_${stamp}_`;
    const rows = [
      ['IndexedDB', await measureIndexedDb(n, stamp)],
      ['Chroma', await measure(createChromaStorage({ host: server.host, port: server.port, collectionPrefix: prefix }), `bench-chroma-${n}`, n, () => nameCollections(client, prefix))],
    ] as const;
    for (const [label, { build, retrieve, ingest }] of rows) {
      const count = (timing: Timing) => (label === 'Chroma' ? String(timing.requests) : '–');
      print(`| ${label} | ${n} | ${(build / 1000).toFixed(1)} | ${retrieve.p50.toFixed(1)} | ${count(retrieve)} | ${ingest.p50.toFixed(1)} | ${count(ingest)} |`);
      if (label === 'Chroma') breakdowns.push(`${n}: retrieve ${retrieve.breakdown}, client ${retrieve.client.toFixed(0)} ms; ingest ${ingest.breakdown}, client ${ingest.client.toFixed(0)} ms`);
    }
  }
  print('');
  print('Chroma requests of the median call, by collection and operation (median round trip of each operation over the calls), and the median time of a call with no request in flight (client):');
  for (const line of breakdowns) print(line);
  print(`load ${loadavg()[0]!.toFixed(1)} at end`);
  writeBenchSection('chroma', 'engram on Chroma beside IndexedDB', benchCommand('bench:chroma', process.argv.slice(2)), lines);
} finally {
  await server.stop();
}
