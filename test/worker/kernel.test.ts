import { describe, expect, it } from 'vitest';
import { createRandom } from '../helpers/random';
import type { Scope } from '../../src/schema';
import { SCOPE_CODE, type IndexRows, type ScanHit, type ScanRequest } from '../../src/worker/api';
import { createCompute } from '../../src/worker/compute';
import { scanWithVectors } from '../../src/worker/exact';
import { loadKernelModule } from '../../src/worker/wasm-kernel';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);
const WEIGHTS = { relevance: 0.6, recency: 0.25, importance: 0.15 };

interface Row {
  id: string;
  vector: Float32Array;
  updatedAt: number;
  halfLifeDays: number;
  importance: number;
  scope: Scope;
  sessionId: string;
}

function unit(random: () => number, dim: number): Float32Array {
  const vector = new Float32Array(dim);
  let sum = 0;
  for (let j = 0; j < dim; j++) sum += (vector[j] = random() - 0.5) ** 2;
  const norm = Math.sqrt(sum);
  for (let j = 0; j < dim; j++) vector[j]! /= norm;
  return vector;
}

function randomRows(random: () => number, n: number, dim: number, prefix = 'm'): Row[] {
  const scopes: Scope[] = ['user', 'user', 'session', 'app'];
  return Array.from({ length: n }, (_, i) => {
    const scope = scopes[Math.floor(random() * scopes.length)]!;
    return {
      id: `${prefix}${i}`,
      vector: unit(random, dim),
      updatedAt: NOW - Math.floor(random() * 400 * DAY),
      halfLifeDays: 1 + random() * 200,
      importance: random(),
      scope,
      sessionId: scope === 'session' ? `s${Math.floor(random() * 3)}` : '',
    };
  });
}

function toIndexRows(rows: readonly Row[], dim: number): IndexRows {
  const vectors = new Float32Array(rows.length * dim);
  rows.forEach((row, i) => vectors.set(row.vector, i * dim));
  return {
    ids: rows.map((row) => row.id),
    vectors,
    updatedAt: Float64Array.from(rows, (row) => row.updatedAt),
    halfLifeDays: Float32Array.from(rows, (row) => row.halfLifeDays),
    importance: Float32Array.from(rows, (row) => row.importance),
    scopes: Uint8Array.from(rows, (row) => SCOPE_CODE[row.scope]),
    sessionIds: rows.map((row) => row.sessionId),
  };
}

/** The exact answer: every visible row scored in f64 (from the same f32 inputs), sorted, ties by insertion order. */
function bruteForce(partitions: readonly (readonly Row[])[], request: ScanRequest): { id: string; score: number; relevance: number }[] {
  const scored = [];
  for (const rows of partitions) {
    for (const row of rows) {
      if (!request.scopes.includes(row.scope)) continue;
      if (row.scope === 'session' && row.sessionId !== request.sessionId) continue;
      let relevance = 0;
      for (let j = 0; j < row.vector.length; j++) relevance += row.vector[j]! * request.query[j]!;
      const halfLife = Math.fround(row.halfLifeDays);
      const recency = 0.5 ** (Math.max(0, request.now - row.updatedAt) / DAY / halfLife);
      const score = WEIGHTS.relevance * relevance + WEIGHTS.recency * recency + WEIGHTS.importance * Math.fround(row.importance);
      scored.push({ id: row.id, score, relevance });
    }
  }
  return scored.sort((a, b) => b.score - a.score).slice(0, request.k);
}

/** Ids equal the exact top-k, scores within 1e-5; where two exact scores are within 1e-6 either order passes. */
function expectExactTopK(actual: readonly ScanHit[], expected: readonly { id: string; score: number; relevance: number }[]): void {
  expect(actual.map((hit) => hit.id).length).toBe(expected.length);
  actual.forEach((hit, i) => {
    const want = expected[i]!;
    expect(Math.abs(hit.score - want.score)).toBeLessThan(1e-5);
    if (hit.id !== want.id) {
      const same = expected.find((entry) => entry.id === hit.id);
      expect(same && Math.abs(same.score - want.score) < 1e-6, `hit ${i}: ${hit.id} instead of ${want.id}`).toBe(true);
    } else {
      expect(Math.abs(hit.relevance - want.relevance)).toBeLessThan(1e-5);
    }
  });
}

