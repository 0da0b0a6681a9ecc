/**
 * An upgraded store answers as the release that wrote it did, less the padding: every memory it
 * retrieves now it retrieved then, and each one it retrieved then and not now has no relevance to
 * the query (explain: 'irrelevant'), since k became a maximum (docs/api.md, memory.retrieve).
 */
import { expect } from 'vitest';
import type { Memory } from '../../src/index';

export async function expectRetrievedAsBefore(memory: Memory, query: string, owner: { userId: string; appName?: string }, before: readonly string[]): Promise<void> {
  const ids = (await memory.retrieve(query, { ...owner, k: 10 })).map((hit) => hit.memory.id);
  expect(before, query).toEqual(expect.arrayContaining(ids));
  const gone = before.filter((id) => !ids.includes(id));
  if (gone.length === 0) return;
  const { misses } = await memory.explain(query, { ...owner, k: 10 });
  const reasons = new Map(misses.map((miss) => [miss.memory.id, miss.reason]));
  for (const id of gone) expect(reasons.get(id), `${query}: ${id}`).toBe('irrelevant');
}
