import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PluginError, ValidationError } from '../../src/errors';
import { assembleContext, byRank, type AssemblePlan } from '../../src/inject/assemble';
import { EPISODES_HEADING, MORE_FACTS_HEADING, renderContext, MEMORIES_CLOSE } from '../../src/inject/inject';
import { estimateTokens } from '../../src/inject/tokens';
import type { Retrieved } from '../../src/retrieve/retrieve';
import type { MemoryRecord } from '../../src/schema';
import { record, T } from '../consolidate/fixtures';
import { createTestMemory } from '../helpers/memory';

const DAY = 86_400_000;

function hit(memory: MemoryRecord, score: number): Retrieved {
  return { memory, score, relevance: score, recency: 1, importance: 0.5 };
}

function plan(maxTokens: number, overrides: Partial<AssemblePlan> = {}): AssemblePlan {
  return { maxTokens, countTokens: estimateTokens, order: 'score', now: T, ...overrides };
}

/** Counters an app might pass: the estimate, words, a coarse one that is not additive across lines. */
const COUNTERS: Record<string, (text: string) => number> = {
  estimate: estimateTokens,
  words: (text) => text.split(/\s+/).filter(Boolean).length,
  quarters: (text) => Math.ceil(text.length / 4),
};

const memories = fc
  .array(
    fc.record({
      content: fc.string({ minLength: 1, maxLength: 80, unit: fc.constantFrom('a', 'b', ' ', '李', 'é', '\n', '[', '<', '😊') }).filter((text) => text.trim() !== ''),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
      created: fc.integer({ min: 0, max: 1000 }),
      // Episodes too: their part of the block has a heading of its own, which the budget must count.
      topic: fc.constantFrom('t', 'episode'),
    }),
    { maxLength: 25 },
  )
  .map((rows) => rows.map((row, i) => hit(record(`m${String(i).padStart(3, '0')}`, row.content, row.topic, { createdAt: T + row.created * 1000 }), row.score)));

