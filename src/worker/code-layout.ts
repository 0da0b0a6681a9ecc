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

/** Code `j` of row `row`, signed (even codes are stored + 128). */
export function codeOf(codes: Int8Array, row: number, j: number, stride: number): number {
  const byte = codes[codeAt(row, j, stride)]!;
  return j & 1 ? byte : (byte & 255) - 128;
}

/** Writes row `row`'s codes (value ≈ code · scale, zero padded); returns the scale and the error's and row's norms. */
export function writeCodes(codes: Int8Array, row: number, source: Float32Array, dim: number, stride: number): { scale: number; error: number; norm: number } {
  let largest = 0;
  for (let j = 0; j < dim; j++) {
    const magnitude = Math.abs(source[j]!);
    if (magnitude > largest) largest = magnitude;
  }
  const scale = Math.fround(largest / 127);
  // A multiply, not a divide, per code: the codes may differ in the last place of rounding,
  // and the error below is measured on the codes as written, so the bound holds either way.
  const inverse = scale > 0 ? 1 / scale : 0;
  let error = 0;
  let norm = 0;
  // codeAt(row, j, stride), walked 16 codes at a time: one run of 16 bytes per 64-byte block slice.
  const rowStart = (row - (row % BLOCK)) * stride + (row % BLOCK) * 16;
  for (let chunk = 0; chunk < stride; chunk += 16) {
    const at = rowStart + (chunk >> 4) * 64;
    for (let i = 0; i < 16; i++) {
      const j = chunk + i;
      const value = j < dim ? source[j]! : 0;
      let code = Math.round(value * inverse);
      if (code > 127) code = 127;
      else if (code < -127) code = -127;
      // Even dimensions + 128: stored in an Int8Array, the value wraps to the same byte.
      codes[at + i] = j & 1 ? code : code + 128;
      const off = value - code * scale;
      error += off * off;
      norm += value * value;
    }
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

/** Copies row `from` of `source`'s codes over row `to` of `target`'s (both laid out as above, same stride). */
export function copyCodes(source: Int8Array, from: number, target: Int8Array, to: number, stride: number): void {
  for (let j = 0; j < stride; j += 16) {
    const start = codeAt(from, j, stride);
    target.set(source.subarray(start, start + 16), codeAt(to, j, stride));
  }
}

/** Bytes that hold `rows` rows of codes: whole blocks. */
export function codeBytesOf(rows: number, stride: number): number {
  return Math.ceil(rows / BLOCK) * BLOCK * stride;
}
