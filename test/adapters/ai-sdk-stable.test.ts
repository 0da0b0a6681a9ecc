/**
 * engram/ai-sdk with `order: 'stable'` over a 50-turn conversation on the AI SDK's own mock
 * model: the system prompt the model is sent stays byte-identical on every turn whose memories
 * did not change, and a turn after one that added a memory keeps the previous block as its
 * prefix (the provider's prompt cache keeps it warm). The clock moves six hours a turn, so
 * confidences decay and recency reorders the scores; `order: 'score'` runs beside it to show
 * what that does to an unbudgeted block.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { estimateTokens, MEMORIES_CLOSE, type AssembleOrder, type Extractor } from 'engram';
import { engramMiddleware } from 'engram/ai-sdk';
import { createTestClock, createTestMemory, DAY } from '../helpers/memory';

const SYSTEM = 'You are a helpful travel concierge.';

/** "Note <topic>: <fact>" becomes that fact (half-life one day, so a band decays within a few turns); anything else is small talk. */
const notes: Extractor = {
  extract: (messages) =>
    messages.flatMap(({ content }) => {
      const match = /^Note (\w+): (.+)$/.exec(content);
      return match ? [{ content: match[2]!, topic: match[1]!, confidence: 0.8, excerpt: content, halfLifeDays: 1 }] : [];
    }),
};

const FACT_TURNS = new Map([
  [3, 'Note diet: The user is vegetarian.'],
  [9, 'Note seat: The user prefers the aisle seat.'],
  [17, 'Note home: The user lives in Lisbon.'],
  [24, 'Note language: The user speaks Portuguese and some Japanese.'],
  [31, 'Note budget: The user travels on a mid-range budget.'],
  [38, 'Note pet: The user has a dog named Rex.'],
  [45, 'Note allergy: The user is allergic to peanuts.'],
]);
const SMALL_TALK = ['Any ideas for the weekend?', 'What should I pack?', 'thanks!', 'How long is the flight?', 'Tell me more.', 'Is it rainy there in spring?'];

function generated(text: string): LanguageModelV3GenerateResult {
  const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } };
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
}

function systemOf(call: LanguageModelV3CallOptions): string {
  const message = call.prompt.find((entry) => entry.role === 'system');
  return message?.role === 'system' ? message.content : '';
}

interface TurnRecord {
  system: string;
  /** The stored memories the turn was assembled from (id, content, confidence, last update). */
  state: string;
}

/** 50 user turns through generateText; resolves to each turn's system prompt and the store state it saw. */
async function converse(order: AssembleOrder): Promise<TurnRecord[]> {
  const clock = createTestClock();
  const { memory } = await createTestMemory({ extractor: notes, clock });
  const model = new MockLanguageModelV3({ doGenerate: generated('Sure.') });
  // Relevance weighs nothing: every memory is a candidate on every turn, so the set changes only when a memory is added.
  const middleware = engramMiddleware({ memory, userId: 'ada', sessionId: 'chat', k: 50, maxTokens: 4000, order, weights: { relevance: 0, recency: 0.25, importance: 0.15 } });
  const wrapped = wrapLanguageModel({ model, middleware });
  for (const text of ['Note name: The user is called Ada.', 'Note city: The user is visiting Kyoto in April.']) {
    await memory.ingest([{ role: 'user', content: text }], { userId: 'ada', sessionId: 'before', source: { type: 'user_explicit', id: 'before' } });
  }
  const turns: TurnRecord[] = [];
  for (let turn = 1; turn <= 50; turn++) {
    clock.advance(DAY / 4);
    const state = JSON.stringify((await memory.list({ userId: 'ada' })).map(({ id, content, confidence, updatedAt }) => [id, content, confidence, updatedAt]));
    await generateText({ model: wrapped, system: SYSTEM, prompt: FACT_TURNS.get(turn) ?? SMALL_TALK[turn % SMALL_TALK.length]! });
    await middleware.flush();
    turns.push({ system: systemOf(model.doGenerateCalls.at(-1)!), state });
  }
  await memory.close();
  return turns;
}

