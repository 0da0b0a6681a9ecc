/**
 * Active memories in the form invariant 6 compares them: content, topic, scope (with the
 * session id for session memories), the set of source ids, and confidence; sorted, ids dropped.
 */
import type { MemoryRecord } from '../../src/index';

export function activeFacts(records: readonly MemoryRecord[]) {
  return records
    .filter((record) => record.invalidatedAt === undefined)
    .map((record) => ({
      content: record.content,
      topic: record.topic,
      scope: record.scope,
      ...(record.sessionId !== undefined ? { sessionId: record.sessionId } : {}),
      sources: [...new Set(record.sources.map((source) => source.id))].sort(),
      confidence: record.confidence,
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
