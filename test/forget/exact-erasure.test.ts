/**
 * Erasure removes exactly what was asked (issue 41): `forget(id)` takes out one fact of a
 * sentence that states several and keeps the others; forget and reject leave none of the
 * forgotten text in any row (with and without an encryption key, long turns, non-ASCII); no
 * redaction leaves a memory whose text is only redaction marks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import type { Extractor, MemoryRecord } from '../../src/index';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });
const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

const tests: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(tests.splice(0).map((test) => test.memory.close()));
});
/** A memory this file closes after the test. */
const open = (options: Parameters<typeof createTestMemory>[0] = {}) => createTestMemory(options).then((test) => (tests.push(test), test));

const facts = (records: readonly MemoryRecord[]) => records.filter((record) => record.topic !== EPISODE_TOPIC);
const factOf = (records: readonly MemoryRecord[], needle: string) => facts(records).find((record) => record.content.includes(needle));

/** Everything a user can read of the owner's store: list (tombstones too), why, export, explain. */
async function visible(test: TestMemory): Promise<string> {
  const all = await test.memory.list({ ...owner, includeInvalid: true });
  const why = await Promise.all(all.map((record) => test.memory.why(record.id, owner)));
  const explained = await test.memory.explain('what about the user', owner);
  return JSON.stringify([all, why, await test.memory.export(owner), explained]);
}

/** Two facts in one sentence: the word only the first states, the word only the second states. */
const TWO_FACT_SENTENCES: [sentence: string, first: string, second: string][] = [
  ["I'm allergic to shrimp and I'm allergic to dust.", 'shrimp', 'dust'],
  ['My aunt Rosa lives in Porto and my uncle Jim lives in Faro.', 'Porto', 'Faro'],
  ['I play the drums and I play squash.', 'drums', 'squash'],
  ["I live in Berlin and I'm vegetarian.", 'Berlin', 'vegetarian'],
  ["I'm allergic to peanuts, and I live in Lyon.", 'peanuts', 'Lyon'],
];

describe('forget(id) of one fact of a sentence that states two', () => {
  for (const episodes of [true, false]) {
    for (const [sentence, first, second] of TWO_FACT_SENTENCES) {
      it(`keeps the other fact of "${sentence}" active, in the stored input and through a replay (episodes ${episodes ? 'on' : 'off'})`, async () => {
        const test = await open({ episodes });
        await test.memory.ingest([{ role: 'user', content: sentence }], { ...owner, sessionId: 'c1', source: implicit('s1') });
        test.clock.advance(DAY);
        await test.memory.ingest([{ role: 'user', content: 'For flights, I prefer the aisle seat.' }], { ...owner, sessionId: 'c2', source: implicit('s2') });
        const before = await test.memory.list(owner);
        const target = factOf(before, first)!;
        const sibling = factOf(before, second)!;
        expect(target).toBeDefined();
        expect(sibling).toBeDefined();

        const report = await test.memory.forget(target.id, owner);

        expect(report.erased).toEqual([target.id]);
        const after = await test.memory.list(owner);
        expect(factOf(after, second)).toMatchObject({ id: sibling.id, content: sibling.content });
        expect(factOf(after, first)).toBeUndefined();
        // The stored input keeps the sibling's candidate and its words; none of the forgotten fact's.
        const inputs = JSON.stringify((await test.memory.export(owner)).inputs);
        expect(inputs).toContain(sibling.content);
        expect(inputs).toContain(second);
        expect(inputs).not.toContain(first);
        expect(await findInDatabases(test.factory, first)).toEqual([]);
        // A replay of the remaining inputs (forgetSource of another source) brings back the sibling, not the fact.
        await test.memory.forgetSource('s2', owner);
        const replayed = await test.memory.list(owner);
        expect(facts(replayed).map((record) => record.content)).toEqual([sibling.content]);
        if (episodes) {
          const [episode] = replayed.filter((record) => record.topic === EPISODE_TOPIC);
          expect(episode?.content).toContain(second);
          expect(episode?.content).not.toContain(first);
        }
      });
    }
  }
});

