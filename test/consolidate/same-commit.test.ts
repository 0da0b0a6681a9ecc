/**
 * A record created and superseded in the same commit: one message that changes an exclusive
 * topic twice. The last memory inherits every source of the line (invariant 3), and
 * forgetSource rebuilds what a store that never saw the revoked source holds (invariant 6).
 */
import { describe, expect, it } from 'vitest';
import type { Memory, SourceType } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { createTestMemory, DAY } from '../helpers/memory';
import { storedRows } from '../helpers/scan';

const WRITES: readonly [string, SourceType, string][] = [
  ['s1', 'user_implicit', "I'm vegetarian."],
  ['s2', 'user_implicit', "I'm vegan."],
  ['s3', 'user_explicit', "I'm pescatarian now, I've started eating fish."],
  ['s4', 'user_explicit', "I've started eating meat."],
];

async function play(memory: Memory, clock: { advance: (ms: number) => void }, writes: typeof WRITES) {
  const operations = [];
  for (const [id, type, text] of writes) {
    clock.advance(DAY);
    operations.push(await memory.ingest([{ role: 'user', content: text }], { userId: 'u1', sessionId: id, source: { type, id } }));
  }
  return operations;
}

const activeSources = async (memory: Memory) => (await memory.list({ userId: 'u1' })).map((record) => [record.topic, record.sources.map((source) => source.id)]);

describe('consolidate (a record created and superseded in one commit)', () => {
  it('gives the last UPDATE of one message every source of the line', async () => {
    const test = await createTestMemory();
    try {
      const operations = await play(test.memory, test.clock, WRITES.slice(0, 3));
      expect(operations[2]!.map((operation) => operation.action)).toEqual(['UPDATE', 'UPDATE']);
      expect(await activeSources(test.memory)).toEqual([['diet', ['s1', 's2', 's3']]]);
      // The tombstone made and superseded in that commit keeps its own sources too.
      const middle = await test.memory.get(operations[2]![0]!.memoryId, { userId: 'u1' });
      expect(middle?.sources.map((source) => source.id)).toEqual(['s1', 's2', 's3']);
      expect(middle?.supersededBy).toBe(operations[2]![1]!.memoryId);
    } finally {
      await test.memory.close();
    }
  });

  it('keeps one row per source when a memory gains a source and is superseded in the same commit', async () => {
    const test = await createTestMemory();
    try {
      await play(test.memory, test.clock, [['s1', 'user_implicit', "I'm vegan."]]);
      // The first sentence corroborates the vegan memory with s2, the second replaces it.
      await play(test.memory, test.clock, [['s2', 'user_explicit', "I'm vegan. I'm pescatarian now."]]);
      const [record] = await test.memory.list({ userId: 'u1' });
      expect(record?.sources.map((source) => [source.type, source.id])).toEqual([
        ['user_implicit', 's1'],
        ['user_explicit', 's2'],
      ]);
      expect(activeFacts(await test.memory.list({ userId: 'u1' }))[0]?.confidence).toBe(0.9);
      // On disk: the line holds s2 once (a row per source gained, at most one per line).
      const lineage = (await storedRows(test.factory)).filter((row) => row.store === 'lineage').map((row) => (row.value as { sourceId: string }).sourceId);
      expect(lineage.sort()).toEqual(['s1', 's2']);
    } finally {
      await test.memory.close();
    }
  });

  it('rebuilds after forgetSource what a store that never saw the source holds', async () => {
    const original = await createTestMemory();
    const fresh = await createTestMemory();
    try {
      await play(original.memory, original.clock, WRITES);
      await original.memory.forgetSource('s4', { userId: 'u1' });
      await play(fresh.memory, fresh.clock, WRITES.slice(0, 3));
      const after = activeFacts(await original.memory.list({ userId: 'u1' }));
      expect(after).toEqual(activeFacts(await fresh.memory.list({ userId: 'u1' })));
      expect(after.map((fact) => fact.sources)).toEqual([['s1', 's2', 's3']]);
    } finally {
      await original.memory.close();
      await fresh.memory.close();
    }
  });
});
