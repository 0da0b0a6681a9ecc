/**
 * RELIABILITY 10, 11, 13 and 14: text, numbers and keys from the edge of what a caller can
 * pass. Every outcome is a typed rejection or an exact (normalised) round trip; no score is
 * ever NaN; no prototype changes; the extraction regexes stay linear on 100 kB.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechCandidates } from '../../src/extract/speech/extractor';
import { createRuleExtractor, isEngramError, SEED_RULES, ValidationError, type Memory } from '../../src/index';
import { createTestMemory } from '../helpers/memory';
import { expectLinearGrowth, fastestCpuMs } from '../helpers/growth';

let memory: Memory;
let facts = 0;
beforeAll(async () => {
  ({ memory } = await createTestMemory());
});
afterAll(async () => memory.close());

const source = (id: string) => ({ type: 'user_explicit', id }) as const;

/** Resolves to the error, or to null when the call succeeded. */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  return call().then(
    () => null,
    (error: unknown) => error,
  );
}

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();

describe('Memory.remember (text fuzz)', () => {
  it('rejects with a typed error or round-trips the well-formed text exactly for any string', async () => {
    let rejected = 0;
    let stored = 0;
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: fc.constantFrom('\uD800', '\uDFFF', '\uD83D', '\uDE00', 'a', ' ', '\n', '\u200D', '🙂', 'é', 'e\u0301'), maxLength: 20 }),
      fc.constantFrom('', ' ', '\t\n', '\u00A0', '\u3000', '\uFEFF'),
    );
    await fc.assert(
      fc.asyncProperty(text, async (content) => {
        const userId = `fuzz-${++facts}`;
        const error = await outcome(() => memory.remember({ content, topic: 'fuzz' }, { userId, source: source('f') }));
        if (error !== null) {
          expect(isEngramError(error)).toBe(true);
          expect(error).toBeInstanceOf(ValidationError);
          expect(content.toWellFormed().trim()).toBe('');
          expect(await memory.list({ userId, includeInvalid: true })).toEqual([]);
          rejected++;
          return;
        }
        const [record] = await memory.list({ userId });
        expect(record!.content).toBe(content.toWellFormed());
        expect(record!.content.isWellFormed()).toBe(true);
        stored++;
      }),
      { numRuns: 300, seed: 7 },
    );
    console.log(`text fuzz: ${stored} stored exactly, ${rejected} rejected with ValidationError, unhandled 0`);
    expect(stored).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });

  it('round-trips text at the limit and rejects 1 MB and 10 MB with ValidationError when the text is huge', async () => {
    const limit = '🙂'.repeat(50_000);
    await memory.remember({ content: limit, topic: 'big' }, { userId: 'big', source: source('b') });
    expect((await memory.list({ userId: 'big' }))[0]!.content).toBe(limit);
    const reject = async (size: number) => {
      await expect(memory.remember({ content: 'x'.repeat(size), topic: 'big' }, { userId: 'huge', source: source('h') })).rejects.toThrow(ValidationError);
      await expect(memory.ingest([{ role: 'user', content: "I'm vegan ".repeat(size / 10) }], { userId: 'huge', sessionId: 'h', source: source('h') })).rejects.toThrow(ValidationError);
      await expect(memory.retrieve('q'.repeat(size), { userId: 'huge' })).rejects.toThrow(ValidationError);
    };
    for (const size of [1_000_000, 10_000_000]) await reject(size);
    // Rejected at the edge, before any work on the text: the cost grows no faster than the text.
    await expectLinearGrowth([{ label: 'rejecting huge text', run: reject }], 1_000_000, 1);
    expect(await memory.list({ userId: 'huge', includeInvalid: true })).toEqual([]);
  });

  it('rejects with a typed error or stores user text when ingesting random conversations', async () => {
    const message = fc.record({
      role: fc.constantFrom('user', 'assistant', 'system', 'tool', 'narrator'),
      content: fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom("I'm vegan", 'call me Ζωή', "I've started eating fish\uD800", '')),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 4 }), async (messages) => {
        const userId = `conv-${++facts}`;
        const error = await outcome(() => memory.ingest(messages as never, { userId, sessionId: 's', source: source('s') }));
        if (error !== null) {
          expect(error).toBeInstanceOf(ValidationError);
          expect(await memory.list({ userId, includeInvalid: true })).toEqual([]);
        } else {
          for (const record of await memory.list({ userId, includeInvalid: true })) {
            expect(record.userId).toBe(userId);
            expect(record.scope).toBe('user');
          }
        }
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});