describe('assembleContext', () => {
  it('never exceeds maxTokens and drops the lowest-ranked first, under any of the counters', () => {
    fc.assert(
      fc.property(memories, fc.integer({ min: 0, max: 3000 }), fc.constantFrom(...Object.keys(COUNTERS)), fc.constantFrom('score' as const, 'stable' as const), (retrieved, extra, name, order) => {
        const countTokens = COUNTERS[name]!;
        const maxTokens = countTokens(renderContext('sys', [], T)) + extra;
        const out = assembleContext('sys', retrieved, plan(maxTokens, { countTokens, order }));
        expect(out.tokens).toBe(countTokens(out.text));
        expect(out.tokens).toBeLessThanOrEqual(maxTokens);
        const ranked = [...retrieved].sort(byRank);
        // What is included is a head of the ranking, what is dropped the rest of it, in order.
        const ids = (list: Retrieved[]) => list.map((one) => one.memory.id);
        expect(new Set(ids(out.included))).toEqual(new Set(ids(ranked.slice(0, out.included.length))));
        expect(ids(out.dropped)).toEqual(ids(ranked.slice(out.included.length)));
        // And the next one in line would not have fitted.
        if (out.dropped.length > 0) {
          const more = assembleContext('sys', [...out.included, out.dropped[0]!], plan(Number.MAX_SAFE_INTEGER, { countTokens, order }));
          expect(more.tokens).toBeGreaterThan(maxTokens);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes every included memory as a whole line and no text of a dropped one when the budget binds', () => {
    const retrieved = ['alpha fact one', 'beta fact two', 'gamma fact three', 'delta fact four'].map((content, i) => hit(record(`m${i}`, content, 't'), 1 - i / 10));
    const frame = estimateTokens(renderContext('sys', [], T));
    const out = assembleContext('sys', retrieved, plan(frame + 2 * estimateTokens('- [confidence: medium, source: user_implicit] gamma fact three\n')));
    expect(out.included.map((one) => one.memory.content)).toEqual(['alpha fact one', 'beta fact two']);
    expect(out.dropped.map((one) => one.memory.content)).toEqual(['gamma fact three', 'delta fact four']);
    expect(out.text).toBe(renderContext('sys', out.included, T));
    expect(out.text).not.toContain('gamma');
  });

  it('equals inject of the ranking when everything fits in score order', () => {
    const retrieved = [hit(record('a', 'low', 't'), 0.1), hit(record('b', 'high', 't'), 0.9), hit(record('c', 'mid', 't'), 0.5)];
    const out = assembleContext('sys', retrieved, plan(10_000));
    expect(out.text).toBe(renderContext('sys', [retrieved[1]!, retrieved[2]!, retrieved[0]!], T));
    expect(out.dropped).toEqual([]);
  });

  it('writes a memory given twice once', () => {
    const memory = record('a', 'only once', 't');
    const out = assembleContext('sys', [hit(memory, 0.9), hit(memory, 0.2)], plan(10_000));
    expect(out.text.split('only once')).toHaveLength(2);
    expect(out.included).toHaveLength(1);
  });

  it('refuses a budget that cannot hold the system prompt and the empty block', () => {
    expect(() => assembleContext('a long system prompt', [], plan(10))).toThrow(ValidationError);
  });

  it('reports a tokenizer that returns no count or throws as a PluginError', () => {
    const retrieved = [hit(record('a', 'x', 't'), 1)];
    expect(() => assembleContext('sys', retrieved, plan(100, { countTokens: () => Number.NaN }))).toThrow(PluginError);
    expect(() => assembleContext('sys', retrieved, plan(100, { countTokens: () => -1 }))).toThrow(PluginError);
    expect(() =>
      assembleContext(
        'sys',
        retrieved,
        plan(100, {
          countTokens: () => {
            throw new Error('vocabulary missing');
          },
        }),
      ),
    ).toThrow(/vocabulary missing/);
  });
});

describe("assembleContext order: 'stable'", () => {
  const oldest = record('m1', 'oldest', 't', { createdAt: T, updatedAt: T, confidence: 0.8, halfLifeDays: 30 });
  const middle = record('m2', 'middle', 't', { createdAt: T + 1000, updatedAt: T + 1000 });
  const newest = record('m3', 'newest', 't', { createdAt: T + 2000, updatedAt: T + 2000 });

  it('gives the same bytes for the same set whatever the scores and however much time passed', () => {
    const first = assembleContext('sys', [hit(newest, 0.9), hit(oldest, 0.5), hit(middle, 0.1)], plan(10_000, { order: 'stable' }));
    // A year later the bands of 'score' order have decayed (0.8 at a 30-day half-life), and the scores moved.
    const later = assembleContext('sys', [hit(middle, 0.9), hit(newest, 0.2), hit(oldest, 0.3)], plan(10_000, { order: 'stable', now: T + 365 * DAY }));
    expect(later.text).toBe(first.text);
    expect(first.included.map((one) => one.memory.id)).toEqual(['m1', 'm2', 'm3']);
    expect(first.text).toContain('[confidence: high, source: user_implicit] oldest');
    expect(assembleContext('sys', [hit(oldest, 1)], plan(10_000, { now: T + 365 * DAY })).text).toContain('[confidence: low, source: user_implicit] oldest');
  });

  it('keeps the previous block as the prefix when a newer memory joins the set', () => {
    const before = assembleContext('sys', [hit(oldest, 0.2), hit(middle, 0.9)], plan(10_000, { order: 'stable' })).text;
    const after = assembleContext('sys', [hit(newest, 1), hit(oldest, 0.2), hit(middle, 0.9)], plan(10_000, { order: 'stable' })).text;
    const head = before.slice(0, before.length - MEMORIES_CLOSE.length);
    expect(after.startsWith(head)).toBe(true);
    expect(after.slice(head.length)).toBe(`- [confidence: medium, source: user_implicit] newest\n${MEMORIES_CLOSE}`);
  });

  it('writes facts and episodes by creation, each run under its heading, so a new episode or a new fact keeps the block as its prefix', () => {
    const episode = record('e1', 'I went hiking yesterday.', 'episode', { createdAt: T + 500, updatedAt: T + 500 });
    const later = record('e2', 'I baked bread today.', 'episode', { createdAt: T + 3000, updatedAt: T + 3000 });
    const stable = (hits: Retrieved[]) => assembleContext('sys', hits, plan(10_000, { order: 'stable' })).text;
    const before = stable([hit(episode, 0.9), hit(oldest, 0.2), hit(middle, 0.5)]);
    const said = `(${new Date(T).toISOString().slice(0, 10)})`;
    expect(before.split('\n').slice(4, -1)).toEqual([
      '- [confidence: high, source: user_implicit] oldest',
      EPISODES_HEADING,
      `- [confidence: medium, source: user_implicit] ${said} I went hiking yesterday.`,
      MORE_FACTS_HEADING,
      '- [confidence: medium, source: user_implicit] middle',
    ]);
    const head = before.slice(0, before.length - MEMORIES_CLOSE.length);
    const withEpisode = stable([hit(later, 1), hit(episode, 0.9), hit(oldest, 0.2), hit(middle, 0.5)]);
    expect(withEpisode.slice(head.length)).toBe(`${EPISODES_HEADING}\n- [confidence: medium, source: user_implicit] ${said} I baked bread today.\n${MEMORIES_CLOSE}`);
    const withFact = stable([hit(newest, 1), hit(episode, 0.9), hit(oldest, 0.2), hit(middle, 0.5)]);
    expect(withFact.slice(head.length)).toBe(`- [confidence: medium, source: user_implicit] newest\n${MEMORIES_CLOSE}`);
    // Of one moment (a turn's episode and the facts drawn from it), the facts come first.
    const turn = record('m4', 'same turn', 't', { createdAt: T + 500, updatedAt: T + 500 });
    expect(
      stable([hit(episode, 0.9), hit(turn, 0.1), hit(oldest, 0.2)])
        .split('\n')
        .slice(4, -1),
    ).toEqual(['- [confidence: high, source: user_implicit] oldest', '- [confidence: medium, source: user_implicit] same turn', EPISODES_HEADING, `- [confidence: medium, source: user_implicit] ${said} I went hiking yesterday.`]);
  });

  it("writes the facts above one episodes' heading in score order, whatever their rank", () => {
    const episode = record('e1', 'I went hiking yesterday.', 'episode', { createdAt: T + 500, updatedAt: T + 500 });
    const text = assembleContext('sys', [hit(episode, 0.9), hit(oldest, 0.2), hit(middle, 0.5)], plan(10_000)).text;
    expect(text.split('\n').slice(4, -1)).toEqual([
      '- [confidence: medium, source: user_implicit] middle',
      '- [confidence: high, source: user_implicit] oldest',
      EPISODES_HEADING,
      `- [confidence: medium, source: user_implicit] (${new Date(T).toISOString().slice(0, 10)}) I went hiking yesterday.`,
    ]);
  });

  it('still chooses by rank when the budget binds', () => {
    const line = estimateTokens('- [confidence: medium, source: user_implicit] middle\n');
    const out = assembleContext('sys', [hit(oldest, 0.1), hit(middle, 0.9), hit(newest, 0.8)], plan(estimateTokens(renderContext('sys', [], T)) + 2 * line, { order: 'stable' }));
    expect(out.included.map((one) => one.memory.id)).toEqual(['m2', 'm3']);
    expect(out.dropped.map((one) => one.memory.id)).toEqual(['m1']);
  });
});

describe('estimateTokens', () => {
  it('is at least the UTF-8 length of any text, English, CJK and emoji included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      // Any UTF-16 code units: lone surrogates too (encoded as U+FFFD, three bytes).
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 }).map((units) => String.fromCharCode(...units)),
        (text) => {
          expect(estimateTokens(text)).toBe(encoder.encode(text).length + 1);
        },
      ),
      { numRuns: 200 },
    );
    expect(estimateTokens('I live in Lisbon.')).toBe(18);
    expect(estimateTokens('我住在里斯本。')).toBe(22);
    expect(estimateTokens('😊')).toBe(5);
  });
});

