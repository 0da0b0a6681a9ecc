/**
 * The scan kernel: for every row of one partition that passes the scope filter, the
 * blended score `wRel·cos + wRec·recency + wImp·importance`, pushed into a bounded top-k.
 * Rows that fail the scope filter are skipped before any distance is computed.
 */
import { DAY_MS } from '../schema';
import { SCOPE_CODE, type ScanRequest } from './api';
import type { Partition } from './compute';
import type { TopK } from './top-k';

export function scoreRows(
  partition: Partition,
  request: ScanRequest,
  mask: number,
  sessionId: string | null,
  top: TopK,
  tag: number,
): void {
  const { dim, vectors, size, scopes, sessionIds, updatedAt, halfLifeDays, importance } = partition;
  const { query, now, weights } = request;
  const sessionCode = SCOPE_CODE.session;
  for (let row = 0; row < size; row++) {
    const code = scopes[row]!;
    if ((code & mask) === 0) continue;
    if (code === sessionCode && sessionIds[row] !== sessionId) continue;
    let sum = 0;
    const offset = row * dim;
    for (let j = 0; j < dim; j++) sum += vectors[offset + j]! * query[j]!;
    const recency = 0.5 ** (Math.max(0, now - updatedAt[row]!) / DAY_MS / halfLifeDays[row]!);
    const score = weights.relevance * sum + weights.recency * recency + weights.importance * importance[row]!;
    top.push(score, sum, tag, row);
  }
}