describe('Memory (number fuzz)', () => {
  const edge = fc.oneof(fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0, 1, -1, 1e-300, 5e-324, 1e308, 0.5, 1 + Number.EPSILON, Number.MAX_SAFE_INTEGER), fc.double());
  // Mostly in range, so the read path is exercised too; the edge values still come often.
  const unit = fc.oneof({ arbitrary: edge, weight: 1 }, { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 3 });
  const halfLife = fc.oneof({ arbitrary: edge, weight: 1 }, { arbitrary: fc.double({ min: 0.001, max: 365_000, noNaN: true }), weight: 3 });
  const weight = fc.oneof({ arbitrary: edge, weight: 1 }, { arbitrary: fc.double({ min: 0, max: 1000, noNaN: true }), weight: 4 });
  const count = fc.oneof({ arbitrary: edge, weight: 1 }, { arbitrary: fc.integer({ min: 0, max: 1000 }), weight: 3 });

  it('rejects out-of-range numbers at the edge and never produces a NaN score', async () => {
    let accepted = 0;
    let rejected = 0;
    let scored = 0;
    await fc.assert(
      fc.asyncProperty(unit, unit, halfLife, fc.tuple(weight, weight, weight), count, async (importance, confidence, halfLifeDays, [relevance, recency, weightImportance], k) => {
        const userId = `num-${++facts}`;
        const writeError = await outcome(() => memory.remember({ content: 'The user likes numbers.', topic: 'numbers', importance, confidence, halfLifeDays }, { userId, source: source('n') }));
        const inRange = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1;
        const valid = inRange(importance) && inRange(confidence) && Number.isFinite(halfLifeDays) && halfLifeDays >= 0.001 && halfLifeDays <= 365_000;
        if (writeError !== null) {
          expect(writeError).toBeInstanceOf(ValidationError);
          expect(valid).toBe(false);
          rejected++;
          return;
        }
        expect(valid).toBe(true);
        accepted++;
        const weights = { relevance, recency, importance: weightImportance };
        const readError = await outcome(async () => {
          const hits = await memory.retrieve('numbers', { userId, k, weights });
          for (const hit of hits) {
            for (const value of [hit.score, hit.relevance, hit.recency, hit.importance, hit.memory.confidence]) expect(Number.isNaN(value)).toBe(false);
            scored++;
          }
          const defaults = await memory.retrieve('numbers', { userId });
          expect(defaults).toHaveLength(1);
          expect(Number.isFinite(defaults[0]!.score)).toBe(true);
          expect(Object.is(defaults[0]!.importance, -0)).toBe(false);
        });
        if (readError !== null) expect(readError).toBeInstanceOf(ValidationError);
      }),
      { numRuns: 300, seed: 3 },
    );
    console.log(`number fuzz: ${accepted} writes accepted, ${rejected} rejected at the edge; ${scored} scores checked, NaN scores 0`);
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('Memory (prototype keys)', () => {
  it('rejects prototype keys in option objects and facts and strips them from messages, changing no prototype', async () => {
    const before = prototypeKeys();
    const evil = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}';
    const merge = (json: string) => JSON.parse(json.replace(/}$/, ',' + evil.slice(1))) as Record<string, unknown>;
    const fact = { content: 'The user likes __proto__ jokes.', topic: '__proto__' };
    const options = { userId: '__proto__', source: { type: 'user_explicit', id: 'constructor' } } as const;
    const unknown = /unknown keys '__proto__', 'constructor', 'prototype'/;
    // Option objects and facts are strict: a prototype key is an unknown key, at any depth.
    await expect(memory.remember(merge(JSON.stringify(fact)) as never, options)).rejects.toThrow(ValidationError);
    await expect(memory.remember(fact, merge(JSON.stringify(options)) as never)).rejects.toThrow(unknown);
    await expect(memory.remember(fact, { ...options, source: merge(JSON.stringify(options.source)) } as never)).rejects.toThrow(/^options\.source: unknown keys/);
    await expect(memory.retrieve('jokes', merge('{"userId":"__proto__","weights":{"relevance":1}}') as never)).rejects.toThrow(unknown);
    await expect(memory.list(merge('{"userId":"__proto__"}') as never)).rejects.toThrow(unknown);
    expect(await memory.list({ userId: '__proto__', includeInvalid: true })).toEqual([]);
    // Messages are not strict (a chat app's messages carry their own fields): the keys are dropped.
    await memory.remember(fact, options);
    const messages = [merge(`{"role":"user","content":"I'm vegan. Call me Proto."}`)];
    await memory.ingest(messages as never, { userId: '__proto__', sessionId: 'prototype', source: { type: 'user_implicit', id: 'prototype' } });
    const hits = await memory.retrieve('vegan jokes', { userId: '__proto__', weights: { relevance: 1, recency: 0, importance: 0 } });
    expect(hits.length).toBeGreaterThan(0);
    const records = await memory.list({ userId: '__proto__' });
    expect(records.map((r) => r.content).sort()).toEqual(['The user follows a vegan diet.', 'The user goes by Proto.', 'The user likes __proto__ jokes.']);
    for (const record of records) {
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(Object.hasOwn(record, '__proto__')).toBe(false);
      for (const entry of record.sources) expect(Object.getPrototypeOf(entry)).toBe(Object.prototype);
    }
    expect(prototypeKeys()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await memory.list({ userId: 'constructor' })).toEqual([]);
  });

  it('changes no prototype when an extractor returns candidates with prototype keys', async () => {
    const before = prototypeKeys();
    const { memory: custom } = await createTestMemory({
      extractor: {
        extract: () => [JSON.parse('{"content":"The user likes tea.","topic":"drink","confidence":0.9,"excerpt":"tea","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}')],
      },
    });
    await custom.ingest([{ role: 'user', content: 'tea' }], { userId: 'ada', sessionId: 's', source: source('s') });
    const [record] = await custom.list({ userId: 'ada' });
    expect(record!.content).toBe('The user likes tea.');
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(prototypeKeys()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    await custom.close();
  });
});

describe('SEED_RULES (adversarial input)', () => {
  it('matches each rule in linear time when given 100 kB built to backtrack', async () => {
    const size = 100_000;
    const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const inputs = [
      'a',
      ' ',
      "i'm ",
      "i'm a ",
      "i'm vegan ",
      "i've started eating ",
      "i've started eating fish ",
      'i prefer the ',
      'i prefer the aisle seat ',
      'call me ',
      'call me A',
      'call me Ada ',
      'export keeps ',
      'export keeps failing ',
      'i i i ',
      "i'",
      'iiiiii',
      'Aa0_',
      '\u00e9\u0301',
      "I'm vegan. call me Bo! i prefer a window seat\n",
    ];
    const cases = SEED_RULES.flatMap((rule) =>
      inputs.map((unit) => ({
        label: `${rule.topic} on ${JSON.stringify(unit.slice(0, 16))}…`,
        run: (n: number) => {
          const pattern = new RegExp(rule.pattern.source, rule.pattern.flags + 'g');
          let matches = 0;
          for (const _match of fill(unit, n).matchAll(pattern)) matches++;
          expect(matches).toBeLessThanOrEqual(n);
        },
      })),
    );
    const { worstMs, worst, ratios } = await expectLinearGrowth(cases, size);
    console.log(
      `extraction regexes on 100 kB: worst ${worstMs.toFixed(1)} ms (${worst}); 4n/n of the slowest: ${Object.values(ratios)
        .map((r) => r.toFixed(2))
        .join(', ')}`,
    );
  });
});

describe('createRuleExtractor (adversarial input)', () => {
  it('extracts from a long message (25 kB, then 50 kB) with a match every few words in linear time', async () => {
    const size = 100_000;
    const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const extractor = createRuleExtractor();
    const cases = ["i'm vegan ", 'call me Ada ', 'i prefer the aisle seat ', "I've started eating fish ", 'export keeps failing ', 'Bob said: "I\'m vegan ', "“i'm vegan "].map((unit) => ({
      label: JSON.stringify(unit),
      run: async (n: number) => {
        const candidates = await extractor.extract([{ role: 'user', content: fill(unit, n) }], { userId: 'u', appName: 'a', sessionId: 's' });
        expect(candidates.length).toBeLessThanOrEqual(n);
      },
    }));
    // Walking to the sentence ends and recounting quotes per match made this quadratic (29 s) before.
    // Growth from 25 kB to 50 kB: a quadratic walk shows as well there, at a fraction of the time.
    const { worstMs, worst, ratios } = await expectLinearGrowth(cases, size / 4, 2);
    console.log(
      `rule extractor on 25 kB with dense matches: worst ${worstMs.toFixed(1)} ms (${worst}); 4n/n of the slowest: ${Object.values(ratios)
        .map((r) => r.toFixed(2))
        .join(', ')}`,
    );
  });
});

describe('speechCandidates (adversarial input)', () => {
  it('reads any repeated unit in linear time, at no more than 5x the cost of ordinary speech of the same length', async () => {
    const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const read = (unit: string) => (size: number) => speechCandidates(fill(unit, size), 0);
    // The seed rules' own units ("i'm vegan", "call me Ada") are timed above; these are the reader's.
    const units = [
      'i am a a a a ',
      'my my my ',
      'i have ',
      "i'm not not not ",
      ', , , ',
      ',',
      'i,',
      'i i i i ',
      'my sister my sister ',
      'and i and i ',
      'I went to Paris yesterday and ',
      'last week last week ',
      'hi hi hi ',
      'x'.repeat(60),
      "i'm so so so so excited about ",
    ];
    const size = 100_000;
    const { ratios } = await expectLinearGrowth(
      units.map((unit) => ({ label: JSON.stringify(unit), run: read(unit) })),
      size,
    );
    // A walk quadratic within each bounded piece is linear overall but many times slower: each
    // unit's CPU time is held against ordinary speech of the same length, timed in this run.
    const prose = await fastestCpuMs(read('I am vegan. I live in Berlin. My sister Ana lives in Lisbon. '), size);
    // One after another: CPU time is the process's, so timings run side by side would count each other.
    const costs: [string, number][] = [];
    for (const unit of units) costs.push([JSON.stringify(unit), (await fastestCpuMs(read(unit), size)) / prose]);
    const [worst, cost] = costs.reduce((a, b) => (b[1] > a[1] ? b : a));
    console.log(
      `speech extractor, 4n/n of the slowest: ${Object.values(ratios)
        .map((r) => r.toFixed(2))
        .join(', ')}; costliest unit ${worst} at ${cost.toFixed(2)}x ordinary speech (${prose.toFixed(1)} ms CPU per 100 kB)`,
    );
    for (const [unit, relative] of costs) expect(relative, unit).toBeLessThan(5);
    // Fifteen units, each timed several times over 100 kB: CPU-bound, so on a loaded machine it
    // needs more than the default 30 s of wall time (the assertions are on CPU time).
  }, 180_000);
});
