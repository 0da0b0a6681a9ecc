/**
 * Approving held memories keeps a fact and the turn it was read from one statement: the fact
 * links to its episode (`episodeId`) whichever of the two is approved first, so retrieve gives
 * them one hit, as it does for a write that was never held.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import { createTestMemory, type TestMemory } from '../helpers/memory';

const owner = { userId: 'u_ada', appName: 'default' };

describe('approve links a fact to its episode', () => {
  let tests: TestMemory[] = [];
  afterEach(async () => {
    await Promise.all(tests.map((test) => test.memory.close()));
    tests = [];
  });

  for (const order of ['episode first', 'facts first'] as const) {
    it(`links each approved fact to the turn it was read from (${order}), and retrieve gives them one hit`, async () => {
      const test = await createTestMemory({ episodes: true, review: { sources: ['user_implicit'] } });
      tests.push(test);
      const { memory } = test;
      await memory.ingest([{ role: 'user', content: "I live in Berlin and I'm vegetarian." }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
      await memory.ingest([{ role: 'user', content: 'My sister Ana is a nurse in Porto.' }], { ...owner, sessionId: 'c2', source: { type: 'user_implicit', id: 's1' } });
      const pending = await memory.pending(owner);
      expect(pending.filter((entry) => entry.topic === EPISODE_TOPIC)).toHaveLength(2);
      const episodeFirst = (a: { topic: string }, b: { topic: string }) => Number(b.topic === EPISODE_TOPIC) - Number(a.topic === EPISODE_TOPIC);
      const ordered = order === 'episode first' ? [...pending].sort(episodeFirst) : [...pending].sort((a, b) => episodeFirst(b, a));
      for (const entry of ordered) await memory.approve(entry.id, owner);
      const records = await memory.list(owner);
      const berlinTurn = records.find((record) => record.topic === EPISODE_TOPIC && record.content.includes('Berlin'))!;
      const sisterTurn = records.find((record) => record.topic === EPISODE_TOPIC && record.content.includes('Ana'))!;
      const facts = records.filter((record) => record.topic !== EPISODE_TOPIC);
      expect(facts.length).toBeGreaterThanOrEqual(3);
      for (const fact of facts) expect(fact.episodeId, fact.content).toBe(fact.content.includes('Berlin') || fact.content.includes('vegetarian') ? berlinTurn.id : sisterTurn.id);
      const hits = await memory.retrieve('where do I live?', { ...owner, k: 5 });
      expect(hits.filter((hit) => hit.memory.id === berlinTurn.id || hit.memory.episodeId === berlinTurn.id).length).toBeLessThanOrEqual(1);
      expect(hits.map((hit) => hit.memory.content)).toContain('The user lives in Berlin.');
    });
  }
});
