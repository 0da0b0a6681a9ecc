/**
 * The peers table of `npm run bench -- --peers` (Node): what a developer would pick instead of
 * engram for vector search in a browser, side by side in one run, on the bench's texts embedded
 * at 384 dimensions (the hash embedder at dim 384: MiniLM's width), at each size. Per peer:
 * build time, query p50 (top 10, cosine only: engram's recency and importance weights are set
 * to 0 so every engine ranks the same thing), recall@10 against the exact cosine top 10, and
 * resident memory (the process's RSS growth over the build, garbage collected first where gc is
 * exposed; engram's is its compute's own count). Ratios are peer / engram at the same size.
 *
 * engram here is the compute module in this thread (8-bit scan, exact re-rank from the f32 rows
 * held beside it), as the kernel table measures it; the library reads the re-rank's rows from
 * IndexedDB instead (see the end-to-end table for that path).
 */
import { create, insertMultiple, search } from '@orama/orama';
import { createHashEmbedder } from '../src/embed/hash-embedder';
import { SCOPE_CODE, type ScanRequest } from '../src/worker/api';
import { createCompute } from '../src/worker/compute';
import { scanWithVectors, vectorsOfRows } from '../src/worker/exact';
import { createRandom, memoryText, median, ms, queryText, T0 } from './bench-data';

const DIM = 384;
const K = 10;
/** A peer whose build would take longer than this at a size is stopped (where it can be) and reported. */
const BUILD_BUDGET_MS = 240_000;

interface PeerFigures {
  name: string;
  kind: 'exact' | 'approximate';
  build: number;
  query: number;
  recall: number;
  bytes: number;
  note?: string;
}

interface Engine {
  name: string;
  kind: 'exact' | 'approximate';
  /** Builds the index over `vectors` (row i has id `m<i>`); resolves to the query function. */
  build(vectors: Float32Array[]): Promise<(query: Float32Array) => Promise<string[]> | string[]>;
  /** Ms of the build spent starting the engine itself (PGlite's database), reported apart. */
  startup?(): number;
  close?(): Promise<void>;
}

/** What differs between Node and the browser: how resident memory is read, how voy-search's WebAssembly is loaded. */
export interface PeersEnvironment {
  label: string;
  /** Bytes held now (after gc where it can be forced), or null where the runtime does not tell. */
  resident(): Promise<number | null>;
  loadVoy(): Promise<typeof import('voy-search')>;
}

function exactTop(vectors: readonly Float32Array[], query: Float32Array): string[] {
  const scored = vectors.map((vector, i) => {
    let dot = 0;
    for (let j = 0; j < DIM; j++) dot += vector[j]! * query[j]!;
    return { id: `m${i}`, dot };
  });
  return scored
    .sort((a, b) => b.dot - a.dot)
    .slice(0, K)
    .map((entry) => entry.id);
}

function engramEngine(bytesOut: { bytes: number }): Engine {
  return {
    name: 'engram (8-bit + exact re-rank)',
    kind: 'exact',
    async build(vectors) {
      const n = vectors.length;
      const flat = new Float32Array(n * DIM);
      vectors.forEach((vector, i) => flat.set(vector, i * DIM));
      const rows = {
        ids: vectors.map((_, i) => `m${i}`),
        vectors: flat,
        updatedAt: new Float64Array(n).fill(T0),
        halfLifeDays: new Float32Array(n).fill(30),
        importance: new Float32Array(n),
        scopes: new Uint8Array(n).fill(SCOPE_CODE.user),
        sessionIds: new Array<string>(n).fill(''),
      };
      const byId = vectorsOfRows(rows, DIM);
      const compute = createCompute();
      compute.loadPartition('p', 1, DIM, rows);
      const weights = { relevance: 1, recency: 0, importance: 0 };
      const run = (query: Float32Array) => scanWithVectors(compute, { partitions: ['p'], query, now: T0, weights, k: K, scopes: ['user'] } satisfies ScanRequest, byId).map((hit) => hit.id);
      // The first sparse query has the codes by dimension (columns.ts) built in the task after it: in the build, as the time and the bytes they cost.
      run(vectors[0]!);
      await new Promise((resolve) => setTimeout(resolve, 0));
      bytesOut.bytes = compute.stats().bytes + flat.byteLength;
      return run;
    },
  };
}

function oramaEngine(): Engine {
  return {
    name: 'Orama 3.1 (vector, brute force)',
    kind: 'exact',
    async build(vectors) {
      const db = create({ schema: { embedding: `vector[${DIM}]` } as const });
      await insertMultiple(
        db,
        vectors.map((vector, i) => ({ id: `m${i}`, embedding: Array.from(vector) })),
        5000,
      );
      return async (query) => (await search(db, { mode: 'vector', vector: { value: Array.from(query), property: 'embedding' }, similarity: 0, limit: K, includeVectors: false })).hits.map((hit) => hit.id);
    },
  };
}

const toSql = (vector: Float32Array) => `[${Array.from(vector, (value) => value.toPrecision(9)).join(',')}]`;

