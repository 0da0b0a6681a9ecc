/**
 * The default extractor on ordinary speech: the labelled corpus (test/extract/speech/) scored
 * by precision and recall, and the behaviours it is built for (hedges, negation on an exclusive
 * topic, relative times, named people, what is no fact), through the default extractor
 * and through ingest.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultExtractor } from '../../src/extract/default-extractor';
import { EXCLUSIVE_TOPICS, TOPICS } from '../../src/extract/topics';
import { DEFAULT_EXCLUSIVE_TOPICS } from '../../src/index';
import { createTestMemory, type TestMemory } from '../helpers/memory';
import { expectedKey, factKey, LABELLED, SPOKEN_AT } from './speech/corpus';

const context = { userId: 'u', appName: 'a', sessionId: 's', at: SPOKEN_AT };
let test: TestMemory | undefined;
afterEach(async () => {
  await test?.memory.close();
  test = undefined;
});

/** The facts the default extractor reads from one message said at `at` (`'no time'`: the context carries none). */
async function facts(message: string, at: number | 'no time' = SPOKEN_AT) {
  const { at: _, ...timeless } = context;
  return createDefaultExtractor().extract([{ role: 'user', content: message }], at === 'no time' ? timeless : { ...context, at });
}

describe('the default extractor (labelled corpus)', () => {
  it(`reads the ${LABELLED.length} labelled statements with precision ≥ 0.9 and recall ≥ 0.8 (same topic, same normalised fact)`, async () => {
    const registers = new Map<string, { hit: number; read: number; expected: number }>();
    const misses: string[] = [];
    for (const entry of LABELLED) {
      const read = (await facts(entry.message)).map((fact) => factKey(fact.topic, fact.content));
      const expected = entry.facts.map(expectedKey);
      const hit = read.filter((key) => expected.includes(key)).length;
      const score = registers.get(entry.register) ?? { hit: 0, read: 0, expected: 0 };
      registers.set(entry.register, { hit: score.hit + hit, read: score.read + read.length, expected: score.expected + expected.length });
      if (hit !== read.length || hit !== expected.length) misses.push(`${JSON.stringify(entry.message)} read ${JSON.stringify(read)}`);
    }
    const total = [...registers.values()].reduce((sum, s) => ({ hit: sum.hit + s.hit, read: sum.read + s.read, expected: sum.expected + s.expected }), { hit: 0, read: 0, expected: 0 });
    const precision = total.hit / total.read;
    const recall = total.hit / total.expected;
    const lines = [...registers].map(([name, s]) => `  ${name.padEnd(22)} P ${(s.read ? s.hit / s.read : 1).toFixed(2)}  R ${(s.expected ? s.hit / s.expected : 1).toFixed(2)}  (${s.expected} facts)`);
    console.log(`speech corpus: ${LABELLED.length} statements, ${registers.size} registers, ${total.expected} facts: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}\n${lines.join('\n')}\n  wrong or missed: ${misses.length}`);
    expect(LABELLED.length).toBeGreaterThanOrEqual(400);
    expect([...registers.values()].filter((s) => s.expected > 0).length).toBeGreaterThanOrEqual(10);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });

  it('writes every fact under a topic of the vocabulary, and exports the exclusive ones as the defaults', async () => {
    const topics = new Set<string>();
    for (const entry of LABELLED) for (const fact of await facts(entry.message)) topics.add(fact.topic);
    expect([...topics].filter((topic) => !TOPICS.includes(topic as never))).toEqual([]);
    expect(topics.size).toBeGreaterThanOrEqual(20);
    expect(DEFAULT_EXCLUSIVE_TOPICS).toEqual(EXCLUSIVE_TOPICS);
    expect(TOPICS).not.toContain('episode');
  });
});

