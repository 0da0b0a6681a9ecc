/**
 * `npm run bench:chroma`: engram end to end on a real Chroma server beside the IndexedDB
 * backend (fake-indexeddb under Node: not a browser's figures), in the same run, on the same
 * seeded data: ingest p50 (a 10-message conversation: extract, consolidate, commit) and
 * retrieve p50 (k = 10) at each size. Starts its own server and stops it by its pid.
 * Sizes: `npm run bench:chroma -- 1000 10000` (the default). Not part of CI.
 */
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

const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);

async function timed(count: number, body: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await body(i);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Builds the store through the contract's commit, then measures the library on it. */
async function measure(backend: StorageBackend, name: string, n: number) {
  const data = createBenchData(n, Math.round(n / 10));
  const started = performance.now();
  const storage = await backend.open({ name, embedder: { id: EMBEDDER_ID, dim: HASH_DIM } });
  for (let start = 0; start < data.records.length; start += BUILD_CHUNK) {
    await storage.records.commit({ records: data.records.slice(start, start + BUILD_CHUNK), expected: new Map() });
  }
  await storage.vectors.settled();
  await storage.close();
  const build = performance.now() - started;

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

/** The lines printed, also written to docs/benchmarks.md when the run ends. */
const lines: string[] = [];
const print = (line: string) => {
  lines.push(line);
  console.log(line);
};

const server = await startChromaServer();
try {
  print(`engram on Chroma (server ${server.url}, chromadb 3.5.0 client, binding 1.0.5) beside IndexedDB (fake-indexeddb), Node ${process.versions.node}, compute in-process`);
  print('| backend | memories | build (s) | retrieve p50 (ms) | ingest p50 (ms) |');
  print('|---|---:|---:|---:|---:|');
  for (const n of sizes.length ? sizes : [1_000, 10_000]) {
    const stamp = Date.now().toString(36);
    const rows = [
      ['IndexedDB', await measureIndexedDb(n, stamp)],
      ['Chroma', await measure(createChromaStorage({ host: server.host, port: server.port, collectionPrefix: `bench_${n}_${stamp}_` }), `bench-chroma-${n}`, n)],
    ] as const;
    for (const [label, figures] of rows) {
      print(`| ${label} | ${n} | ${(figures.build / 1000).toFixed(1)} | ${figures.retrieve.toFixed(1)} | ${figures.ingest.toFixed(1)} |`);
    }
  }
  writeBenchSection('chroma', 'Chroma beside IndexedDB (Node)', benchCommand('bench:chroma', process.argv.slice(2)), lines);
} finally {
  await server.stop();
}
