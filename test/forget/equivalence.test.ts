import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Memory, SourceType } from '../../src/index';
import { SEED_SESSIONS, SEED_START, SEED_USER } from '../../scripts/seed-sessions';
import { createTestMemory, DAY, T0 } from '../helpers/memory';
import { activeFacts } from '../helpers/facts';
import { longUserConversations } from '../../scripts/bench-long';

/** One write of a generated history: who, which source, when, and what was said or remembered. */
interface Conversation {
  kind: 'ingest' | 'remember' | 'summary';
  userId: string;
  sourceId: string;
  sourceType: SourceType;
  sessionId: string;
  at: number;
  text: string;
  fact?: { content: string; topic: string };
}

async function play(memory: Memory, setTime: (at: number) => void, conversations: readonly Conversation[]) {
  for (const c of conversations) {
    setTime(c.at);
    const options = { userId: c.userId, sessionId: c.sessionId, source: { type: c.sourceType, id: c.sourceId } };
    if (c.kind === 'remember') await memory.remember(c.fact!, { userId: c.userId, source: options.source });
    else if (c.kind === 'summary') await memory.summarizeSession([{ role: 'user', content: c.text }], options);
    else await memory.ingest([{ role: 'user', content: c.text }, { role: 'assistant', content: "I'm vegan and call me Bot." }], options);
  }
}

/**
 * Plays `conversations`, revokes `sourceId` for `userId`, and plays the same conversations
 * without that user's `sourceId` into a fresh store; returns both users' active facts from each.
 */
async function forgetVersusFresh(conversations: readonly Conversation[], userId: string, sourceId: string, users: readonly string[]) {
  const original = await createTestMemory();
  const fresh = await createTestMemory();
  try {
    await play(original.memory, original.clock.set, conversations);
    original.clock.advance(DAY);
    const before = activeFacts(await original.memory.list({ userId }));
    await original.memory.forgetSource(sourceId, { userId });
    await play(fresh.memory, fresh.clock.set, conversations.filter((c) => !(c.userId === userId && c.sourceId === sourceId)));
    const after: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const user of users) {
      after[user] = activeFacts(await original.memory.list({ userId: user }));
      expected[user] = activeFacts(await fresh.memory.list({ userId: user }));
    }
    return { before, after, expected };
  } finally {
    await original.memory.close();
    await fresh.memory.close();
  }
}

const STATEMENTS = [
  "I'm vegetarian.",
  "I'm a vegan.",
  "I'm pescatarian.",
  "I've started eating fish again.",
  'I have gone back to eating meat.',
  'I prefer the window seat.',
  'I want an aisle seat.',
  'I like the middle seat.',
  'Call me Ada.',
  'Call me Bo.',
  'The export keeps failing.',
  'Upload timed out again.',
  'What a lovely day.',
  'I usually travel with my dog.',
];
const FACTS = [
  { content: 'The user likes jazz.', topic: 'music' },
  { content: 'The user likes opera.', topic: 'music' },
  { content: 'The user follows a keto diet.', topic: 'diet' },
  { content: 'The user goes by Ada.', topic: 'identity' },
];
const USERS = ['u1', 'u2'];
const SOURCES = ['s1', 's2', 's3', 's4'];

const conversationArbitrary = fc.record({
  kind: fc.constantFrom('ingest', 'ingest', 'ingest', 'remember', 'summary'),
  userId: fc.constantFrom(...USERS),
  sourceId: fc.constantFrom(...SOURCES),
  sourceType: fc.constantFrom<SourceType>('bootstrapped', 'user_explicit', 'user_implicit', 'tool_output'),
  session: fc.nat({ max: 2 }),
  gapDays: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200 })),
  statements: fc.array(fc.constantFrom(...STATEMENTS), { minLength: 1, maxLength: 3 }),
  fact: fc.constantFrom(...FACTS),
});

const historyArbitrary = fc.array(conversationArbitrary, { minLength: 1, maxLength: 7 }).map((items) => {
  let at = T0;
  return items.map((item): Conversation => {
    at += item.gapDays * DAY;
    return {
      kind: item.kind,
      userId: item.userId,
      sourceId: item.sourceId,
      sourceType: item.sourceType,
      sessionId: `c${item.session}`,
      at,
      text: item.statements.join(' '),
      ...(item.kind === 'remember' ? { fact: item.fact } : {}),
    };
  });
});

describe('Memory.forgetSource (equivalence, invariant 6)', () => {
  const seed = SEED_SESSIONS.map(
    (session): Conversation => ({
      kind: 'ingest',
      userId: SEED_USER,
      sourceId: session.source.id,
      sourceType: session.source.type,
      sessionId: session.sessionId,
      at: SEED_START + session.day * DAY,
      text: session.messages
        .filter((message) => message.role === 'user')
        .map((message) => message.content)
        .join(' '),
    }),
  );

  for (const revoked of ['s1', 's2', 's3']) {
    it(`equals a store that never saw ${revoked} when ${revoked} of the seed is revoked`, async () => {
      const { after, expected } = await forgetVersusFresh(
        seed.map((c) => ({ ...c, userId: 'u_ada' })),
        'u_ada',
        revoked,
        ['u_ada'],
      );
      expect(after).toEqual(expected);
    });
  }

  it('equals a store that never saw s when s is revoked, for random histories of users, topics, source types and times', async () => {
    let runs = 0;
    let changed = 0;
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.nat(), async (conversations, pick) => {
        const target = conversations[pick % conversations.length]!;
        const { before, after, expected } = await forgetVersusFresh(conversations, target.userId, target.sourceId, USERS);
        runs++;
        if (JSON.stringify(before) !== JSON.stringify(after[target.userId])) changed++;
        expect(after).toEqual(expected);
      }),
      { numRuns: 40, seed: 20260101 },
    );
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
      text: messages.filter((message) => message.role === 'user').map((message) => message.content).join(' '),
    }),
  );
  for (const [position, index] of [['an old', 2], ['a middle', 150], ['a recent', 297]] as const) {
    it(`equals a store that never saw it when ${position} source of a 300-conversation history is revoked`, async () => {
      const { before, after, expected } = await forgetVersusFresh(long, 'u_long', `c${index}`, ['u_long']);
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
