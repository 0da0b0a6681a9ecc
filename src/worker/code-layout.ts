/**
 * The 8-bit rows as kernel.wat's block scan reads them: four rows to a block, interleaved 16
 * codes at a time (16 of row 0, 16 of row 1, 16 of row 2, 16 of row 3, then the next 16 of
 * each), even-indexed codes stored + 128 so that a pair read as an i16 lane is
 * 256 · odd + (even + 128). One row's codes are `stride` bytes; a block is `4 · stride`.
 */

// Rows per block: kernel.wat scans four rows at a time.
export const BLOCK = 4;

/** Byte offset of code `j` of row `row`. */
export function codeAt(row: number, j: number, stride: number): number {
  return (row - (row % BLOCK)) * stride + (j >> 4) * 64 + (row % BLOCK) * 16 + (j & 15);
}

/** Writes row `row`'s codes (value ≈ code · scale, zero padded); returns the scale and the error's and row's norms. */
export function writeCodes(codes: Int8Array, row: number, source: Float32Array, dim: number, stride: number): { scale: number; error: number; norm: number } {
  let largest = 0;
  for (let j = 0; j < dim; j++) largest = Math.max(largest, Math.abs(source[j]!));
  const scale = Math.fround(largest / 127);
  let error = 0;
  let norm = 0;
  for (let j = 0; j < stride; j++) {
    const value = j < dim ? source[j]! : 0;
    const code = scale > 0 ? Math.max(-127, Math.min(127, Math.round(value / scale))) : 0;
    // Even dimensions + 128: stored in an Int8Array, the value wraps to the same byte.
    codes[codeAt(row, j, stride)] = j & 1 ? code : code + 128;
    error += (value - code * scale) ** 2;
    norm += value ** 2;
  }
  return { scale, error: Math.sqrt(error), norm: Math.sqrt(norm) };
}

/** Copies row `from`'s codes over row `to`'s. */
export function moveCodes(codes: Int8Array, from: number, to: number, stride: number): void {
  for (let j = 0; j < stride; j += 16) {
    const start = codeAt(from, j, stride);
    codes.copyWithin(codeAt(to, j, stride), start, start + 16);
  }
}
