import { describe, expect, it } from 'vitest';
import { CodeColumns } from '../../src/worker/columns';
import { codeBytesOf, codeOf, writeCodes } from '../../src/worker/code-layout';
import { strideOf } from '../../src/worker/matrix';
import { loadKernelModule } from '../../src/worker/wasm-kernel';
import { createRandom } from '../helpers/random';

const module = loadKernelModule()!;

/** `rows` random rows of `dim` in the matrix's 8-bit block layout, and each row's signed codes. */
function codedRows(rows: number, dim: number, seed: number) {
  const random = createRandom(seed);
  const stride = strideOf(dim);
  const source = new Int8Array(codeBytesOf(rows, stride));
  for (let row = 0; row < rows; row++)
    writeCodes(
      source,
      row,
      Float32Array.from({ length: dim }, () => random() - 0.5),
      dim,
      stride,
    );
  const code = (row: number, d: number) => codeOf(source, row, d, stride);
  return { source, stride, code };
}

describe('CodeColumns', () => {
  // 1,031 rows: more than one slab of 256 blocks, and a last block of three rows; 40 dimensions:
  // two whole 16-code chunks and 8 codes past them, which JS places.
  for (const [rows, dim, capacity] of [
    [1031, 40, 1031],
    [2050, 384, 4096],
    [7, 16, 7],
    [3, 24, 3],
  ] as const) {
    it(`puts every row's code of each dimension in that dimension's column (${rows} rows × ${dim}, room for ${capacity})`, () => {
      const { source, stride, code } = codedRows(rows, dim, rows + dim);
      const columns = new CodeColumns(dim, capacity, module);
      columns.setRows(source, rows, stride);
      // A query of one code 1 at dimension d reads back column d.
      for (let d = 0; d < dim; d++) {
        const column = columns.dots([d], [1], rows);
        const wrong = Array.from({ length: rows }, (_, row) => row).filter((row) => column[row] !== code(row, d));
        expect(wrong, `dimension ${d}`).toEqual([]);
      }
      // And queries of several codes (the kernel takes them in pairs, a lone last one paired at code 0), their dot with each row.
      for (const [dims, weights] of [
        [
          [0, 3, dim - 1],
          [5, -7, 127],
        ],
        [
          [1, 2, 5, dim - 2],
          [-127, 127, -1, 64],
        ],
      ] as const) {
        const dots = columns.dots(dims, weights, rows);
        for (let row = 0; row < rows; row++) expect(dots[row]).toBe(dims.reduce((sum, d, i) => sum + weights[i]! * code(row, d), 0));
      }
    });
  }

  it('keeps the columns through growth, and rows set one at a time match rows set in bulk', () => {
    const dim = 48;
    const { source, stride, code } = codedRows(600, dim, 5);
    const bulk = new CodeColumns(dim, 300, module);
    bulk.setRows(source, 300, stride);
    bulk.reserve(600);
    for (let row = 300; row < 600; row++)
      bulk.setRow(
        row,
        Array.from({ length: dim }, (_, d) => code(row, d)),
      );
    for (let d = 0; d < dim; d++) {
      const column = Array.from(bulk.dots([d], [1], 600));
      expect(column, `dimension ${d}`).toEqual(Array.from({ length: 600 }, (_, row) => code(row, d)));
    }
  });
});