function pgliteEngine(index: 'exact' | 'hnsw'): Engine {
  let close: (() => Promise<void>) | undefined;
  let startup = 0;
  return {
    name: index === 'exact' ? 'PGlite 0.5.14 + pgvector (exact)' : 'PGlite 0.5.14 + pgvector HNSW',
    kind: index === 'exact' ? 'exact' : 'approximate',
    async build(vectors) {
      const { PGlite } = await import('@electric-sql/pglite');
      const { vector } = await import('@electric-sql/pglite-pgvector');
      const started = performance.now();
      const db = await PGlite.create({ extensions: { vector } });
      close = () => db.close();
      await db.exec(`CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE items (id integer PRIMARY KEY, embedding vector(${DIM}));`);
      startup = performance.now() - started;
      for (let start = 0; start < vectors.length; start += 500) {
        const values = vectors.slice(start, start + 500).map((v, i) => `(${start + i}, '${toSql(v)}')`);
        await db.exec(`INSERT INTO items (id, embedding) VALUES ${values.join(',')}`);
        if (performance.now() - started > BUILD_BUDGET_MS) throw new Error(`inserts passed ${BUILD_BUDGET_MS / 1000} s at ${start + 500} of ${vectors.length} rows`);
      }
      if (index === 'hnsw') await db.exec('CREATE INDEX ON items USING hnsw (embedding vector_cosine_ops)');
      // Exact: a sequential scan and sort (no index on the vector column); HNSW: the planner uses the index.
      return async (query) => (await db.query<{ id: number }>(`SELECT id FROM items ORDER BY embedding <=> $1 LIMIT ${K}`, [toSql(query)])).rows.map((row) => `m${row.id}`);
    },
    startup: () => startup,
    close: () => close?.() ?? Promise.resolve(),
  };
}

/** A peer that cannot run here (not a failure): the table says why, with no "failed". */
class NotRun extends Error {
  override name = 'NotRun';
}

function hnswlibEngine(): Engine {
  return {
    name: 'hnswlib-wasm 0.8 (M 16, ef 200/50)',
    kind: 'approximate',
    async build(vectors) {
      // The package names only a `module` entry, which Node does not resolve: its file is imported by path.
      const { loadHnswlib } = (await import('hnswlib-wasm/dist/hnswlib.js')) as typeof import('hnswlib-wasm');
      // Its Emscripten build is for the web only (ENVIRONMENT=web): it refuses to start under Node.
      if (typeof window === 'undefined') throw new NotRun('the package is built for the web only (Emscripten ENVIRONMENT=web); see the Chromium table');
      const lib = await loadHnswlib();
      const index = new lib.HierarchicalNSW('cosine', DIM, '');
      index.initIndex(vectors.length, 16, 200, 100);
      index.setEfSearch(50);
      vectors.forEach((vector, i) => index.addPoint(vector, i, false));
      return (query) => index.searchKnn(query, K, undefined).neighbors.map((label: number) => `m${label}`);
    },
  };
}

function voyEngine(loadVoy: PeersEnvironment['loadVoy']): Engine {
  return {
    name: 'voy-search 0.6 (k-d tree)',
    kind: 'exact',
    async build(vectors) {
      const { Voy } = await loadVoy();
      // Its k-d tree (kiddo) splits on one coordinate at a time. A Rust panic reaches JS as
      // "RuntimeError: unreachable", its reason only on console.error: that reason is the report.
      const said: string[] = [];
      const error = console.error;
      console.error = (...args: unknown[]) => void said.push(args.map(String).join(' '));
      try {
        const voy = new Voy({ embeddings: vectors.map((vector, i) => ({ id: `m${i}`, title: '', url: '', embeddings: Array.from(vector) })) });
        return (query) => voy.search(query, K).neighbors.map((neighbor) => neighbor.id);
      } catch (thrown) {
        const panic = said.join('\n').match(/panicked at '([^']+)'/)?.[1];
        throw panic ? new Error(`panicked: ${panic}`) : thrown;
      } finally {
        console.error = error;
      }
    },
  };
}

function mememoEngine(): Engine {
  return {
    name: 'MeMemo 0.1 (HNSW, in memory)',
    kind: 'approximate',
    async build(vectors) {
      const { HNSW } = await import('mememo');
      const index = new HNSW({ distanceFunction: 'cosine-normalized', useIndexedDB: false, seed: 7 });
      const started = performance.now();
      for (let start = 0; start < vectors.length; start += 1000) {
        await index.bulkInsert(
          vectors.slice(start, start + 1000).map((_, i) => `m${start + i}`),
          vectors.slice(start, start + 1000).map((vector) => Array.from(vector)),
        );
        if (performance.now() - started > BUILD_BUDGET_MS) throw new Error(`build passed ${BUILD_BUDGET_MS / 1000} s at ${start + 1000} of ${vectors.length} rows`);
      }
      return async (query) => (await index.query(Array.from(query), K)).keys;
    },
  };
}

/** A peer that did not build: why, and whether it only cannot run here. */
type PeerFailure = { name: string; kind: Engine['kind']; failed: string; notRun?: true };

