/**
 * Where a retrieve's and a cold start's milliseconds go: the library's own wiring (the hash
 * embedder on the compute client, the IndexedDB backend over the same client), each piece
 * wrapped in a timer, so the figures are the real path's, split at the seams between stages:
 *
 * - retrieve: embed (the query's vector, a compute round trip), ensure (partition versions read
 *   from the store, compared with compute's), scan (the compute call: 8-bit scan, blend, top
 *   candidates, lexical channel included), f32 reads (the candidates' vectors read back from
 *   IndexedDB for the exact re-rank, and the re-rank), records (the k winners read and parsed),
 *   other (argument parsing, the loop, Comlink's own overhead not inside a call).
 *   The lexical channel's share of the scan is timed apart: the same compute scan with and
 *   without the query text, interleaved.
 * - cold start: open (createMemory: the database, upgrades, eviction guard), worker (compute's
 *   start, from createMemory's call until the worker's first answer: its module loads, the kernel
 *   compiles; it runs beside the open, so the stages add up to more than the total), read packs (the snapshot read
 *   from IndexedDB), load (compute builds the matrix and the lexical index from the chunks),
 *   first query (the first retrieve less its load).
 */
import { computeHashEmbedder, HASH_DIM } from '../src/embed/hash-embedder';
import type { Embedder } from '../src/embed/embedder';
import { createMemory, type MemoryOptions } from '../src/index';
import { DEFAULT_WEIGHTS } from '../src/schema';
import type { Storage, StorageBackend, StorageContext } from '../src/storage/contract';
import { indexedDbStorage } from '../src/store/indexeddb';
import type { Store } from '../src/store/store';
import { userPartition } from '../src/storage/owner';
import type { ScanRequest } from '../src/worker/api';
import type { ComputeClient } from '../src/worker/client';
import { median, ms } from './bench-data';

export const RETRIEVE_STAGES = ['embed', 'ensure', 'scan', 'f32 reads', 'records', 'other'] as const;
export const COLD_STAGES = ['open', 'worker', 'table wait', 'read packs', 'load', 'first query'] as const;
export type RetrieveStage = (typeof RETRIEVE_STAGES)[number];
export type ColdStage = (typeof COLD_STAGES)[number];

/** Milliseconds per stage of one call. */
type Split<S extends string> = Record<S, number>;

export interface StageFigures {
  n: number;
  /** Per stage, the median over the timed retrieves; `total` the median retrieve. */
  retrieve: Split<RetrieveStage> & { total: number };
  /** The scan's lexical channel: median hybrid scan less median vector-only scan (same compute, interleaved). */
  lexical: number;
  cold: Split<ColdStage> & { total: number };
}

/** Wall time spent inside the wrapped calls since the last `take`, overlapping calls counted once. */
function createClock() {
  let busy = 0;
  let open = 0;
  let since = 0;
  return {
    async time<T>(call: () => Promise<T>): Promise<T> {
      if (open++ === 0) since = performance.now();
      try {
        return await call();
      } finally {
        if (--open === 0) busy += performance.now() - since;
      }
    },
    take(): number {
      const out = busy;
      busy = 0;
      return out;
    },
  };
}

type Clock = ReturnType<typeof createClock>;

/** The compute client with its calls timed on the clocks named by `route` (unrouted calls are not timed). */
function timedCompute(compute: ComputeClient, route: (method: string) => Clock | undefined): ComputeClient {
  const out: Record<string, unknown> = { ...compute };
  for (const [method, call] of Object.entries(compute)) {
    if (typeof call !== 'function' || method === 'close') continue;
    out[method] = (...args: unknown[]) => {
      const clock = route(method);
      const run = () => (call as (...a: unknown[]) => Promise<unknown>).apply(compute, args);
      return clock ? clock.time(run) : run();
    };
  }
  return out as unknown as ComputeClient;
}

