/**
 * One partition in compute: the row matrix (vectors plus the columns the kernel reads, see
 * matrix.ts) and the rest of each row (id, half-life, scope, session) in JS, kept dense by
 * swap-remove and grown by doubling.
 */
import { flattenTerms } from '../embed/terms';
import { DAY_MS } from '../time';
import { SCOPE_CODE, type IndexRows } from './api';
import { LexicalIndex } from './lexical';
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
  /** Scratch for one query's BM25 scores, one per row. */
  lexicalScores: Float32Array;
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

function writeRow(partition: Partition, columns: ReturnType<typeof columnsOf>, row: number, rows: IndexRows, from: number): void {
  const { dim, matrix } = partition;
  matrix.writeVector(row, rows.vectors.subarray(from * dim, (from + 1) * dim));
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
  const { terms, termOffsets } = rows;
  partition.lexical.set(row, terms && termOffsets ? terms.subarray(termOffsets[from]!, termOffsets[from + 1]!) : NO_TERMS);
}

const NO_TERMS = new Uint32Array(0);

export function upsertRows(partition: Partition, rows: IndexRows): void {
  if (rows.vectors.length !== rows.ids.length * partition.dim) {
    throw new RangeError(`vectors hold ${rows.vectors.length} floats, expected ${rows.ids.length} × ${partition.dim}`);
  }
  if (rows.termOffsets && rows.termOffsets.length !== rows.ids.length + 1) {
    throw new RangeError(`termOffsets hold ${rows.termOffsets.length} entries, expected ${rows.ids.length + 1}`);
  }
  reserve(partition, partition.size + rows.ids.length);
  const columns = columnsOf(partition.matrix);
  for (let i = 0; i < rows.ids.length; i++) {
    const existing = partition.rowOf.get(rows.ids[i]!);
    writeRow(partition, columns, existing ?? partition.size++, rows, i);
  }
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

/** Copies rows `[start, end)` out in the wire form (own buffers, so each chunk clones alone). */
export function exportRows(partition: Partition, start: number, end: number): IndexRows {
  const { dim, matrix } = partition;
  const n = end - start;
  const vectors = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) vectors.set(matrix.exactRow(start + i), i * dim);
  const { terms, termOffsets } = flattenTerms(Array.from({ length: n }, (_, i) => partition.lexical.termsOf(start + i)));
  return {
    ids: partition.ids.slice(start, end),
    vectors,
    updatedAt: matrix.updatedAt.slice(start, end),
    halfLifeDays: partition.halfLifeDays.slice(start, end),
    importance: matrix.importance.slice(start, end),
    scopes: partition.scopes.slice(start, end),
    sessionIds: partition.sessionIds.slice(start, end),
    terms,
    termOffsets,
  };
}

/** Bytes held by the matrix and the per-row columns. */
export function bytesOf(partition: Partition): number {
  return partition.matrix.byteLength + partition.halfLifeDays.byteLength + partition.scopes.byteLength + partition.lexical.byteLength + partition.lexicalScores.byteLength;
}
