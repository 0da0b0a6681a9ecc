/**
 * One partition in compute: the row matrix (vectors plus the columns the kernel reads, see
 * matrix.ts) and the rest of each row (id, half-life, scope, session) in JS, kept dense by
 * swap-remove and grown by doubling.
 */
import { flattenTerms } from '../embed/terms';
import { DAY_MS } from '../time';
import { SCOPE_CODE, type IndexRows } from './api';
import { chunkPostings, LexicalIndex, MAX_POSTING_ROWS } from './lexical';
import { codeBytesOf } from './code-layout';
import { RowMatrix, type VectorCodes } from './matrix';

export interface Partition {
  version: number;
  dim: number;
  size: number;
  ids: string[];
  rowOf: Map<string, number>;
  /** Vectors, tags, importance, updatedAt and decay, in the kernel's memory. */
  matrix: RowMatrix;
  halfLifeDays: Float32Array;
  scopes: Uint8Array;
  sessionIds: string[];
  /** Session id → small integer stored in the row tag (0: not session-scoped). */
  sessionNumbers: Map<string, number>;
  /** The lexical channel, row for row with the matrix. */
  lexical: LexicalIndex;
  /** Scratch for one query's BM25 scores, one per row (the semantic channel's part included). */
  lexicalScores: Float32Array;
  /** Scratch: the part of each row's `lexicalScores` that the semantic channel added (fusion.ts). */
  semantic: Float32Array;
}

export function createPartition(dim: number, capacity: number, version: number, module: WebAssembly.Module | null, codes: VectorCodes = 'f32'): Partition {
  return {
    version,
    dim,
    size: 0,
    ids: [],
    rowOf: new Map(),
    matrix: new RowMatrix(dim, capacity, module, codes),
    halfLifeDays: new Float32Array(capacity),
    scopes: new Uint8Array(capacity),
    sessionIds: [],
    sessionNumbers: new Map([['', 0]]),
    lexical: new LexicalIndex(),
    lexicalScores: new Float32Array(capacity),
    semantic: new Float32Array(capacity),
  };
}

function grown<T extends Float64Array | Float32Array | Uint8Array>(column: T, capacity: number, size: number): T {
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column.subarray(0, size) as never);
  return next;
}

function reserve(partition: Partition, needed: number): void {
  if (needed <= partition.matrix.capacity) return;
  const capacity = Math.max(needed, partition.matrix.capacity * 2, 64);
  const { size } = partition;
  partition.matrix.reserve(capacity);
  partition.halfLifeDays = grown(partition.halfLifeDays, capacity, size);
  partition.scopes = grown(partition.scopes, capacity, size);
  partition.lexicalScores = new Float32Array(capacity);
  partition.semantic = new Float32Array(capacity);
}

function sessionNumber(partition: Partition, sessionId: string): number {
  let number = partition.sessionNumbers.get(sessionId);
  if (number === undefined) partition.sessionNumbers.set(sessionId, (number = partition.sessionNumbers.size));
  return number;
}

/** The matrix columns a row write sets, taken once per batch (views stay valid: the batch reserved first). */
function columnsOf(matrix: RowMatrix) {
  return { tags: matrix.tags, updatedAt: matrix.updatedAt, decay: matrix.decay, importance: matrix.importance };
}

/** Row `row`'s columns and id from row `from` of `rows` (its vector and terms are written apart). */
function writeColumns(partition: Partition, columns: ReturnType<typeof columnsOf>, row: number, rows: IndexRows, from: number): void {
  const scope = rows.scopes[from]!;
  const sessionId = rows.sessionIds[from]!;
  columns.tags[row] = scope | ((scope === SCOPE_CODE.session ? sessionNumber(partition, sessionId) : 0) << 3);
  columns.updatedAt[row] = rows.updatedAt[from]!;
  columns.decay[row] = Math.LN2 / (rows.halfLifeDays[from]! * DAY_MS);
  columns.importance[row] = rows.importance[from]!;
  partition.halfLifeDays[row] = rows.halfLifeDays[from]!;
  partition.scopes[row] = scope;
  partition.sessionIds[row] = sessionId;
  partition.ids[row] = rows.ids[from]!;
  partition.rowOf.set(rows.ids[from]!, row);
}

const NO_TERMS = new Uint32Array(0);

/** Whether `rows` can go into `partition`: f32 rows always (an 8-bit matrix quantises them), codes only into an 8-bit matrix of their stride and layout. */
export function takesRows(partition: Partition, rows: IndexRows): boolean {
  return rows.codes === undefined || partition.matrix.takes(rows.codes);
}