const KERNELS: { name: string; options: { codes?: 'f32'; kernel?: 'js'; exactCopy?: false } }[] = [
  { name: 'wasm-simd, 8-bit codes', options: {} },
  { name: 'wasm-simd, 8-bit codes without the f32 copy', options: { exactCopy: false } },
  { name: 'wasm-simd, f32', options: { codes: 'f32' } },
  { name: 'js', options: { kernel: 'js' } },
];

/** The scan with its exact re-rank (8-bit codes) from the rows' own vectors, as the store would give them. */
function scanOf(compute: ReturnType<typeof createCompute>, scan: ScanRequest, ...partitions: (readonly Row[])[]): ScanHit[] {
  return scanWithVectors(compute, scan, new Map(partitions.flat().map((row) => [row.id, row.vector])));
}

/** What the sweep keeps of a neighbour list: exact similarity ≥ threshold, most similar first, at most `limit`. */
function exactNeighbours(ids: readonly string[], rows: readonly Row[], query: Float32Array, threshold: number, limit = Number.POSITIVE_INFINITY): string[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const similarity = (id: string) => byId.get(id)!.vector.reduce((sum, value, j) => sum + value * query[j]!, 0);
  return ids
    .filter((id) => similarity(id) >= threshold)
    .sort((a, b) => similarity(b) - similarity(a))
    .slice(0, limit);
}

function request(query: Float32Array, partitions: string[], overrides: Partial<ScanRequest> = {}): ScanRequest {
  return { partitions, query, now: NOW, weights: WEIGHTS, k: 10, scopes: ['user', 'session', 'app'], sessionId: 's1', ...overrides };
}

describe('loadKernelModule', () => {
  it('compiles the shipped WASM SIMD kernel under Node 20', () => {
    expect(loadKernelModule()).toBeInstanceOf(WebAssembly.Module);
    expect(createCompute().stats().kernel).toBe('wasm-simd');
    expect(createCompute({ kernel: 'js' }).stats().kernel).toBe('js');
  });
});