describe("assemble order: 'stable' through a memory with default options (episodes on)", () => {
  it('keeps the previous block as the prefix of the next across turns that add both a fact and an episode', async () => {
    const { memory, clock } = await createTestMemory({ episodes: true });
    const owner = { userId: 'ada' };
    const turn = (content: string, id: string) => memory.ingest([{ role: 'user', content }], { ...owner, sessionId: id, source: { type: 'user_implicit', id } });
    const block = async () => memory.assemble('sys', await memory.retrieve('What do you know about me?', { ...owner, k: 50 }), { maxTokens: 10_000, order: 'stable' }).text;
    await turn("Call me Ada. I'm vegetarian.", 's1');
    const blocks = [await block()];
    // A turn with a fact shows the fact, which stands for its episode (one statement, one hit); a turn no fact was read from shows its episode.
    for (const [i, content] of ['I moved to Lisbon last month.', 'The kids loved the lake, it was magical.', 'I have a dog named Rex.', 'I went hiking yesterday with my sister.'].entries()) {
      clock.advance(DAY);
      const operations = await turn(content, `s${i + 2}`);
      expect(operations.map(({ action }) => action)).toContain('CREATE');
      blocks.push(await block());
    }
    await memory.close();
    // Each turn added a fact or an episode: the block of the turn before is still its prefix, every line of it.
    expect(blocks.at(-1)).toContain(EPISODES_HEADING);
    for (let i = 1; i < blocks.length; i++) {
      const head = blocks[i - 1]!.slice(0, blocks[i - 1]!.length - MEMORIES_CLOSE.length);
      expect(blocks[i]!.length).toBeGreaterThan(blocks[i - 1]!.length);
      expect(blocks[i]!.startsWith(head), `turn ${i + 1}:\n${blocks[i - 1]}\n---\n${blocks[i]}`).toBe(true);
    }
  });
});
