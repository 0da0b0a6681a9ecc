import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, PermissionError } from '../../src/index';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });

describe("the user's verbs", () => {
  let tests: TestMemory[] = [];
  afterEach(async () => {
    await Promise.all(tests.map((test) => test.memory.close()));
    tests = [];
  });
  const open = async () => {
    const test = await createTestMemory({ episodes: false });
    tests.push(test);
    return test;
  };
  async function seeded() {
    const test = await open();
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    test.clock.advance(DAY);
    await test.memory.ingest([{ role: 'user', content: 'I prefer the aisle seat.' }], { ...owner, sessionId: 'c2', source: implicit('s2') });
    test.clock.advance(DAY);
    const [diet, seat] = await test.memory.list(owner);
    return { test, diet: diet!, seat: seat! };
  }

  describe('Memory.correct', () => {
    it('makes a user_explicit UPDATE that keeps the lineage and the history', async () => {
      const { test, diet } = await seeded();
      const operation = await test.memory.correct(diet.id, 'The user is vegan.', owner);
      expect(operation).toMatchObject({ action: 'UPDATE', targetId: diet.id, content: 'The user is vegan.' });
      const corrected = await test.memory.get(operation.memoryId, owner);
      expect(corrected.topic).toBe(diet.topic);
      expect(corrected.sources.map((source) => [source.type, source.id])).toEqual([
        ['user_implicit', 's1'],
        ['user_explicit', `correction:${diet.id}`],
      ]);
      expect(corrected.confidence).toBe(0.9);
      const old = await test.memory.get(diet.id, owner);
      expect(old.supersededBy).toBe(corrected.id);
      expect(old.history.at(-1)?.event).toBe('superseded');
      // Stored as an input: a later erasure of another source replays the same correction.
      await test.memory.forgetSource('s2', owner);
      expect((await test.memory.list(owner)).map((record) => record.content)).toEqual(['The user is vegan.']);
    });

    it('refuses a tombstone, another user, app scope and empty content', async () => {
      const { test, diet } = await seeded();
      const { memoryId } = await test.memory.correct(diet.id, 'The user is vegan.', owner);
      await expect(test.memory.correct(diet.id, 'The user eats fish.', owner)).rejects.toThrow(new RegExp(`current version is '${memoryId}'`));
      await expect(test.memory.correct(diet.id, 'The user eats fish.', owner)).rejects.toThrow(ConflictError);
      await expect(test.memory.correct(memoryId, 'x', { userId: 'someone-else' })).rejects.toThrow(NotFoundError);
      await expect(test.memory.correct(memoryId, '   ', owner)).rejects.toThrow(/content/);
      await test.memory.remember({ content: 'Support answers within a day.', topic: 'support' }, { appName: 'default', scope: 'app', source: { type: 'bootstrapped', id: 'kb' } });
      const app = (await test.memory.list(owner)).find((record) => record.scope === 'app')!;
      await expect(test.memory.correct(app.id, 'Support answers within an hour.', owner)).rejects.toThrow(PermissionError);
    });

    it('writes nothing when it refuses a correction of a memory a bootstrapped source stands behind', async () => {
      const test = await open();
      const crm = { type: 'bootstrapped' as const, id: 'crm' };
      await test.memory.remember({ content: 'The user is a premium member.', topic: 'plan' }, { ...owner, source: crm });
      const [premium] = await test.memory.list(owner);
      const before = await test.memory.export(owner);
      await expect(test.memory.correct(premium!.id, 'The user is a free member.', owner)).rejects.toThrow(ConflictError);
      await expect(test.memory.correct(premium!.id, 'The user is a free member.', owner)).rejects.toThrow(/lower-trust source/);
      // Nothing of the refused edit is stored: not its input, so no replay brings it back.
      expect(await test.memory.export(owner)).toEqual(before);
      await test.memory.forgetSource('crm', owner);
      expect(await test.memory.list(owner)).toEqual([]);
    });

    it('writes nothing when it refuses a correction of an episode', async () => {
      const test = await createTestMemory({ episodes: true });
      tests.push(test);
      await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      const episode = (await test.memory.list(owner)).find((record) => record.topic === 'episode')!;
      const before = await test.memory.export(owner);
      await expect(test.memory.correct(episode.id, 'The user asked about trains.', owner)).rejects.toThrow(ConflictError);
      await expect(test.memory.correct(episode.id, 'The user asked about trains.', owner)).rejects.toThrow(/is an episode/);
      expect(await test.memory.export(owner)).toEqual(before);
    });

    it('is a NOOP that writes nothing when the memory already says the new content', async () => {
      const { test, diet } = await seeded();
      const before = await test.memory.export(owner);
      const operation = await test.memory.correct(diet.id, diet.content, owner);
      expect(operation).toMatchObject({ action: 'NOOP', memoryId: diet.id, targetId: diet.id, content: diet.content });
      expect(await test.memory.export(owner)).toEqual(before);
      expect((await test.memory.get(diet.id, owner)).confidence).toBe(diet.confidence);
    });
    it('makes one UPDATE of two identical corrections started together; the other is a NOOP of it', async () => {
      const { test, diet, seat } = await seeded();
      const results = await Promise.allSettled([test.memory.correct(diet.id, 'The user is vegan.', owner), test.memory.correct(diet.id, 'The user is vegan.', owner)]);
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      const [first, second] = results.map((result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof test.memory.correct>>>).value);
      expect(first).toMatchObject({ action: 'UPDATE', targetId: diet.id, content: 'The user is vegan.' });
      expect(second).toMatchObject({ action: 'NOOP', memoryId: first!.memoryId, targetId: first!.memoryId, content: 'The user is vegan.' });
      expect((await test.memory.list(owner)).map((record) => record.content).sort()).toEqual([seat.content, 'The user is vegan.'].sort());
      expect((await test.memory.export(owner)).inputs.filter((input) => 'source' in input && input.source.id === `correction:${diet.id}`)).toHaveLength(1);
    });
  });

  describe('Memory.pin and Memory.unpin', () => {
    it('keeps a pinned memory from decaying and from being pruned, and unpin undoes it', async () => {
      const { test, diet, seat } = await seeded();
      const pinned = await test.memory.pin(diet.id, owner);
      expect(pinned.pinned).toBe(true);
      expect((await test.memory.get(diet.id, owner)).pinned).toBe(true);
      expect(pinned.updatedAt).toBe(diet.updatedAt);
      test.clock.advance(2000 * DAY);
      const [hit] = await test.memory.retrieve('vegetarian diet', { ...owner, k: 1 });
      expect(hit!.memory.id).toBe(diet.id);
      expect(hit!.recency).toBeCloseTo(1, 6);
      const report = await test.memory.prune({ ...owner, floor: 0.5 });
      expect(report.pruned.map((entry) => entry.id)).toEqual([seat.id]);
      expect((await test.memory.list(owner)).map((record) => record.id)).toEqual([diet.id]);
      const unpinned = await test.memory.unpin(diet.id, owner);
      expect(unpinned.pinned).toBeUndefined();
      expect((await test.memory.prune({ ...owner, floor: 0.5 })).pruned.map((entry) => entry.id)).toEqual([diet.id]);
    });

    it('passes the pin to the corrected memory, through a regeneration and an export and import', async () => {
      const { test, diet } = await seeded();
      await test.memory.pin(diet.id, owner);
      const { memoryId } = await test.memory.correct(diet.id, 'The user is vegan.', owner);
      expect((await test.memory.get(memoryId, owner)).pinned).toBe(true);
      await test.memory.forgetSource('s1', owner);
      const [rebuilt] = (await test.memory.list(owner)).filter((record) => record.content === 'The user is vegan.');
      expect(rebuilt?.pinned).toBe(true);
      const other = await open();
      await other.memory.import(await test.memory.export(owner));
      expect((await other.memory.list(owner)).filter((record) => record.pinned).map((record) => record.content)).toEqual(['The user is vegan.']);
    });

    it('ranks a pinned memory first among memories of equal score', async () => {
      const test = await open();
      const source = { type: 'user_explicit' as const, id: 'form' };
      await test.memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...owner, source });
      await test.memory.remember({ content: 'The user likes jazz!', topic: 'music-2' }, { ...owner, source });
      const [first, second] = await test.memory.list(owner);
      const before = await test.memory.retrieve('jazz', { ...owner, weights: { relevance: 0, recency: 0, importance: 1 } });
      expect(before.map((hit) => hit.score)).toEqual([before[0]!.score, before[0]!.score]);
      const unpinnedFirst = before[0]!.memory.id;
      const other = unpinnedFirst === first!.id ? second! : first!;
      await test.memory.pin(other.id, owner);
      const after = await test.memory.retrieve('jazz', { ...owner, weights: { relevance: 0, recency: 0, importance: 1 } });
      expect(after.map((hit) => hit.memory.id)).toEqual([other.id, unpinnedFirst]);
    });
  });

  describe('Memory.why', () => {
    it('names the operations and the sources of a memory, and the excerpt only while it exists', async () => {
      const { test, diet } = await seeded();
      await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c3', source: implicit('s3') });
      const { memoryId } = await test.memory.correct(diet.id, 'The user is vegan.', owner);
      const why = await test.memory.why(memoryId, owner);
      expect(why.line).toEqual([diet.id, memoryId]);
      expect(why.steps.map((step) => [step.memoryId, step.event])).toEqual([
        [diet.id, 'created'],
        [diet.id, 'corroborated'],
        [diet.id, 'superseded'],
        [memoryId, 'created'],
      ]);
      expect(why.steps[0]!.source).toMatchObject({ type: 'user_implicit', id: 's1', excerpt: "I'm vegetarian." });
      expect(why.sources.map((source) => source.id)).toEqual(['s1', 's3', `correction:${diet.id}`]);
      await test.memory.forgetSource('s3', owner);
      const after = await test.memory.why((await test.memory.list(owner)).find((record) => record.content === 'The user is vegan.')!.id, owner);
      expect(after.sources.map((source) => source.id)).toEqual(['s1', `correction:${diet.id}`]);
      const stale = await test.memory.why(memoryId, owner);
      expect(stale.sources.find((source) => source.id === 's3')?.excerpt).toBeNull();
      await expect(test.memory.why(memoryId, { userId: 'someone-else' })).rejects.toThrow(NotFoundError);
    });
  });
});
