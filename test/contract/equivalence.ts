/**
 * Invariant 6's property, shared by test/forget/equivalence.test.ts (IndexedDB) and
 * describeStorageContract: after forgetSource(s) the owner's active memories equal those of a
 * fresh store that ingested the same conversations without s, at the original times.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Memory, SourceType } from '../../src/index';
import { SEED_SESSIONS, SEED_START, SEED_USER } from '../../scripts/seed-sessions';
import { DAY, T0 } from '../helpers/memory';
import { activeFacts } from '../helpers/facts';
import type { OpenMemory } from './harness';

/** One write of a generated history: who, which source, when, and what was said or remembered. */
export interface Conversation {
  kind: 'ingest' | 'remember' | 'summary';
  userId: string;
  sourceId: string;
  sourceType: SourceType;
  sessionId: string;
  at: number;
  text: string;
  fact?: { content: string; topic: string };
}

export async function play(memory: Memory, setTime: (at: number) => void, conversations: readonly Conversation[]) {
  for (const c of conversations) {
    setTime(c.at);
    const options = { userId: c.userId, sessionId: c.sessionId, source: { type: c.sourceType, id: c.sourceId } };
    if (c.kind === 'remember') await memory.remember(c.fact!, { userId: c.userId, source: options.source });
    else if (c.kind === 'summary') await memory.summarizeSession([{ role: 'user', content: c.text }], options);
    else
      await memory.ingest(
        [
          { role: 'user', content: c.text },
          { role: 'assistant', content: "I'm vegan and call me Bot." },
        ],
        options,
      );
  }
}

/**
 * Plays `conversations`, revokes `sourceId` (one id, or several in one call) for `userId`, and
 * plays the same conversations without that user's revoked sources into a fresh store; returns
 * both users' active memories (facts and episodes) from each.
 */
export async function forgetVersusFresh(open: OpenMemory, conversations: readonly Conversation[], userId: string, sourceId: string | readonly string[], users: readonly string[]) {
  const revoked = new Set(typeof sourceId === 'string' ? [sourceId] : sourceId);
  // Episodes on: the turns kept in the user's words must be erased and rebuilt like the facts.
  const original = await open({ episodes: true });
  const fresh = await open({ episodes: true });
  try {
    await play(original.memory, original.clock.set, conversations);
    original.clock.advance(DAY);
    const before = activeFacts(await original.memory.list({ userId }));
    await original.memory.forgetSource(sourceId, { userId });
    await play(
      fresh.memory,
      fresh.clock.set,
      conversations.filter((c) => !(c.userId === userId && revoked.has(c.sourceId))),
    );
    const after: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const user of users) {
      after[user] = activeFacts(await original.memory.list({ userId: user }));
      expected[user] = activeFacts(await fresh.memory.list({ userId: user }));
    }
    return { before, after, expected };
  } finally {
    await original.close();
    await fresh.close();
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
  // Changes of mind on slots of topics that are not exclusive (consolidate/slot.ts).
  'I sing in a choir.',
  'I quit the choir.',
  'I love olives.',
  'I hate olives.',
];
const FACTS = [
  { content: 'The user likes jazz.', topic: 'music' },
  { content: 'The user likes opera.', topic: 'music' },
  { content: 'The user follows a keto diet.', topic: 'diet' },
  { content: 'The user goes by Ada.', topic: 'identity' },
];
export const USERS = ['u1', 'u2'];
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

export const historyArbitrary = fc.array(conversationArbitrary, { minLength: 1, maxLength: 7 }).map((items) => {
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

export const SEED_CONVERSATIONS = SEED_SESSIONS.map(
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

/** The sources one call revokes: the picked conversation's, and with `sources: 2` another of the same user's (when there is one). */
function revokedOf(conversations: readonly Conversation[], pick: number, sources: 1 | 2): { userId: string; sourceIds: string[] } {
  const target = conversations[pick % conversations.length]!;
  const other = conversations.find((c) => c.userId === target.userId && c.sourceId !== target.sourceId);
  return { userId: target.userId, sourceIds: sources === 2 && other ? [target.sourceId, other.sourceId] : [target.sourceId] };
}

/**
 * The property over `runs` random histories of two users, four sources and every source type;
 * `sources: 2` revokes two sources of one user in one call. Resolves to how many runs there
 * were and in how many the erasure changed the active set.
 */
export async function checkEquivalence(open: OpenMemory, runs: number, sources: 1 | 2 = 1): Promise<{ runs: number; changed: number }> {
  let count = 0;
  let changed = 0;
  await fc.assert(
    fc.asyncProperty(historyArbitrary, fc.nat(), async (conversations, pick) => {
      const target = revokedOf(conversations, pick, sources);
      const { before, after, expected } = await forgetVersusFresh(open, conversations, target.userId, sources === 1 ? target.sourceIds[0]! : target.sourceIds, USERS);
      count++;
      if (JSON.stringify(before) !== JSON.stringify(after[target.userId])) changed++;
      expect(after).toEqual(expected);
    }),
    { numRuns: runs, seed: 20260101 },
  );
  return { runs: count, changed };
}
