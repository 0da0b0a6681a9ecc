/**
 * `memory.forget`, model-based, for every backend: after the user forgets a random memory of a
 * random history, (1) no active memory and no stored input makes its claim any more, (2) the
 * stored inputs replayed (`asOf` now) give exactly the active set the store holds, so no later
 * replay brings it back, (3) every memory that shared no source with it is still there as it
 * was, and every fact of its sources on another topic still makes its claim, and (4) a forgetSource of another of the user's sources afterwards does not bring it back.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import type { Memory, MemoryRecord } from '../../src/index';
import { sameClaimKey } from '../../src/text';
import { activeFacts } from '../helpers/facts';
import { DAY } from '../helpers/memory';
import { historyArbitrary, play } from './equivalence';
import type { OpenMemory } from './harness';

/** Whether the owner's store still holds the claim: an active memory, or a stored input's candidate. */
async function holdsClaim(memory: Memory, userId: string, claim: string): Promise<boolean> {
  const data = await memory.export({ userId });
  const active = data.memories.filter((record) => record.invalidatedAt === undefined).some((record) => sameClaimKey(record) === claim);
  const inputs = data.inputs.some((input) => (input.kind === 'ingest' || input.kind === 'summary') && (input.candidates ?? []).some((candidate) => sameClaimKey(candidate) === claim));
  const remembered = data.inputs.some((input) => input.kind === 'remember' && sameClaimKey(input.fact) === claim);
  return active || inputs || remembered;
}

const shares = (a: MemoryRecord, b: MemoryRecord) => a.sources.some((source) => b.sources.some((other) => other.id === source.id));

export async function checkForget(open: OpenMemory, runs: number): Promise<{ runs: number; forgotten: number }> {
  let count = 0;
  let forgotten = 0;
  await fc.assert(
    fc.asyncProperty(historyArbitrary, fc.nat(), fc.nat(), async (conversations, pickUser, pickMemory) => {
      const { memory, clock, close } = await open({ episodes: true });
      try {
        await play(memory, clock.set, conversations);
        clock.advance(DAY);
        count++;
        const userId = conversations[pickUser % conversations.length]!.userId;
        const before = (await memory.list({ userId })).filter((record) => record.scope !== 'app');
        const facts = before.filter((record) => record.topic !== EPISODE_TOPIC);
        if (facts.length === 0) return;
        const target = facts[pickMemory % facts.length]!;
        const claim = sameClaimKey(target);
        await memory.forget(target.id, { userId });
        forgotten++;
        expect(await holdsClaim(memory, userId, claim)).toBe(false);
        const after = await memory.list({ userId });
        expect(activeFacts(await memory.list({ userId, asOf: clock() }))).toEqual(activeFacts(after));
        const unrelated = activeFacts(before.filter((record) => !shares(record, target)));
        const kept = activeFacts(after);
        // An unrelated memory stays; it may gain the target's sources where the rest of their
        // turn, the forgotten clause cut out, now says the same (an episode "I'm a vegan." of
        // "I'm a vegan. I like the middle seat." less the seat): a corroboration, as a replay makes it.
        const same = (a: (typeof kept)[number], b: (typeof kept)[number]) => a.content === b.content && a.topic === b.topic && a.scope === b.scope && a.sessionId === b.sessionId;
        for (const fact of unrelated) {
          const twin = kept.find((candidate) => same(candidate, fact) && fact.sources.every((id) => candidate.sources.includes(id)));
          expect(twin, JSON.stringify(fact)).toBeDefined();
          // Exactly as it was, unless it gained sources.
          if (twin!.sources.length === fact.sources.length) expect(twin).toEqual(fact);
        }
        // The other facts of its sources stay too (a sentence that stated two facts keeps the other): only their excerpts may go.
        const siblings = before.filter((record) => record.topic !== EPISODE_TOPIC && shares(record, target) && sameClaimKey(record) !== claim && record.topic !== target.topic);
        for (const sibling of siblings) expect(after.map(sameClaimKey)).toContain(sameClaimKey(sibling));
        const other = conversations.find((c) => c.userId === userId && !target.sources.some((source) => source.id === c.sourceId));
        if (other) {
          await memory.forgetSource(other.sourceId, { userId });
          expect(await holdsClaim(memory, userId, claim)).toBe(false);
        }
      } finally {
        await close();
      }
    }),
    { numRuns: runs, seed: 20260202 },
  );
  return { runs: count, forgotten };
}
