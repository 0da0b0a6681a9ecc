import { describe, expect, it } from 'vitest';
import { MAX_NEIGHBOURS, planConsolidation, sweep } from '../../src/consolidate/plan';
import type { Decider } from '../../src/consolidate/decider';
import { PluginError } from '../../src/errors';
import { context, item, record, source, TARGET, T, workingOf } from './fixtures';

const VEG = 'The user follows a vegetarian diet.';
const FISH = 'The user eats fish again.';
const DIET = new Set(['diet']);

describe('sweep', () => {
  it('returns similarity neighbours first, then same-topic memories, when both exist on an exclusive topic', () => {
    const identical = record('m1', VEG, 'diet');
    const sameTopic = record('m2', 'The user is lactose intolerant.', 'diet');
    const unrelated = record('m3', 'The user prefers aisle seating on flights.', 'travel');
    const found = sweep([sameTopic, unrelated, identical], item(VEG, 'diet', source('s2')), TARGET, 0.6, DIET);
    expect(found.map((r) => r.id)).toEqual(['m1', 'm2']);
  });

  it('adds only the same fact of the topic when the topic is not exclusive', () => {
    const sameTopic = record('m2', 'The user is lactose intolerant.', 'diet');
    // Below the similarity threshold (0.99 here): only the identical-fact rule can pair them.
    const sameFact = record('m4', '  the user is LACTOSE intolerant.', 'diet');
    const otherTopic = record('m5', 'The user is lactose intolerant.', 'health');
    const found = sweep([sameTopic, sameFact, otherTopic], item('The user is lactose intolerant.', 'diet', source('s2')), TARGET, 1.01, new Set());
    expect(found.map((r) => r.id)).toEqual(['m2', 'm4']);
    const contradiction = sweep([record('m1', VEG, 'diet')], item(FISH, 'diet', source('s3')), TARGET, 0.6, new Set());
    expect(contradiction).toEqual([]);
  });

  it('keeps the MAX_NEIGHBOURS most similar, plus every same-topic memory, when many memories are alike', () => {
    // 40 near-copies of the candidate on another topic, and 5 on the candidate's own topic.
    const alike = Array.from({ length: 40 }, (_, i) => record(`a${i}`, `The user collects vintage stamps number ${i}.`, 'hobby'));
    const ownTopic = Array.from({ length: 5 }, (_, i) => record(`t${i}`, `The user collects vintage stamps number ${40 + i}.`, 'collecting'));
    const found = sweep([...alike, ...ownTopic], item('The user collects vintage stamps number 7.', 'collecting', source('s2')), TARGET, 0.6, new Set(['collecting']));
    const ids = found.map((r) => r.id);
    expect(ids.filter((id) => id.startsWith('t')).sort()).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(ids.filter((id) => id.startsWith('a'))).toHaveLength(MAX_NEIGHBOURS - ids.slice(0, MAX_NEIGHBOURS).filter((id) => id.startsWith('t')).length);
    expect(ids[0]).toBe('a7');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('finds a contradiction by topic when the texts share no words on an exclusive topic', () => {
    const veg = record('m1', VEG, 'diet');
    const found = sweep([veg], item(FISH, 'diet', source('s3')), TARGET, 0.6, DIET);
    expect(found.map((r) => r.id)).toEqual(['m1']);
  });

  it('skips tombstones, other scopes and other sessions when sweeping', () => {
    const dead = record('m1', VEG, 'diet', { invalidatedAt: T, supersededBy: 'm9' });
    const app = record('m2', VEG, 'diet', { scope: 'app', userId: '' });
    const otherSession = record('m3', VEG, 'diet', { scope: 'session', sessionId: 'other' });
    const sameSession = record('m4', VEG, 'diet', { scope: 'session', sessionId: 'mine' });
    expect(sweep([dead, app, otherSession, sameSession], item(VEG, 'diet', source('s2')), TARGET, 0.6, DIET)).toEqual([]);
    const inSession = sweep([dead, app, otherSession, sameSession], item(VEG, 'diet', source('s2')), { ...TARGET, scope: 'session', sessionId: 'mine' }, 0.6, DIET);
    expect(inSession.map((r) => r.id)).toEqual(['m4']);
  });
});

describe('planConsolidation', () => {
  it('creates a memory capped at the source trust when nothing similar exists', async () => {
    const working = workingOf();
    const plan = await planConsolidation(working, [item(VEG, 'diet', source('s1'))], TARGET, context());
    expect(plan.operations).toEqual([{ action: 'CREATE', memoryId: 'new_0001', content: VEG, reason: 'novel topic for this user' }]);
    expect(plan.changed).toHaveLength(1);
    expect(plan.changed[0]!).toMatchObject({ id: 'new_0001', confidence: 0.65, sources: [source('s1')], userId: 'u', scope: 'user' });
  });

  it('counts a corroboration by another type of source with the same id, and not one by the same type and id', async () => {
    // m1 is backed by the user_implicit source 's1' (fixtures): a document 's1' is another source.
    const working = workingOf(record('m1', VEG, 'diet'));
    const plan = await planConsolidation(working, [item(VEG, 'diet', source('s1', 'user_explicit')), item(VEG, 'diet', source('s1'))], TARGET, context());
    expect(plan.operations.map((op) => op.reason)).toEqual([expect.not.stringMatching(/not counted twice/), expect.stringMatching(/already backed by user_implicit source s1, not counted twice/)]);
    const updated = working.get('m1')!;
    expect(updated.confidence).toBe(0.7);
    expect(updated.sources.map((s) => [s.type, s.id])).toEqual([
      ['user_implicit', 's1'],
      ['user_explicit', 's1'],
    ]);
  });

  it('corroborates +0.05 and appends the source once when the candidate is identical', async () => {
    const working = workingOf(record('m1', VEG, 'diet'));
    const ctx = context();
    const plan = await planConsolidation(working, [item(VEG, 'diet', source('s2')), item(VEG, 'diet', source('s2'))], TARGET, ctx);
    expect(plan.operations.map((op) => op.action)).toEqual(['NOOP', 'NOOP']);
    expect(plan.operations[1]!.reason).toMatch(/not counted twice/);
    const updated = working.get('m1')!;
    expect(updated.confidence).toBe(0.7);
    expect(updated.sources.map((s) => s.id)).toEqual(['s1', 's2']);
    expect(updated.updatedAt).toBe(ctx.now);
    expect(updated.history.at(-1)).toMatchObject({ event: 'corroborated' });
    expect(plan.changed.map((r) => r.id)).toEqual(['m1']);
  });

  it('caps confidence at 1 when corroborating a near-certain memory', async () => {
    const working = workingOf(record('m1', VEG, 'diet', { confidence: 0.98 }));
    await planConsolidation(working, [item(VEG, 'diet', source('s2'))], TARGET, context());
    expect(working.get('m1')!.confidence).toBe(1);
  });

  it('does not corroborate when the same source already backs the memory', async () => {
    const working = workingOf(record('m1', VEG, 'diet'));
    const plan = await planConsolidation(working, [item(VEG, 'diet', source('s1'))], TARGET, context());
    expect(working.get('m1')!.confidence).toBe(0.65);
    expect(plan.changed).toEqual([]);
  });

  it('tombstones the old memory and the new one inherits every source when updating', async () => {
    const old = record('m1', VEG, 'diet', { confidence: 0.7, sources: [source('s1'), source('s2')] });
    const working = workingOf(old);
    const ctx = context();
    const plan = await planConsolidation(working, [item(FISH, 'diet', source('s3', 'user_explicit'), 0.95)], TARGET, ctx);
    expect(plan.operations).toEqual([expect.objectContaining({ action: 'UPDATE', memoryId: 'new_0001', targetId: 'm1', content: FISH })]);
    const tomb = working.get('m1')!;
    const created = working.get('new_0001')!;
    expect(tomb).toMatchObject({ invalidatedAt: ctx.now, supersededBy: 'new_0001', content: VEG, confidence: 0.7 });
    expect(tomb.history.at(-1)).toMatchObject({ event: 'superseded', related: 'new_0001' });
    expect(created.sources.map((s) => [s.type, s.id])).toEqual([
      ['user_implicit', 's1'],
      ['user_implicit', 's2'],
      ['user_explicit', 's3'],
    ]);
    // min(candidate 0.95, trust(user_explicit) 0.90)
    expect(created.confidence).toBe(0.9);
    expect(created.history[0]).toMatchObject({ event: 'created', related: 'm1' });
    expect(created.history[0]!.reason).toContain(plan.operations[0]!.reason);
    expect(plan.changed.map((r) => r.id).sort()).toEqual(['m1', 'new_0001']);
  });

  it('uses the candidate confidence when it is below the source trust on update', async () => {
    const working = workingOf(record('m1', VEG, 'diet'));
    await planConsolidation(working, [item(FISH, 'diet', source('s3', 'user_explicit'), 0.6)], TARGET, context());
    expect(working.get('new_0001')!.confidence).toBe(0.6);
  });

  it('appends no source and changes no confidence when a contradiction is refused', async () => {
    const old = record('m1', VEG, 'diet', { confidence: 0.9, sources: [source('s1', 'user_explicit')] });
    const working = workingOf(old);
    const plan = await planConsolidation(working, [item(FISH, 'diet', source('t1', 'tool_output'))], TARGET, context());
    expect(plan.operations).toEqual([expect.objectContaining({ action: 'NOOP', targetId: 'm1' })]);
    expect(plan.operations[0]!.reason).toMatch(/lower-trust source/);
    expect(plan.changed).toEqual([]);
    expect(working.get('m1')).toBe(old);
  });

  it('keeps several memories when the topic is not exclusive', async () => {
    const working = workingOf(record('m1', 'The user reported a failing export/upload.', 'issue'));
    const plan = await planConsolidation(working, [item('The user cannot log in.', 'issue', source('s2'))], TARGET, context());
    expect(plan.operations[0]!.action).toBe('CREATE');
    expect([...working.values()].filter((r) => r.invalidatedAt === undefined)).toHaveLength(2);
  });

  it('lets a later candidate see an earlier one when both come in one batch', async () => {
    const working = workingOf();
    const plan = await planConsolidation(working, [item(VEG, 'diet', source('s1')), item(FISH, 'diet', source('s1'))], TARGET, context());
    expect(plan.operations.map((op) => op.action)).toEqual(['CREATE', 'UPDATE']);
    expect([...working.values()].filter((r) => r.invalidatedAt === undefined).map((r) => r.content)).toEqual([FISH]);
  });

  it('throws PluginError and changes nothing when the decider answers with an unknown target', async () => {
    const old = record('m1', VEG, 'diet');
    const working = workingOf(old);
    const bad: Decider[] = [
      { decide: () => ({ action: 'UPDATE', targetId: 'nope', reason: 'x' }) },
      { decide: () => ({ action: 'NOOP', targetId: 'nope', reason: 'x', corroborate: true }) },
      { decide: () => ({ action: 'DELETE', reason: 'x' }) as never },
      { decide: () => ({ action: 'CREATE' }) as never },
      { decide: () => null as never },
      { decide: async () => undefined as never },
    ];
    for (const decider of bad) {
      await expect(planConsolidation(working, [item(FISH, 'diet', source('s3'))], TARGET, context(decider))).rejects.toThrow(PluginError);
    }
    expect([...working.values()]).toEqual([old]);
  });

  it('throws PluginError with the cause when the decider throws or answers with something unprintable', async () => {
    const working = workingOf(record('m1', VEG, 'diet'));
    const failure = new TypeError('model timed out');
    const throwing: Decider = { decide: () => Promise.reject(failure) };
    await expect(planConsolidation(working, [item(FISH, 'diet', source('s3'))], TARGET, context(throwing))).rejects.toThrow(PluginError);
    await expect(planConsolidation(working, [item(FISH, 'diet', source('s3'))], TARGET, context(throwing))).rejects.toHaveProperty('cause', failure);
    const unprintable: Decider = { decide: () => ({ action: 'UPDATE', targetId: 'nope', reason: 1n }) as never };
    await expect(planConsolidation(working, [item(FISH, 'diet', source('s3'))], TARGET, context(unprintable))).rejects.toThrow(PluginError);
  });
});
