/**
 * The semantic channel (src/worker/concepts.ts, on by default): a memory related in meaning to
 * the query ranks by that relation with default options, `explain` shows the part it brought,
 * and a query whose words the memory holds keeps the rank it has without the channel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_QUERIES } from '../../scripts/seed-sessions';
import { DEV } from '../../scripts/semantic-pairs';
import { changesMind } from '../../src/consolidate/slot';
import { createTestMemory, type TestMemory } from '../helpers/memory';
import { ingestSeed, SEED_OWNER } from '../helpers/seed';

const LUNCH = SEED_QUERIES[2]!;
const FISH = 'The user eats fish again.';

describe('Memory.retrieve (semantic channel)', () => {
  const opened: TestMemory[] = [];
  afterEach(async () => {
    for (const test of opened.splice(0)) await test.memory.close();
  });
  async function open(semantic?: boolean): Promise<TestMemory> {
    const test = await createTestMemory(semantic === undefined ? {} : { semantic });
    opened.push(test);
    return test;
  }

  it('ranks the diet memory first for the seed lunch query by its relevance, with default options', async () => {
    const { memory, clock } = await open();
    await ingestSeed(memory, clock);
    const hits = await memory.retrieve(LUNCH, { ...SEED_OWNER, k: 3 });
    expect(hits[0]!.memory.content).toBe(FISH);
    // First by what it means, not by recency: no other hit is as relevant.
    for (const hit of hits.slice(1)) expect(hits[0]!.relevance).toBeGreaterThan(hit.relevance);
    expect(hits[0]!.semantic).toBeGreaterThan(0);
    expect(hits[0]!.semantic).toBeLessThanOrEqual(hits[0]!.lexical!);
  });

  it('leaves the lunch query to the words alone with semantic: false', async () => {
    const { memory, clock } = await open(false);
    await ingestSeed(memory, clock);
    const hits = await memory.retrieve(LUNCH, { ...SEED_OWNER, k: 3 });
    expect(hits.every((hit) => hit.semantic === 0)).toBe(true);
    const fish = hits.find((hit) => hit.memory.content === FISH)!;
    expect(hits.some((hit) => hit !== fish && hit.relevance >= fish.relevance)).toBe(true);
  });

  it('shows the semantic part of a score in explain', async () => {
    const { memory, clock } = await open();
    await ingestSeed(memory, clock);
    const { hits } = await memory.explain(LUNCH, { ...SEED_OWNER, k: 3 });
    expect(hits[0]!.memory.content).toBe(FISH);
    expect(hits[0]!.semantic).toBeGreaterThan(0);
    expect(hits[0]).toEqual((await memory.retrieve(LUNCH, { ...SEED_OWNER, k: 3 }))[0]);
  });

  it('finds nothing of an erased source by meaning: the channel keeps no index of its own, only the query is expanded', async () => {
    const { memory } = await open();
    const owner = { userId: 'u', appName: 'a' };
    await memory.remember({ content: 'The user eats sushi every Friday.', topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: 'gone' } });
    await memory.remember({ content: 'The user plays the cello.', topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: 'kept' } });
    expect((await memory.retrieve(LUNCH, { ...owner, k: 1 }))[0]!.semantic).toBeGreaterThan(0);
    await memory.forgetSource('gone', owner);
    // Nothing left means lunch: the cello is no padding (RELEVANCE_FLOOR), and sushi is gone.
    expect((await memory.retrieve(LUNCH, { ...owner, k: 5 })).map((hit) => hit.memory.content)).toEqual([]);
    expect((await memory.retrieve('what does the user play?', { ...owner, k: 5 })).map((hit) => hit.memory.content)).toEqual(['The user plays the cello.']);
  });

  it('keeps the rank of a memory asked for in its own words (every dev pair memory, against the others)', async () => {
    const owner = { userId: 'u', appName: 'a' };
    const ranks = async (semantic: boolean) => {
      const { memory } = await open(semantic);
      const ids: string[] = [];
      for (const [i, pair] of DEV.entries()) ids.push((await memory.remember({ content: pair.memory, topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: `s${i}` } })).memoryId);
      // Two of the pairs' memories are one slot's two sides ("The user is single." and "The user is
      // married."): the later replaces the earlier, as a change of mind should. Only those are left out.
      const active = new Set((await memory.list(owner)).map((record) => record.id));
      const replaced = DEV.filter((_, i) => !active.has(ids[i]!)).map((pair) => pair.memory);
      expect(replaced.every((content) => DEV.some((other) => other.memory !== content && changesMind({ topic: 'general', content: other.memory }, { topic: 'general', content }, new Set())))).toBe(true);
      expect(replaced.length).toBeLessThanOrEqual(1);
      const out: number[] = [];
      for (const [i, pair] of DEV.entries()) {
        if (!active.has(ids[i]!)) continue;
        // The memory's own words, as a question: "The user plays chess." → "user plays chess?"
        const question = `${pair.memory.replace(/^The user('s)? /, '').replace(/\.$/, '')}?`;
        out.push((await memory.retrieve(question, { ...owner, k: 5 })).findIndex((hit) => hit.memory.id === ids[i]));
      }
      return out;
    };
    const withWords = await ranks(false);
    expect(withWords.every((rank) => rank === 0)).toBe(true);
    expect(await ranks(true)).toEqual(withWords);
  });
});
