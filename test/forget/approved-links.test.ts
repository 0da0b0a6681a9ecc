/**
 * The link approve makes between a fact and its turn (review/turn-links.ts) is remade by every
 * rebuild: forgetSource of another source leaves the store as one that never saw that source,
 * links included, and retrieve still gives a fact and its turn as one hit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/index';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';

const owner = { userId: 'u_ada', appName: 'default' };
const options = { episodes: true, review: { sources: ['user_implicit' as const] } };

/** The active memories by content: topic, and the content of the turn each links to. */
function shape(records: readonly MemoryRecord[]): string[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  return records.map((record) => `${record.topic}|${record.content}|${record.episodeId === undefined ? '-' : byId.get(record.episodeId)?.content}`).sort();
}

describe('approved links survive a rebuild', () => {
  let tests: TestMemory[] = [];
  afterEach(async () => {
    await Promise.all(tests.map((test) => test.memory.close()));
    tests = [];
  });

  /** A store where s1 was held and every entry approved (`order`: the episode first or last), then, with `other`, s2 ingested. */
  async function approvedStore(order: 'episode first' | 'facts first', other: boolean): Promise<TestMemory> {
    const test = await createTestMemory(options);
    tests.push(test);
    const { memory, clock } = test;
    await memory.ingest([{ role: 'user', content: "I live in Berlin and I'm vegetarian." }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    const pending = await memory.pending(owner);
    const episodeFirst = (a: { topic: string }, b: { topic: string }) => Number(b.topic === EPISODE_TOPIC) - Number(a.topic === EPISODE_TOPIC);
    const ordered = order === 'episode first' ? [...pending].sort(episodeFirst) : [...pending].sort((a, b) => episodeFirst(b, a));
    for (const entry of ordered) {
      clock.advance(DAY);
      await memory.approve(entry.id, owner);
    }
    clock.advance(DAY);
    if (other) await memory.ingest([{ role: 'user', content: 'I live in Berlin. I play chess on Sundays.' }], { ...owner, sessionId: 'c2', source: { type: 'user_explicit', id: 's2' } });
    return test;
  }

  for (const order of ['episode first', 'facts first'] as const) {
    it(`keeps each approved fact linked to its turn after forgetSource of another source (${order})`, async () => {
      const { memory } = await approvedStore(order, true);
      await memory.forgetSource('s2', owner);
      const records = await memory.list(owner);
      const turn = records.find((record) => record.topic === EPISODE_TOPIC && record.content.includes('Berlin'))!;
      const home = records.find((record) => record.content === 'The user lives in Berlin.')!;
      expect(home.episodeId).toBe(turn.id);
      for (const fact of records.filter((record) => record.topic !== EPISODE_TOPIC)) expect(fact.episodeId, fact.content).toBe(turn.id);
      const hits = await memory.retrieve('where do I live?', { ...owner, k: 5 });
      expect(hits.filter((hit) => hit.memory.id === turn.id || hit.memory.episodeId === turn.id)).toHaveLength(1);
    });

    it(`leaves the same memories and links as a store that never saw the source (${order})`, async () => {
      const forgotten = await approvedStore(order, true);
      await forgotten.memory.forgetSource('s2', owner);
      const fresh = await approvedStore(order, false);
      expect(shape(await forgotten.memory.list(owner))).toEqual(shape(await fresh.memory.list(owner)));
    });

    it(`keeps the approved links through export and import, and a forgetSource there (${order})`, async () => {
      const exported = await approvedStore(order, true);
      const imported = await createTestMemory(options);
      tests.push(imported);
      await imported.memory.import(JSON.parse(JSON.stringify(await exported.memory.export(owner))));
      await imported.memory.forgetSource('s2', owner);
      const fresh = await approvedStore(order, false);
      expect(shape(await imported.memory.list(owner))).toEqual(shape(await fresh.memory.list(owner)));
    });

    it(`rebuilds the approved links in a past state (asOf, ${order})`, async () => {
      const { memory, clock } = await approvedStore(order, true);
      const live = shape(await memory.list(owner));
      expect(shape(await memory.list({ ...owner, asOf: clock() }))).toEqual(live);
    });
  }
});
