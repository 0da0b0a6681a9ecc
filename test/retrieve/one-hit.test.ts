/**
 * One statement, one hit; k is a maximum (issue 42, item 4): a fact and the episode it was read
 * from take one slot, a memory with no relevance to the query never pads the top k, and a
 * question about the user as a whole still gets the most important memories.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isEpisode } from '../../src/episode/episode';
import { representedOutsiders } from '../../src/retrieve/explain';
import type { Retrieved } from '../../src/retrieve/retrieve';
import { asksAboutTheUser, oneHitPerStatement, RELEVANCE_FLOOR } from '../../src/retrieve/select';
import type { MemoryRecord } from '../../src/schema';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';

const owner = { userId: 'u_ada', appName: 'default' };
const source = (id: string) => ({ type: 'user_explicit' as const, id });

describe('Memory.retrieve: one statement, one hit; k is a maximum', () => {
  let test: TestMemory | undefined;
  afterEach(async () => {
    await test?.memory.close();
    test = undefined;
  });

  it('returns a fact and the episode it was read from as one hit, which names the other, and explain says which and why', async () => {
    test = await createTestMemory({ episodes: true });
    const { memory } = test;
    await memory.ingest([{ role: 'user', content: "I'm vegetarian and I cook lentils most days." }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    const stored = await memory.list(owner);
    const episode = stored.find(isEpisode)!;
    const fact = stored.find((record) => record.topic === 'diet')!;
    expect(fact.episodeId).toBe(episode.id);
    const hits = await memory.retrieve('vegetarian diet lentils', { ...owner, k: 5 });
    const ids = hits.map((hit) => hit.memory.id);
    expect(ids.includes(fact.id) && ids.includes(episode.id)).toBe(false);
    const standing = hits.find((hit) => hit.memory.id === fact.id || hit.memory.id === episode.id)!;
    const other = standing.memory.id === fact.id ? episode.id : fact.id;
    expect(standing.represents).toContain(other);
    const { hits: explained, misses } = await memory.explain('vegetarian diet lentils', { ...owner, k: 5 });
    expect(explained.map((hit) => hit.memory.id)).toEqual(ids);
    const miss = misses.find((entry) => entry.memory.id === other)!;
    expect(miss.reason).toBe('represented');
    expect(miss.detail).toContain(standing.memory.id);
    expect(miss.score).toBeLessThanOrEqual(standing.score);
  });

  it('returns a fact and a later turn that restated it as one hit, as it does the turn it was read from', async () => {
    test = await createTestMemory({ episodes: true });
    const { memory } = test;
    await memory.ingest([{ role: 'user', content: "I'm vegetarian and I cook lentils most days." }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    await memory.ingest([{ role: 'user', content: "Like I told you, I'm vegetarian." }], { ...owner, sessionId: 'c2', source: { type: 'user_implicit', id: 's2' } });
    const stored = await memory.list(owner);
    const fact = stored.find((record) => record.topic === 'diet')!;
    const again = stored.find((record) => isEpisode(record) && record.content.startsWith('Like I told you'))!;
    expect(fact.restatedIn).toEqual([again.id]);
    const hits = await memory.retrieve('am I vegetarian?', { ...owner, k: 5 });
    const ids = hits.map((hit) => hit.memory.id);
    expect(ids.includes(fact.id) && ids.includes(again.id)).toBe(false);
    const standing = hits.find((hit) => hit.memory.id === fact.id || hit.memory.id === again.id)!;
    expect(standing.represents).toContain(standing.memory.id === fact.id ? again.id : fact.id);
  });

  it('with profile: true, keeps a turn that restated a profile fact and says more as the hit, not the profile fact in its place', async () => {
    test = await createTestMemory({ episodes: true });
    const { memory } = test;
    await memory.ingest([{ role: 'user', content: 'I live in Berlin.' }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    await memory.ingest([{ role: 'user', content: 'I live in Berlin. My sister Ana is a nurse in Porto.' }], { ...owner, sessionId: 'c2', source: { type: 'user_implicit', id: 's2' } });
    const stored = await memory.list(owner);
    const home = stored.find((record) => record.topic === 'home')!;
    const again = stored.find((record) => isEpisode(record) && record.content.includes('Ana'))!;
    expect(home.restatedIn).toEqual([again.id]);
    const hits = await memory.retrieve('I live in Berlin and my sister Ana is a nurse in Porto', { ...owner, k: 1, profile: true });
    const ranked = hits.filter((hit) => !hit.profile || hit.score > 0);
    expect(ranked[0]?.memory.id).toBe(again.id);
    expect(hits.some((hit) => hit.memory.id === home.id && hit.profile)).toBe(true);
  });

  it('keeps two facts of one topic read from one sentence as two hits ("my sister lives in Oslo and my brother lives in Rome", "I love sushi and I hate olives")', async () => {
    test = await createTestMemory();
    const { memory } = test;
    const cases: [string, string, string][] = [
      ['My sister lives in Oslo and my brother lives in Rome.', 'where do my sister and my brother live, Oslo or Rome?', 'family'],
      ['I love sushi and I hate olives.', 'what food do I love and what do I hate, sushi or olives?', 'preference'],
    ];
    for (const [said, query, topic] of cases) {
      const session = `c-${topic}`;
      await memory.ingest([{ role: 'user', content: said }], { ...owner, sessionId: session, source: { type: 'user_implicit', id: `s-${topic}` } });
      const facts = (await memory.list(owner)).filter((record) => record.topic === topic);
      expect(facts.length, said).toBe(2);
      expect(facts[0]!.sources[0]?.excerpt, said).toBe(facts[1]!.sources[0]?.excerpt);
      const hits = await memory.retrieve(query, { ...owner, k: 5 });
      const ids = hits.map((hit) => hit.memory.id);
      for (const fact of facts) expect(ids, `${said}: ${fact.content}`).toContain(fact.id);
      for (const hit of hits) expect(hit.represents ?? [], said).not.toEqual(expect.arrayContaining(facts.filter((fact) => fact.id !== hit.memory.id).map((fact) => fact.id)));
    }
  });

  it('keeps two facts that share a word but were said apart as two hits ("likes dogs" beside "sister is allergic to dogs")', async () => {
    test = await createTestMemory();
    const { memory } = test;
    await memory.remember({ content: "The user's sister is allergic to dogs.", topic: 'family' }, { ...owner, source: source('s1') });
    await memory.remember({ content: 'The user likes dogs.', topic: 'preference' }, { ...owner, source: source('s2') });
    const hits = await memory.retrieve('dogs', { ...owner, k: 5 });
    expect(hits.map((hit) => hit.memory.content).sort()).toEqual(['The user likes dogs.', "The user's sister is allergic to dogs."].sort());
  });

  it('never pads k with a memory that has no relevance to the query, whatever its importance, and inject shows none', async () => {
    test = await createTestMemory();
    const { memory } = test;
    await memory.remember({ content: 'The user is allergic to peanuts.', topic: 'allergy', importance: 0.9 }, { ...owner, source: source('s1') });
    await memory.remember({ content: 'The user plays the cello in an orchestra.', topic: 'hobby' }, { ...owner, source: source('s2') });
    const hits = await memory.retrieve('which instrument does the user play in the orchestra?', { ...owner, k: 5 });
    expect(hits.map((hit) => hit.memory.content)).toEqual(['The user plays the cello in an orchestra.']);
    for (const hit of hits) expect(hit.relevance).toBeGreaterThanOrEqual(RELEVANCE_FLOOR);
    const prompt = memory.inject('sys', hits);
    expect(prompt).not.toContain('peanuts');
    expect(memory.assemble('sys', hits, { maxTokens: 10_000 }).text).not.toContain('peanuts');
    const { misses } = await memory.explain('which instrument does the user play in the orchestra?', { ...owner, k: 5 });
    const allergy = misses.find((miss) => miss.memory.content.includes('peanuts'))!;
    expect(allergy.reason).toBe('irrelevant');
    expect(allergy.relevance).toBeLessThan(RELEVANCE_FLOOR);
    // A query nothing is relevant to gets nothing.
    expect(await memory.retrieve('zqxv wbrk', { ...owner, k: 5 })).toEqual([]);
  });

  it('finds the one relevant memory below many more important irrelevant ones, past the first scan', async () => {
    test = await createTestMemory();
    const { memory, clock } = test;
    for (let i = 0; i < 40; i++) await memory.remember({ content: `The user owns vintage item number ${i} of the collection.`, topic: 'possession', importance: 1 }, { ...owner, source: source(`v${i}`) });
    clock.advance(400 * DAY);
    await memory.remember({ content: 'The user speaks Basque.', topic: 'language', importance: 0.05 }, { ...owner, source: source('b') });
    const hits = await memory.retrieve('does the user speak basque?', { ...owner, k: 3 });
    expect(hits.map((hit) => hit.memory.content)).toEqual(['The user speaks Basque.']);
  });

  it('answers a question about the user as a whole with the most important memories, up to k', async () => {
    test = await createTestMemory();
    const { memory } = test;
    await memory.remember({ content: 'The user plays the cello.', topic: 'hobby', importance: 0.4 }, { ...owner, source: source('s1') });
    await memory.remember({ content: 'The user is allergic to peanuts.', topic: 'allergy', importance: 0.9 }, { ...owner, source: source('s2') });
    await memory.remember({ content: 'The user lives in Porto.', topic: 'home', importance: 0.6 }, { ...owner, source: source('s3') });
    for (const query of ['what do you know about me?', 'Tell me about myself', 'what do you remember about me', 'Who am I?']) {
      expect(asksAboutTheUser(query), query).toBe(true);
      const hits = await memory.retrieve(query, { ...owner, k: 2 });
      expect(
        hits.map((hit) => hit.memory.content),
        query,
      ).toEqual(['The user is allergic to peanuts.', 'The user lives in Porto.']);
    }
    for (const query of ['tell me about Porto', 'what do you remember about my trip?', 'what should we order for lunch?']) expect(asksAboutTheUser(query), query).toBe(false);
  });
});

describe('oneHitPerStatement', () => {
  const hit = (id: string, episodeId?: string) => ({ memory: { id, ...(episodeId ? { episodeId } : {}) } });
  it('keeps two facts read from one turn as two hits, and folds the episode into the better ranked of them or them into it', () => {
    expect(oneHitPerStatement([hit('f1', 'e'), hit('e'), hit('f2', 'e')])).toEqual([{ ...hit('f1', 'e'), represents: ['e'] }, hit('f2', 'e')]);
    expect(oneHitPerStatement([hit('e'), hit('f1', 'e'), hit('x'), hit('f2', 'e')])).toEqual([{ ...hit('e'), represents: ['f1', 'f2'] }, hit('x')]);
  });
  it('folds a fact and the turns that restated it (restatedIn) as it folds the turn it was read from', () => {
    const restated = (id: string, episodeId: string, restatedIn: string[]) => ({ memory: { id, episodeId, restatedIn } });
    expect(oneHitPerStatement([restated('f', 'e1', ['e2']), hit('e2'), hit('e1')])).toEqual([{ ...restated('f', 'e1', ['e2']), represents: ['e2', 'e1'] }]);
    expect(oneHitPerStatement([hit('e2'), hit('x'), restated('f', 'e1', ['e2']), hit('e1')])).toEqual([{ ...hit('e2'), represents: ['f'] }, hit('x'), hit('e1')]);
  });
});

describe('oneHitPerStatement by provenance', () => {
  const from = (id: string, topic: string, said: [string, string][], more: Record<string, unknown> = {}) => ({ memory: { id, topic, scope: 'user' as const, sources: said.map(([source, excerpt]) => ({ id: source, excerpt })), ...more } });
  it('keeps two facts read from the same sentence of the same turn apart, of one topic or two', () => {
    const f1 = from('f1', 'family', [['t1', 'My sister lives in Oslo and my brother lives in Rome.']]);
    const f2 = from('f2', 'family', [['t1', 'My sister lives in Oslo and my brother lives in Rome.']]);
    const f3 = from('f3', 'preference', [['t2', 'I love sushi and I hate olives.']]);
    const f4 = from('f4', 'preference', [['t2', 'I love sushi and I hate olives.']]);
    const f5 = from('f5', 'home', [['t1', 'I live in Leeds']]);
    expect(oneHitPerStatement([f1, f3, f5, f2, f4])).toEqual([f1, f3, f5, f2, f4]);
  });
  it("folds an episode and a fact read from its turn when nothing links them: the fact was read with the turn's source from words the episode holds", () => {
    const episode = from('e', 'episode', [['t1', 'I live in Leeds. I play bass in a band.']]);
    const fact = from('f', 'home', [['t1', 'I live in Leeds']]);
    const other = from('g', 'home', [['t2', 'I live in Leeds']]);
    expect(oneHitPerStatement([fact, other, episode])).toEqual([{ ...fact, represents: ['e'] }, other]);
  });
  it("explains an episode a fact read from its turn stands for as 'a fact read from it', and the reverse as 'the episode of the turn it was read from'", () => {
    const record = (id: string, topic: string, excerpt: string) => ({ id, topic, scope: 'user', content: excerpt, importance: 0.5, sources: [{ type: 'user_implicit', id: 't1', excerpt }] }) as unknown as MemoryRecord;
    const episode = record('e', 'episode', 'I live in Leeds. I play bass in a band.');
    const fact = record('f', 'home', 'I live in Leeds');
    const hit = (memory: MemoryRecord, represents: string[]) => ({ memory, represents, score: 1, relevance: 1, recency: 1, importance: 0.5 }) as Retrieved;
    expect(representedOutsiders([hit(fact, ['e'])], [episode])[0]?.detail).toContain("a fact read from it, 'f'");
    expect(representedOutsiders([hit(episode, ['f'])], [fact])[0]?.detail).toContain("the episode of the turn it was read from, 'e'");
  });
  it('does not fold memories of one sentence kept in two scopes or two sessions', () => {
    const f1 = from('f1', 'hobby', [['t1', 'i play bass']]);
    const f2 = from('f2', 'hobby', [['t1', 'i play bass']], { scope: 'session', sessionId: 'c1' });
    expect(oneHitPerStatement([f1, f2])).toEqual([f1, f2]);
  });
});