async function measure(env: PeersEnvironment, engine: Engine, vectors: Float32Array[], queries: Float32Array[], exact: string[][], bytesOf?: () => number): Promise<PeerFigures | PeerFailure> {
  const before = await env.resident();
  const started = performance.now();
  let run: (query: Float32Array) => Promise<string[]> | string[];
  try {
    run = await engine.build(vectors);
  } catch (error) {
    await engine.close?.().catch(() => {});
    if (error instanceof NotRun) return { name: engine.name, kind: engine.kind, failed: `not run: ${error.message}`, notRun: true };
    const message = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message.split('\n')[0]!}` : String(error);
    return { name: engine.name, kind: engine.kind, failed: message };
  }
  const build = performance.now() - started;
  const after = await env.resident();
  const bytes = bytesOf?.() ?? (before === null || after === null ? Number.NaN : Math.max(0, after - before));
  const startup = engine.startup?.() ?? 0;
  for (const query of queries.slice(0, 3)) await run(query);
  const times: number[] = [];
  let found = 0;
  for (const [q, query] of queries.entries()) {
    const at = performance.now();
    const ids = await run(query);
    times.push(performance.now() - at);
    const want = new Set(exact[q]);
    found += ids.filter((id) => want.has(id)).length;
  }
  await engine.close?.();
  return { name: engine.name, kind: engine.kind, build: build - startup, query: median(times), recall: found / (queries.length * K), bytes, ...(startup ? { note: `start-up ${ms(startup)} ms not in build` } : {}) };
}

/** Runs every peer at each size and prints the table; returns the rows per size. */
/** Every peer's key, for `only` (engram always runs: the ratios are to it). */
export const PEER_KEYS = ['orama', 'pglite-exact', 'voy', 'pglite-hnsw', 'hnswlib', 'mememo'] as const;

export async function runPeersBench(print: (line: string) => void, sizes: readonly number[], env: PeersEnvironment, only?: readonly string[]): Promise<void> {
  const embedder = createHashEmbedder(DIM);
  print(`Peers: ${DIM}-d hash embeddings of the bench's texts, top-${K} by cosine, one run (${env.label}, in this thread)`);
  const widths = [34, 8, 12, 10, 10, 9, 10, 10, 10];
  const pad = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  for (const n of sizes) {
    const random = createRandom(42 + n);
    const vectors = Array.from({ length: n }, () => embedder.embedOne(memoryText(random)));
    const queries = Array.from({ length: n >= 100_000 ? 20 : 40 }, () => embedder.embedOne(queryText(random)));
    const exact = queries.map((query) => exactTop(vectors, query));
    const engramBytes = { bytes: 0 };
    const peers: Record<(typeof PEER_KEYS)[number], () => Engine> = {
      orama: oramaEngine,
      'pglite-exact': () => pgliteEngine('exact'),
      voy: () => voyEngine(env.loadVoy),
      'pglite-hnsw': () => pgliteEngine('hnsw'),
      hnswlib: hnswlibEngine,
      mememo: mememoEngine,
    };
    const engines: [Engine, (() => number)?][] = [[engramEngine(engramBytes), () => engramBytes.bytes], ...PEER_KEYS.filter((key) => !only || only.includes(key)).map((key): [Engine] => [peers[key]()])];
    const rows = [];
    for (const [engine, bytesOf] of engines) rows.push(await measure(env, engine, vectors, queries, exact, bytesOf));
    const engram = rows[0] as PeerFigures;
    print('');
    print(`N = ${n.toLocaleString('en-US')}`);
    print(pad(['engine', 'kind', 'build ms', 'query p50', 'recall@10', 'MB', 'build ×', 'query ×', 'MB ×']));
    for (const row of rows) {
      if ('failed' in row) {
        print(`${pad([row.name, row.kind])}  ${row.notRun ? '' : 'failed: '}${row.failed.slice(0, 150)}`);
        continue;
      }
      const ratio = (value: number, of: number) => `${(value / of).toFixed(row === engram ? 0 : 1)}×`;
      print(
        pad([
          row.name,
          row.kind,
          ms(row.build),
          ms(row.query),
          row.recall.toFixed(3),
          Number.isNaN(row.bytes) ? '–' : (row.bytes / 1e6).toFixed(1),
          ratio(row.build, engram.build),
          ratio(row.query, engram.query),
          Number.isNaN(row.bytes) ? '–' : ratio(row.bytes, engram.bytes),
        ]) + (row.note ? `  (${row.note})` : ''),
      );
    }
  }
  print('');
  print('× = peer / engram at the same size (query × > 1: engram is faster). MB: growth of JS heap + external memory');
  print("(ArrayBuffers, WebAssembly memories) over the build after gc (the peers'); compute's own bytes plus the f32 rows");
  print("the re-rank reads (engram's; the library keeps those in IndexedDB). engram's build includes its first query, which builds");
  print("the codes by dimension a sparse query reads (their bytes counted). PGlite's start-up is reported apart from its build.");
  print('recall@10 against the exact cosine top 10 (f64 brute force). Approximate engines at their default search effort.');
}
