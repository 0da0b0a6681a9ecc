import { afterEach, describe, expect, it } from 'vitest';
import { createHashEmbedder, NotFoundError, PermissionError, REDACTED, type MemoryRecord } from '../../src/index';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });

describe('Memory.forget', () => {
  let tests: TestMemory[] = [];
  afterEach(async () => {
    await Promise.all(tests.map((test) => test.memory.close()));
    tests = [];
  });
  const open = async (options: Parameters<typeof createTestMemory>[0] = {}) => {
    const test = await createTestMemory({ episodes: true, ...options });
    tests.push(test);
    return test;
  };
  const active = async (test: TestMemory) => (await test.memory.list(owner)).map((record) => [record.topic, record.content]);
  /** The fact (not the turn's episode) that holds `needle`. */
  const find = (records: MemoryRecord[], needle: string) => records.find((record) => record.topic !== EPISODE_TOPIC && record.content.includes(needle));

  /** One message with two facts and an episode, a second with another fact. */
  async function ingestCanary(test: TestMemory) {
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian. My cat is called Zqxcanary." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    test.clock.advance(DAY);
    await test.memory.ingest([{ role: 'user', content: 'For flights, I prefer the aisle seat.' }], { ...owner, sessionId: 'c2', source: implicit('s2') });
    test.clock.advance(DAY);
  }

  it('leaves no text of the memory anywhere in the database and keeps the rest of its message', async () => {
    const test = await open();
    await ingestCanary(test);
    const before = await test.memory.list(owner);
    const cat = find(before, 'Zqxcanary')!;
    expect(cat).toBeDefined();
    expect((await findInDatabases(test.factory, 'Zqxcanary')).length).toBeGreaterThan(0);
    const report = await test.memory.forget(cat.id, owner);
    expect(report.erased).toContain(cat.id);
    expect(await findInDatabases(test.factory, 'Zqxcanary')).toEqual([]);
    const after = await test.memory.list(owner);
    expect(after.map((record) => record.id)).not.toContain(cat.id);
    // The other fact of the same message stays, as does the other message's.
    expect(find(after, 'egetarian')).toBeDefined();
    expect(find(after, 'aisle')).toBeDefined();
    // The turn's episode is rebuilt without the span, and without a mark where it was.
    const episode = after.find((record) => record.topic === EPISODE_TOPIC && record.content.includes('vegetarian'));
    expect(episode?.content).toBe("I'm vegetarian.");
    const exported = await test.memory.export(owner);
    expect(JSON.stringify(exported)).not.toContain('Zqxcanary');
    expect(JSON.stringify(exported.inputs)).toContain("I'm vegetarian.");
  });

  it('does not bring the memory back on a later forgetSource, asOf or a new export and import', async () => {
    const test = await open();
    await ingestCanary(test);
    const cat = find(await test.memory.list(owner), 'Zqxcanary')!;
    await test.memory.forget(cat.id, owner);
    const expected = await active(test);
    await test.memory.forgetSource('s2', owner);
    expect((await active(test)).filter(([, content]) => !content!.includes('aisle'))).toEqual(expected.filter(([, content]) => !content!.includes('aisle')));
    expect(JSON.stringify(await test.memory.list({ ...owner, asOf: test.clock() }))).not.toContain('Zqxcanary');
    const data = await test.memory.export(owner);
    const other = await open();
    await other.memory.import(data);
    await other.memory.forgetSource('s2', owner);
    expect(await active(other)).toEqual(await active(test));
    expect(await findInDatabases(other.factory, 'Zqxcanary')).toEqual([]);
  });

  it('remembers the fact again when the user states it in a new message', async () => {
    const test = await open();
    await ingestCanary(test);
    const cat = find(await test.memory.list(owner), 'Zqxcanary')!;
    await test.memory.forget(cat.id, owner);
    await test.memory.ingest([{ role: 'user', content: 'My cat is called Zqxcanary.' }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const again = find(await test.memory.list(owner), 'Zqxcanary');
    expect(again).toBeDefined();
    expect(again!.id).not.toBe(cat.id);
  });

  it('forgets the earlier version an UPDATE from a later message superseded along with it', async () => {
    const test = await open({ episodes: false });
    await test.memory.ingest([{ role: 'user', content: 'I live in London.' }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    test.clock.advance(DAY);
    await test.memory.ingest([{ role: 'user', content: 'I live in Zqxville now.' }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const moved = find(await test.memory.list(owner), 'Zqxville')!;
    expect(moved).toBeDefined();
    await test.memory.forget(moved.id, owner);
    expect(await active(test)).toEqual([]);
    expect(await findInDatabases(test.factory, 'Zqxville')).toEqual([]);
    expect(await findInDatabases(test.factory, 'London')).toEqual([]);
  });

  /**
   * The two ways a memory gets a newer version: the user's `correct`, and a later message that
   * updates it. Forgetting the newest version forgets the memory, its past versions included:
   * before the line was erased, the version the newest superseded came back under a new id
   * (a replay re-extracted it from the first message).
   */
  const updates = {
    correct: async (test: TestMemory, id: string) => (await test.memory.correct(id, 'The user is vegan.', owner)).memoryId,
    'a later message': async (test: TestMemory) => {
      await test.memory.ingest([{ role: 'user', content: "I'm vegan now." }], { ...owner, sessionId: 'c3', source: implicit('s3') });
      return find(await test.memory.list(owner), 'vegan')!.id;
    },
  };
  for (const [how, update] of Object.entries(updates)) {
    it(`forgets every earlier version of a memory updated by ${how}, and no replay brings one back`, async () => {
      const test = await open();
      await ingestCanary(test);
      const vegetarian = find(await test.memory.list(owner), 'egetarian')!;
      const newest = await update(test, vegetarian.id);
      expect(newest).not.toBe(vegetarian.id);
      expect((await test.memory.get(vegetarian.id, owner)).supersededBy).toBe(newest);
      test.clock.advance(DAY);
      const report = await test.memory.forget(newest, owner);
      const gone = async (memory: TestMemory) => {
        for (const text of ['egetarian', 'vegan']) expect(await findInDatabases(memory.factory, text), `'${text}' is still stored`).toEqual([]);
        const topics = (await memory.memory.list(owner)).map((record) => record.topic);
        expect(topics).not.toContain('diet');
        // The other fact of the same message stays.
        expect(topics).toContain('pets');
      };
      await gone(test);
      expect(report.erased).toEqual(expect.arrayContaining([newest, vegetarian.id]));
      // Both versions are tombstones without text.
      for (const id of [vegetarian.id, newest]) expect(await test.memory.get(id, owner)).toMatchObject({ content: REDACTED, history: expect.arrayContaining([expect.objectContaining({ event: 'erased' })]) });
      // Replays: an unrelated source forgotten, the store re-embedded, the export imported elsewhere.
      await test.memory.forgetSource('s2', owner);
      expect(find(await test.memory.list(owner), 'aisle')).toBeUndefined();
      await gone(test);
      await test.memory.close();
      tests = tests.filter((entry) => entry !== test);
      const reembedded = await open({ indexedDB: test.factory, name: test.name, embedder: createHashEmbedder(64) });
      reembedded.clock.set(test.clock());
      expect((await reembedded.memory.reembed()).reembedded).toBeGreaterThan(0);
      await gone(reembedded);
      const data = await reembedded.memory.export(owner);
      const other = await open();
      other.clock.set(test.clock());
      await other.memory.import(data);
      await gone(other);
      expect(JSON.stringify(await other.memory.list({ ...owner, asOf: other.clock() }))).not.toMatch(/egetarian|vegan/);
      other.clock.advance(DAY);
      // Said again in a new message, it is remembered again.
      await other.memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...owner, sessionId: 'c5', source: implicit('s5') });
      expect(find(await other.memory.list(owner), 'vegan')).toBeDefined();
    });
  }

  it('forgets the versions before an undo along with the memory the undo restored', async () => {
    const test = await open({ episodes: false });
    const say = (content: string, id: string) => test.memory.remember({ content, topic: 'diet' }, { ...owner, source: { type: 'user_explicit', id } });
    // Extracted, so the memory's text is not its span: only the line finds it.
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    test.clock.advance(DAY);
    expect((await say('The user is zqvegan.', 's2')).action).toBe('UPDATE');
    test.clock.advance(DAY);
    const fish = await say('The user eats zqfish.', 's3');
    expect(fish.action).toBe('UPDATE');
    const { restored } = await test.memory.undo(fish, owner);
    expect((await test.memory.get(restored!.to, owner)).content).toBe('The user is zqvegan.');
    test.clock.advance(DAY);
    await test.memory.forget(restored!.to, owner);
    expect(await test.memory.list(owner)).toEqual([]);
    for (const text of ['egetarian', 'zqvegan']) expect(await findInDatabases(test.factory, text), `'${text}' is still stored`).toEqual([]);
  });

  it('forgets the current version when given the id of a version a correction moved on from', async () => {
    const test = await open({ episodes: false });
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const vegetarian = find(await test.memory.list(owner), 'egetarian')!;
    // A delete the user clicked on what they saw, landing after an edit of it (another tab).
    await test.memory.correct(vegetarian.id, 'The user is vegan.', owner);
    test.clock.advance(DAY);
    await test.memory.forget(vegetarian.id, owner);
    expect(await test.memory.list(owner)).toEqual([]);
    for (const text of ['egetarian', 'vegan']) expect(await findInDatabases(test.factory, text), `'${text}' is still stored`).toEqual([]);
  });

  it('does nothing for a memory forgotten before, and refuses a foreign or app-scope memory', async () => {
    const test = await open();
    await ingestCanary(test);
    const cat = find(await test.memory.list(owner), 'Zqxcanary')!;
    await test.memory.forget(cat.id, owner);
    expect(await test.memory.forget(cat.id, owner)).toEqual({ erased: [], regenerated: [] });
    const aisle = find(await test.memory.list(owner), 'aisle')!;
    await expect(test.memory.forget(aisle.id, { userId: 'someone-else' })).rejects.toThrow(NotFoundError);
    await test.memory.remember({ content: 'Support answers within a day.', topic: 'support' }, { appName: 'default', scope: 'app', source: { type: 'bootstrapped', id: 'kb' } });
    const app = (await test.memory.list(owner)).find((record) => record.scope === 'app')!;
    await expect(test.memory.forget(app.id, owner)).rejects.toThrow(PermissionError);
  });
});
