/**
 * The benchmark itself, shared by `npm run bench` (Node, fake-indexeddb, in-process compute)
 * and `npm run bench:browser` (headless Chromium, real IndexedDB, module worker). It builds a
 * seeded store per size, then measures the library end to end (cold start, retrieve, ingest)
 * and the scan kernel against the naive baseline, Orama and a sequential read of the same
 * matrix. Every engram top-k is checked against a brute-force exact answer.
 */
import { create, insertMultiple, search } from '@orama/orama';
import { HASH_DIM, hashEmbedderId } from '../src/embed/hash-embedder';
import type { MemoryOptions } from '../src/index';
import { DEFAULT_WEIGHTS } from '../src/schema';
import type { EngramDatabase } from '../src/store/database';
import { userPartition } from '../src/storage/owner';
import { createIndexedDbStorage } from '../src/store/indexeddb';
import { finishUpgrades } from '../src/store/unfinished-upgrades';
import { retrieveMemories, type RetrieveDeps } from '../src/retrieve/retrieve';
import { RELEVANCE_FLOOR } from '../src/retrieve/select';
import { SCOPE_CODE, type ScanRequest } from '../src/worker/api';
import type { ComputeClient } from '../src/worker/client';
import { createCompute } from '../src/worker/compute';
import { RowMatrix } from '../src/worker/matrix';
import { loadKernelModule } from '../src/worker/wasm-kernel';
import { createHashEmbedder } from '../src/embed/hash-embedder';
import { lexicalTermStrings, packTerms } from '../src/embed/terms';
import { fusedRelevance, SEMANTIC_SHARE } from '../src/worker/fusion';
import { decodeConcepts, expandTerms, type Concepts } from '../src/worker/concepts';
import { readConcepts } from '../src/worker/concepts-asset';
import { hash32 } from '../src/text';
import { BM25_B, BM25_K1 } from '../src/worker/lexical';
import { measureCodes } from './bench-codes';
import { scanWithVectors, vectorsOfRows } from '../src/worker/exact';
import { printTopicIngest } from './bench-topic';
import { measureStages, printStages, type StageFigures } from './bench-stages';
import { createBm25 } from './eval-metrics';
import { BENCH_APP, openSettledMemory, BENCH_USER, conversation, createBenchData, createRandom, DAY, queryText, T0, type OwnerRows, percentile, ms } from './bench-data';

export interface BenchEnvironment {
  /** Printed in the header: where this runs and what backs the store. */
  label: string;
  sizes: readonly number[];
  memoryOptions(name: string): MemoryOptions;
  openDatabase(name: string): EngramDatabase;
  /** A compute client as the library would create it here (worker in the browser). */
  computeClient(): ComputeClient;
  print(line: string): void;
  /** Only the end-to-end table and its stage breakdown (`--e2e-only`): what the comparison with a baseline release reads. */
  endToEndOnly?: boolean;
}

const K = 10;
const OWNER = { userId: BENCH_USER, appName: BENCH_APP };

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
}

/** The query's BM25 per owner row, from the reference implementation (not the worker's index). */
type LexicalReference = (queryText: string) => number[];

function lexicalReference(owner: OwnerRows, concepts?: Concepts): LexicalReference {
  if (!concepts) return createBm25(owner.texts, { tokens: lexicalTermStrings, k1: BM25_K1, b: BM25_B }).scores;
  // With the semantic channel (memory.retrieve's default): terms as the worker's ids, plus the query's related ones.
  const ids = (text: string) => lexicalTermStrings(text).map((term) => String(hash32(term)));
  const bm25 = createBm25(owner.texts, { tokens: ids, k1: BM25_K1, b: BM25_B });
  return (text) => bm25.scores(text, new Map([...expandTerms(concepts, new Set(ids(text).map(Number)), SEMANTIC_SHARE)].map(([term, weight]) => [String(term), weight])));
}

/**
 * Exact blended scores (f64) of every owner row, best first, ties by row order; hybrid when a query
 * text is given. `floor`: retrieve's RELEVANCE_FLOOR, for a check of `retrieve` (a raw scan has none).
 */