function timedStorage(storage: Storage, clocks: { ensure: Clock; search: Clock; records: Clock }): Storage {
  const { vectors, records } = storage;
  // The vector layer hydrates the re-rank's winners through its records layer, this very object.
  const store = records as Store;
  if (typeof store.visibleRecords === 'function') {
    const visibleRecords = store.visibleRecords.bind(store);
    store.visibleRecords = (rows, owner, events) => clocks.records.time(() => visibleRecords(rows, owner, events));
  }
  return {
    ...storage,
    records: { ...records, getMany: (ids, owner) => clocks.records.time(() => records.getMany(ids, owner)) },
    vectors: {
      ...vectors,
      ensure: (keys) => clocks.ensure.time(() => vectors.ensure(keys)),
      search: (search) => clocks.search.time(() => vectors.search(search)),
    },
  };
}

/**
 * Cold start and `queries.length` retrieves of the store `name` (built by the bench), split by
 * stage; the top-k is not checked here (the end-to-end section checks the same path).
 */
export async function measureStages(options: MemoryOptions, n: number, queries: readonly string[], now: number, owner: { userId: string; appName: string }, createCompute: () => ComputeClient): Promise<StageFigures> {
  const clocks = { embed: createClock(), ensure: createClock(), search: createClock(), records: createClock(), scan: createClock(), load: createClock(), version: createClock() };
  let firstCall: string | undefined;
  const worker = createClock();
  const compute = timedCompute(createCompute(), (method) => {
    if (firstCall === undefined) {
      firstCall = method;
      return worker;
    }
    if (method === 'scan') return clocks.scan;
    if (method === 'loadPartition' || method === 'applyChanges') return clocks.load;
    if (method === 'partitionVersion') return clocks.version;
    if (method === 'embed') return clocks.embed;
    return undefined;
  });
  const hash = computeHashEmbedder(compute, HASH_DIM);
  const embedder: Embedder = { ...hash, embed: (texts) => hash.embed(texts) };
  const defaultBackend = indexedDbStorage({ compute, ...(options.indexedDB ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange } : {}) });
  let opened: Storage | undefined;
  const backend: StorageBackend = {
    open: async (context: StorageContext) => (opened = timedStorage(await defaultBackend.open(context), clocks)),
  };
  const coldStarted = performance.now();
  // As createMemory does for its own IndexedDB backend: compute starts beside the open (timed as
  // `worker`, which then overlaps `open`).
  void compute.start();
  const memory = await createMemory({ ...options, embedder, storage: backend, clock: () => now });
  const open = performance.now() - coldStarted;
  const firstStarted = performance.now();
  // The catch-up a first retrieve does inside its search (the IndexedDB layer's search catches
  // up itself), run here as its own call so that reading the packs is timed apart from the query.
  await opened!.vectors.ensure([userPartition(owner)]);
  await memory.retrieve(queries[0]!, { ...owner, k: 10 });
  const first = performance.now() - firstStarted;
  const ensure = clocks.ensure.take();
  const load = clocks.load.take();
  const workerStart = worker.take();
  // The worker starts on the first compute call, inside ensure or not: counted once, as its own stage.
  const inEnsure = firstCall === 'partitionVersion' || firstCall === 'loadPartition';
  // The catch-up's version questions: a round trip each, but during a cold start the first waits
  // while the worker takes the semantic table (compute answers nothing meanwhile).
  const tableWait = clocks.version.take();
  const cold = {
    open,
    worker: workerStart,
    'table wait': tableWait,
    'read packs': Math.max(0, ensure - load - tableWait - (inEnsure ? workerStart : 0)),
    load,
    'first query': first - ensure,
    total: open + first,
  };
  for (const clock of Object.values(clocks)) clock.take();
  for (const query of queries.slice(0, 5)) await memory.retrieve(query, { ...owner, k: 10 });
  // As the end-to-end table: timed once the record cache's background fill settled.
  await opened!.vectors.settled();
  for (const clock of Object.values(clocks)) clock.take();

  const splits: (Split<RetrieveStage> & { total: number })[] = [];
  for (const query of queries) {
    const at = performance.now();
    await memory.retrieve(query, { ...owner, k: 10 });
    const total = performance.now() - at;
    const embed = clocks.embed.take();
    const ensureTime = clocks.ensure.take();
    const search = clocks.search.take();
    const scan = clocks.scan.take();
    const records = clocks.records.take();
    // Records hydrated inside the search (the re-rank's own transaction) are counted as records, not as f32 reads.
    const inSearch = Math.min(records, Math.max(0, search - scan));
    const split = { embed, ensure: ensureTime, scan, 'f32 reads': search - scan - inSearch, records, other: 0, total };
    split.other = total - embed - ensureTime - (search - inSearch) - records;
    splits.push(split);
  }
  const retrieve = Object.fromEntries([...RETRIEVE_STAGES, 'total'].map((stage) => [stage, median(splits.map((split) => split[stage as RetrieveStage | 'total']))])) as Split<RetrieveStage> & { total: number };

  // The lexical channel's share of the compute scan: the same request with and without the text.
  const [vector] = await embedder.embed([queries[0]!]);
  const key = userPartition(owner);
  const withText: number[] = [];
  const without: number[] = [];
  for (const query of queries) {
    const [q] = await embedder.embed([query]);
    const request: ScanRequest = { partitions: [key], query: q ?? vector!, now, weights: DEFAULT_WEIGHTS, k: 10, scopes: ['user'] };
    for (const [times, scan] of [
      [withText, { ...request, queryText: query }],
      [without, request],
    ] as const) {
      const at = performance.now();
      await compute.scan(scan);
      times.push(performance.now() - at);
    }
  }
  await memory.close();
  return { n, retrieve, lexical: Math.max(0, median(withText) - median(without)), cold };
}

