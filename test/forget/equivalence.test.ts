/**
 * Invariant 6 on IndexedDB; the shared bodies (histories, the property) are in
 * test/contract/equivalence.ts, which describeStorageContract runs for every backend.
 */
import { describe, expect, it } from 'vitest';
import { checkEquivalence, forgetVersusFresh, SEED_CONVERSATIONS, type Conversation } from '../contract/equivalence';
import { createTestMemory, openTestMemory as openIndexedDb, T0 } from '../helpers/memory';
import { longUserConversations } from '../../scripts/bench-long';

describe('Memory.forgetSource (equivalence, invariant 6)', () => {
  for (const revoked of ['s1', 's2', 's3']) {
    it(`equals a store that never saw ${revoked} when ${revoked} of the seed is revoked`, async () => {
      const { after, expected } = await forgetVersusFresh(
        openIndexedDb,
        SEED_CONVERSATIONS.map((c) => ({ ...c, userId: 'u_ada' })),
        'u_ada',
        revoked,
        ['u_ada'],
      );
      expect(after).toEqual(expected);
    });
  }

  it('equals a store that never saw s1 and s2 when both of the seed are revoked in one call', async () => {
    const conversations = SEED_CONVERSATIONS.map((c) => ({ ...c, userId: 'u_ada' }));
    const { before, after, expected } = await forgetVersusFresh(openIndexedDb, conversations, 'u_ada', ['s1', 's2'], ['u_ada']);
    expect(after).toEqual(expected);
    expect(after['u_ada']).not.toEqual(before);
  });

  it('equals a store that never saw either source when two are revoked in one call, for random histories', async () => {
    const { runs, changed } = await checkEquivalence(openIndexedDb, 30, 2);
    console.log(`equivalence property (two sources a call): ${runs} random histories, ${changed} changed, 0 mismatches`);
    expect(runs).toBe(30);
    expect(changed).toBeGreaterThanOrEqual(10);
  });

  it('equals a store that never saw s when s is revoked, for random histories of users, topics, source types and times', async () => {
    const { runs, changed } = await checkEquivalence(openIndexedDb, 40);
    console.log(`equivalence property: ${runs} random histories, ${changed} where the erasure changed the active set, 0 mismatches`);
    expect(runs).toBe(40);
    // The property must not pass vacuously: most revocations change something.
    expect(changed).toBeGreaterThanOrEqual(15);
  });

  // A long-time user (the bench's shape): restating and now and then changing the same few
  // preferences, one conversation an hour, some from less trusted sources.
  const long = longUserConversations(300).map(
    (messages, i): Conversation => ({
      kind: 'ingest',
      userId: 'u_long',
      sourceId: `c${i}`,
      sourceType: i % 7 === 3 ? 'tool_output' : i % 5 === 2 ? 'user_implicit' : 'user_explicit',
      sessionId: `s${i % 4}`,
      at: T0 + i * 3_600_000,
      text: messages
        .filter((message) => message.role === 'user')
        .map((message) => message.content)
        .join(' '),
    }),
  );
  for (const [position, index] of [
    ['an old', 2],
    ['a middle', 150],
    ['a recent', 297],
  ] as const) {
    it(`equals a store that never saw it when ${position} source of a 300-conversation history is revoked`, async () => {
      const { before, after, expected } = await forgetVersusFresh(openIndexedDb, long, 'u_long', `c${index}`, ['u_long']);
      expect(after).toEqual(expected);
      expect(JSON.stringify(after)).not.toEqual(JSON.stringify({ u_long: before }));
    }, 120_000);
  }

  for (const [label, step] of [
    ['every third', 3],
    ['two of every three', 1.5],
  ] as const) {
    it(`equals a store that never saw them when ${label} source of a 60-conversation history is revoked in one call`, async () => {
      // Many sources (20 and 40): the erasure reads the owner's log, lineage, events and rows in one pass each instead of one query per source.
      const revoked = long
        .slice(0, 60)
        .filter((_, i) => (step === 3 ? i % 3 === 1 : i % 3 !== 0))
        .map((c) => c.sourceId);
      const { before, after, expected } = await forgetVersusFresh(openIndexedDb, long.slice(0, 60), 'u_long', revoked, ['u_long']);
      expect(revoked).toHaveLength(step === 3 ? 20 : 40);
      expect(after).toEqual(expected);
      expect(JSON.stringify(after)).not.toEqual(JSON.stringify({ u_long: before }));
    }, 120_000);
  }

  it('stays equivalent when app scope is untouched by a user revoking a source that also fed an app memory', async () => {
    const test = await createTestMemory();
    try {
      await test.memory.remember({ content: 'Solaris serves vegetarian meals.', topic: 'menu' }, { scope: 'app', source: { type: 'bootstrapped', id: 's1' } });
      await test.memory.ingest([{ role: 'user', content: "I'm vegan." }], { userId: 'u1', sessionId: 'c1', source: { type: 'user_explicit', id: 's1' } });
      await test.memory.forgetSource('s1', { userId: 'u1' });
      const all = await test.memory.list({ userId: 'u1' });
      expect(all.map((record) => [record.scope, record.content])).toEqual([['app', 'Solaris serves vegetarian meals.']]);
    } finally {
      await test.memory.close();
    }
  });
});
