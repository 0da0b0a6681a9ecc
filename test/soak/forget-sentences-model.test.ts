/**
 * Model-based run of `forget(id)` over sentences that state several facts (issue 41): random
 * sequences of messages joining two or three fact clauses into one sentence, and forgets of a
 * random active fact. After every step the active facts are exactly the model's (the facts
 * said and not forgotten since: 0 lost), a replay of the stored inputs (`asOf` now) and an
 * import of the export into a fresh store hold the same, and the words of a forgotten fact not said again
 * are in no row of the database.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import type { Memory } from '../../src/index';
import { createTestMemory, DAY } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'u1', appName: 'default' };
/** A clause, the fact the rule extractor reads from it, and the word only that fact holds. */
const CLAUSES = [
  { clause: "I'm allergic to shrimp", fact: 'The user is allergic to shrimp.', word: 'shrimp' },
  { clause: "I'm allergic to dust", fact: 'The user is allergic to dust.', word: 'dust' },
  { clause: "I'm allergic to pollen", fact: 'The user is allergic to pollen.', word: 'pollen' },
  { clause: "I'm allergic to peanuts", fact: 'The user is allergic to peanuts.', word: 'peanuts' },
  { clause: 'I play the drums', fact: 'The user plays the drums.', word: 'drums' },
  { clause: 'I play squash', fact: 'The user plays squash.', word: 'squash' },
  { clause: 'I play chess', fact: 'The user plays chess.', word: 'chess' },
  { clause: 'I play the cello', fact: 'The user plays the cello.', word: 'cello' },
];
const JOINS = [' and ', ', and ', ', '];

type Step = { kind: 'say'; clauses: number[]; join: number } | { kind: 'forget'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('say' as const), clauses: fc.uniqueArray(fc.nat({ max: CLAUSES.length - 1 }), { minLength: 2, maxLength: 3 }), join: fc.nat({ max: JOINS.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }) },
);

async function activeFacts(memory: Memory): Promise<string[]> {
  return (await memory.list(owner))
    .filter((record) => record.topic !== EPISODE_TOPIC)
    .map((record) => record.content)
    .sort();
}

describe('forget(id) of facts of multi-fact sentences (model-based)', () => {
  it('keeps every other fact of the sentence, through a replay, and leaves no word of the forgotten one', async () => {
    let lost = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 10 }), async (steps) => {
        const test = await createTestMemory({ episodes: true });
        const model = new Set<string>();
        const forgotten = new Set<string>();
        try {
          for (const [i, s] of steps.entries()) {
            test.clock.advance(DAY);
            if (s.kind === 'say') {
              const said = s.clauses.map((index) => CLAUSES[index]!);
              await test.memory.ingest([{ role: 'user', content: `${said.map((clause) => clause.clause).join(JOINS[s.join])}.` }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: `s${i}` } });
              for (const clause of said) {
                model.add(clause.fact);
                forgotten.delete(clause.word);
              }
            } else {
              const facts = (await test.memory.list(owner)).filter((record) => record.topic !== EPISODE_TOPIC);
              if (facts.length === 0) continue;
              const target = facts[s.pick % facts.length]!;
              await test.memory.forget(target.id, owner);
              model.delete(target.content);
              forgotten.add(CLAUSES.find((clause) => clause.fact === target.content)!.word);
            }
            const active = await activeFacts(test.memory);
            lost += [...model].filter((fact) => !active.includes(fact)).length;
            expect(active).toEqual([...model].sort());
          }
          for (const word of forgotten) expect(await findInDatabases(test.factory, word)).toEqual([]);
          // The stored inputs alone rebuild the same facts: a replay of them (asOf now) and an
          // import of the export hold them, so nothing a replay needs was cut.
          const replayed = (await test.memory.list({ ...owner, asOf: test.clock() })).filter((record) => record.topic !== EPISODE_TOPIC).map((record) => record.content);
          expect(replayed.sort()).toEqual([...model].sort());
          const fresh = await createTestMemory({ episodes: true });
          try {
            await fresh.memory.import(await test.memory.export(owner));
            expect(await activeFacts(fresh.memory)).toEqual([...model].sort());
          } finally {
            await fresh.memory.close();
          }
        } finally {
          await test.memory.close();
        }
      }),
      { numRuns: 25, seed: 41 },
    );
    expect(lost).toBe(0);
  });
});
