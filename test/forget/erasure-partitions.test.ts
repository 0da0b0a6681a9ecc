/**
 * forgetSource replays only the partitions the erased source touched (forget/partition.ts):
 * the store still equals one that never saw the source, on histories where the source shares
 * exclusive topics, slots and restated turns with other sources, and the replay's work (the
 * decider's calls) does not grow with the history when the source's partition does not.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createPolicyDecider, DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, type Decider } from '../../src/index';
import { forgetVersusFresh, play, USERS, type Conversation } from '../contract/equivalence';
import { activeFacts } from '../helpers/facts';
import { countedPolicy } from '../helpers/counted-policy';
import { createTestMemory, DAY, openTestMemory, T0, type TestMemory } from '../helpers/memory';

/** Said by many sources: changes of mind on exclusive topics and on slots, turns restated word for word, and things apart. */
const STATEMENTS = [
  "I'm vegetarian.",
  "I'm a vegan.",
  "I'm pescatarian.",
  'I prefer the window seat.',
  'I want an aisle seat.',
  'Call me Ada.',
  'Call me Bo.',
  'I sing in a choir.',
  'I quit the choir.',
  'I love olives.',
  'I hate olives.',
  'I play the drums.',
  'I gave up the drums.',
  'I usually travel with my dog.',
  'The export keeps failing.',
  'What a lovely day.',
];

/** A history of 8 to 30 conversations, one source each, mostly one user's. */
const historyArbitrary = fc
  .array(
    fc.record({
      user: fc.constantFrom('u1', 'u1', 'u1', 'u2'),
      sourceType: fc.constantFrom('user_explicit' as const, 'user_explicit' as const, 'user_implicit' as const, 'tool_output' as const),
      session: fc.nat({ max: 2 }),
      gapDays: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 })),
      statements: fc.array(fc.constantFrom(...STATEMENTS), { minLength: 1, maxLength: 3 }),
    }),
    { minLength: 8, maxLength: 30 },
  )
  .map((items) => {
    let at = T0;
    return items.map((item, i): Conversation => {
      at += item.gapDays * DAY;
      return { kind: 'ingest', userId: item.user, sourceId: `c${i}`, sourceType: item.sourceType, sessionId: `s${item.session}`, at, text: item.statements.join(' ') };
    });
  });

/** A decider that answers as the policy does but is not it: an erasure cannot know what it reads, and replays everything. */
function countedOther(): { decider: Decider; calls: () => number } {
  const policy = createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: new Set(DEFAULT_EXCLUSIVE_TOPICS) });
  let calls = 0;
  return {
    decider: {
      decide: (input) => {
        calls++;
        return policy.decide(input);
      },
    },
    calls: () => calls,
  };
}

/**
 * A long user of `n` conversations: the diet, the seat and the name change and are restated
 * all along; the middle conversation alone says the user sings in a choir, one three later that
 * they quit it, and the last one that they love olives (each in a turn of its own: a turn that
 * also says the diet is one episode, which joins the two partitions).
 */
function longHistory(n: number): Conversation[] {
  const middle = Math.floor(n / 2);
  const rotating = ["I'm vegetarian.", 'I prefer the window seat.', "I'm a vegan.", 'I want an aisle seat.', 'Call me Ada.', "I'm vegetarian.", 'Call me Bo.'];
  return Array.from({ length: n }, (_, i): Conversation => {
    const text = i === middle ? 'I sing in a choir.' : i === middle + 3 ? 'I quit the choir.' : i === n - 1 ? 'I love olives.' : rotating[i % rotating.length]!;
    return { kind: 'ingest', userId: 'u1', sourceId: `c${i}`, sourceType: 'user_explicit', sessionId: `s${i % 3}`, at: T0 + i * 3_600_000, text };
  });
}

let open: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(open.map((test) => test.memory.close()));
  open = [];
});

