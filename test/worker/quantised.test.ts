import { describe, expect, it, vi } from 'vitest';
import { createRandom } from '../helpers/random';
import { SCOPE_CODE, type IndexRows, type ScanRequest } from '../../src/worker/api';
import { createCompute } from '../../src/worker/compute';
import { finishScan, readOrder, scanWithVectors, vectorsOfRows } from '../../src/worker/exact';
import { RowMatrix } from '../../src/worker/matrix';
import { packQuery, quantiseQuery } from '../../src/worker/quantised';
import { SPARSE_SCAN_ROWS } from '../../src/worker/kernel';
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

/** An 8-bit compute holding 256-d `rows` as partition 'p', and those rows' f32 vectors by id (what the store would read). */
function loadCodes(rows: IndexRows) {
  const codes = createCompute({ codes: 'i8', exactCopy: false });
  codes.loadPartition('p', 1, 256, rows);
  return { codes, all: vectorsOfRows(rows, 256) };
}

/** A 256-d query near the first row (its vector plus noise), normalised. */
function queryNearFirstRow(rows: IndexRows, random: () => number): Float32Array {
  return normalised(Float32Array.from({ length: 256 }, (_, j) => rows.vectors[j]! + random() - 0.5));
}

/** What an 8-bit scan hands the store to re-rank (it always answers with candidates). */
function scanCandidates(codes: ReturnType<typeof createCompute>, query: Float32Array, k: number) {
  const result = codes.scan(request(query, k));
  if (!('candidates' in result)) throw new Error('an 8-bit scan returns candidates');
  return result.candidates;
}

