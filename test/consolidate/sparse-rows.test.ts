/**
 * The sweep's sparse rows against what they stand for: `dot` of the stored embedding (to the bit)
 * and a stable sort of every live row at or above the threshold, cut at k.
 */
import { describe, expect, it } from 'vitest';
import { SparseRows } from '../../src/consolidate/sparse-rows';
import { dot } from '../../src/embed/vector';
import { createRandom } from '../helpers/random';

/** Mostly zeros, some -0, values that tie: 4 to 12 dimensions. */
function vector(random: () => number, length = 4 + Math.floor(random() * 9)): Float32Array {
  return Float32Array.from({ length }, () => {
    const roll = random();
    return roll < 0.5 ? 0 : roll < 0.6 ? -0 : Math.round((random() * 2 - 1) * 4) / 4;
  });
}

describe('SparseRows', () => {
  it('gives dot to the bit and the k closest as a stable sort of every row would, rows of other lengths too', () => {
    for (let seed = 1; seed <= 9; seed++) {
      const random = createRandom(seed);
      const rows = new SparseRows();
      const embeddings: Float32Array[] = [];
      const live: boolean[] = [];
      // Past the arrays' first sizes (256 rows, 1,024 entries), so their growth is read too; every row one length unless the seed says otherwise.
      const length = seed % 3 === 0 ? undefined : 8;
      for (let i = 0; i < 700; i++) {
        const embedding = vector(random, length);
        expect(rows.add(embedding)).toBe(i);
        embeddings.push(embedding);
        live.push(true);
        if (random() < 0.1) {
          const gone = Math.floor(random() * embeddings.length);
          rows.remove(gone);
          live[gone] = false;
        }
      }
      for (let probe = 0; probe < 20; probe++) {
        const query = vector(random, length);
        const differ = embeddings.filter((embedding, row) => !Object.is(rows.similarity(row, query), dot(embedding, query)));
        expect(differ).toEqual([]);
        const threshold = [-1, 0, 0.25, 0.5][probe % 4]!;
        const k = [1, 8, 32][probe % 3]!;
        const all = embeddings.map((embedding, row) => ({ row, similarity: dot(embedding, query) })).filter(({ row, similarity }) => live[row] && similarity >= threshold);
        all.sort((a, b) => b.similarity - a.similarity);
        const expected = all.slice(0, k);
        const found = rows.closest(query, threshold, k);
        expect(found.rows, `seed ${seed}, probe ${probe}`).toEqual(expected.map(({ row }) => row));
        expect(found.similarities).toEqual(expected.map(({ similarity }) => similarity));
      }
    }
  });
});
