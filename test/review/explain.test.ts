import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors';
import { createTestMemory, DAY } from '../helpers/memory';

const owner = { userId: 'ada', appName: 'default' };
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });

describe('explain', () => {
  it('returns retrieve’s results as hits and the next ones as below-k misses', async () => {
    const { memory } = await createTestMemory();
    for (const [i, content] of ['The user likes jazz.', 'The user likes opera.', 'The user likes jazz piano.', 'The user owns a cat.'].entries()) {
      await memory.remember({ content, topic: 'music' }, { ...owner, source: explicit(`s${i}`) });
    }
    const options = { ...owner, k: 1 };
    const retrieved = await memory.retrieve('jazz', options);
    const { hits, misses } = await memory.explain('jazz', options);
    expect(hits).toEqual(retrieved);
    expect(misses.map((miss) => miss.reason)).toEqual(['below-k', 'below-k', 'below-k']);
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

  it('rejects bad options as retrieve does', async () => {
    const { memory } = await createTestMemory();
    await expect(memory.explain('jazz', { ...owner, k: -1 })).rejects.toThrow(ValidationError);
    await expect(memory.explain(42 as never, owner)).rejects.toThrow(ValidationError);
    await expect(memory.retrieve(42 as never, owner)).rejects.toThrow(ValidationError);
    await memory.close();
  });
});