describe.runIf(loadKernelModule() !== null)('createCompute (8-bit codes)', () => {
  for (const dim of [256, 384]) {
    for (const clustered of [false, true]) {
      it(`returns the f32 top-k after the exact re-rank when rows are ${clustered ? 'clustered' : 'random'}, dim=${dim}`, () => {
        const random = createRandom(dim + (clustered ? 1 : 0));
        const rows = randomRows(random, 3000, dim, clustered);
        const codes = createCompute({ codes: 'i8', exactCopy: false });
        const exact = createCompute({ codes: 'f32' });
        codes.loadPartition('p', 1, dim, rows);
        exact.loadPartition('p', 1, dim, rows);
        expect(codes.stats().codes).toBe('i8');
        for (let q = 0; q < 12; q++) {
          const query = normalised(Float32Array.from({ length: dim }, (_, j) => (clustered ? rows.vectors[j]! : 0) + random() - 0.5));
          const k = [1, 10, 50][q % 3]!;
          const got = scanWithVectors(codes, request(query, k), vectorsOfRows(rows, dim));
          const want = scanWithVectors(exact, request(query, k), new Map());
          expect(got.map((hit) => hit.id)).toEqual(want.map((hit) => hit.id));
          got.forEach((hit, i) => expect(hit.score).toBeCloseTo(want[i]!.score, 9));
        }
      });
    }
  }

  it('re-ranks in the scan call from its f32 copy: the same hits as the store’s re-rank, through writes and removals, the copy counted in its bytes', () => {
    const dim = 256;
    const random = createRandom(5);
    const rows = randomRows(random, 3000, dim, true);
    const inCompute = createCompute({ codes: 'i8' });
    const fromStore = createCompute({ codes: 'i8', exactCopy: false });
    for (const compute of [inCompute, fromStore]) compute.loadPartition('p', 1, dim, rows);
    expect(inCompute.stats().bytes - fromStore.stats().bytes).toBe(3000 * dim * 4);
    const vectors = vectorsOfRows(rows, dim);
    const check = () => {
      for (let q = 0; q < 6; q++) {
        const query = normalised(Float32Array.from({ length: dim }, (_, j) => rows.vectors[j]! + random() - 0.5));
        const k = [1, 10, 50][q % 3]!;
        const answer = inCompute.scan(request(query, k));
        if (!('hits' in answer)) throw new Error('an 8-bit scan with its f32 copy answers with hits');
        const want = scanWithVectors(fromStore, request(query, k), vectors);
        expect(answer.hits).toEqual(want);
      }
    };
    check();
    // Removals swap the last row into the hole; an upsert rewrites a row: the copy follows both.
    const moved = randomRows(random, 1, dim, true);
    moved.ids[0] = 'm7';
    for (const compute of [inCompute, fromStore]) expect(compute.applyChanges('p', 1, 2, moved, ['m3', 'm10', 'm2999'])).toBe(true);
    vectors.set('m7', moved.vectors);
    for (const id of ['m3', 'm10', 'm2999']) vectors.delete(id);
    check();
  });

  it('drops the f32 copy once the rows pass its budget, and the scan hands back candidates again', () => {
    // 8,192 dimensions: the 32 MiB budget is 1,024 rows.
    const dim = 8192;
    const matrix = new RowMatrix(dim, 8, loadKernelModule(), 'i8');
    const row = normalised(Float32Array.from({ length: dim }, (_, j) => Math.sin(j)));
    for (let i = 0; i < 1024; i++) matrix.writeVector(i, row);
    expect(matrix.hasExactRows).toBe(true);
    expect(matrix.exactRow(1023)).toEqual(row);
    matrix.writeVector(1024, row);
    expect(matrix.hasExactRows).toBe(false);
    expect(() => matrix.exactRow(0)).toThrow(RangeError);
    const big = createCompute({ codes: 'i8' });
    big.loadPartition('p', 1, dim, randomRows(createRandom(9), 1025, dim));
    expect('candidates' in big.scan(request(row, 5))).toBe(true);
  });

  it('proves the top k on the first pass when rows are random (the error bound stays tight)', () => {
    for (const dim of [256, 384]) {
      const random = createRandom(dim * 3);
      const rows = randomRows(random, 4000, dim);
      const codes = createCompute({ codes: 'i8', exactCopy: false });
      codes.loadPartition('p', 1, dim, rows);
      let passes = 0;
      const counted = { scan: (scan: ScanRequest) => (passes++, codes.scan(scan)) };
      for (let q = 0; q < 20; q++) scanWithVectors(counted, request(normalised(Float32Array.from({ length: dim }, () => random() - 0.5)), 10), vectorsOfRows(rows, dim));
      expect(passes).toBe(20);
    }
  });

  it('returns a superset whose exact sweep equals the f32 neighbours when the codes are near the threshold or the limit', () => {
    const random = createRandom(7);
    const rows = randomRows(random, 2000, 256, true);
    const codes = createCompute({ codes: 'i8', exactCopy: false });
    const exact = createCompute({ codes: 'f32' });
    codes.loadPartition('p', 1, 256, rows);
    exact.loadPartition('p', 1, 256, rows);
    const queries = [0, 5, 9].map((row) => rows.vectors.slice(row * 256, (row + 1) * 256));
    const vectors = vectorsOfRows(rows, 256);
    // What the sweep keeps: exact similarity ≥ threshold, most similar first, the first `limit`.
    const exactly = (ids: string[], query: Float32Array, threshold: number, limit: number) => {
      const similarity = (id: string) => vectors.get(id)!.reduce((sum, value, j) => sum + value * query[j]!, 0);
      return ids
        .filter((id) => similarity(id) >= threshold)
        .sort((a, b) => similarity(b) - similarity(a))
        .slice(0, limit);
    };
    for (const threshold of [0.99, 0.995, 0.999]) {
      for (const limit of [3, 32, Number.POSITIVE_INFINITY]) {
        const got = codes.neighbours('p', queries, threshold, 'user', limit);
        const want = exact.neighbours('p', queries, threshold, 'user', limit);
        queries.forEach((query, q) => expect(exactly(got[q]!, query, threshold, limit)).toEqual(want[q]));
      }
    }
  });

  it('takes a sparse query’s dots from the codes by dimension: the same candidates and ceilings as the row-major scan, through loads in chunks, writes and removals', async () => {
    const random = createRandom(23);
    const dim = 256;
    // Rows and queries as the hash embedder makes them: a few dozen nonzero dimensions of 256.
    const sparse = (nonzero: number) => {
      const vector = new Float32Array(dim);
      for (let i = 0; i < nonzero; i++) vector[Math.floor(random() * dim)] = random() - 0.3;
      return normalised(vector);
    };
    const n = SPARSE_SCAN_ROWS + 600;
    const rows = randomRows(random, n, dim);
    for (let i = 0; i < n; i++) rows.vectors.set(sparse(45), i * dim);
    const withColumns = createCompute({ codes: 'i8', exactCopy: false });
    const rowMajor = createCompute({ codes: 'i8', exactCopy: false, sparseScan: false });
    // Loaded in chunks of codes, as a cold start loads a snapshot (writeStoredCodes).
    const source = createCompute({ codes: 'i8', exactCopy: false });
    source.loadPartition('p', 1, dim, rows);
    const chunks = source.exportPartition('p', 1000)!.chunks;
    for (const compute of [withColumns, rowMajor]) {
      compute.loadPartition('p', 1, dim, chunks[0]!, n);
      for (const chunk of chunks.slice(1)) compute.applyChanges('p', 1, 1, chunk, []);
    }
    const queries = Array.from({ length: 12 }, () => sparse(24));
    const same = () => {
      for (const query of queries) expect(scanCandidates(withColumns, query, 10)).toEqual(scanCandidates(rowMajor, query, 10));
    };
    const rowMajorBytes = rowMajor.stats().bytes;
    same();
    // The first sparse query answered from the row-major scan and left the columns to a task after it.
    expect(withColumns.stats().bytes).toBe(rowMajorBytes);
    // Rows written before that task runs are in the codes it reads.
    const early = randomRows(random, 50, dim);
    for (let i = 0; i < 50; i++) early.vectors.set(sparse(45), i * dim);
    early.ids = early.ids.map((id) => `early-${id}`);
    for (const compute of [withColumns, rowMajor]) expect(compute.applyChanges('p', 1, 2, early, [rows.ids[7]!])).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Built now: they count in the bytes compute holds, and the queries read them.
    expect(withColumns.stats().bytes).toBeGreaterThan(rowMajor.stats().bytes + n * dim * 0.9);
    same();
    // Writes after that (new rows, rewritten rows) and swap-removals keep them in step.
    const more = randomRows(random, 400, dim);
    for (let i = 0; i < 400; i++) more.vectors.set(sparse(45), i * dim);
    more.ids = more.ids.map((id, i) => (i % 2 ? `new-${id}` : rows.ids[i * 5]!));
    const removed = rows.ids.filter((_, i) => i % 97 === 3);
    for (const compute of [withColumns, rowMajor]) expect(compute.applyChanges('p', 2, 3, more, removed)).toBe(true);
    same();
    // And rows that come as codes (another tab's snapshot chunk, a log entry of codes).
    const coded = randomRows(random, 300, dim);
    for (let i = 0; i < 300; i++) coded.vectors.set(sparse(45), i * dim);
    coded.ids = coded.ids.map((id) => `coded-${id}`);
    const other = createCompute({ codes: 'i8', exactCopy: false });
    other.loadPartition('q', 1, dim, coded);
    const [chunk] = other.exportPartition('q', 300)!.chunks;
    for (const compute of [withColumns, rowMajor]) expect(compute.applyChanges('p', 3, 4, chunk!, [])).toBe(true);
    same();
    // A dense query takes the row-major scan on both.
    const dense = normalised(Float32Array.from({ length: dim }, () => random() - 0.5));
    expect(scanCandidates(withColumns, dense, 10)).toEqual(scanCandidates(rowMajor, dense, 10));
  });

  it('builds no codes by dimension for a matrix let go before its queued build runs, and compute lets go of the partitions it drops or replaces', async () => {
    const random = createRandom(29);
    const dim = 256;
    const sparse = () => {
      const vector = new Float32Array(dim);
      for (let i = 0; i < 20; i++) vector[Math.floor(random() * dim)] = random() - 0.3;
      return normalised(vector);
    };
    const n = 300;
    const [kept, retired] = [0, 1].map(() => new RowMatrix(dim, n, loadKernelModule(), 'i8'));
    for (const matrix of [kept!, retired!]) {
      for (let i = 0; i < n; i++) matrix.writeVector(i, sparse());
      matrix.dropExactCopy();
      // The first sparse query answers from the row-major scan and queues the build.
      expect(matrix.sparseDots(quantiseQuery(sparse(), matrix.stride).codes, n, () => n)).toBeNull();
    }
    const bytes = retired!.byteLength;
    retired!.retire();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(retired!.byteLength).toBe(bytes);
    expect(kept!.byteLength).toBeGreaterThan(bytes + n * dim * 0.9);

    const retire = vi.spyOn(RowMatrix.prototype, 'retire');
    try {
      const compute = createCompute({ codes: 'i8', exactCopy: false });
      compute.loadPartition('p', 1, dim, randomRows(random, 10, dim));
      expect(retire).toHaveBeenCalledTimes(0);
      compute.loadPartition('p', 2, dim, randomRows(random, 10, dim));
      expect(retire).toHaveBeenCalledTimes(1);
      compute.dropPartition('p');
      expect(retire).toHaveBeenCalledTimes(2);
    } finally {
      retire.mockRestore();
    }
  });

  it('hands back exactly the f32 neighbours where it keeps the f32 copy: none below the threshold, the limit best and their ties', () => {
    const rows = randomRows(createRandom(17), 2000, 256, true);
    const codes = createCompute({ codes: 'i8' });
    const exact = createCompute({ codes: 'f32' });
    codes.loadPartition('p', 1, 256, rows);
    exact.loadPartition('p', 1, 256, rows);
    const queries = [0, 5, 9].map((row) => rows.vectors.slice(row * 256, (row + 1) * 256));
    const vectors = vectorsOfRows(rows, 256);
    // Brute force in f64: every row at or above the threshold, most similar first, cut after the limit-th and its ties.
    const bruteForce = (query: Float32Array, threshold: number, limit: number) => {
      const ranked = rows.ids.map((id) => ({ id, similarity: vectors.get(id)!.reduce((sum, value, j) => sum + value * query[j]!, 0) })).filter(({ similarity }) => similarity >= threshold);
      ranked.sort((a, b) => b.similarity - a.similarity);
      const cut = ranked.length > limit ? ranked[limit - 1]!.similarity : Number.NEGATIVE_INFINITY;
      return ranked.filter(({ similarity }) => similarity >= cut).map(({ id }) => id);
    };
    for (const threshold of [0.99, 0.995]) {
      for (const limit of [3, 32, Number.POSITIVE_INFINITY]) {
        const got = codes.neighbours('p', queries, threshold, 'user', limit);
        queries.forEach((query, q) => expect(new Set(got[q])).toEqual(new Set(bruteForce(query, threshold, limit))));
        expect(got).toEqual(exact.neighbours('p', queries, threshold, 'user', limit));
        if (limit === 32) got.forEach((ids) => expect(ids.length).toBe(32));
      }
    }
  });

  it('cuts the neighbours it cannot rank exactly by each row’s own bound, keeping the exact best', () => {
    // Rows about a common centre at cosine 0.5–0.8 of each other, as a dense model's texts on one subject are.
    const random = createRandom(19);
    const rows = randomRows(random, 2000, 256);
    const centre = normalised(Float32Array.from({ length: 256 }, () => random() - 0.5));
    for (let i = 0; i < 2000; i++) {
      const row = rows.vectors.subarray(i * 256, (i + 1) * 256);
      row.set(normalised(row.map((value, j) => value + 1.4 * centre[j]!)));
    }
    const codes = createCompute({ codes: 'i8', exactCopy: false });
    codes.loadPartition('p', 1, 256, rows);
    const queries = [0, 5, 9].map((row) => rows.vectors.slice(row * 256, (row + 1) * 256));
    const vectors = vectorsOfRows(rows, 256);
    const got = codes.neighbours('p', queries, 0.6, 'user', 32);
    const above = codes.neighbours('p', queries, 0.6, 'user');
    queries.forEach((query, q) => {
      const similarity = (id: string) => vectors.get(id)!.reduce((sum, value, j) => sum + value * query[j]!, 0);
      const best = [...above[q]!].sort((a, b) => similarity(b) - similarity(a)).slice(0, 32);
      // Sound: the exact 32 best are there; tight: of the ~2,000 rows above the threshold, under 14% (10–13.5% here; the cut by the largest error, not each row’s, kept 14.1%, 11.2% and 15.2% of these three).
      expect(got[q]).toEqual(expect.arrayContaining(best));
      expect(got[q]!.length).toBeLessThan(above[q]!.length * 0.14);
    });
  });

  it('tests each row against its own error bound, so one badly quantised row does not widen every row’s neighbour band', () => {
    const random = createRandom(11);
    const rows = randomRows(random, 2000, 256);
    // One spiky row (a large component, the rest tiny): its codes are coarse, its error the matrix's largest.
    rows.vectors.set(normalised(Float32Array.from({ length: 256 }, (_, j) => (j === 0 ? 1 : 0.011 * (random() - 0.5)))), 0);
    const codes = createCompute({ codes: 'i8', exactCopy: false });
    codes.loadPartition('p', 1, 256, rows);
    const vectors = vectorsOfRows(rows, 256);
    const query = rows.vectors.slice(256, 512);
    const similarity = (id: string) => vectors.get(id)!.reduce((sum, value, j) => sum + value * query[j]!, 0);
    const threshold = 0.06;
    const got = codes.neighbours('p', [query], threshold, 'user')[0]!;
    const above = rows.ids.filter((id) => similarity(id) >= threshold);
    // Sound: every row at or above the threshold is there; tight: few below it are.
    expect(got).toEqual(expect.arrayContaining(above));
    expect(got.length - above.length).toBeLessThan(above.length * 0.25);
  });

  it('holds the scan in at most 0.35 of the f32 bytes when the partition is large', () => {
    const rows = randomRows(createRandom(3), 20_000, 256);
    const codes = createCompute({ codes: 'i8', exactCopy: false });
    const exact = createCompute({ codes: 'f32' });
    codes.loadPartition('p', 1, 256, rows);
    exact.loadPartition('p', 1, 256, rows);
    // No f32 copy anywhere in compute: the codes, the columns and the lexical index are all it holds.
    expect(codes.stats().bytes / exact.stats().bytes).toBeLessThanOrEqual(0.35);
    expect(codes.stats().bytes).toBeLessThan(20_000 * 256 * 4 * 0.35);
  });

  it('drops candidates the store no longer holds and asks for more when the rest cannot prove the top k', () => {
    const random = createRandom(12);
    const rows = randomRows(random, 500, 256, true);
    const { codes, all } = loadCodes(rows);
    const query = queryNearFirstRow(rows, random);
    const candidates = scanCandidates(codes, query, 5);
    const hits = finishScan(request(query, 5), candidates, all);
    const best = hits![0]!.id;
    // Without the best row's vector (tombstoned since the scan) it is not returned.
    const without = new Map([...all].filter(([id]) => id !== best));
    const rest = finishScan(request(query, 5), candidates, without) ?? scanWithVectors(codes, request(query, 5), without);
    expect(rest.map((hit) => hit.id)).not.toContain(best);
    // With no vectors at all nothing is proven while rows are left out: the caller must scan again with more.
    expect(finishScan(request(query, 5), candidates, new Map())).toBeNull();
    expect(candidates.ceilings[0]).toBeGreaterThan(Number.NEGATIVE_INFINITY);
  });
});

