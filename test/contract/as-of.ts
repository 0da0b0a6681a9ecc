/**
 * `list({ asOf })` and `retrieve(query, { asOf })`, model-based: the store's past equals the
 * state it was seen in at that time (before any erasure), and after forgetSource(s) equals a
 * fresh store that ingested the same conversations without s, up to that time. Shared by
 * test/asof/as-of.test.ts (IndexedDB) and describeStorageContract (every backend).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Memory } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { DAY, T0 } from '../helpers/memory';
import { historyArbitrary, play, USERS, type Conversation } from './equivalence';
import type { OpenMemory } from './harness';

type Snapshot = Record<string, ReturnType<typeof activeFacts>>;

/** Plays `conversations` one by one, keeping what each user saw after the last write at each time. */
async function playWatching(memory: Memory, setTime: (at: number) => void, conversations: readonly Conversation[]): Promise<Map<number, Snapshot>> {
  const seen = new Map<number, Snapshot>();
  for (const conversation of conversations) {
    await play(memory, setTime, [conversation]);
    const snapshot: Snapshot = {};
    for (const userId of USERS) snapshot[userId] = activeFacts(await memory.list({ userId }));
    seen.set(conversation.at, snapshot);
  }
  return seen;
}

/** What `seen` says was there at `at`: the last snapshot taken at or before it, or nothing. */
function seenAt(seen: ReadonlyMap<number, Snapshot>, at: number): Snapshot {
  const times = [...seen.keys()].filter((time) => time <= at);
  return times.length ? seen.get(Math.max(...times))! : Object.fromEntries(USERS.map((userId) => [userId, []]));
}

async function asOf(memory: Memory, at: number): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const userId of USERS) out[userId] = activeFacts(await memory.list({ userId, asOf: at }));
  return out;
}

/**
 * The property over `runs` random histories. Resolves to how many as-of reads were compared,
 * and how many of them differed from the store's state at the end (so the past is not vacuously
 * the present).
 */
export async function checkAsOf(open: OpenMemory, runs: number): Promise<{ reads: number; differing: number }> {
  let reads = 0;
  let differing = 0;
  await fc.assert(
    fc.asyncProperty(historyArbitrary, fc.nat(), async (conversations, pick) => {
      const original = await open();
      const fresh = await open();
      try {
        const seen = await playWatching(original.memory, original.clock.set, conversations);
        original.clock.advance(DAY);
        const times = [T0 - 1, ...seen.keys()];
        const end = seenAt(seen, Number.MAX_SAFE_INTEGER);
        for (const at of times) {
          const past = await asOf(original.memory, at);
          expect(past).toEqual(seenAt(seen, at));
          reads++;
          if (JSON.stringify(past) !== JSON.stringify(end)) differing++;
        }
        // The present as of now is the store itself, ids included.
        for (const userId of USERS) {
          expect((await original.memory.list({ userId, asOf: original.clock() })).map((record) => record.id)).toEqual((await original.memory.list({ userId })).map((record) => record.id));
        }
        const target = conversations[pick % conversations.length]!;
        await original.memory.forgetSource(target.sourceId, { userId: target.userId });
        const without = await playWatching(
          fresh.memory,
          fresh.clock.set,
          conversations.filter((c) => !(c.userId === target.userId && c.sourceId === target.sourceId)),
        );
        for (const at of times) {
          expect(await asOf(original.memory, at)).toEqual(seenAt(without, at));
          const tombstonesToo = await original.memory.list({ userId: target.userId, asOf: at, includeInvalid: true });
          expect(tombstonesToo.filter((record) => record.sources.some((source) => source.id === target.sourceId))).toEqual([]);
          reads++;
        }
      } finally {
        await original.close();
        await fresh.close();
      }
    }),
    { numRuns: runs, seed: 20260102 },
  );
  return { reads, differing };
}