describe('forget and reject leave none of the forgotten text', () => {
  for (const encrypted of [false, true]) {
    const keyed = async () => (encrypted ? { encryptionKey: await newKey() } : {});
    const label = encrypted ? 'with an encryptionKey' : 'without a key';

    it(`blanks the forgotten clause from the excerpt of the sentence's other fact in list, why, export and explain (${label})`, async () => {
      const test = await open({ episodes: true, ...(await keyed()) });
      await test.memory.ingest([{ role: 'user', content: "I'm allergic to zqxshrimp and I'm allergic to dust." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      const target = factOf(await test.memory.list(owner), 'zqxshrimp')!;
      await test.memory.forget(target.id, owner);
      expect(factOf(await test.memory.list(owner), 'dust')).toBeDefined();
      expect(await visible(test)).not.toContain('zqxshrimp');
      if (!encrypted) expect(await findInDatabases(test.factory, 'zqxshrimp')).toEqual([]);
    });

    it(`rejects a pending fact and leaves its clause in no input, not the own input of a sibling approved before (${label})`, async () => {
      const test = await open({ review: { sources: ['user_implicit'] }, ...(await keyed()) });
      await test.memory.ingest([{ role: 'user', content: "I'm allergic to zqxprawns and I'm allergic to pollen." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      const pending = await test.memory.pending(owner);
      const rejected = pending.find((entry) => entry.content.includes('zqxprawns'))!;
      const approved = pending.find((entry) => entry.content.includes('pollen'))!;
      await test.memory.approve(approved.id, owner);
      await test.memory.reject(rejected.id, owner);
      expect(factOf(await test.memory.list(owner), 'pollen')).toBeDefined();
      expect(await visible(test)).not.toContain('zqxprawns');
      expect(JSON.stringify((await test.memory.export(owner)).inputs)).toContain('pollen');
      if (!encrypted) expect(await findInDatabases(test.factory, 'zqxprawns')).toEqual([]);
    });
  }

  it('forgets the episode of a turn over 1,000 characters and leaves none of the turn', async () => {
    const test = await open({ episodes: true });
    const filler = 'The river was high and grey that morning, and the rain kept on. '.repeat(20);
    const turn = `I'm vegetarian and zqxhead is my street. ${filler}I think zqxtail is a lovely word.`;
    expect(turn.length).toBeGreaterThan(1_000);
    await test.memory.ingest([{ role: 'user', content: turn }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const episode = (await test.memory.list(owner)).find((record) => record.topic === EPISODE_TOPIC)!;
    expect(episode.content.endsWith('…')).toBe(true);
    await test.memory.forget(episode.id, owner);
    expect(await findInDatabases(test.factory, 'zqxhead')).toEqual([]);
    expect(await findInDatabases(test.factory, 'zqxtail')).toEqual([]);
    expect(await findInDatabases(test.factory, 'river was high')).toEqual([]);
    // The turn's fact stays: forgetting the episode forgets the turn's words, not what was learnt from it.
    expect(factOf(await test.memory.list(owner), 'vegetarian')).toBeDefined();
  });

  it('forgets one short clause of a list without touching the same letters in other words, memories or messages', async () => {
    const likes = 'I like tea, jazz and art';
    const work = 'I work at a startup that plans parties.';
    const extractor: Extractor = {
      extract: () => [
        ...['tea', 'jazz', 'art'].map((thing) => ({ content: `The user likes ${thing}.`, topic: 'preference', confidence: 0.9, excerpt: likes })),
        { content: 'The user works at a startup party planner.', topic: 'work', confidence: 0.9, excerpt: work },
      ],
    };
    const test = await open({ extractor });
    await test.memory.ingest([{ role: 'user', content: `${likes}. ${work}` }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const art = factOf(await test.memory.list(owner), 'likes art')!;
    expect(art).toBeDefined();
    await test.memory.forget(art.id, owner);
    const after = await test.memory.list(owner);
    // The other memory of the turn and the stored message keep every word but the forgotten clause's.
    expect(factOf(after, 'startup')?.content).toBe('The user works at a startup party planner.');
    expect(factOf(after, 'likes art')).toBeUndefined();
    expect(await findInDatabases(test.factory, work)).not.toEqual([]);
    expect(await findInDatabases(test.factory, 'st[forgotten]up')).toEqual([]);
    expect(await findInDatabases(test.factory, 'p[forgotten]')).toEqual([]);
  });

  for (const held of [false, true]) {
    it(`${held ? 'rejects the held' : 'forgets the'} episode of a 3,000-word turn and leaves none of it`, async () => {
      const test = await open({ episodes: true, ...(held ? { review: { sources: ['user_implicit' as const] } } : {}) });
      const words = Array.from({ length: 3_000 }, (_, i) => ['river', 'grey', 'morning', 'rain'][i % 4]);
      const turn = `I'm vegetarian and zqxhead is my street. ${words.join(' ')} zqxtail.`;
      await test.memory.ingest([{ role: 'user', content: turn }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      const episode = held ? (await test.memory.pending(owner)).find((entry) => entry.topic === EPISODE_TOPIC)! : (await test.memory.list(owner)).find((record) => record.topic === EPISODE_TOPIC)!;
      expect(episode).toBeDefined();
      // Its cost grows linearly with the turn (fact-span.test.ts times the redactor at n and 4n).
      await (held ? test.memory.reject(episode.id, owner) : test.memory.forget(episode.id, owner));
      expect(await findInDatabases(test.factory, 'zqxhead')).toEqual([]);
      expect(await findInDatabases(test.factory, 'zqxtail')).toEqual([]);
      expect(await findInDatabases(test.factory, 'morning rain river')).toEqual([]);
    });
  }

  it('redacts a sentence that holds "İ" (a letter that lower-cases to two code units)', async () => {
    const test = await open({ episodes: true });
    await test.memory.ingest([{ role: 'user', content: 'I live in İstanbulzq. For flights, I prefer the aisle seat.' }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const home = factOf(await test.memory.list(owner), 'stanbulzq')!;
    expect(home).toBeDefined();
    await test.memory.forget(home.id, owner);
    expect(await findInDatabases(test.factory, 'stanbulzq')).toEqual([]);
    expect(factOf(await test.memory.list(owner), 'aisle')).toBeDefined();
  });
});

describe('no redaction leaves a memory of marks alone', () => {
  it('retires the episode of a turn whose only fact was forgotten: a tombstone with lineage, not listed, not injected', async () => {
    const test = await open({ episodes: true });
    await test.memory.ingest([{ role: 'user', content: "I'm allergic to shrimp." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const before = await test.memory.list(owner);
    const episode = before.find((record) => record.topic === EPISODE_TOPIC)!;
    await test.memory.forget(factOf(before, 'shrimp')!.id, owner);
    expect(await test.memory.list(owner)).toEqual([]);
    expect(JSON.stringify(await test.memory.retrieve('what is the user allergic to', owner))).not.toContain('[forgotten]');
    const retired = (await test.memory.list({ ...owner, includeInvalid: true })).find((record) => record.id === episode.id)!;
    expect(retired.invalidatedAt).toBeDefined();
    expect(retired.history.at(-1)?.event).toBe('regenerated');
    // The stored input keeps nothing of the message, and no candidate a replay would make the episode again from.
    const { inputs } = await test.memory.export(owner);
    expect(inputs.flatMap((input) => ('candidates' in input ? (input.candidates ?? []) : []))).toEqual([]);
    expect(JSON.stringify(inputs)).not.toContain('shrimp');
    expect(await findInDatabases(test.factory, '[forgotten]')).toEqual([]);
  });

  for (const [forgotten, kept] of [
    ['vegetarian', 'I live in Berlin.'],
    ['Berlin', "I'm vegetarian."],
  ] as const) {
    it(`leaves the episode of "I live in Berlin and I'm vegetarian." reading "${kept}" when the ${forgotten} fact is forgotten, with no mark in any row`, async () => {
      const test = await open({ episodes: true });
      await test.memory.ingest([{ role: 'user', content: "I live in Berlin and I'm vegetarian." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      await test.memory.forget(factOf(await test.memory.list(owner), forgotten)!.id, owner);
      const after = await test.memory.list(owner);
      expect(after.filter((record) => record.topic === EPISODE_TOPIC).map((record) => record.content)).toEqual([kept]);
      expect(facts(after)).toHaveLength(1);
      expect(await findInDatabases(test.factory, '[forgotten]')).toEqual([]);
      expect(await findInDatabases(test.factory, forgotten)).toEqual([]);
      expect(await visible(test)).not.toContain('[forgotten]');
      // The kept fact links to the rebuilt episode, which holds its words: one hit, standing for both.
      const [episode] = after.filter((record) => record.topic === EPISODE_TOPIC);
      const [fact] = facts(after);
      expect(fact!.episodeId).toBe(episode!.id);
      const hits = await test.memory.retrieve('what do you know about me?', owner);
      expect(hits.map((hit) => [hit.memory.id, hit.represents])).toEqual([[fact!.id, [episode!.id]]]);
      const block = test.memory.inject('You are helpful.', hits);
      expect(block).toContain(fact!.content);
      expect(block).not.toContain(forgotten);
      expect(block).not.toContain('[forgotten]');
    });
  }
});
