import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors';
import { checkAsOf } from '../contract/as-of';
import { createTestMemory, DAY, openTestMemory, T0 } from '../helpers/memory';

const owner = { userId: 'ada', appName: 'default' };
const source = (id: string) => ({ type: 'user_explicit' as const, id });

describe('list({ asOf })', () => {
  it('equals the state seen at each time, and after an erasure a store that never saw the source, for random histories', async () => {
    const { reads, differing } = await checkAsOf(openTestMemory, 12);
    console.log(`as-of property (IndexedDB): 12 random histories, ${reads} as-of reads compared, ${differing} of the pre-erasure ones differed from the final state, 0 mismatches`);
    expect(differing).toBeGreaterThan(0);
  }, 120_000);

  it('shows a superseded memory with the confidence it had then, and the app-scope memories that existed then', async () => {
    const { memory, clock } = await createTestMemory();
    await memory.remember({ content: 'The user goes by Ada.', topic: 'identity', confidence: 0.6 }, { ...owner, source: source('s1') });
    const t1 = clock();
    clock.advance(DAY);
    await memory.remember({ content: 'The user goes by Ada.', topic: 'identity' }, { ...owner, source: source('s2') });
    const t2 = clock();
    clock.advance(DAY);
    await memory.remember({ content: 'Support answers within a day.', topic: 'support' }, { appName: 'default', scope: 'app', source: { type: 'bootstrapped', id: 'kb' } });
    await memory.remember({ content: 'The user goes by Adelaide.', topic: 'identity' }, { ...owner, source: source('s3') });
    const [first, corroborated] = [await memory.list({ ...owner, asOf: t1 }), await memory.list({ ...owner, asOf: t2 })];
    expect(first.map((record) => [record.content, record.confidence])).toEqual([['The user goes by Ada.', 0.6]]);
    expect(corroborated.map((record) => [record.content, record.confidence])).toEqual([['The user goes by Ada.', 0.65]]);
    // The id is the stored record's, whose history shows it was superseded later.
    expect((await memory.history(first[0]!.id, owner)).map((entry) => entry.event)).toEqual(['created', 'corroborated', 'superseded']);
    expect((await memory.list({ ...owner, asOf: clock() })).map((record) => record.content)).toEqual(['Support answers within a day.', 'The user goes by Adelaide.']);
    await memory.close();
  });

  it('shows a memory pinned now as pinned in the past too (pins carry no time), and an unpinned one unpinned', async () => {
    const { memory, clock } = await createTestMemory();
    await memory.remember({ content: 'The user plays the cello.', topic: 'music' }, { ...owner, source: source('s1') });
    await memory.remember({ content: 'The user lives in Lyon.', topic: 'home' }, { ...owner, source: source('s2') });
    const t1 = clock();
    clock.advance(DAY);
    const [cello] = (await memory.list(owner)).filter((record) => record.topic === 'music');
    await memory.pin(cello!.id, owner);
    const past = await memory.list({ ...owner, asOf: t1 });
    expect(past.map((record) => [record.content, record.pinned === true])).toEqual([
      ['The user plays the cello.', true],
      ['The user lives in Lyon.', false],
    ]);
    await memory.unpin(cello!.id, owner);
    expect((await memory.list({ ...owner, asOf: t1 })).some((record) => record.pinned)).toBe(false);
    await memory.close();
  });

  it('ranks a pinned memory in the past as retrieve does now: it does not decay', async () => {
    const { memory, clock } = await createTestMemory();
    await memory.remember({ content: 'The user plays the cello.', topic: 'music' }, { ...owner, source: source('s1') });
    const [cello] = await memory.list(owner);
    await memory.pin(cello!.id, owner);
    clock.advance(1000 * DAY);
    const live = await memory.retrieve('cello', owner);
    const past = await memory.retrieve('cello', { ...owner, asOf: clock() });
    expect(live[0]?.recency).toBeCloseTo(1, 6);
    expect(past.map((hit) => [hit.memory.id, hit.recency])).toEqual(live.map((hit) => [hit.memory.id, hit.recency]));
    await memory.close();
  });

  it('ranks a pinned memory first among equal scores in the past, as retrieve does now', async () => {
    const { memory, clock } = await createTestMemory();
    // The same fact at one time in the user's scope and in a session's (consolidation keeps the
    // two apart): equal relevance, recency and importance, so equal scores.
    const fact = { content: 'The user plays the cello.', topic: 'music' };
    await memory.remember(fact, { ...owner, source: source('s1') });
    await memory.remember(fact, { ...owner, scope: 'session', sessionId: 'c1', source: source('s2') });
    const [first, second] = await memory.list(owner);
    expect([first?.scope, second?.scope]).toEqual(['user', 'session']);
    await memory.pin(second!.id, owner);
    const then = clock();
    const query = { ...owner, sessionId: 'c1' };
    const live = await memory.retrieve('cello', { ...query, k: 2 });
    const past = await memory.retrieve('cello', { ...query, k: 2, asOf: then });
    expect(live.map((hit) => hit.memory.id)).toEqual([second!.id, first!.id]);
    expect(past.map((hit) => [hit.memory.id, hit.score])).toEqual(live.map((hit) => [hit.memory.id, hit.score]));
    expect(past[0]!.score).toBe(past[1]!.score);
    // Every row is ranked before the cut: a pinned memory tied with the k-th is not left out.
    expect((await memory.retrieve('cello', { ...query, k: 1, asOf: then })).map((hit) => hit.memory.id)).toEqual([second!.id]);
    // explain ranks the past the same way: its hits are retrieve's.
    expect((await memory.explain('cello', { ...query, k: 1, asOf: then })).hits.map((hit) => hit.memory.id)).toEqual([second!.id]);
    await memory.close();
  });

  it('refuses a time that is not one', async () => {
    const { memory } = await createTestMemory();
    await expect(memory.list({ ...owner, asOf: -1 })).rejects.toThrow(ValidationError);
    await expect(memory.retrieve('x', { ...owner, asOf: Number.NaN })).rejects.toThrow(ValidationError);
    await memory.close();
  });
});