describe.runIf(loadKernelModule() !== null)('8-bit codes exported and reloaded (a packed snapshot of codes)', () => {
  /** Rows exported by an 8-bit compute holding `rows`, in chunks of `chunkRows`, loaded into a fresh one as a cold start streams them. */
  function reloaded(rows: IndexRows, chunkRows: number) {
    const { codes: source } = loadCodes(rows);
    const exported = source.exportPartition('p', chunkRows)!;
    const copy = createCompute({ codes: 'i8' });
    const [first, ...rest] = exported.chunks;
    expect(copy.loadPartition('p', -1, 256, first!, rows.ids.length)).toBe(true);
    for (const chunk of rest) expect(copy.applyChanges('p', -1, -1, chunk, [])).toBe(true);
    expect(
      copy.applyChanges(
        'p',
        -1,
        exported.version,
        {
          ids: [],
          vectors: new Float32Array(0),
          updatedAt: new Float64Array(0),
          halfLifeDays: new Float32Array(0),
          importance: new Float32Array(0),
          scopes: new Uint8Array(0),
          sessionIds: [],
          terms: new Uint32Array(0),
          termOffsets: new Uint32Array([0]),
        },
        [],
      ),
    ).toBe(true);
    return { source, copy, exported };
  }

  for (const chunkRows of [1024, 333]) {
    it(`reload with the same candidates, ceilings and top k as the compute that quantised them, in chunks of ${chunkRows} rows`, () => {
      const random = createRandom(chunkRows);
      const rows = randomRows(random, 2003, 256, true);
      const { source, copy, exported } = reloaded(rows, chunkRows);
      expect(exported.chunks.every((chunk) => chunk.codes !== undefined && chunk.vectors.length === 0)).toBe(true);
      for (let q = 0; q < 5; q++) {
        const query = queryNearFirstRow(rows, random);
        expect(scanCandidates(copy, query, 10)).toEqual(scanCandidates(source, query, 10));
        expect(scanWithVectors(copy, request(query, 10), vectorsOfRows(rows, 256))).toEqual(scanWithVectors(source, request(query, 10), vectorsOfRows(rows, 256)));
      }
      expect(copy.neighbours('p', [rows.vectors.slice(0, 256)], 0.9, 'user')).toEqual(source.neighbours('p', [rows.vectors.slice(0, 256)], 0.9, 'user'));
    });
  }

  it('export no codes of a removed row, even from the block its last row shared', () => {
    const rows = randomRows(createRandom(3), 9, 256);
    const { codes } = loadCodes(rows);
    expect(codes.applyChanges('p', 1, 2, randomRows(createRandom(4), 0, 256), ['m8'])).toBe(true);
    const [chunk] = codes.exportPartition('p', 100)!.chunks;
    // 8 rows fill two blocks exactly; with one more removed, the third row of block two is empty.
    expect(codes.applyChanges('p', 2, 3, randomRows(createRandom(4), 0, 256), ['m7'])).toBe(true);
    const [after] = codes.exportPartition('p', 100)!.chunks;
    expect(chunk!.codes!.bytes.length).toBe(8 * 256);
    expect(after!.codes!.bytes.length).toBe(8 * 256);
    const rowBytes = (bytes: Int8Array, row: number) => Array.from({ length: 16 }, (_, block) => [...bytes.subarray(4 * 256 + block * 64 + row * 16, 4 * 256 + block * 64 + row * 16 + 16)]).flat();
    expect(rowBytes(after!.codes!.bytes, 3).every((byte) => byte === 0)).toBe(true);
    expect(rowBytes(chunk!.codes!.bytes, 3).some((byte) => byte !== 0)).toBe(true);
  });

  it('are refused by an f32 compute, which then holds nothing for the partition', () => {
    const rows = randomRows(createRandom(5), 40, 256);
    const { codes } = loadCodes(rows);
    const [chunk] = codes.exportPartition('p', 100)!.chunks;
    const exact = createCompute({ codes: 'f32' });
    expect(exact.loadPartition('p', 1, 256, chunk!)).toBe(false);
    expect(exact.partitionVersion('p')).toBe(-1);
    exact.loadPartition('p', 1, 256, rows);
    expect(exact.applyChanges('p', 1, 2, chunk!, [])).toBe(false);
    expect(exact.partitionVersion('p')).toBe(-1);
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
    expect(Math.max(...codes.map(Math.abs))).toBe(127);
  });
});

