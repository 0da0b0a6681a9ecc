/**
 * One statement, one memory (issue 42, item 2): a turn whose every personal sentence the
 * extractor read into a fact keeps no episode beside those facts; a turn with anything unread
 * stays an episode; the rule is the candidates', so forgetSource rebuilds the same store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { episodeCandidates, EPISODE_TOPIC } from '../../src/episode/episode';
import { allRead, contentStems, factsOfTurn } from '../../src/episode/read';
import { speechCandidates } from '../../src/extract/speech/extractor';
import type { MemoryRecord } from '../../src/index';
import { createTestMemory, T0, type TestMemory } from '../helpers/memory';

const owner = { userId: 'u_read', appName: 'default' };
const user = (content: string) => ({ role: 'user' as const, content });
const active = (records: readonly MemoryRecord[]) => records.filter((record) => record.invalidatedAt === undefined);
const episodesOf = (records: readonly MemoryRecord[]) => active(records).filter((record) => record.topic === EPISODE_TOPIC);
/** What the speech reader reads from `text`, as the write path gets it. */
const readFrom = (text: string) => speechCandidates(text, T0);

describe('episodeCandidates with what the extractor read', () => {
  it('keeps no episode of a turn whose every sentence became a fact', () => {
    for (const text of ["I'm allergic to peanuts.", 'My name is Dave.', 'im a nurse']) {
      const facts = readFrom(text);
      expect(facts.length, text).toBeGreaterThan(0);
      expect(episodeCandidates([user(text)], facts), text).toEqual([]);
    }
  });

  it('keeps the episode when a sentence or a clause of the turn was not read', () => {
    for (const text of ["I'm allergic to peanuts. My cat knocked the tree over twice this week.", 'I live in Berlin and my grandmother taught me to knit when I was nine.']) {
      const facts = readFrom(text);
      expect(facts.length, text).toBeGreaterThan(0);
      expect(
        episodeCandidates([user(text)], facts).map((episode) => episode.content),
        text,
      ).toEqual([text]);
    }
  });

  it("reads only the facts whose excerpt is the turn's own words (another turn's, or an LLM's paraphrase, reads nothing)", () => {
    const facts = readFrom("I'm allergic to peanuts.");
    expect(factsOfTurn("I'm allergic to peanuts.", facts)).toHaveLength(facts.length);
    expect(factsOfTurn("I'm allergic   to peanuts. And I'm tired.", facts)).toHaveLength(facts.length);
    expect(factsOfTurn('I adopted a cat.', facts)).toEqual([]);
    expect(episodeCandidates([user('I adopted a cat.')], facts)).toHaveLength(1);
    expect(allRead(['I adopted a cat.'], [])).toBe(false);
  });

  it('compares words by their stem, without function words', () => {
    expect([...contentStems('I lived in Berlin, lol')]).toEqual(['liv', 'berlin']);
    expect(contentStems('The user lives in Berlin.')).toEqual(contentStems('i live in berlin'));
  });
});

describe('Memory.ingest with the defaults: one statement, one memory', () => {
  let tests: TestMemory[] = [];
  afterEach(async () => {
    await Promise.all(tests.map((test) => test.memory.close()));
    tests = [];
  });

  it("stores a fully read turn as its facts alone, each with the turn's words and date, and a turn with more as an episode too", async () => {
    const test = await createTestMemory({ episodes: true });
    tests.push(test);
    const { memory } = test;
    await memory.ingest([user("I'm allergic to peanuts.")], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    await memory.ingest([user("I'm vegetarian. My cat knocked the tree over twice this week.")], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's2' } });
    const records = await memory.list(owner);
    expect(episodesOf(records).map((episode) => episode.content)).toEqual(["I'm vegetarian. My cat knocked the tree over twice this week."]);
    const allergy = active(records).find((record) => record.topic === 'allergy')!;
    expect(allergy.episodeId).toBeUndefined();
    expect(allergy.sources).toEqual([{ type: 'user_implicit', id: 's1', excerpt: "I'm allergic to peanuts.", at: T0 }]);
  });

  it('rebuilds the same store when a source is forgotten as a store that never saw it', async () => {
    const turns = ["I'm allergic to peanuts.", "I'm vegetarian. My cat knocked the tree over twice this week.", 'im a nurse', 'I live in Berlin and my grandmother taught me to knit.'];
    const seen = await createTestMemory({ episodes: true });
    const fresh = await createTestMemory({ episodes: true });
    tests.push(seen, fresh);
    for (const [i, text] of turns.entries()) {
      await seen.memory.ingest([user(text)], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: `s${i}` } });
      if (i !== 1) await fresh.memory.ingest([user(text)], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: `s${i}` } });
    }
    await seen.memory.forgetSource('s1', owner);
    const shape = (records: readonly MemoryRecord[]) =>
      active(records)
        .map((record) => [record.topic, record.content, record.episodeId === undefined])
        .sort();
    expect(shape(await seen.memory.list(owner))).toEqual(shape(await fresh.memory.list(owner)));
  });
});