/** The decider's calls during forgetSource(`revoked`) of `history`, and the active memories after it and in a store that never saw the source. */
async function forgetCounted(history: readonly Conversation[], revoked: string, counted: () => { decider: Decider; calls: () => number }) {
  const { decider, calls } = counted();
  const original = await createTestMemory({ episodes: true, decider });
  const fresh = await createTestMemory({ episodes: true, decider: counted().decider });
  open.push(original, fresh);
  await play(original.memory, original.clock.set, history);
  await play(
    fresh.memory,
    fresh.clock.set,
    history.filter((c) => c.sourceId !== revoked),
  );
  original.clock.advance(DAY);
  const before = calls();
  await original.memory.forgetSource(revoked, { userId: 'u1' });
  return { calls: calls() - before, after: activeFacts(await original.memory.list({ userId: 'u1' })), expected: activeFacts(await fresh.memory.list({ userId: 'u1' })) };
}

describe('Memory.forgetSource (only the partitions the source touched are replayed)', () => {
  it('equals a store that never saw the source, for random histories whose sources share exclusive topics, slots and restated turns', async () => {
    let runs = 0;
    let changed = 0;
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.nat(), async (history, pick) => {
        const target = history[pick % history.length]!;
        const { before, after, expected } = await forgetVersusFresh(openTestMemory, history, target.userId, target.sourceId, USERS);
        runs++;
        if (JSON.stringify(before) !== JSON.stringify(after[target.userId])) changed++;
        expect(after).toEqual(expected);
      }),
      { numRuns: 20, seed: 20261207 },
    );
    console.log(`partitioned erasure property: ${runs} random histories, ${changed} changed by the erasure, 0 mismatches`);
    expect(changed).toBeGreaterThanOrEqual(10);
  }, 600_000);

  for (const [position, revokedOf] of [
    ['a middle', (n: number) => `c${Math.floor(n / 2)}`],
    ['the most recent', (n: number) => `c${n - 1}`],
  ] as const) {
    it(`asks the decider as often at 4n conversations as at n when ${position} source is forgotten, and equals a store that never saw it`, async () => {
      const small = await forgetCounted(longHistory(40), revokedOf(40), countedPolicy);
      const large = await forgetCounted(longHistory(160), revokedOf(160), countedPolicy);
      expect(small.after).toEqual(small.expected);
      expect(large.after).toEqual(large.expected);
      // Only the choir's (or the olives') conversations are replayed: one decision at most, whatever came before and after.
      expect(large.calls).toBe(small.calls);
      expect(large.calls).toBeLessThanOrEqual(1);
    }, 300_000);
  }

  it('replays everything after the checkpoint with a decider of its own, and still equals a store that never saw the source', async () => {
    const history = longHistory(40);
    const policy = await forgetCounted(history, 'c20', countedPolicy);
    const other = await forgetCounted(history, 'c20', countedOther);
    expect(other.after).toEqual(other.expected);
    expect(other.after).toEqual(policy.after);
    // Every fact written after the checkpoint before c20 is decided again.
    expect(other.calls).toBeGreaterThan(policy.calls + 10);
  }, 300_000);

  it('replays everything when one fact is stated on two topics, and still equals a store that never saw the source', async () => {
    // The same fact remembered on two topics: which neighbours make a sweep's 32 could then depend on other partitions.
    const stamps = (topic: string, i: number): Conversation => ({
      kind: 'remember',
      userId: 'u1',
      sourceId: `r${i}`,
      sourceType: 'user_explicit',
      sessionId: 's0',
      at: T0 + i * 3_600_000,
      text: '',
      fact: { content: 'The user collects stamps.', topic },
    });
    const history = longHistory(40).map((c, i) => (i === 5 ? stamps('hobby', i) : i === 6 ? stamps('general', i) : c));
    const policy = await forgetCounted(history, 'c20', countedPolicy);
    const other = await forgetCounted(history, 'c20', countedOther);
    expect(policy.after).toEqual(policy.expected);
    expect(policy.calls).toBe(other.calls);
  }, 300_000);
});
