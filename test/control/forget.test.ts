import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, type MemoryRecord } from '../../src/index';
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
    // The turn's episode is rebuilt without the span.
    const episode = after.find((record) => record.topic === EPISODE_TOPIC && record.content.includes('vegetarian'));
    expect(episode?.content).toContain('[forgotten]');
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

  it('lets the superseded memory stand again when the memory an UPDATE made is forgotten', async () => {
    const test = await open({ episodes: false });
    await test.memory.ingest([{ role: 'user', content: 'I live in London.' }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    test.clock.advance(DAY);
    await test.memory.ingest([{ role: 'user', content: 'I live in Zqxville now.' }], { ...owner, sessionId: 'c1', source: implicit('s1') });
    const moved = find(await test.memory.list(owner), 'Zqxville')!;
    expect(moved).toBeDefined();
    await test.memory.forget(moved.id, owner);
    expect((await active(test)).map(([, content]) => content)).toEqual([expect.stringContaining('London')]);
    expect(await findInDatabases(test.factory, 'Zqxville')).toEqual([]);
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