export function printStages(print: (line: string) => void, rows: readonly StageFigures[], pad: (cells: readonly string[], widths: readonly number[]) => string): void {
  if (!rows.length) return;
  print('');
  print('Where a retrieve goes (ms, median per stage over the timed retrieves; the library path, each seam timed)');
  const w = [8, ...RETRIEVE_STAGES.map(() => 10), 10, 16];
  print(pad(['N', ...RETRIEVE_STAGES, 'total', 'lexical in scan'], w));
  for (const row of rows) print(pad([String(row.n), ...RETRIEVE_STAGES.map((stage) => ms(row.retrieve[stage])), ms(row.retrieve.total), ms(row.lexical)], w));
  print('embed: the query vector when compute embeds it (the default embedder embeds a query on the calling thread: in');
  print('other); ensure: partition versions from the store vs compute (0 where the search checks them itself); scan: the');
  print('compute scan call (8-bit scan + blend + candidates, lexical included, and the exact re-rank where compute keeps');
  print('its f32 copy); f32 reads: the search\u2019s wait on IndexedDB past the scan (the versions read beside it, the winners');
  print('the record cache lacks; without the f32 copy, the candidates\u2019 rows and the re-rank); records: the winners parsed');
  print('and their sources and history assembled; other: the rest of the call. lexical in scan: median scan with the');
  print('query text less without, on the same compute.');
  print('');
  print('Where a cold start goes (ms, one cold start per size)');
  const wc = [8, ...COLD_STAGES.map(() => 12), 10];
  print(pad(['N', ...COLD_STAGES, 'total'], wc));
  for (const row of rows) print(pad([String(row.n), ...COLD_STAGES.map((stage) => ms(row.cold[stage])), ms(row.cold.total)], wc));
  print('open: createMemory (database, upgrades, eviction guard); worker: compute\u2019s start (module, kernel compile), begun');
  print('with the open and running beside it (stages add up to more than the total); table wait: the catch-up\u2019s version');
  print('question to compute, which waits while the worker takes the semantic table (views of its arrays, no parse); read packs:');
  print('the store\u2019s versions and the packed snapshot read from IndexedDB, less what overlaps load (chunks stream to compute');
  print('as they are read); load: from the first chunk sent to compute to the last one built (matrix and lexical index); first');
  print('query: the first retrieve less its');
  print('catch-up (timed here as an ensure before it: the IndexedDB layer\u2019s search otherwise catches up itself).');
}
