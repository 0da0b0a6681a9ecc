/**
 * The cost of encryption at rest (`createMemory({ encryptionKey })`): the same seeded store
 * built, opened cold, queried, listed and ingested into without and with a key, interleaved in
 * one run so both sides see the same machine load. Shared by `npm run bench` and
 * `npm run bench:browser` (there WebCrypto is the browser's, IndexedDB is real).
 */
import { HASH_DIM } from '../src/embed/hash-embedder';
import { createMemory, type Memory } from '../src/index';
import type { MemoryRecord } from '../src/schema';
import { userPartition } from '../src/storage/owner';
import { checkSealing, installSealing } from '../src/store/sealing';
import { createIndexedDbStorage } from '../src/store/indexeddb';
import type { BenchEnvironment } from './bench-core';
import { BENCH_APP, BENCH_USER, conversation, createBenchData, createRandom, EMBEDDER_ID, queryText, T0, ms, median } from './bench-data';

export const SEALED_SIZES: readonly number[] = [1_000, 10_000];

const OWNER = { userId: BENCH_USER, appName: BENCH_APP };
const K = 10;

interface SealedRow {
  n: number;
  mode: Mode;
  build: number;
  coldStart: number;
  retrieveP50: number;
  listAll: number;
  ingestP50: number;
}

async function timed<T>(body: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await body();
  return [performance.now() - started, result];
}

/** Commits the records in chunks of 2,000 (sealed when `key` is given) and leaves a packed snapshot, as a running app would. */
async function build(env: BenchEnvironment, name: string, records: readonly MemoryRecord[], key: CryptoKey | undefined): Promise<void> {
  const db = env.openDatabase(name);
  if (key) installSealing(db, key);
  await db.open();
  await checkSealing(db);
  const compute = env.computeClient();
  const { records: store, vectors: index } = createIndexedDbStorage(db, { compute, embedder: { id: EMBEDDER_ID, dim: HASH_DIM } });
  for (let start = 0; start < records.length; start += 2000) await store.commit({ records: records.slice(start, start + 2000), expected: new Map() });
  await index.ensure([userPartition(OWNER)]);
  await index.compact(userPartition(OWNER));
  await index.settled();
  compute.close();
  db.close();
}

type Mode = 'clear' | 'encrypted';

/**
 * Both stores of size `n` side by side: built one after the other, then every measurement
 * taken in turn on each (clear first, then encrypted, for every query and conversation), so a
 * burst of load on the machine falls on both.
 */
async function measure(env: BenchEnvironment, n: number, key: CryptoKey): Promise<SealedRow[]> {
  const modes: [Mode, CryptoKey | undefined][] = [
    ['clear', undefined],
    ['encrypted', key],
  ];
  const data = createBenchData(n, Math.round(n / 10));
  const names = modes.map(([mode]) => `engram-bench-sealed-${n}-${mode}-${Date.now()}`);
  const builds: number[] = [];
  for (const [i, [, modeKey]] of modes.entries()) builds.push((await timed(() => build(env, names[i]!, data.records, modeKey)))[0]);
  const random = createRandom(11 + n);
  const queries = Array.from({ length: 40 }, () => queryText(random));
  const memories: Memory[] = [];
  const cold: number[] = [];
  for (const [i, [, modeKey]] of modes.entries()) {
    const [coldStart, memory] = await timed(async (): Promise<Memory> => {
      const opened = await createMemory({ ...env.memoryOptions(names[i]!), clock: () => T0, ...(modeKey ? { encryptionKey: modeKey } : {}) });
      await opened.retrieve(queries[0]!, { ...OWNER, k: K });
      return opened;
    });
    cold.push(coldStart);
    memories.push(memory);
  }
  const each = async (body: (memory: Memory) => Promise<unknown>, times: number[][]) => {
    for (const [i, memory] of memories.entries()) times[i]!.push((await timed(() => body(memory)))[0]);
  };
  const [retrieves, lists, ingests]: [number[][], number[][], number[][]] = [
    [[], []],
    [[], []],
    [[], []],
  ];
  for (const query of queries) await each((memory) => memory.retrieve(query, { ...OWNER, k: K }), retrieves);
  for (let i = 0; i < 3; i++) await each((memory) => memory.list(OWNER), lists);
  for (let i = 0; i < 10; i++) await each((memory) => memory.ingest(conversation(i), { ...OWNER, sessionId: `sealed-s${i}`, source: { type: 'user_implicit', id: `sealed-c${i}` } }), ingests);
  for (const memory of memories) await memory.close();
  for (const name of names) await env.openDatabase(name).delete();
  return modes.map(([mode], i) => ({ n, mode, build: builds[i]!, coldStart: cold[i]!, retrieveP50: median(retrieves[i]!), listAll: median(lists[i]!), ingestP50: median(ingests[i]!) }));
}

/** Runs each size without and with a key and prints one table with the ratios. */
export async function runSealedBench(env: BenchEnvironment, sizes: readonly number[] = SEALED_SIZES): Promise<SealedRow[]> {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  // Warm-up, discarded: whichever mode ran first would otherwise pay for the JIT.
  await measure(env, 200, key);
  const rows: SealedRow[] = [];
  for (const n of sizes) rows.push(...(await measure(env, n, key)));
  const widths = [8, 10, 10, 11, 13, 10, 11];
  const line = (cells: string[]) => env.print(cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  env.print('');
  env.print(`Encryption at rest (ms): ${env.label}; AES-GCM-256 per value, same data without and with encryptionKey`);
  line(['N', 'mode', 'build', 'cold start', 'retrieve p50', 'list all', 'ingest p50']);
  for (const row of rows) {
    line([String(row.n), row.mode, ms(row.build), ms(row.coldStart), ms(row.retrieveP50), ms(row.listAll), ms(row.ingestP50)]);
    if (row.mode === 'encrypted') {
      const clear = rows.find((other) => other.n === row.n && other.mode === 'clear')!;
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
      line(['', 'ratio', ratio(row.build, clear.build), ratio(row.coldStart, clear.coldStart), ratio(row.retrieveP50, clear.retrieveP50), ratio(row.listAll, clear.listAll), ratio(row.ingestP50, clear.ingestP50)]);
    }
  }
  env.print('build: N records committed in chunks of 2,000 plus the packed snapshot. cold start: open (key check) +');
  env.print('bulk load of the packed vectors + first retrieve. retrieve p50 of 40 queries, top-10. list all: median of 3');
  env.print('reads of every active memory of the owner (N), hydrated. ingest p50 of 10 10-message conversations.');
  env.print('Both stores are measured in turn, query by query, so machine load falls on both.');
  return rows;
}
