/**
 * Undo of one fact of a message that states two: the undone fact leaves the memory, the stored
 * input (its candidate, and its clause of the message and of the other fact's excerpt) and every
 * excerpt that quoted it; the other fact stays, active, with its own words, through a replay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import type { MemoryRecord } from '../../src/index';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });
const tests: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(tests.splice(0).map((test) => test.memory.close()));
});

const facts = (records: readonly MemoryRecord[]) => records.filter((record) => record.topic !== EPISODE_TOPIC);
const factOf = (records: readonly MemoryRecord[], needle: string) => facts(records).find((record) => record.content.includes(needle));

describe('undo of one fact of a message that states two', () => {
  for (const episodes of [false, true]) {
    it(`takes out the fact's clause and keeps the other fact's words (episodes ${episodes ? 'on' : 'off'})`, async () => {
      const test = await createTestMemory({ episodes });
      tests.push(test);
      const operations = await test.memory.ingest([{ role: 'user', content: "I'm allergic to zqxshrimp and I play squash." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      test.clock.advance(DAY);
      await test.memory.ingest([{ role: 'user', content: 'For flights, I prefer the aisle seat.' }], { ...owner, sessionId: 'c2', source: implicit('s2') });
      const before = await test.memory.list(owner);
      const target = factOf(before, 'zqxshrimp')!;
      const sibling = factOf(before, 'squash')!;
      expect(target).toBeDefined();
      expect(sibling).toBeDefined();

      await test.memory.undo(operations.find((operation) => operation.memoryId === target.id)!, owner);

      const after = await test.memory.list(owner);
      expect(factOf(after, 'squash')).toMatchObject({ id: sibling.id, content: sibling.content });
      expect(factOf(after, 'zqxshrimp')).toBeUndefined();
      const inputs = JSON.stringify((await test.memory.export(owner)).inputs);
      expect(inputs).toContain(sibling.content);
      expect(inputs).toContain('I play squash');
      // The turn's episode loses the undone fact's clause as forget cuts it: the rest reads as a sentence.
      const episode = after.filter((record) => record.topic === EPISODE_TOPIC && !record.content.includes('aisle')).map((record) => record.content);
      expect(episode).toEqual(episodes ? ['I play squash.'] : []);
      expect(inputs).not.toContain('zqxshrimp');
      expect(await findInDatabases(test.factory, 'zqxshrimp')).toEqual([]);
      expect(await findInDatabases(test.factory, '[forgotten]')).toEqual([]);
      // A replay of the remaining inputs (forgetSource of another source) brings back the sibling, not the fact.
      await test.memory.forgetSource('s2', owner);
      expect(facts(await test.memory.list(owner)).map((record) => record.content)).toEqual([sibling.content]);
    });
  }
});
