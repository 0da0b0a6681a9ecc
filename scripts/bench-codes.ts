/**
 * The bench's 8-bit section: the scan over 8-bit codes (the default) against the scan over
 * f32 rows and the f32 sequential-read floor, at 256-d (the hash embedder's seeded data) and
 * 384-d (seeded random unit vectors, a real embedder's size). Every 8-bit top-k is compared
 * with the f32 scan's (ids and scores); memory is what each keeps resident in compute (the
 * 8-bit one holds no f32 copy: its re-rank reads the candidates' vectors from the store).
 */
import { HASH_DIM, createHashEmbedder } from '../src/embed/hash-embedder';
import { DEFAULT_WEIGHTS } from '../src/schema';
import { SCOPE_CODE, type IndexRows, type ScanHit, type ScanRequest } from '../src/worker/api';
import { createCompute } from '../src/worker/compute';
import { scanWithVectors, vectorsOfRows } from '../src/worker/exact';
import { RowMatrix } from '../src/worker/matrix';
import { loadKernelModule } from '../src/worker/wasm-kernel';
import { createBenchData, createRandom, queryText, T0, median } from './bench-data';

export interface CodesFigures {
  n: number;
  dim: number;
  codes: number;
  f32: number;
  floor: number;
  /** Scan-resident bytes, 8-bit over f32. */
  memory: number;
  /** Compute-resident MB (stats().bytes) with 8-bit codes and with f32 rows. */
  codesMB: number;
  f32MB: number;
  /** Kernel scans per query until the re-rank proved the top k (1: never a rescan). */
  passes: number;
}

const K = 10;

function unitRows(n: number, dim: number, random: () => number): Float32Array {
  const vectors = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < dim; j++) sum += (vectors[i * dim + j] = random() - 0.5) ** 2;
    const norm = Math.sqrt(sum);
    for (let j = 0; j < dim; j++) vectors[i * dim + j]! /= norm;
  }
  return vectors;
}

function rowsFor(n: number, dim: number): { rows: IndexRows; queries: Float32Array[] } {
  if (dim === HASH_DIM) {
    const { owner } = createBenchData(n, 0);
    const random = createRandom(99 + n);
    const embedder = createHashEmbedder(HASH_DIM);
    const queries = Array.from({ length: 30 }, () => embedder.embedOne(queryText(random)));
    const { ids, vectors, updatedAt, halfLifeDays, importance } = owner;
    return { rows: { ids, vectors, updatedAt, halfLifeDays, importance, scopes: new Uint8Array(n).fill(SCOPE_CODE.user), sessionIds: new Array<string>(n).fill('') }, queries };
  }
  const random = createRandom(dim * 1000 + n);
  const rows: IndexRows = {
    ids: Array.from({ length: n }, (_, i) => `r${i}`),
    vectors: unitRows(n, dim, random),
    updatedAt: Float64Array.from({ length: n }, () => T0 - Math.floor(random() * 365) * 86_400_000),
    halfLifeDays: Float32Array.from({ length: n }, () => 7 + Math.floor(random() * 358)),
    importance: Float32Array.from({ length: n }, () => Math.round(random() * 100) / 100),
    scopes: new Uint8Array(n).fill(SCOPE_CODE.user),
    sessionIds: new Array<string>(n).fill(''),
  };
  return { rows, queries: Array.from({ length: 30 }, () => unitRows(1, dim, random)) };
}

/**
 * Medians of each body's time per call, the bodies interleaved call by call (`rounds` × `count`
 * of each), so a busy spell on a shared machine slows all of them alike instead of one.
 */
function timedTogether(rounds: number, count: number, repeat: number, bodies: readonly ((i: number) => unknown)[]): number[] {
  const times = bodies.map((): number[] => []);
  for (let i = 0; i < rounds * count; i++) {
    bodies.forEach((body, b) => {
      const started = performance.now();
      for (let r = 0; r < repeat; r++) body(i % count);
      times[b]!.push((performance.now() - started) / repeat);
    });
  }
  return times.map(median);
}

/**
 * Equal top-k: the same ids with the same f64 scores, except where two rows' exact scores are
 * within 1e-6 of each other. There the f32 scan's own choice is the f32 rounding's (it ranks
 * in f32 and reports in f64), and the 8-bit re-rank, which ranks in f64, may keep the other.
 */
function same(a: readonly ScanHit[], b: readonly ScanHit[]): boolean {
  return a.length === b.length && a.every((hit, i) => (hit.id === b[i]!.id && Math.abs(hit.score - b[i]!.score) <= 1e-9) || Math.abs(hit.score - b[i]!.score) <= 1e-6);
}

/** Measures one size and dimension; pushes a failure for every 8-bit top-k that differs from the f32 one. */
export function measureCodes(n: number, dim: number, failures: string[]): CodesFigures | null {
  const module = loadKernelModule();
  if (!module) return null;
  const { rows, queries } = rowsFor(n, dim);
  const request = (query: Float32Array): ScanRequest => ({ partitions: ['p'], query, now: T0, weights: DEFAULT_WEIGHTS, k: K, scopes: ['user'] });
  const codes = createCompute({ codes: 'i8' });
  const f32 = createCompute({ codes: 'f32' });
  codes.loadPartition('p', 1, dim, rows);
  f32.loadPartition('p', 1, dim, rows);
  // The 8-bit scan's candidates re-ranked from f32 vectors held here (the library reads them from the store).
  const vectors = vectorsOfRows(rows, dim);
  const scanCodes = (query: Float32Array) => scanWithVectors(codes, request(query), vectors);
  const scanF32 = (query: Float32Array) => scanWithVectors(f32, request(query), vectors);
  let passes = 0;
  const counted = { scan: (scan: ScanRequest) => (passes++, codes.scan(scan)) };
  queries.forEach((query, i) => {
    if (!same(scanWithVectors(counted, request(query), vectors), scanF32(query))) failures.push(`8-bit scan N=${n} dim=${dim} query ${i}: top-k differs from the f32 scan`);
  });
  const repeat = Math.max(1, Math.round(20_000 / n));
  const matrix = new RowMatrix(dim, n, module, 'f32');
  matrix.vectors.set(rows.vectors.length === n * matrix.stride ? rows.vectors : padded(rows.vectors, n, dim, matrix.stride));
  const bytes = n * matrix.stride * 4;
  for (let i = 0; i < 3; i++) matrix.kernel!.read(0, bytes);
  const [codesMs, f32Ms, floorMs] = timedTogether(3, queries.length, repeat, [(i) => scanCodes(queries[i]!), (i) => scanF32(queries[i]!), () => matrix.kernel!.read(0, bytes)]);
  const figures = {
    n,
    dim,
    codes: codesMs!,
    f32: f32Ms!,
    floor: floorMs!,
    memory: codes.stats().bytes / f32.stats().bytes,
    codesMB: codes.stats().bytes / 1e6,
    f32MB: f32.stats().bytes / 1e6,
    passes: passes / queries.length,
  };
  return figures;
}

function padded(vectors: Float32Array, n: number, dim: number, stride: number): Float32Array {
  const out = new Float32Array(n * stride);
  for (let i = 0; i < n; i++) out.set(vectors.subarray(i * dim, (i + 1) * dim), i * stride);
  return out;
}