export function upsertRows(partition: Partition, rows: IndexRows): void {
  const n = rows.ids.length;
  const { codes } = rows;
  if (codes) {
    if (!partition.matrix.takes(codes)) throw new RangeError('these 8-bit codes are not of this matrix (f32 matrix, or another stride or layout)');
    if (codes.bytes.length !== codeBytesOf(n, codes.stride) || codes.scales.length !== n || codes.errors.length !== n || codes.norms.length !== n) {
      throw new RangeError(`codes hold ${codes.bytes.length} bytes and ${codes.scales.length} scales, expected ${codeBytesOf(n, codes.stride)} and ${n}`);
    }
    if (rows.vectors.length !== 0 && rows.vectors.length !== n * partition.dim) throw new RangeError(`vectors beside the codes hold ${rows.vectors.length} floats, expected 0 or ${n} × ${partition.dim}`);
  } else if (rows.vectors.length !== n * partition.dim) {
    throw new RangeError(`vectors hold ${rows.vectors.length} floats, expected ${n} × ${partition.dim}`);
  }
  if (rows.termOffsets && rows.termOffsets.length !== n + 1) {
    throw new RangeError(`termOffsets hold ${rows.termOffsets.length} entries, expected ${n + 1}`);
  }
  reserve(partition, partition.size + n);
  const columns = columnsOf(partition.matrix);
  const { dim, matrix } = partition;
  // Codes of the leading rows new to the partition (a snapshot chunk: all of them) are copied
  // in one go when the first row that breaks the run comes (then row by row) or at the end.
  const start = partition.size;
  let run: number | null = codes ? 0 : null;
  const written = new Int32Array(n);
  let fresh = true;
  for (let i = 0; i < n; i++) {
    const existing = partition.rowOf.get(rows.ids[i]!);
    const row = existing ?? partition.size++;
    if (!codes) matrix.writeVector(row, rows.vectors.subarray(i * dim, (i + 1) * dim));
    else if (run !== null && existing === undefined) run++;
    else {
      if (run) matrix.writeStoredCodes(start, codes, 0, run);
      run = null;
      matrix.writeStoredCodes(row, codes, i, 1);
    }
    writeColumns(partition, columns, row, rows, i);
    written[i] = row;
    fresh &&= row === start + i;
  }
  if (codes && run) matrix.writeStoredCodes(start, codes, 0, run);
  // Codes with their f32 vectors keep compute's f32 copy (matrix.ts) whole; codes alone end it.
  if (codes && matrix.hasExactRows) {
    if (rows.vectors.length === 0) matrix.dropExactCopy();
    else for (let i = 0; i < n; i++) matrix.writeExactRow(written[i]!, rows.vectors.subarray(i * dim, (i + 1) * dim));
  }
  const { terms, termOffsets, postings } = rows;
  // Rows new to the partition, in order, with their chunk's postings (a snapshot chunk): the
  // postings go in whole. Otherwise each row's terms are indexed one by one.
  if (terms && termOffsets && postings && fresh) partition.lexical.load(start, n, terms, termOffsets, postings);
  else for (let i = 0; i < n; i++) partition.lexical.set(written[i]!, terms && termOffsets ? terms.subarray(termOffsets[i]!, termOffsets[i + 1]!) : NO_TERMS);
}

/** Swap-remove: the last row moves into the hole, so the matrix stays dense. */
export function removeRow(partition: Partition, id: string): void {
  const row = partition.rowOf.get(id);
  if (row === undefined) return;
  const last = partition.size - 1;
  partition.rowOf.delete(id);
  partition.lexical.clear(row);
  if (row !== last) {
    partition.lexical.move(last, row);
    const { matrix } = partition;
    matrix.moveVector(last, row);
    matrix.tags[row] = matrix.tags[last]!;
    matrix.importance[row] = matrix.importance[last]!;
    matrix.updatedAt[row] = matrix.updatedAt[last]!;
    matrix.decay[row] = matrix.decay[last]!;
    partition.halfLifeDays[row] = partition.halfLifeDays[last]!;
    partition.scopes[row] = partition.scopes[last]!;
    partition.sessionIds[row] = partition.sessionIds[last]!;
    partition.ids[row] = partition.ids[last]!;
    partition.rowOf.set(partition.ids[row]!, row);
  }
  partition.lexical.truncate(last);
  partition.ids.length = last;
  partition.sessionIds.length = last;
  partition.size = last;
}

/** Copies rows `[start, end)` out in the wire form (own buffers, so each chunk clones alone); an 8-bit partition's as its codes. */
export function exportRows(partition: Partition, start: number, end: number): IndexRows {
  const { dim, matrix } = partition;
  const n = end - start;
  const coded = matrix.codes === 'i8';
  // An 8-bit partition's f32 copy goes too while it holds one: a cold start then has it back.
  const exact = matrix.hasExactRows;
  const vectors = new Float32Array(exact ? n * dim : 0);
  if (exact) for (let i = 0; i < n; i++) vectors.set(matrix.exactRow(start + i), i * dim);
  const { terms, termOffsets } = flattenTerms(Array.from({ length: n }, (_, i) => partition.lexical.termsOf(start + i)));
  const postings = n <= MAX_POSTING_ROWS ? { postings: chunkPostings(terms, termOffsets) } : {};
  return {
    ids: partition.ids.slice(start, end),
    vectors,
    ...(coded ? { codes: matrix.storedCodes(start, end) } : {}),
    updatedAt: matrix.updatedAt.slice(start, end),
    halfLifeDays: partition.halfLifeDays.slice(start, end),
    importance: matrix.importance.slice(start, end),
    scopes: partition.scopes.slice(start, end),
    sessionIds: partition.sessionIds.slice(start, end),
    terms,
    termOffsets,
    ...postings,
  };
}

/** Bytes held by the matrix and the per-row columns. */
export function bytesOf(partition: Partition): number {
  return partition.matrix.byteLength + partition.halfLifeDays.byteLength + partition.scopes.byteLength + partition.lexical.byteLength + partition.lexicalScores.byteLength * 2;
}