describe.each(KERNELS)('scan ($name)', ({ options }) => {
  it.each([
    { n: 1, dim: 8 },
    { n: 2, dim: 17 },
    { n: 7, dim: 31 },
    { n: 37, dim: 20 },
    { n: 1030, dim: 384 },
    { n: 500, dim: 256 },
    { n: 3000, dim: 100 },
  ])('returns the exact top-k for n=$n dim=$dim', ({ n, dim }) => {
    const random = createRandom(n * 7 + dim);
    const rows = randomRows(random, n, dim);
    const compute = createCompute(options);
    compute.loadPartition('p', 1, dim, toIndexRows(rows, dim));
    for (let q = 0; q < 5; q++) {
      for (const k of [1, 5, 10]) {
        const scan = request(unit(random, dim), ['p'], { k });
        expectExactTopK(scanOf(compute, scan, rows), bruteForce([rows], scan));
      }
    }
  });

  it('returns every visible row when k > n, best first', () => {
    const random = createRandom(3);
    const rows = randomRows(random, 12, 16);
    const compute = createCompute(options);
    compute.loadPartition('p', 1, 16, toIndexRows(rows, 16));
    const scan = request(unit(random, 16), ['p'], { k: 1000 });
    const expected = bruteForce([rows], scan);
    expect(expected.length).toBeLessThan(12);
    expectExactTopK(scanOf(compute, scan, rows), expected);
  });

  it('returns nothing for empty, unknown or k=0 partitions', () => {
    const compute = createCompute(options);
    compute.loadPartition('empty', 1, 16, toIndexRows([], 16));
    const query = unit(createRandom(1), 16);
    expect(scanOf(compute, request(query, ['empty', 'missing']))).toEqual([]);
    const rows = randomRows(createRandom(2), 5, 16);
    compute.loadPartition('p', 1, 16, toIndexRows(rows, 16));
    expect(scanOf(compute, request(query, ['p'], { k: 0 }), rows)).toEqual([]);
  });

  it('keeps the earlier row on exact ties', () => {
    const random = createRandom(9);
    const shared = unit(random, 32);
    const rows = randomRows(random, 40, 32).map((row) => ({ ...row, vector: shared, updatedAt: NOW, importance: 0.5, halfLifeDays: 30, scope: 'user' as const, sessionId: '' }));
    const compute = createCompute(options);
    compute.loadPartition('p', 1, 32, toIndexRows(rows, 32));
    const hits = scanOf(compute, request(unit(random, 32), ['p'], { k: 7 }), rows);
    expect(hits.map((hit) => hit.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
  });

  it('filters scopes and sessions before ranking, across two partitions', () => {
    const random = createRandom(11);
    // Sizes that leave a part block of four at the end (the 8-bit kernel filters a block at a time).
    const own = randomRows(random, 401, 64, 'u');
    const app = randomRows(random, 103, 64, 'a').map((row) => ({ ...row, scope: 'app' as const, sessionId: '' }));
    const compute = createCompute(options);
    compute.loadPartition('own', 1, 64, toIndexRows(own, 64));
    compute.loadPartition('app', 1, 64, toIndexRows(app, 64));
    const cases: Partial<ScanRequest>[] = [
      { scopes: ['user'] },
      { scopes: ['session'], sessionId: 's2' },
      { scopes: ['user', 'session', 'app'], sessionId: 's0' },
      { scopes: ['user', 'session'], sessionId: 'never-seen' },
      { scopes: ['session'] },
      { scopes: ['app'] },
    ];
    for (const overrides of cases) {
      const { sessionId, ...rest } = overrides;
      const scan = { ...request(unit(random, 64), ['own', 'app'], { ...rest, k: 15 }), ...(sessionId !== undefined ? { sessionId } : {}) };
      if (sessionId === undefined) delete scan.sessionId;
      const hits = scanOf(compute, scan, own, app);
      expectExactTopK(hits, bruteForce([own, app], scan));
      for (const hit of hits) {
        const row = [...own, ...app].find((candidate) => candidate.id === hit.id)!;
        expect(scan.scopes).toContain(row.scope);
        if (row.scope === 'session') expect(row.sessionId).toBe(scan.sessionId);
      }
    }
  });

  it('stays exact through upserts, swap-removes and growth', () => {
    const random = createRandom(21);
    const dim = 48;
    let rows = randomRows(random, 50, dim);
    const compute = createCompute(options);
    compute.loadPartition('p', 1, dim, toIndexRows(rows, dim));
    let version = 1;
    for (let step = 0; step < 30; step++) {
      const removed = rows.filter(() => random() < 0.1).map((row) => row.id);
      const changed = rows.filter((row) => random() < 0.05 && !removed.includes(row.id)).map((row) => ({ ...row, vector: unit(random, dim), importance: random() }));
      const added = randomRows(random, 20, dim, `n${step}_`);
      expect(compute.applyChanges('p', version, version + 1, toIndexRows([...changed, ...added], dim), removed)).toBe(true);
      version++;
      const byId = new Map(rows.filter((row) => !removed.includes(row.id)).map((row) => [row.id, row]));
      for (const row of [...changed, ...added]) byId.set(row.id, row);
      rows = [...byId.values()];
      const scan = request(unit(random, dim), ['p'], { k: 10 });
      expectExactTopK(scanOf(compute, scan, rows), bruteForce([rows], scan));
    }
    expect(compute.stats().rows).toBe(rows.length);
  });
});

describe.each(KERNELS)('neighbours ($name)', ({ options }) => {
  it('returns exactly the rows of the scope at or above the threshold, per query', () => {
    const random = createRandom(5);
    const dim = 40;
    const rows = randomRows(random, 700, dim);
    const compute = createCompute(options);
    compute.loadPartition('p', 1, dim, toIndexRows(rows, dim));
    // 20 queries: more than one kernel batch; half of them copies of stored rows.
    const queries = Array.from({ length: 20 }, (_, i) => (i % 2 ? rows[i * 13]!.vector : unit(random, dim)));
    const threshold = 0.2;
    const got = compute.neighbours('p', queries, threshold, 'user');
    queries.forEach((query, q) => {
      const want = rows
        .filter((row) => row.scope === 'user')
        .filter((row) => row.vector.reduce((sum, value, j) => sum + value * query[j]!, 0) >= threshold)
        .map((row) => row.id);
      // 8-bit codes may add rows within their error bound of the threshold; the exact sweep drops them.
      expect(new Set(exactNeighbours(got[q]!, rows, query, threshold))).toEqual(new Set(want));
      if (options.codes === 'f32' || options.kernel === 'js') expect(new Set(got[q])).toEqual(new Set(want));
    });
  });

  it('returns the limit most similar rows, most similar first, when a limit is given', () => {
    const random = createRandom(6);
    const dim = 40;
    const rows = randomRows(random, 500, dim);
    const compute = createCompute(options);
    compute.loadPartition('p', 1, dim, toIndexRows(rows, dim));
    const query = rows[3]!.vector;
    const similarity = (row: (typeof rows)[number]) => row.vector.reduce((sum, value, j) => sum + value * query[j]!, 0);
    const want = rows
      .filter((row) => row.scope === 'user' && similarity(row) >= 0)
      .sort((a, b) => similarity(b) - similarity(a))
      .slice(0, 7)
      .map((row) => row.id);
    const [got] = compute.neighbours('p', [query], 0, 'user', 7);
    expect(exactNeighbours(got!, rows, query, 0, 7)).toEqual(want);
    if (options.codes === 'f32' || options.kernel === 'js') expect(got).toEqual(want);
  });

  it('spends the limit on the named session’s rows for session scope, not on other sessions’ near-alike ones', () => {
    const random = createRandom(9);
    const dim = 40;
    const query = unit(random, dim);
    const near = (spread: number) => {
      const noise = unit(random, dim);
      const vector = query.map((value, j) => value + spread * noise[j]!);
      const norm = Math.hypot(...vector);
      return vector.map((value) => value / norm);
    };
    const base = { updatedAt: NOW, halfLifeDays: 30, importance: 0.5, scope: 'session' as const };
    // 40 rows of other sessions closer to the query than any of the session's own three.
    const others = Array.from({ length: 40 }, (_, i) => ({ ...base, id: `o${i}`, vector: near(0.05), sessionId: `other${i % 5}` }));
    const mine = Array.from({ length: 3 }, (_, i) => ({ ...base, id: `m${i}`, vector: near(0.4 + 0.1 * i), sessionId: 'mine' }));
    const rows = [...others, ...mine];
    const compute = createCompute(options);
    compute.loadPartition('p', 1, dim, toIndexRows(rows, dim));
    const [got] = compute.neighbours('p', [query], 0.3, 'session', 32, 'mine');
    expect(exactNeighbours(got!, rows, query, 0.3)).toEqual(exactNeighbours(['m0', 'm1', 'm2'], rows, query, 0.3));
    expect(got!.every((id) => id.startsWith('m'))).toBe(true);
    // Any session: the 32 slots go to the closest rows, none of them the session's.
    const [any] = compute.neighbours('p', [query], 0.3, 'session', 32);
    expect(exactNeighbours(any!, rows, query, 0.3, 32).some((id) => id.startsWith('m'))).toBe(false);
  });
});

describe('exportPartition', () => {
  it('returns the loaded rows in chunks that reload to the same scan', () => {
    const random = createRandom(8);
    const rows = randomRows(random, 300, 24);
    const compute = createCompute({ codes: 'f32' });
    compute.loadPartition('p', 4, 24, toIndexRows(rows, 24));
    const exported = compute.exportPartition('p', 128)!;
    expect(exported.version).toBe(4);
    expect(exported.chunks.map((chunk) => chunk.ids.length)).toEqual([128, 128, 44]);
    const copy = createCompute({ kernel: 'js' });
    copy.loadPartition('p', 4, 24, exported.chunks[0]!, 300);
    for (const chunk of exported.chunks.slice(1)) expect(copy.applyChanges('p', 4, 4, chunk, [])).toBe(true);
    const scan = request(unit(random, 24), ['p'], { k: 20 });
    expect(scanOf(copy, scan, rows).map((hit) => hit.id)).toEqual(scanOf(compute, scan, rows).map((hit) => hit.id));
    expect(compute.exportPartition('missing', 128)).toBeNull();
  });
});