function bruteForce(owner: OwnerRows, query: Float32Array, now: number, lexical?: { reference: LexicalReference; text: string }, floor = Number.NEGATIVE_INFINITY): { id: string; score: number }[] {
  const n = owner.ids.length;
  const out: { id: string; score: number }[] = [];
  const bm25 = lexical?.reference(lexical.text);
  let best = 0;
  if (bm25) for (const score of bm25) best = Math.max(best, score);
  for (let row = 0; row < n; row++) {
    let cosine = 0;
    const offset = row * HASH_DIM;
    for (let j = 0; j < HASH_DIM; j++) cosine += owner.vectors[offset + j]! * query[j]!;
    const { relevance } = fusedRelevance(cosine, bm25?.[row] ?? 0, best);
    const recency = 0.5 ** (Math.max(0, now - owner.updatedAt[row]!) / DAY / owner.halfLifeDays[row]!);
    if (relevance >= floor) out.push({ id: owner.ids[row]!, score: DEFAULT_WEIGHTS.relevance * relevance + DEFAULT_WEIGHTS.recency * recency + DEFAULT_WEIGHTS.importance * owner.importance[row]! });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, K);
}

/** Null when `got` is the exact top-k (swaps allowed only between scores within 1e-6), else why not. */
function disagreement(got: readonly { id: string; score: number }[], exact: readonly { id: string; score: number }[]): string | null {
  if (got.length !== exact.length) return `${got.length} hits, expected ${exact.length}`;
  const scoreOf = new Map(exact.map((entry) => [entry.id, entry.score]));
  for (let i = 0; i < exact.length; i++) {
    const want = exact[i]!;
    const hit = got[i]!;
    if (Math.abs(hit.score - want.score) > 1e-5) return `rank ${i}: score ${hit.score} vs exact ${want.score}`;
    if (hit.id !== want.id && !(Math.abs((scoreOf.get(hit.id) ?? -Infinity) - want.score) <= 1e-6)) return `rank ${i}: ${hit.id} instead of ${want.id}`;
  }
  return null;
}

/** Longest gap between turns of a MessageChannel ping-pong: how long the thread was busy at once. */
function startHeartbeat(): { stop(): number } {
  const channel = new MessageChannel();
  let last = performance.now();
  let longest = 0;
  let running = true;
  channel.port1.onmessage = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) channel.port2.postMessage(0);
  };
  channel.port2.postMessage(0);
  return {
    stop() {
      running = false;
      channel.port1.close();
      channel.port2.close();
      return longest;
    },
  };
}

/** Times `body(i)` for each i; each sample runs it `repeat` times (timer resolution can be 0.1 ms in a page). */
async function timeEach<T>(count: number, body: (i: number) => Promise<T> | T, repeat = 1): Promise<{ times: number[]; results: T[] }> {
  const times: number[] = [];
  const results: T[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    let result = await body(i);
    for (let r = 1; r < repeat; r++) result = await body(i);
    times.push((performance.now() - started) / repeat);
    results.push(result);
  }
  return { times, results };
}

interface EndToEnd {
  n: number;
  build: number;
  coldStart: number;
  retrieveP50: number;
  retrieveP95: number;
  mainThreadMax: number;
  /** Retrieve p50 of 20 retrieves right after the warm-up, while the record cache fills. */
  duringFillP50: number;
  /** From those 20 retrieves' start until the storage's background work settled (the fill). */
  fillMs: number;
  ingestP50: number;
  embedPerSecond: number;
  computeBytes: number;
  retrieveHybrid: number;
  retrieveVector: number;
  stages: StageFigures;
}

interface KernelFigures {
  n: number;
  scan: number;
  hybrid: number;
  scanJs: number;
  naive: number;
  orama: number;
  floor: number;
  oramaBuild: number;
}

export async function buildStore(env: BenchEnvironment, name: string, records: readonly import('../src/schema').MemoryRecord[]): Promise<void> {
  const db = env.openDatabase(name);
  await db.open();
  // What createMemory's first open of the (then empty) database did: its upgrade checks recorded.
  await finishUpgrades(db);
  const compute = env.computeClient();
  const { records: store, vectors: index } = createIndexedDbStorage(db, { compute, embedder: { id: hashEmbedderId(HASH_DIM), dim: HASH_DIM } });
  for (let start = 0; start < records.length; start += 2000) {
    await store.commit({ records: records.slice(start, start + 2000), expected: new Map() });
  }
  // Bring the owner's packs to a snapshot (what a running app's compaction leaves behind).
  await index.ensure([userPartition(OWNER)]);
  await index.compact(userPartition(OWNER));
  await index.settled();
  compute.close();
  db.close();
}

