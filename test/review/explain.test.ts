import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors';
import { IDBFactory } from 'fake-indexeddb';
import { createSequentialIds, createTestMemory, DAY } from '../helpers/memory';

const owner = { userId: 'ada', appName: 'default' };
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });

describe('explain', () => {
  it('returns retrieve’s results as hits and the next ones as below-k misses, or irrelevant ones below the relevance floor', async () => {
    const { memory } = await createTestMemory();
    for (const [i, content] of ['The user likes jazz.', 'The user likes opera.', 'The user likes jazz piano.', 'The user owns a cat.'].entries()) {
      await memory.remember({ content, topic: 'music' }, { ...owner, source: explicit(`s${i}`) });
    }
    const options = { ...owner, k: 1 };
    const retrieved = await memory.retrieve('jazz', options);
    const { hits, misses } = await memory.explain('jazz', options);
    expect(hits).toEqual(retrieved);
    // 'jazz piano' is relevant and below k; opera and the cat share nothing with the query: no k returns them.
    expect(misses.map((miss) => [miss.memory.content, miss.reason])).toEqual([
      ['The user likes jazz piano.', 'below-k'],
      ['The user likes opera.', 'irrelevant'],
      ['The user owns a cat.', 'irrelevant'],
    ]);
    expect(misses.map((miss) => miss.score)).toEqual([...misses.map((miss) => miss.score)].sort((a, b) => b - a));
    expect(misses[0]!.score).toBeLessThanOrEqual(hits[0]!.score);
    expect(misses.every((miss) => miss.relevance >= 0 && miss.recency > 0)).toBe(true);
    await memory.close();
  });

  it('names a pending memory, another session’s memory and a pruned one among the misses', async () => {
    const { memory, clock } = await createTestMemory({ review: { sources: ['user_implicit'] } });
    const old = await memory.remember({ content: 'The user likes jazz records.', topic: 'music', halfLifeDays: 1 }, { ...owner, source: explicit('old') });
    clock.advance(30 * DAY);
    await memory.prune({ ...owner, floor: 0.1 });
    const session = await memory.remember({ content: 'The user wants jazz tonight.', topic: 'plans' }, { ...owner, scope: 'session', sessionId: 'other', source: explicit('s') });
    const held = await memory.remember({ content: 'The user likes jazz festivals.', topic: 'music' }, { ...owner, source: { type: 'user_implicit', id: 'i' } });
    const { hits, misses } = await memory.explain('jazz', owner);
    expect(hits).toEqual([]);
    const reasons = new Map(misses.map((miss) => [miss.memory.id, miss.reason]));
    expect(reasons).toEqual(
      new Map([
        [old.memoryId, 'decayed'],
        [session.memoryId, 'other-session'],
        [held.memoryId, 'pending'],
      ]),
    );
    expect(misses.find((miss) => miss.reason === 'pending')!.detail).toContain(`memory.approve('${held.memoryId}')`);
    // Named, the session's memory is a hit; the others stay out.
    const named = await memory.explain('jazz', { ...owner, sessionId: 'other' });
    expect(named.hits.map((hit) => hit.memory.id)).toEqual([session.memoryId]);
    expect(named.misses.map((miss) => miss.reason).sort()).toEqual(['decayed', 'pending']);
    await memory.close();
  });

  it('never mentions or counts another app’s memories of the same user (invariant 1)', async () => {
    // Two apps of one user on one database, each with its own ids: app B's records are the same
    // whether or not app A holds matching memories (active, another session's, pending).
    const explainB = async (withA: boolean) => {
      const factory = new IDBFactory();
      const options = { indexedDB: factory, name: 'shared', review: { sources: ['tool_output' as const] } };
      const a = await createTestMemory({ ...options, idGenerator: createSequentialIds('appa_') });
      const b = await createTestMemory({ ...options, idGenerator: createSequentialIds('appb_') });
      const inA = { userId: 'ada', appName: 'app-a' };
      const inB = { userId: 'ada', appName: 'app-b' };
      if (withA) {
        await a.memory.remember({ content: 'The user likes zqappa jazz.', topic: 'music' }, { ...inA, source: explicit('a1') });
        await a.memory.remember({ content: 'The user wants zqappa jazz tonight.', topic: 'plans' }, { ...inA, scope: 'session', sessionId: 'other', source: explicit('a2') });
        await a.memory.remember({ content: 'The user likes zqappa jazz festivals.', topic: 'music' }, { ...inA, source: { type: 'tool_output', id: 'a3' } });
        expect((await a.memory.explain('jazz', { ...inA, k: 1 })).misses.length).toBeGreaterThan(0);
      }
      for (const [i, content] of ['The user likes jazz piano.', 'The user likes opera.', 'The user owns a cat.'].entries()) await b.memory.remember({ content, topic: 'music' }, { ...inB, source: explicit(`b${i}`) });
      await b.memory.remember({ content: 'The user likes jazz festivals.', topic: 'music' }, { ...inB, source: { type: 'tool_output', id: 'b9' } });
      const explanation = await b.memory.explain('jazz', { ...inB, k: 1 });
      await a.memory.close();
      await b.memory.close();
      return explanation;
    };
    const alone = await explainB(false);
    const beside = await explainB(true);
    expect(beside).toEqual(alone);
    expect(beside.misses.map((miss) => miss.reason).sort()).toEqual(['irrelevant', 'irrelevant', 'pending']);
    const text = JSON.stringify(beside);
    expect(text).not.toContain('zqappa');
    expect(text).not.toContain('appa_');
    expect(text).not.toContain('app-a');
  });

  it('rejects bad options as retrieve does', async () => {
    const { memory } = await createTestMemory();
    await expect(memory.explain('jazz', { ...owner, k: -1 })).rejects.toThrow(ValidationError);
    await expect(memory.explain(42 as never, owner)).rejects.toThrow(ValidationError);
    await expect(memory.retrieve(42 as never, owner)).rejects.toThrow(ValidationError);
    await memory.close();
  });
});
