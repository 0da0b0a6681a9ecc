/**
 * forgetSource of a source that only restated what the store held is made without a replay
 * (forget/restated.ts): the store still equals one that never saw the source (the active
 * memories with their sources, confidence and times, and every later write decided the same),
 * and its cost does not grow with the history before or after the source.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/index';
import { play, type Conversation } from '../contract/equivalence';
import { activeFacts } from '../helpers/facts';
import { countedPolicy } from '../helpers/counted-policy';
import { createTestMemory, DAY, T0, type TestMemory } from '../helpers/memory';

/** Each thing the user keeps saying, with the values it changes between. */
const SAYINGS: readonly (readonly string[])[] = [
  ["I'm vegetarian.", "I'm a vegan.", "I'm pescatarian."],
  ['I prefer the window seat.', 'I want an aisle seat.'],
  ['Call me Ada.', 'Call me Bo.'],
  ['I sing in a choir.', 'I quit the choir.'],
  ['I love olives.', 'I hate olives.'],
  ['The export keeps failing.'],
];

/**
 * A history that restates the current value of the same few things across many sources (of
 * every trust), one conversation each, one user, now and then changing one: most sources only
 * restate, some change a value, on exclusive topics and on slots.
 */
const restatingArbitrary = fc
  .array(
    fc.record({
      sourceType: fc.constantFrom('user_explicit' as const, 'user_explicit' as const, 'user_implicit' as const, 'tool_output' as const),
      gapHours: fc.integer({ min: 1, max: 30 }),
      says: fc.subarray([0, 1, 2, 3, 4, 5], { minLength: 1, maxLength: 3 }),
      // Which saying changes its value first (none above the last).
      changes: fc.integer({ min: 0, max: 12 }),
      // A turn of its own per statement, or one turn for all (then its episode states them all).
      turns: fc.boolean(),
    }),
    { minLength: 10, maxLength: 24 },
  )
  .map((items) => {
    let at = T0;
    const current = SAYINGS.map(() => 0);
    return items.map((item, i): Conversation => {
      at += item.gapHours * 3_600_000;
      if (item.changes < SAYINGS.length) current[item.changes] = (current[item.changes]! + 1) % SAYINGS[item.changes]!.length;
      const statements = item.says.map((saying) => SAYINGS[saying]![current[saying]!]!);
      return { kind: 'ingest', userId: 'u1', sourceId: `c${i}`, sourceType: item.sourceType, sessionId: `s${i % 2}`, at, text: item.turns ? statements.join('\n') : statements.join(' ') };
    });
  });

/** What must be equal: each active memory with its sources, confidence and times. */
function state(records: readonly MemoryRecord[]) {
  const active = records.filter((record) => record.invalidatedAt === undefined);
  return { facts: activeFacts(active), times: active.map((record) => `${record.topic}|${record.content}|${record.createdAt}|${record.updatedAt}`).sort() };
}

let open: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(open.map((test) => test.memory.close()));
  open = [];
});

/**
 * Plays `history`, forgets `revoked`, then plays `later` (changes of mind that meet what the
 * erasure rebuilt); the same into a store that never saw the source. Returns both states after
 * the erasure and at the end, and the decider's calls during the erasure.
 */
async function forgetThenContinue(history: readonly Conversation[], revoked: string, later: readonly Conversation[] = []) {
  const { decider, calls } = countedPolicy();
  const original = await createTestMemory({ episodes: true, decider });
  const fresh = await createTestMemory({ episodes: true });
  open.push(original, fresh);
  const never = history.filter((c) => c.sourceId !== revoked);
  for (const [test, conversations] of [
    [original, history],
    [fresh, never],
  ] as const)
    await play(test.memory, test.clock.set, conversations);
  const before = calls();
  await original.memory.forgetSource(revoked, { userId: 'u1' });
  const erasureCalls = calls() - before;
  const afterErasure = { got: state(await original.memory.list({ userId: 'u1' })), expected: state(await fresh.memory.list({ userId: 'u1' })) };
  await play(original.memory, original.clock.set, later);
  await play(fresh.memory, fresh.clock.set, later);
  const atEnd = { got: state(await original.memory.list({ userId: 'u1' })), expected: state(await fresh.memory.list({ userId: 'u1' })) };
  return { erasureCalls, afterErasure, atEnd };
}

/** Later conversations: every statement once, each from a source of the lowest trust and then of the highest, so changes of mind meet what the erasure left. */
function laterConversations(after: number): Conversation[] {
  return SAYINGS.flat().flatMap((text, i): Conversation[] =>
    (['tool_output', 'user_explicit'] as const).map((sourceType, j) => ({ kind: 'ingest', userId: 'u1', sourceId: `later${i}_${j}`, sourceType, sessionId: 's0', at: after + (2 * i + j + 1) * 3_600_000, text })),
  );
}

/**
 * A long user of `n` conversations that restate the diet, the seat and the name, which change
 * now and then: conversation `restating` restates what is current, and nothing else does.
 */
function restatedHistory(n: number): Conversation[] {
  const diets = ["I'm vegetarian.", "I'm a vegan.", "I'm pescatarian."];
  const seats = ['I prefer the window seat.', 'I want an aisle seat.'];
  return Array.from({ length: n }, (_, i): Conversation => {
    const text = [diets[Math.floor(i / 9) % diets.length]!, seats[Math.floor(i / 13) % seats.length]!, i % 5 === 0 ? 'Call me Ada.' : ''].filter(Boolean).join('\n');
    return { kind: 'ingest', userId: 'u1', sourceId: `c${i}`, sourceType: 'user_explicit', sessionId: `s${i % 3}`, at: T0 + i * 3_600_000, text };
  });
}