async function measureEndToEnd(env: BenchEnvironment, n: number, failures: string[]): Promise<EndToEnd> {
  const data = createBenchData(n, Math.round(n / 10));
  const name = `engram-bench-${n}-${Date.now()}`;
  const buildStarted = performance.now();
  await buildStore(env, name, data.records);
  const build = performance.now() - buildStarted;
  // Let go of the 100k record objects: the main-thread probe below must measure engram's
  // pauses, not the garbage collector walking the benchmark's own data.
  data.records.length = 0;

  const now = T0;
  const random = createRandom(7 + n);
  const queries = Array.from({ length: n >= 100_000 ? 40 : 100 }, () => queryText(random));
  const embedder = createHashEmbedder(HASH_DIM);

  const coldStarted = performance.now();
  const { memory, settled, clearEmbedCache } = await openSettledMemory({ ...env.memoryOptions(name), clock: () => now });
  // Every timed call embeds its texts anew: the queries repeat below, and the conversations are
  // templated, so the memory's cache of recent texts would otherwise answer from what it held.
  const fresh = <T>(call: () => Promise<T>) => {
    clearEmbedCache();
    return call();
  };
  const first = await memory.retrieve(queries[0]!, { ...OWNER, k: K });
  const coldStart = performance.now() - coldStarted;

  const reference = lexicalReference(data.owner, decodeConcepts(await readConcepts()));
  const check = (label: string, query: string, hits: readonly { memory: { id: string }; score: number }[]) => {
    const why = disagreement(
      hits.map((hit) => ({ id: hit.memory.id, score: hit.score })),
      bruteForce(data.owner, embedder.embedOne(query), now, { reference, text: query }, RELEVANCE_FLOOR),
    );
    if (why) failures.push(`${label} N=${n} "${query}": ${why}`);
  };
  check('cold retrieve', queries[0]!, first);

  for (let i = 0; i < 5; i++) await memory.retrieve(queries[i]!, { ...OWNER, k: K });
  // The first seconds after the first retrieve: the record cache fills in the background
  // (store/record-fill.ts). Timed apart; the retrieves below run once it settled, as an app's
  // next turn does.
  const fillStarted = performance.now();
  const duringFill = await timeEach(20, (i) => fresh(() => memory.retrieve(queries[i]!, { ...OWNER, k: K })));
  await settled();
  const fillMs = performance.now() - fillStarted;
  const retrieval = await timeEach(queries.length, (i) => fresh(() => memory.retrieve(queries[i]!, { ...OWNER, k: K })));
  retrieval.results.forEach((hits, i) => check('retrieve', queries[i]!, hits));

  // Where the runtime exposes gc (Chromium with --expose-gc, node --expose-gc), collect the
  // bench's own garbage first: the probe is for pauses engram causes during queries.
  (globalThis as { gc?: () => void }).gc?.();
  const heartbeat = startHeartbeat();
  for (const query of queries.slice(0, 20)) await fresh(() => memory.retrieve(query, { ...OWNER, k: K }));
  const mainThreadMax = heartbeat.stop();

  const ingest = await timeEach(20, (i) => fresh(() => memory.ingest(conversation(i), { ...OWNER, sessionId: `bench-s${i}`, source: { type: 'user_implicit', id: `bench-c${i}` } })));
  await memory.close();
  const stages = await measureStages(env.memoryOptions(name), n, queries.slice(0, 40), now, OWNER, () => env.computeClient());

  const compute = env.computeClient();
  const db = env.openDatabase(name);
  const storage = createIndexedDbStorage(db, { compute, embedder: { id: hashEmbedderId(HASH_DIM), dim: HASH_DIM } });
  await storage.vectors.ensure([userPartition(OWNER)]);
  const paths = await compareRetrievePaths({ storage, embedder, clock: () => now }, queries);
  // After queries: a sparse query's first scan builds the codes by dimension (worker/columns.ts), part of what compute holds.
  const computeBytes = (await compute.stats()).bytes;
  await storage.vectors.settled();
  compute.close();
  db.close();
  await env.openDatabase(name).delete();

  return {
    n,
    build,
    coldStart,
    retrieveP50: percentile(retrieval.times, 50),
    retrieveP95: percentile(retrieval.times, 95),
    mainThreadMax,
    duringFillP50: percentile(duringFill.times, 50),
    fillMs,
    ingestP50: percentile(ingest.times, 50),
    embedPerSecond: data.embedded / data.embedSeconds,
    computeBytes,
    retrieveHybrid: paths.hybrid,
    retrieveVector: paths.vector,
    stages,
  };
}

/**
 * Retrieve p50 of the library's path (hybrid: the scan is given the query text) against the
 * vector-only path (the same retrieve with the text withheld from the scan), interleaved in one run.
 */
