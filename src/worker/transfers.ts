/**
 * What a compute call moves across the worker boundary instead of copying: row buffers (a
 * structured clone of 10,000 rows is a task of ~100 ms on the receiving thread; a transfer
 * is not a copy). Only buffers the sender never uses again may go.
 */
import { transfer } from 'comlink';
import type { IndexRows, PartitionExport } from './api';

/** An export marked to move its buffers (fresh copies, partition.ts exportRows) to the caller instead of copying them. */
export function exportTransfer(exported: PartitionExport | null): PartitionExport | null {
  return exported && transfer(exported, [...new Set(exported.chunks.flatMap((chunk) => rowBuffers(chunk, true)))]);
}

/**
 * The buffers `rows` are held in, each once: what a call moves to the other side instead of
 * copying. The postings' only `withPostings` (the client leaves a stored chunk's to be copied).
 */
export function rowBuffers(rows: IndexRows, withPostings = false): ArrayBuffer[] {
  const { codes, postings } = rows;
  const buffers = [
    rows.vectors.buffer,
    rows.updatedAt.buffer,
    rows.halfLifeDays.buffer,
    rows.importance.buffer,
    rows.scopes.buffer,
    rows.terms?.buffer,
    rows.termOffsets?.buffer,
    codes?.bytes.buffer,
    codes?.scales.buffer,
    codes?.errors.buffer,
    codes?.norms.buffer,
    ...(withPostings ? [postings?.terms.buffer, postings?.starts.buffer, postings?.entries.buffer] : []),
  ];
  return [...new Set(buffers)].filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
}
