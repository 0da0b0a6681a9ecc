/**
 * `memory.list` says each memory's kind: a fact (a statement about the user) or an episode (the
 * user's turn, kept in their words). Derived from the topic, never stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EPISODE_TOPIC } from '../../src/index';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';

const owner = { userId: 'u_kind', appName: 'default' };

describe('memory.list kind', () => {
  let tests: TestMemory[] = [];
  afterEach(async () => {
    await Promise.all(tests.map((test) => test.memory.close()));
    tests = [];
  });

  it("marks the episode of a turn 'episode' and the fact read from it 'fact', now and asOf", async () => {
    const test = await createTestMemory({ episodes: true });
    tests.push(test);
    await test.memory.ingest([{ role: 'user', content: "I'm allergic to peanuts." }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    const written = test.clock();
    test.clock.advance(DAY);
    const now = await test.memory.list(owner);
    const episode = now.find((memory) => memory.kind === 'episode');
    expect(now.filter((memory) => memory.kind === 'fact').map((fact) => fact.episodeId)).toContain(episode?.id);
    for (const listed of [now, await test.memory.list({ ...owner, asOf: written })]) {
      const episodes = listed.filter((memory) => memory.kind === 'episode');
      const facts = listed.filter((memory) => memory.kind === 'fact');
      expect(episodes.map((memory) => memory.topic)).toEqual([EPISODE_TOPIC]);
      expect(facts.length).toBeGreaterThan(0);
      for (const fact of facts) expect(fact.topic).not.toBe(EPISODE_TOPIC);
    }
  });

  it('is not stored: get returns the record as kept, and a tombstone listed with includeInvalid still says its kind', async () => {
    const test = await createTestMemory({ episodes: true });
    tests.push(test);
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    test.clock.advance(DAY);
    await test.memory.forgetSource('s1', owner);
    const listed = await test.memory.list({ ...owner, includeInvalid: true });
    expect(listed.length).toBeGreaterThan(0);
    for (const memory of listed) {
      expect(memory.kind).toBe(memory.topic === EPISODE_TOPIC ? 'episode' : 'fact');
      expect('kind' in (await test.memory.get(memory.id, owner))).toBe(false);
    }
  });
});
