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

/**
 * Renames generated ids (`mem_0001`, …) to the content of the memory they name (unique in the
 * seed), in ids and in history entries, so two runs that drew different ids compare equal.
 */
export function renamerByContent(records: readonly { id: string; content: string }[]) {
  const names = new Map(records.map((record) => [record.id, `<${record.content}>`]));
  const rename = (text: string) => text.replace(/mem_\d{4}/g, (id) => names.get(id) ?? id);
  const entry = <E extends { reason: string; related?: string | undefined }>(value: E): E => ({ ...value, reason: rename(value.reason), ...(value.related ? { related: rename(value.related) } : {}) });
  return { rename, entry };
}