/** Per turn after the first: unchanged (same stored memories) turns that were byte-identical, and turns after one new memory that kept the prefix. */
function tally(turns: TurnRecord[]) {
  let unchanged = 0;
  let identical = 0;
  let added = 0;
  let prefixed = 0;
  for (let i = 1; i < turns.length; i++) {
    const [before, now] = [turns[i - 1]!, turns[i]!];
    if (now.state === before.state) {
      unchanged++;
      if (now.system === before.system) identical++;
    } else if ((JSON.parse(now.state) as unknown[]).length === (JSON.parse(before.state) as unknown[]).length + 1) {
      added++;
      if (now.system.startsWith(before.system.slice(0, -MEMORIES_CLOSE.length))) prefixed++;
    }
  }
  return { unchanged, identical, added, prefixed };
}

describe("engramMiddleware order: 'stable'", () => {
  it('sends a byte-identical system prompt on every turn whose memories did not change, and appends a new memory after the others, over 50 turns', async () => {
    const turns = await converse('stable');
    const stable = tally(turns);
    const score = tally(await converse('score'));
    const tokens = turns.map((turn) => estimateTokens(turn.system));
    console.log(
      `50 turns, order 'stable': ${stable.identical}/${stable.unchanged} unchanged turns byte-identical (${((100 * stable.identical) / stable.unchanged).toFixed(0)}%), ` +
        `${stable.prefixed}/${stable.added} turns after a new memory kept the previous block as prefix; system prompt ${tokens[0]}–${tokens.at(-1)} estimated tokens. ` +
        `order 'score': ${score.identical}/${score.unchanged} unchanged turns byte-identical, ${score.prefixed}/${score.added} kept the prefix.`,
    );
    expect(stable.unchanged).toBe(50 - 1 - FACT_TURNS.size);
    expect(stable.identical).toBe(stable.unchanged);
    expect(stable.added).toBe(FACT_TURNS.size);
    expect(stable.prefixed).toBe(stable.added);
    // Every memory is in every prompt: the budget holds them all.
    expect(turns.at(-1)!.system.split('\n- [').length - 1).toBe(2 + FACT_TURNS.size);
    // Without the stable order, decay and recency change the block between turns that changed nothing.
    expect(score.identical).toBeLessThan(score.unchanged);
  });
});

describe('engramMiddleware maxTokens', () => {
  it('keeps the system message within the budget under the given counter and leaves out the lowest-ranked memories', async () => {
    const { memory } = await createTestMemory({ extractor: notes });
    for (const [turn, text] of FACT_TURNS) await memory.ingest([{ role: 'user', content: text }], { userId: 'ada', sessionId: 's', source: { type: 'user_explicit', id: `t${turn}` } });
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const model = new MockLanguageModelV3({ doGenerate: generated('Sure.') });
    const middleware = engramMiddleware({ memory, userId: 'ada', k: 50, maxTokens: 60, countTokens: words });
    // A question each memory shares words with: all seven are relevant, so the budget has to leave some out.
    const query = 'Which seat should I book, the aisle seat or not the aisle seat? And vegetarian food, Lisbon, Portuguese, budget, dog, peanuts?';
    await generateText({ model: wrapLanguageModel({ model, middleware }), system: SYSTEM, prompt: query });
    const system = systemOf(model.doGenerateCalls[0]!);
    const all = await memory.retrieve(query, { userId: 'ada', k: 50 });
    const expected = memory.assemble(SYSTEM, all, { maxTokens: 60, countTokens: words });
    expect(system).toBe(expected.text);
    expect(words(system)).toBeLessThanOrEqual(60);
    expect(expected.dropped.length).toBeGreaterThan(0);
    expect(system).toContain('aisle seat');
    await memory.close();
  });
});