describe('list({ asOf }) with episodes', () => {
  it('links each fact to its episode and its restatements under the stored ids, as list does now', async () => {
    const { memory, clock } = await createTestMemory({ episodes: true });
    const turn = (content: string, id: string) => memory.ingest([{ role: 'user', content }], { ...owner, sessionId: id, source: { type: 'user_implicit', id } });
    await turn("I'm allergic to peanuts.", 's1');
    clock.advance(DAY);
    await turn('I am allergic to peanuts, remember.', 's2');
    clock.advance(DAY);
    const now = await memory.list(owner);
    const then = await memory.list({ ...owner, asOf: clock() });
    const links = (listed: typeof now) => listed.filter((record) => record.kind === 'fact').map((record) => [record.id, record.episodeId, record.restatedIn]);
    expect(links(now).some(([, episode]) => episode !== undefined)).toBe(true);
    expect(links(then)).toEqual(links(now));
    await memory.close();
  });
});

describe('retrieve(query, { asOf })', () => {
  it('ranks what was there then, scored as of then, like a store that held only that', async () => {
    const { memory, clock } = await createTestMemory();
    const past = await createTestMemory();
    const facts = [
      { content: 'The user plays the cello.', topic: 'music' },
      { content: 'The user likes jazz.', topic: 'music' },
      { content: 'The user likes opera.', topic: 'music' },
    ];
    for (const [i, fact] of facts.entries()) {
      clock.set(T0 + i * DAY);
      await memory.remember(fact, { ...owner, source: source(`s${i}`) });
      if (i < 2) {
        past.clock.set(T0 + i * DAY);
        await past.memory.remember(fact, { ...owner, source: source(`s${i}`) });
      }
    }
    clock.advance(30 * DAY);
    past.clock.set(T0 + 1 * DAY);
    const query = 'which music does the user like: the cello, jazz or opera?';
    const then = await memory.retrieve(query, { ...owner, asOf: T0 + 1 * DAY, k: 5 });
    const expected = await past.memory.retrieve(query, { ...owner, k: 5 });
    expect(then.map((hit) => [hit.memory.content, hit.score])).toEqual(expected.map((hit) => [hit.memory.content, hit.score]));
    expect(then).toHaveLength(2);
    await memory.close();
    await past.memory.close();
  });
});
