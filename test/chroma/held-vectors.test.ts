/**
 * The neighbours matrix of a held partition (held-vectors.ts) against a float64 scan written
 * here: the same ids in the same order for every query, at a threshold that one row's cosine
 * meets exactly (the float32 kernel must not lose it), with tombstones, other scopes, another
 * embedder, a wrong length and a zero vector among the rows, and after rows are replaced,
 * tombstoned and removed (swap-remove moves the last row into the gap).
 */
import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/index';
import { exactCosine, HeldVectors, norm, type VectorRow } from '../../src/adapters/chroma/held-vectors';
import { testRecord, unitVector } from './helpers';

const DIM = 48;
const EMBEDDER = `test-${DIM}`;

const rowOf = (record: MemoryRecord): VectorRow => ({ record, norm: norm(record.embedding) });

/** Which rows the plain scan finds: f64 cosines, the filter, ties by id. */
function reference(rows: Iterable<VectorRow>, query: Float32Array, threshold: number, scope: MemoryRecord['scope'], limit: number): string[] {
  const queryNorm = norm(query);
  const found: { id: string; cosine: number }[] = [];
  for (const row of rows) {
    const { record } = row;
    if (record.invalidatedAt !== undefined || record.scope !== scope || record.embedderId !== EMBEDDER) continue;
    const cosine = exactCosine(query, queryNorm, row);
    if (cosine >= threshold) found.push({ id: record.id, cosine });
  }
  return found
    .sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((hit) => hit.id);
}

/** A vector near `seed`'s unit vector (so rows cluster and many pass a threshold), not normalised. */
function near(seed: number, spread: number, scale = 1): Float32Array {
  const base = unitVector(seed % 7, DIM);
  const noise = unitVector(seed + 1000, DIM);
  return base.map((value, i) => (value + spread * noise[i]!) * scale);
}

describe('held partition neighbours matrix (engram/chroma)', () => {
  it('returns what a float64 scan returns, through replacements, tombstones and removals', () => {
    const rows = new Map<string, VectorRow>();
    const put = (record: MemoryRecord) => rows.set(record.id, rowOf(record));
    for (let i = 0; i < 300; i++) {
      put(
        testRecord(
          {
            id: `mem_${String(i).padStart(3, '0')}`,
            embedding: near(i, 0.4 + (i % 5) * 0.2, 1 + (i % 3)),
            embedderId: EMBEDDER,
            scope: i % 11 === 0 ? 'session' : 'user',
            ...(i % 13 === 0 ? { invalidatedAt: 5 } : {}),
          },
          DIM,
        ),
      );
    }
    put(testRecord({ id: 'mem_other_embedder', embedding: near(1, 0), embedderId: 'another' }, DIM));
    put(testRecord({ id: 'mem_short', embedding: near(1, 0).subarray(0, DIM - 1), embedderId: EMBEDDER }, DIM));
    put(testRecord({ id: 'mem_zero', embedding: new Float32Array(DIM), embedderId: EMBEDDER }, DIM));
    const vectors = HeldVectors.of(DIM, EMBEDDER, rows.values(), rows.size)!;
    expect(vectors).not.toBeNull();

    const queries = Array.from({ length: 21 }, (_, q) => near(q * 3 + 1, 0.5, 0.5 + q));
    // A threshold that one row meets exactly (its f64 cosine with the first query).
    const edge = exactCosine(queries[0]!, norm(queries[0]!), rows.get('mem_004')!);
    const check = () => {
      for (const [threshold, limit] of [
        [0.5, 10],
        [0.8, 1_000],
        [edge, 1_000],
        [0.05, 7],
      ] as const) {
        for (const scope of ['user', 'session'] as const) {
          const got = vectors.nearest(queries, threshold, scope, limit);
          expect(got).toEqual(queries.map((query) => reference(rows.values(), query, threshold, scope, limit)));
        }
      }
      expect(vectors.nearest(queries, edge, 'user', 1_000)[0]).toContain('mem_004');
    };
    check();
    expect(vectors.size).toBe([...rows.values()].filter((row) => row.record.invalidatedAt === undefined && row.record.embedderId === EMBEDDER && row.record.embedding.length === DIM && row.norm > 0).length);

    // Replace, tombstone and remove rows (the first and the last slots among them), and add new ones.
    const change = (id: string, next: Partial<MemoryRecord>) => {
      const record = { ...rows.get(id)!.record, ...next };
      put(record);
      vectors.set(rows.get(id)!);
    };
    change('mem_000', { embedding: near(2, 0.1) });
    change('mem_299', { invalidatedAt: 9 });
    change('mem_150', { invalidatedAt: 9 });
    change('mem_013', { invalidatedAt: undefined });
    change('mem_020', { scope: 'session' });
    for (const id of ['mem_001', 'mem_298', 'mem_100']) {
      rows.delete(id);
      vectors.delete(id);
    }
    for (let i = 0; i < 200; i++) {
      const record = testRecord({ id: `mem_new_${i}`, embedding: near(i + 5, 0.3), embedderId: EMBEDDER }, DIM);
      put(record);
      vectors.set(rows.get(record.id)!);
    }
    check();
  });
});