async function compareRetrievePaths(deps: RetrieveDeps, queries: readonly string[]): Promise<{ hybrid: number; vector: number }> {
  const { vectors } = deps.storage;
  const vectorOnly: RetrieveDeps = {
    ...deps,
    storage: { ...deps.storage, vectors: { ...vectors, search: ({ text: _, ...search }) => vectors.search(search) } },
  };
  const plan = { owner: { userId: BENCH_USER, appName: BENCH_APP }, scopes: ['user' as const], k: K, weights: DEFAULT_WEIGHTS };
  const hybrid: number[] = [];
  const vector: number[] = [];
  for (const query of queries) {
    for (const [times, path] of [
      [hybrid, deps],
      [vector, vectorOnly],
    ] as const) {
      const started = performance.now();
      await retrieveMemories(path, query, plan);
      times.push(performance.now() - started);
    }
  }
  return { hybrid: percentile(hybrid, 50), vector: percentile(vector, 50) };
}

async function measureKernels(n: number, failures: string[]): Promise<KernelFigures> {
  const data = createBenchData(n, 0);
  const { owner } = data;
  const random = createRandom(99 + n);
  const embedder = createHashEmbedder(HASH_DIM);
  const texts = Array.from({ length: 30 }, () => queryText(random));
  const queries = texts.map((text) => embedder.embedOne(text));
  const rows = {
    ids: owner.ids,
    vectors: owner.vectors,
    updatedAt: owner.updatedAt,
    halfLifeDays: owner.halfLifeDays,
    importance: owner.importance,
    scopes: new Uint8Array(n).fill(SCOPE_CODE.user),
    sessionIds: new Array<string>(n).fill(''),
    ...packTerms(owner.texts),
  };
  const request = (query: Float32Array): ScanRequest => ({ partitions: ['p'], query, now: T0, weights: DEFAULT_WEIGHTS, k: K, scopes: ['user'] });

  // The library's default compute (8-bit codes): scan, then the exact re-rank of its candidates
  // from their f32 vectors (here from memory; the library reads them from the store).
  const wasm = createCompute();
  wasm.loadPartition('p', 1, HASH_DIM, rows);
  const vectors = vectorsOfRows(rows, HASH_DIM);
  const js = createCompute({ kernel: 'js' });
  js.loadPartition('p', 1, HASH_DIM, rows);
  const scanWasm = (scan: ScanRequest) => scanWithVectors(wasm, scan, vectors);
  for (const query of queries.slice(0, 3)) scanWasm(request(query));
  const repeat = Math.max(1, Math.round(20_000 / n));
  const scan = await timeEach(queries.length, (i) => scanWasm(request(queries[i]!)), repeat);
  scan.results.forEach((hits, i) => {
    const why = disagreement(hits, bruteForce(owner, queries[i]!, T0));
    if (why) failures.push(`scan N=${n} query ${i}: ${why}`);
  });
  // Hybrid: the same scan with the query text, so the lexical channel runs and fuses.
  const reference = lexicalReference(owner);
  const hybrid = await timeEach(queries.length, (i) => scanWasm({ ...request(queries[i]!), queryText: texts[i]! }), repeat);
  hybrid.results.forEach((hits, i) => {
    const why = disagreement(hits, bruteForce(owner, queries[i]!, T0, { reference, text: texts[i]! }));
    if (why) failures.push(`hybrid scan N=${n} query ${i}: ${why}`);
  });
  const few = n >= 100_000 ? 8 : 20;
  const scanJs = await timeEach(few, (i) => scanWithVectors(js, request(queries[i]!), vectors), repeat);
  scanJs.results.forEach((hits, i) => {
    const why = disagreement(hits, bruteForce(owner, queries[i]!, T0));
    if (why) failures.push(`js scan N=${n} query ${i}: ${why}`);
  });

  // The seed's way: number[] vectors, map to scored objects, sort everything, slice k.
  const plain = owner.ids.map((id, row) => ({
    id,
    vector: Array.from(owner.vectors.subarray(row * HASH_DIM, (row + 1) * HASH_DIM)),
    updatedAt: owner.updatedAt[row]!,
    halfLifeDays: owner.halfLifeDays[row]!,
    importance: owner.importance[row]!,
  }));
  const naive = await timeEach(n >= 100_000 ? 5 : 20, (i) => {
    const query = Array.from(queries[i]!);
    return plain
      .map((memory) => {
        const relevance = memory.vector.reduce((sum, value, j) => sum + value * query[j]!, 0);
        const recency = 0.5 ** (Math.max(0, T0 - memory.updatedAt) / DAY / memory.halfLifeDays);
        return { id: memory.id, score: DEFAULT_WEIGHTS.relevance * relevance + DEFAULT_WEIGHTS.recency * recency + DEFAULT_WEIGHTS.importance * memory.importance };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, K);
  });
  naive.results.forEach((hits, i) => {
    const why = disagreement(hits, bruteForce(owner, queries[i]!, T0));
    if (why) failures.push(`naive baseline N=${n} query ${i}: ${why}`);
  });

  const oramaStarted = performance.now();
  const orama = create({ schema: { embedding: `vector[${HASH_DIM}]` } as const });
  await insertMultiple(
    orama,
    plain.map((memory) => ({ id: memory.id, embedding: memory.vector })),
    5000,
  );
  const oramaBuild = performance.now() - oramaStarted;
  const oramaTimes = await timeEach(n >= 100_000 ? 5 : 20, (i) => search(orama, { mode: 'vector', vector: { value: Array.from(queries[i]!), property: 'embedding' }, similarity: 0, limit: K, includeVectors: false }));
  for (const result of oramaTimes.results) {
    if ((await result).hits.length !== K) failures.push(`orama N=${n}: returned ${(await result).hits.length} hits`);
  }

  // The floor: one sequential read of a matrix of the same size, in the same WASM memory layout.
  const module = loadKernelModule();
  let floorTimes: number[] = [Number.NaN];
  if (module) {
    const matrix = new RowMatrix(HASH_DIM, n, module);
    matrix.vectors.set(owner.vectors);
    const bytes = n * matrix.stride * 4;
    for (let i = 0; i < 3; i++) matrix.kernel!.read(0, bytes);
    floorTimes = (await timeEach(30, () => matrix.kernel!.read(0, bytes), repeat)).times;
  }
  return {
    n,
    scan: percentile(scan.times, 50),
    hybrid: percentile(hybrid.times, 50),
    scanJs: percentile(scanJs.times, 50),
    naive: percentile(naive.times, 50),
    orama: percentile(oramaTimes.times, 50),
    floor: percentile(floorTimes, 50),
    oramaBuild,
  };
}

/** The 8-bit section at the largest size, 256-d and 384-d. */
function printCodes(env: BenchEnvironment, failures: string[]): void {
  const n = Math.max(...env.sizes);
  const rows = [HASH_DIM, 384].map((dim) => measureCodes(n, dim, failures)).filter((row) => row !== null);
  if (!rows.length) return;
  env.print('');
  env.print('8-bit codes: scan and rank, p50 per query (ms); memory: scan-resident bytes, 8-bit over f32');
  const widths = [8, 6, 10, 10, 10, 12, 12, 12, 12, 12];
  env.print(pad(['N', 'dim', '8-bit', 'f32', 'f32 floor', '8-bit/floor', 'memory', '8-bit MB', 'f32 MB', 'passes/query'], widths));
  for (const row of rows) {
    const cells = [String(row.n), String(row.dim), ms(row.codes), ms(row.f32), ms(row.floor), `${(row.codes / row.floor).toFixed(2)}×`, `${row.memory.toFixed(2)}×`];
    env.print(pad([...cells, row.codesMB.toFixed(1), row.f32MB.toFixed(1), row.passes.toFixed(2)], widths));
  }
  env.print('8-bit (the default): codes in the kernel memory and no f32 copy in compute; the candidates are re-ranked');
  env.print("exactly from their f32 vectors (the library reads them from the store; here from memory). Top-k checked equal to the f32 scan's.");
  env.print('passes/query: kernel scans per query until the re-rank proved the top k (1: no rescan).');
}

function printHeader(env: BenchEnvironment, section: string): void {
  const kernel = createCompute().stats().kernel;
  env.print(`engram bench${section}: ${env.label}; scan kernel ${kernel}; top-${K}, ${HASH_DIM}-d hash embeddings, one owner + 10% noise from 4 other owners, seeded`);
}

function printVerdict(env: BenchEnvironment, failures: readonly string[]): void {
  env.print('');
  env.print(failures.length ? `FAIL: ${failures.length} top-k results disagree with the brute-force check` : 'every top-k matched the brute-force check');
  for (const failure of failures.slice(0, 20)) env.print(`  ${failure}`);
}

/** `--codes-only`: the 8-bit section alone, at the largest size; returns the disagreements. */
export function runCodesBench(env: BenchEnvironment): string[] {
  const failures: string[] = [];
  printHeader(env, ' (8-bit section only)');
  printCodes(env, failures);
  printVerdict(env, failures);
  return failures;
}

/** Runs every size, prints both tables, returns the disagreements (empty: every top-k was exact). */
export async function runBench(env: BenchEnvironment): Promise<string[]> {
  const failures: string[] = [];
  printHeader(env, '');
  const endToEnd: EndToEnd[] = [];
  const kernels: KernelFigures[] = [];
  for (const n of env.sizes) {
    endToEnd.push(await measureEndToEnd(env, n, failures));
    if (!env.endToEndOnly) kernels.push(await measureKernels(n, failures));
  }
  env.print('');
  env.print('End to end (ms; memory in MB)');
  const w1 = [8, 10, 12, 12, 13, 13, 15, 14, 12, 16];
  env.print(pad(['N', 'build', 'cold start', 'retrieve p50', 'retrieve p95', 'main max gap', 'ingest p50 (10)', 'embed texts/s', 'compute MB', 'hybrid/vector'], w1));
  for (const row of endToEnd) {
    env.print(
      pad(
        [
          String(row.n),
          ms(row.build),
          ms(row.coldStart),
          ms(row.retrieveP50),
          ms(row.retrieveP95),
          ms(row.mainThreadMax),
          ms(row.ingestP50),
          Math.round(row.embedPerSecond).toLocaleString('en-US'),
          (row.computeBytes / 1e6).toFixed(1),
          `${ms(row.retrieveHybrid)}/${ms(row.retrieveVector)} ${(row.retrieveHybrid / row.retrieveVector).toFixed(2)}×`,
        ],
        w1,
      ),
    );
  }
  env.print('cold start: open + worker + bulk load of the packed vectors + first retrieve. main max gap: longest');
  env.print('single busy stretch of the calling thread during 20 retrieves (in-process compute counts the scan;');
  env.print(`the bench's own garbage is collected first where gc is exposed: ${typeof (globalThis as { gc?: unknown }).gc === 'function' ? 'yes' : 'no'}).`);
  env.print('ingest: a 10-message conversation (5 user turns) into the N store. embed: hash embedder, texts/s.');
  env.print('hybrid/vector: retrieve p50 of the library path against the same retrieve with the text withheld from');
  env.print('the scan (vector only), interleaved in one run.');
  env.print('retrieve p50/p95: after the record cache filled in the background (store/record-fill.ts; a partition of up to');
  env.print('16,384 records is then held whole in the page). While it fills, right after the first retrieves:');
  for (const row of endToEnd) env.print(`  N=${row.n}: retrieve p50 ${ms(row.duringFillP50)} ms during the fill, which settled ${ms(row.fillMs)} ms after those retrieves began`);
  printStages(
    env.print,
    endToEnd.map((row) => row.stages),
    pad,
  );
  if (env.endToEndOnly) {
    printVerdict(env, failures);
    return failures;
  }
  env.print('');
  env.print('Scan and rank, p50 per query (ms), same matrix in this thread');
  const w2 = [8, 10, 10, 10, 10, 10, 10, 11, 11, 11, 12];
  env.print(pad(['N', 'engram', 'hybrid', 'hyb/eng', 'js kernel', 'naive', 'orama', 'floor', 'naive/eng', 'orama/eng', 'eng/floor', 'orama build'], w2));
  for (const row of kernels) {
    env.print(
      pad(
        [
          String(row.n),
          ms(row.scan),
          ms(row.hybrid),
          (row.hybrid / row.scan).toFixed(2) + '×',
          ms(row.scanJs),
          ms(row.naive),
          ms(row.orama),
          ms(row.floor),
          (row.naive / row.scan).toFixed(1) + '×',
          (row.orama / row.scan).toFixed(1) + '×',
          (row.scan / row.floor).toFixed(2) + '×',
          ms(row.oramaBuild),
        ],
        w2,
      ),
    );
  }
  env.print('hybrid: the same scan given the query text (BM25 channel, fused; checked against a reference BM25).');
  env.print('engram: WASM scan+blend+top-k; naive: number[] map/reduce, sort all (seed style); orama: vector mode,');
  env.print('similarity 0, cosine only; floor: one sequential SIMD read of the same matrix.');
  printCodes(env, failures);
  await printTopicIngest(env);
  printVerdict(env, failures);
  return failures;
}