describe('packQuery', () => {
  /** The kernel's code dot (times the row's scale) of each row with each query, through dots8 on a real 8-bit matrix. */
  function kernelDots(rows: Float32Array[], queries: Int16Array[], dim: number): number[][] {
    const matrix = new RowMatrix(dim, rows.length, loadKernelModule(), 'i8');
    rows.forEach((row, i) => matrix.writeVector(i, row));
    return matrixDots(matrix, rows.length, queries);
  }

  function matrixDots(matrix: RowMatrix, n: number, queries: Int16Array[]): number[][] {
    const stride = matrix.stride;
    const rows = { length: n };
    const blocks = Math.ceil(rows.length / 4) * 4;
    const correctionsAt = matrix.scratch(queries.length * (4 + stride * 2) + blocks * queries.length * 4);
    const queriesAt = correctionsAt + queries.length * 4;
    const outAt = queriesAt + queries.length * stride * 2;
    queries.forEach((codes, q) => {
      const { packed, correction } = packQuery(codes, stride);
      new Int16Array(matrix.buffer, queriesAt + q * stride * 2, stride).set(packed);
      new Int32Array(matrix.buffer, correctionsAt, queries.length)[q] = correction;
    });
    matrix.kernel!.dots8(0, rows.length, stride, queriesAt, correctionsAt, queries.length, outAt, matrix.offsetOf('scales'));
    const out = new Float32Array(matrix.buffer, outAt, blocks * queries.length);
    return Array.from(rows, (_, i) => queries.map((_, q) => out[q * blocks + i]!));
  }

  it.runIf(loadKernelModule() !== null)('keeps each row within its own error bound, also where a swap-remove moved a coarse row onto a fine one', () => {
    const random = createRandom(12);
    const dim = 32;
    const smooth = () => normalised(Float32Array.from({ length: dim }, () => random() - 0.5));
    const spiky = () => normalised(Float32Array.from({ length: dim }, (_, j) => (j === 0 ? 1 : 0.011 * (random() - 0.5))));
    const rows = [smooth(), smooth(), smooth(), smooth(), smooth(), smooth(), spiky(), spiky()];
    const matrix = new RowMatrix(dim, rows.length, loadKernelModule(), 'i8');
    rows.forEach((row, i) => matrix.writeVector(i, row));
    // The partition's swap-removes: the last rows move into the holes left by rows 1 and 3.
    matrix.moveVector(7, 1);
    matrix.moveVector(6, 3);
    const held = [rows[0]!, rows[7]!, rows[2]!, rows[6]!, rows[4]!, rows[5]!];
    // Each held row's codes, read back through the kernel with one basis query per dimension.
    const basis = Array.from({ length: dim }, (_, j) => Int16Array.from({ length: dim }, (_, i) => (i === j ? 127 : 0)));
    const decoded = matrixDots(matrix, held.length, basis).map((dots) => dots.map((value) => value / 127));
    held.forEach((row, r) => {
      // The worst query for this row: the signs of its code error (±1, quantised exactly).
      const signs = Float32Array.from(row, (value, j) => (value - decoded[r]![j]! >= 0 ? 1 : -1));
      const query = quantiseQuery(signs, matrix.stride);
      const exact = row.reduce((sum, value, j) => sum + value * signs[j]!, 0);
      const [code] = matrixDots(matrix, held.length, [query.codes])[r]!;
      const off = Math.abs(exact - code! * query.scale);
      const bound = matrix.rowQuantisationError(r, query.norm, query.error);
      expect(off).toBeLessThanOrEqual(bound + 1e-5);
      // Close to tight here, so a bound half as wide would fail.
      expect(off).toBeGreaterThan(0.5 * bound);
    });
  });

  it.runIf(loadKernelModule() !== null)('gives the exact integer dot of the codes when codes are extreme and the row count is not a multiple of four', () => {
    const random = createRandom(4);
    for (const dim of [1, 17, 255, 1000]) {
      // Rows of ±1 and 0 quantise to codes ±127 and 0 exactly (scale 1/127).
      const rows = Array.from({ length: 7 }, (_, i) => Float32Array.from({ length: dim }, (_, j) => (i === 0 ? 1 : i === 1 ? (j % 2 ? 1 : -1) : [1, -1, 0][Math.floor(random() * 3)]!)));
      const queries = [Int16Array.from({ length: dim }, () => 127), Int16Array.from({ length: dim }, (_, j) => (j % 2 ? -127 : 127)), Int16Array.from({ length: dim }, () => Math.floor(random() * 255) - 127)];
      // Integer dots below 2^24 are exact in f32, so the kernel's f32 product with the scale is too.
      const scale = Math.fround(1 / 127);
      const want = rows.map((row) => queries.map((query) => (row.some((value) => value !== 0) ? Math.fround(row.reduce((sum, value, j) => sum + Math.round(value * 127) * query[j]!, 0) * scale) : 0)));
      expect(kernelDots(rows, queries, dim)).toEqual(want);
    }
  });
  it('bounds each candidate by its ceiling: no exact score above it', () => {
    const random = createRandom(21);
    const rows = randomRows(random, 2_000, 256, true);
    const { codes, all } = loadCodes(rows);
    for (let q = 0; q < 10; q++) {
      const query = queryNearFirstRow(rows, random);
      const { candidates, dense } = scanCandidates(codes, query, 10);
      for (const candidate of candidates) {
        const vector = all.get(candidate.id)!;
        let cosine = 0;
        for (let j = 0; j < 256; j++) cosine += vector[j]! * query[j]!;
        expect(dense * cosine + candidate.rest).toBeLessThanOrEqual(candidate.ceiling);
      }
    }
  });

  it('proves the top k from the candidates with the highest ceilings, leaving the rest unread, with the same hits as reading all', () => {
    const random = createRandom(22);
    const rows = randomRows(random, 5_000, 256);
    const { codes, all } = loadCodes(rows);
    let provenEarly = 0;
    for (let q = 0; q < 20; q++) {
      const query = normalised(Float32Array.from({ length: 256 }, () => random() - 0.5));
      const candidates = scanCandidates(codes, query, 10);
      const full = finishScan(request(query, 10), candidates, all);
      const { order, first } = readOrder(candidates, 10);
      expect(first).toBeLessThan(order.length);
      const read = new Map(order.slice(0, first).map(({ id }) => [id, all.get(id)!]));
      const early = finishScan(request(query, 10), candidates, read, order.slice(first));
      if (early) {
        provenEarly++;
        expect(early.map((hit) => hit.id)).toEqual(full!.map((hit) => hit.id));
      }
    }
    expect(provenEarly).toBeGreaterThan(10);
  });

  it('proves nothing while an unread candidate could still beat the k-th', () => {
    const random = createRandom(23);
    const rows = randomRows(random, 1_000, 256, true);
    const { codes, all } = loadCodes(rows);
    const query = queryNearFirstRow(rows, random);
    const candidates = scanCandidates(codes, query, 5);
    const { order } = readOrder(candidates, 5);
    // The best candidate by ceiling left unread: the five read below it cannot be proven the top five.
    const read = new Map(order.slice(1, 6).map(({ id }) => [id, all.get(id)!]));
    expect(finishScan(request(query, 5), candidates, read, [order[0]!])).toBeNull();
  });
});
