import { describe, expect, it } from 'vitest';
import { createRandom } from '../helpers/random';
import { SCOPE_CODE, type IndexRows, type ScanRequest } from '../../src/worker/api';
import { createCompute } from '../../src/worker/compute';
import { quantiseQuery } from '../../src/worker/quantised';
import { loadKernelModule } from '../../src/worker/wasm-kernel';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);
const WEIGHTS = { relevance: 0.6, recency: 0.25, importance: 0.15 };

function normalised(vector: Float32Array): Float32Array {
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** `n` unit rows; with `clustered`, all near one direction so scores crowd together (the re-rank must widen). */
function randomRows(random: () => number, n: number, dim: number, clustered = false): IndexRows {
  const centre = Float32Array.from({ length: dim }, () => random() - 0.5);
  const vectors = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const row = Float32Array.from({ length: dim }, (_, j) => (clustered ? centre[j]! + 0.02 * (random() - 0.5) : random() - 0.5));
    vectors.set(normalised(row), i * dim);
  }
  return {
    ids: Array.from({ length: n }, (_, i) => `m${i}`),
    vectors,
    updatedAt: Float64Array.from({ length: n }, () => NOW - Math.floor(random() * 300) * DAY),
    halfLifeDays: Float32Array.from({ length: n }, () => 5 + random() * 300),
    importance: Float32Array.from({ length: n }, () => random()),
    scopes: new Uint8Array(n).fill(SCOPE_CODE.user),
    sessionIds: new Array<string>(n).fill(''),
  };
}

function request(query: Float32Array, k: number): ScanRequest {
  return { partitions: ['p'], query, now: NOW, weights: WEIGHTS, k, scopes: ['user'] };
}

describe.runIf(loadKernelModule() !== null)('createCompute (8-bit codes)', () => {
  for (const dim of [256, 384]) {
    for (const clustered of [false, true]) {
      it(`returns the f32 top-k after the exact re-rank when rows are ${clustered ? 'clustered' : 'random'}, dim=${dim}`, () => {
        const random = createRandom(dim + (clustered ? 1 : 0));
        const rows = randomRows(random, 3000, dim, clustered);
        const codes = createCompute({ codes: 'i8' });
        const exact = createCompute({ codes: 'f32' });
        codes.loadPartition('p', 1, dim, rows);
        exact.loadPartition('p', 1, dim, rows);
        expect(codes.stats().codes).toBe('i8');
        for (let q = 0; q < 12; q++) {
          const query = normalised(Float32Array.from({ length: dim }, (_, j) => (clustered ? rows.vectors[j]! : 0) + random() - 0.5));
          const k = [1, 10, 50][q % 3]!;
          const got = codes.scan(request(query, k));
          const want = exact.scan(request(query, k));
          expect(got.map((hit) => hit.id)).toEqual(want.map((hit) => hit.id));
          got.forEach((hit, i) => expect(hit.score).toBeCloseTo(want[i]!.score, 9));
        }
      });
    }
  }

  it('finds the same neighbours as the f32 rows when the codes are near the threshold', () => {
    const random = createRandom(7);
    const rows = randomRows(random, 2000, 256, true);
    const codes = createCompute({ codes: 'i8' });
    const exact = createCompute({ codes: 'f32' });
    codes.loadPartition('p', 1, 256, rows);
    exact.loadPartition('p', 1, 256, rows);
    const queries = [0, 5, 9].map((row) => rows.vectors.slice(row * 256, (row + 1) * 256));
    for (const threshold of [0.99, 0.995, 0.999]) {
      expect(codes.neighbours('p', queries, threshold, 'user')).toEqual(exact.neighbours('p', queries, threshold, 'user'));
    }
  });

  it('holds the scan in at most 0.35 of the f32 bytes when the partition is large', () => {
    const rows = randomRows(createRandom(3), 20_000, 256);
    const codes = createCompute({ codes: 'i8' });
    const exact = createCompute({ codes: 'f32' });
    codes.loadPartition('p', 1, 256, rows);
    exact.loadPartition('p', 1, 256, rows);
    expect(codes.stats().bytes / exact.stats().bytes).toBeLessThanOrEqual(0.35);
    expect(codes.stats().exactBytes).toBe(20_000 * 256 * 4);
    expect(exact.stats().exactBytes).toBe(0);
  });
});

describe('quantiseQuery', () => {
  it('bounds the error of its codes by the reported norm when the query is random', () => {
    const random = createRandom(1);
    const query = normalised(Float32Array.from({ length: 384 }, () => random() - 0.5));
    const { codes, scale, error, norm } = quantiseQuery(query, 384);
    const residual = Math.sqrt(query.reduce((sum, value, j) => sum + (value - codes[j]! * scale) ** 2, 0));
    expect(residual).toBeLessThanOrEqual(error);
    expect(norm).toBeCloseTo(1, 6);
    expect(Math.max(...codes.map(Math.abs))).toBe(32_767);
  });
});