/** CPU ms of this process during `run`. */
async function cpuMsOf(run: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await run();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

/**
 * Up to MAX_PICKS sources that only restated, from `from` on (down when `step` is -1): the
 * conversations that change the diet (every 9th) or the seat (every 13th) are left out.
 */
function restatingFrom(from: number, step: 1 | -1): number[] {
  const picks: number[] = [];
  for (let i = from; picks.length < MAX_PICKS; i += step) if (i % 9 !== 0 && i % 13 !== 0) picks.push(i);
  return picks;
}

/** A store of `restatedHistory(n)`, a day after its last conversation. */
async function restatedStore(n: number): Promise<TestMemory> {
  const test = await createTestMemory({ episodes: true });
  open.push(test);
  await play(test.memory, test.clock.set, restatedHistory(n));
  test.clock.advance(DAY);
  return test;
}

/**
 * The least CPU of forgetting sources that restated from a store of n and one of GROWTH·n,
 * interleaved as test/helpers/growth.ts times a pair: noise only adds time, so the least is the
 * cost, and more sources are forgotten while the ratio is above the bar (a descheduled or
 * collecting run explains that; a cost that grows with the history does not go away).
 */
async function forgetCpuPair(n: number, picks: (n: number) => number[]): Promise<[number, number]> {
  const [smallStore, largeStore] = [await restatedStore(n), await restatedStore(GROWTH * n)];
  const [smallPicks, largePicks] = [picks(n), picks(GROWTH * n)];
  let [small, large] = [Infinity, Infinity];
  for (let i = 0; i < MAX_PICKS; i++) {
    small = Math.min(small, await cpuMsOf(() => smallStore.memory.forgetSource(`c${smallPicks[i]}`, { userId: 'u1' })));
    large = Math.min(large, await cpuMsOf(() => largeStore.memory.forgetSource(`c${largePicks[i]}`, { userId: 'u1' })));
    if (i + 1 >= MIN_PICKS && large / small < FLAT_RATIO) break;
  }
  return [small, large];
}

/** How much more a forgetSource may cost at GROWTH times the history: flat with room for noise (linear would be 4). */
const FLAT_RATIO = 2;
const GROWTH = 4;
/** Sources forgotten per size: at least MIN_PICKS, and up to MAX_PICKS while the ratio is above the bar. */
const MIN_PICKS = 3;
const MAX_PICKS = 9;

describe('Memory.forgetSource (a source that only restated)', () => {
  for (const [position, picks] of [
    // Sources that restate the current diet and seat, and say nothing else.
    ['a middle', (n: number) => restatingFrom(Math.floor(n / 2) + 1, 1)],
    ['a recent', (n: number) => restatingFrom(n - 2, -1)],
  ] as const) {
    it(`costs as much CPU at 4n conversations as at n when ${position} source that restated is forgotten`, async () => {
      const n = 36;
      const [small, large] = await forgetCpuPair(n, picks);
      console.log(`forgetSource of ${position} source that restated: ${small.toFixed(1)} ms CPU at ${n} conversations, ${large.toFixed(1)} ms at ${GROWTH * n} (${(large / small).toFixed(2)}×)`);
      expect(large / small).toBeLessThan(FLAT_RATIO);
    }, 600_000);
  }

  it('equals a store that never saw the source, and decides every later write the same, for random histories that restate across sources of every trust', async () => {
    let runs = 0;
    let withoutReplay = 0;
    await fc.assert(
      fc.asyncProperty(restatingArbitrary, fc.nat(), async (history, pick) => {
        const revoked = history[pick % history.length]!.sourceId;
        const { erasureCalls, afterErasure, atEnd } = await forgetThenContinue(history, revoked, laterConversations(history.at(-1)!.at + DAY));
        runs++;
        if (erasureCalls === 0) withoutReplay++;
        expect(afterErasure.got).toEqual(afterErasure.expected);
        expect(atEnd.got).toEqual(atEnd.expected);
        await Promise.all(open.map((test) => test.memory.close()));
        open = [];
      }),
      { numRuns: 14, seed: 20261207 },
    );
    console.log(`restated erasure property: ${runs} random histories, ${withoutReplay} erased without a replay, 0 mismatches`);
    // The shortcut is what this checks: most picks only restated.
    expect(withoutReplay).toBeGreaterThanOrEqual(3);
  }, 900_000);

  for (const [position, pick] of [
    ['a middle', (n: number) => Math.floor(n / 2) + 1],
    ['a recent', (n: number) => n - 2],
  ] as const) {
    it(`forgets ${position} source that restated the diet and the seat without a decision, and equals a store that never saw it`, async () => {
      const history = restatedHistory(60);
      const { erasureCalls, afterErasure, atEnd } = await forgetThenContinue(history, `c${pick(60)}`, laterConversations(history.at(-1)!.at + DAY));
      expect(afterErasure.got).toEqual(afterErasure.expected);
      expect(atEnd.got).toEqual(atEnd.expected);
      expect(erasureCalls).toBe(0);
    }, 300_000);
  }
});
