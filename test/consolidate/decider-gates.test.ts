/**
 * Every decider's proposal passes the gates the policy passes (plan.ts enforcePolicy): the
 * target is an active memory of the owner in the sweep, an UPDATE or a corroboration stays on
 * the candidate's topic (else CREATE), one active memory per exclusive topic, the trust gate.
 */
import { describe, expect, it } from 'vitest';
import type { Decider } from '../../src/index';
import { planConsolidation, sweep } from '../../src/consolidate/plan';
import { createTestMemory } from '../helpers/memory';
import { context, item, record, source, TARGET, workingOf } from './fixtures';

/** The decider: UPDATE the first memory in the sweep, whatever it is. */
const updateFirst: Decider = {
  decide: ({ similar }) => (similar.length ? { action: 'UPDATE', targetId: similar[0]!.id, reason: 'x' } : { action: 'CREATE', reason: 'new' }),
};
const corroborateFirst: Decider = {
  decide: ({ similar }) => (similar.length ? { action: 'NOOP', targetId: similar[0]!.id, reason: 'same thing', corroborate: true } : { action: 'CREATE', reason: 'new' }),
};
const owner = { userId: 'u1' };
const say = (_text: string, id: string) => ({ ...owner, sessionId: id, source: { type: 'user_explicit' as const, id } });

describe('createMemory({ decider }) (the gates every proposal passes)', () => {
  it('keeps the diet memory when a decider proposes to UPDATE it with a name', async () => {
    const { memory } = await createTestMemory({ decider: updateFirst, candidateThreshold: -1 });
    try {
      await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], say('', 's1'));
      const [operation] = await memory.ingest([{ role: 'user', content: 'Call me Ada.' }], say('', 's2'));
      expect(operation).toMatchObject({ action: 'CREATE', reason: expect.stringMatching(/proposed UPDATE of .* topic 'diet', not 'identity'/) });
      expect((await memory.list(owner)).map((record) => record.topic).sort()).toEqual(['diet', 'identity']);
    } finally {
      await memory.close();
    }
  });

  it('keeps the diet memory unchanged when a decider proposes a name corroborates it', async () => {
    const { memory } = await createTestMemory({ decider: corroborateFirst, candidateThreshold: -1 });
    try {
      await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], say('', 's1'));
      const before = await memory.list(owner);
      const [operation] = await memory.ingest([{ role: 'user', content: 'Call me Ada.' }], say('', 's2'));
      expect(operation).toMatchObject({ action: 'CREATE', reason: expect.stringContaining('proposed corroboration of') });
      const diet = (await memory.list(owner)).filter((record) => record.topic === 'diet');
      expect(diet).toEqual(before);
    } finally {
      await memory.close();
    }
  });
});

describe('planConsolidation (owner and visibility gate)', () => {
  it('never sweeps, so never lets a decider reach, a memory of another owner or app the working set holds', async () => {
    const foreign = [record('bob', 'The user follows a vegetarian diet.', 'diet', { userId: 'bob' }), record('other-app', 'The user follows a vegetarian diet.', 'diet', { appName: 'other' })];
    const candidate = item('The user eats fish again.', 'diet', source('s2', 'user_explicit'));
    expect(sweep(foreign, candidate, TARGET, -1, new Set(['diet']))).toEqual([]);
    // The policy would otherwise supersede Bob's memory: it is a same-topic memory on an exclusive topic.
    const plan = await planConsolidation(workingOf(...foreign), [candidate], TARGET, context());
    expect(plan.operations.map((operation) => operation.action)).toEqual(['CREATE']);
    expect(plan.changed.map((changed) => changed.id)).toEqual(['new_0001']);
  });
});
