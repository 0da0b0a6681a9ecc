/**
 * Undo and forget of one fact when the turn's episodes stay: the episodes of the input's other
 * turns are kept, and a fact that shared its sentence with the undone one links to the episode
 * that now holds its words, so it is retrieved once and retires that episode when superseded.
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

const episodesOf = (records: readonly MemoryRecord[]) => records.filter((record) => record.topic === EPISODE_TOPIC);
const factOf = (records: readonly MemoryRecord[], needle: string) => records.find((record) => record.topic !== EPISODE_TOPIC && record.content.includes(needle));

describe('undo of the only fact of a multi-turn input', () => {
  it("succeeds, takes the fact and its words out and keeps the other turn's episode", async () => {
    const test = await createTestMemory({ episodes: true });
    tests.push(test);
    const lake = 'The lake walk yesterday was gorgeous, the herons were out in force.';
    const operations = await test.memory.ingest(
      [
        { role: 'user', content: "I'm allergic to zqxshrimp." },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: lake },
      ],
      { ...owner, sessionId: 'c1', source: implicit('s1') },
    );
    test.clock.advance(DAY);
    const before = await test.memory.list(owner);
    const target = factOf(before, 'zqxshrimp')!;
    const kept = episodesOf(before).find((record) => record.content === lake)!;
    expect(target).toBeDefined();
    expect(kept).toBeDefined();

    await test.memory.undo(operations.find((operation) => operation.memoryId === target.id)!, owner);

    const after = await test.memory.list(owner);
    expect(after.map((record) => record.id)).toEqual([kept.id]);
    expect(await findInDatabases(test.factory, 'zqxshrimp')).toEqual([]);
    const inputs = JSON.stringify((await test.memory.export(owner)).inputs);
    expect(inputs).toContain('herons');
    // A replay of the inputs keeps the other turn's episode and does not bring the fact back.
    await test.memory.ingest([{ role: 'user', content: 'For flights, I prefer the aisle seat.' }], { ...owner, sessionId: 'c2', source: implicit('s2') });
    await test.memory.forgetSource('s2', owner);
    expect((await test.memory.list(owner)).map((record) => record.content)).toEqual([lake]);
  });
});

describe('the sibling fact of an undone or forgotten fact of the same sentence', () => {
  for (const how of ['undo', 'forget'] as const) {
    it(`links to the rebuilt episode: one hit for it, and the episode retires with it (${how})`, async () => {
      const test = await createTestMemory({ episodes: true });
      tests.push(test);
      const operations = await test.memory.ingest([{ role: 'user', content: "I'm allergic to zqxshrimp and I play squash." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      test.clock.advance(DAY);
      const target = factOf(await test.memory.list(owner), 'zqxshrimp')!;
      if (how === 'undo') await test.memory.undo(operations.find((operation) => operation.memoryId === target.id)!, owner);
      else await test.memory.forget(target.id, owner);

      const after = await test.memory.list(owner);
      const [episode] = episodesOf(after);
      expect(episodesOf(after).map((record) => record.content)).toEqual(['I play squash.']);
      expect(factOf(after, 'squash')?.episodeId).toBe(episode!.id);
      const hits = await test.memory.retrieve('squash', { ...owner, k: 5 });
      expect(hits.map((hit) => hit.memory.content)).toEqual(['The user plays squash.']);
      expect(await findInDatabases(test.factory, 'zqxshrimp')).toEqual([]);

      test.clock.advance(DAY);
      await test.memory.ingest([{ role: 'user', content: 'I quit squash.' }], { ...owner, sessionId: 'c2', source: implicit('s2') });
      const quit = await test.memory.list(owner);
      expect(factOf(quit, 'plays squash')).toBeUndefined();
      expect(episodesOf(quit).filter((record) => record.content.includes('I play squash'))).toEqual([]);
    });
  }
});