describe('the default extractor (behaviours)', () => {
  it('lowers the confidence of a hedged statement below the same statement said plainly', async () => {
    const [plain] = await facts("I'm allergic to cats.");
    const [hedged] = await facts("I think I'm allergic to cats.");
    expect(hedged!.content).toBe(plain!.content);
    expect(hedged!.confidence).toBeLessThan(plain!.confidence);
  });

  it('resolves yesterday, last week and next month against the message time, and keeps the words when there is none', async () => {
    expect((await facts('I went to a LGBTQ support group yesterday.')).map((f) => f.content)).toEqual(['The user went to a LGBTQ support group on 7 May 2023.']);
    expect((await facts('I started a new job last week.')).map((f) => f.content)).toEqual(['The user started a new job in the week of 1 May 2023.']);
    expect((await facts("I'm going to Rome next month.")).map((f) => [f.topic, f.content])).toEqual([['trip', 'The user is going to Rome in June 2023.']]);
    expect((await facts('I went to a LGBTQ support group yesterday.', 'no time')).map((f) => f.content)).toEqual(['The user went to a LGBTQ support group yesterday.']);
  });

  it("keeps a fact about a named relative as the user's, and nothing of what a relative says or prefers", async () => {
    expect((await facts('my sister Ana lives in Lisbon')).map((f) => [f.topic, f.content])).toEqual([['family', "The user's sister Ana lives in Lisbon."]]);
    expect(await facts('My colleague Sam prefers the window seat.')).toEqual([]);
    expect(await facts("My wife says she's vegetarian.")).toEqual([]);
  });

  it('reads several facts from one sentence, each with its own topic and the sentence as excerpt', async () => {
    const read = await facts('My name is Sam and I live in Berlin.');
    expect(read.map((f) => [f.topic, f.content, f.excerpt])).toEqual([
      ['identity', "The user's name is Sam.", 'My name is Sam and I live in Berlin.'],
      ['home', 'The user lives in Berlin.', 'My name is Sam and I live in Berlin.'],
    ]);
  });

  it("reads no fact about the user from a question, a request, a hypothetical, someone else's words, a gerund subject or words about the listener", async () => {
    for (const message of [
      'Are you vegan?',
      'can you recommend a vegan restaurant',
      'If I were vegan I would cook more.',
      "I'd love to live in Oslo.",
      'Bob said "I live in Paris".',
      'According to my doctor, I have asthma.',
      'Please book me a table.',
      'Overcoming challenges builds strength.',
      'Taking a risk is scary.',
      "I'm rooting for you!",
    ]) {
      expect(await facts(message), message).toEqual([]);
    }
  });

  it('replaces the diet memory when the user says they are no longer vegan, through ingest', async () => {
    test = await createTestMemory();
    const owner = { userId: 'ada', sessionId: 's1' };
    await test.memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...owner, source: { type: 'user_explicit', id: 's1' } });
    const [update] = await test.memory.ingest([{ role: 'user', content: "I'm not vegan any more." }], { ...owner, source: { type: 'user_explicit', id: 's2' } });
    expect(update).toMatchObject({ action: 'UPDATE', content: 'The user no longer follows a vegan diet.' });
    expect((await test.memory.list({ userId: 'ada' })).map((r) => [r.topic, r.content])).toEqual([['diet', 'The user no longer follows a vegan diet.']]);
  });

  it("stores the issue's ordinary sentences through ingest with the default options", async () => {
    test = await createTestMemory();
    const messages = ['I am vegan.', 'My name is Sam.', 'I work as a nurse.', 'I have two dogs.', "I'm allergic to peanuts.", 'I love hiking on weekends.', 'My name is Sam and I live in Berlin.'];
    for (const [i, content] of messages.entries()) await test.memory.ingest([{ role: 'user', content }], { userId: 'sam', sessionId: `s${i}`, source: { type: 'user_explicit', id: `m${i}` } });
    expect((await test.memory.list({ userId: 'sam' })).map((r) => r.content).sort()).toEqual(
      ['The user follows a vegan diet.', "The user's name is Sam.", 'The user works as a nurse.', 'The user has two dogs.', 'The user is allergic to peanuts.', 'The user loves hiking on weekends.', 'The user lives in Berlin.'].sort(),
    );
  });
});
