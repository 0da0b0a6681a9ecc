import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../src/errors';
import { checkUndo } from '../contract/undo';
import { createTestMemory, DAY, openTestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'ada', appName: 'default' };
const source = (id: string, type: 'user_explicit' | 'user_implicit' | 'tool_output' = 'user_explicit') => ({ type, id });

describe('undo', () => {
  it('leaves the store that never received the last message when every operation of it is undone, for random histories', async () => {
    const { runs, undone, operations } = await checkUndo(openTestMemory, 24);
    console.log(`undo property (IndexedDB): ${runs} random histories, in ${undone} the last message made only CREATE/UPDATE (${operations} operations undone): store equal to one that never ingested it in all ${undone}`);
    expect(undone).toBeGreaterThanOrEqual(6);
  }, 120_000);

  it('restores the superseded memory with its sources when an UPDATE is undone, and keeps its text only in the excerpt of its source', async () => {
    const { memory, clock, factory } = await createTestMemory();
    const first = await memory.remember({ content: 'The user goes by Ada.', topic: 'identity' }, { ...owner, source: source('s1') });
    clock.advance(DAY);
    const update = await memory.remember({ content: 'The user goes by Adelaide Bergström.', topic: 'identity' }, { ...owner, source: source('s2') });
    expect(update.action).toBe('UPDATE');
    clock.advance(DAY);
    const report = await memory.undo(update, owner);
    expect(report).toEqual({ removed: update.memoryId, restored: { from: first.memoryId, to: expect.any(String) } });
    const [active] = await memory.list(owner);
    expect(active).toMatchObject({ id: report.restored!.to, content: 'The user goes by Ada.', sources: [expect.objectContaining({ id: 's1' })] });
    expect(active!.invalidatedAt).toBeUndefined();
    expect((await memory.history(update.memoryId, owner)).at(-1)).toMatchObject({ event: 'erased' });
    // The memory, its vector and the stored input lose the text; the remember's input went whole,
    // so no message quotes it and its excerpt leaves the lineage row too.
    expect(await findInDatabases(factory, 'Bergstr')).toEqual([]);
    await memory.forgetSource('s2', owner);
    expect(await findInDatabases(factory, 'Bergstr')).toEqual([]);
    // Retrieval finds the restored memory again, and replay agrees: forgetting an unrelated source changes nothing.
    expect((await memory.retrieve('does the user go by Ada?', owner)).map((hit) => hit.memory.id)).toEqual([report.restored!.to]);
    expect(await memory.forgetSource('unrelated', owner)).toEqual({ erased: [], regenerated: [] });
    await memory.close();
  });

  it('undoes a message that made a CREATE and the UPDATE of it, in reverse: the CREATE reverts the memory the first undo restored', async () => {
    const { memory } = await createTestMemory();
    const made = await memory.ingest([{ role: 'user', content: "I'm vegetarian. I'm a vegan." }], { ...owner, sessionId: 'c', source: source('s1', 'user_implicit') });
    expect(made.map((operation) => operation.action)).toEqual(['CREATE', 'UPDATE']);
    for (const operation of [...made].reverse()) await memory.undo(operation, owner);
    expect(await memory.list(owner)).toEqual([]);
    expect((await memory.export(owner)).inputs).toEqual([]);
    await memory.close();
  });

  it('forgets a CREATE, and a replay after it does not bring it back', async () => {
    const { memory, clock } = await createTestMemory();
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...owner, source: source('s1') });
    clock.advance(DAY);
    const [created] = await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c', source: source('s2', 'user_implicit') });
    expect(created!.action).toBe('CREATE');
    await memory.undo(created!, owner);
    expect((await memory.list(owner)).map((record) => record.content)).toEqual(['The user likes jazz.']);
    await memory.forgetSource('s1', owner);
    expect(await memory.list(owner)).toEqual([]);
    await memory.close();
  });

  it('keeps an undone fact out on another device, when the export is imported and a replay there rebuilds its message', async () => {
    const { memory, clock } = await createTestMemory();
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...owner, source: source('s0') });
    clock.advance(DAY);
    const [diet, seat] = await memory.ingest([{ role: 'user', content: "I'm vegetarian. I prefer the aisle seat." }], { ...owner, sessionId: 'c', source: source('s1', 'user_implicit') });
    expect([diet!.content, seat!.content]).toEqual(['The user follows a vegetarian diet.', 'The user prefers aisle seating on flights.']);
    await memory.undo(diet!, owner);
    const data = await memory.export(owner);
    const other = await createTestMemory();
    await other.memory.import(data);
    // Forgetting the earlier source replays s1's message on both devices: the undone fact stays out.
    for (const device of [memory, other.memory]) {
      await device.forgetSource('s0', owner);
      expect((await device.list(owner)).map((record) => record.content)).toEqual(['The user prefers aisle seating on flights.']);
    }
    await memory.close();
    await other.memory.close();
  });

  it('keeps the other facts of the message at their time when one of them is undone after later writes', async () => {
    const { memory, clock } = await createTestMemory();
    const operations = await memory.ingest([{ role: 'user', content: "I'm vegetarian. I prefer the aisle seat." }], { ...owner, sessionId: 'c', source: source('s1', 'user_implicit') });
    expect(operations.map((operation) => operation.action)).toEqual(['CREATE', 'CREATE']);
    const then = clock();
    clock.advance(DAY);
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...owner, source: source('s2') });
    clock.advance(DAY);
    await memory.undo(operations[0]!, owner);
    const seat = 'The user prefers aisle seating on flights.';
    expect((await memory.list({ ...owner, asOf: then })).map((record) => record.content)).toEqual([seat]);
    expect((await memory.list(owner)).map((record) => record.content)).toEqual([seat, 'The user likes jazz.']);
    // A replay (the erasure of s2) rebuilds the seat fact and not the undone one.
    await memory.forgetSource('s2', owner);
    expect((await memory.list(owner)).map((record) => record.content)).toEqual([seat]);
    await memory.close();
  });

  it('refuses with a ConflictError naming what depends on it when the memory was corroborated since', async () => {
    const { memory, clock } = await createTestMemory();
    const created = await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...owner, source: source('s1') });
    clock.advance(DAY);
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...owner, source: source('s2') });
    await expect(memory.undo(created, owner)).rejects.toThrow(/corroborated at/);
    await expect(memory.undo(created, owner)).rejects.toThrow(ConflictError);
    await memory.close();
  });

  it('refuses when a later write was decided with the memory in place', async () => {
    const { memory, clock } = await createTestMemory();
    const created = await memory.remember({ content: 'The user goes by Ada.', topic: 'identity' }, { ...owner, source: source('s1') });
    clock.advance(DAY);
    // A tool output cannot overwrite what the user said: refused because the memory is there.
    const refused = await memory.remember({ content: 'The user goes by Bob.', topic: 'identity' }, { ...owner, source: source('t1', 'tool_output') });
    expect(refused.action).toBe('NOOP');
    await expect(memory.undo(created, owner)).rejects.toThrow(/later writes were decided with memory/);
    expect((await memory.list(owner)).map((record) => record.content)).toEqual(['The user goes by Ada.']);
    await memory.close();
  });

  it('refuses a NOOP and an UPDATE whose target does not match', async () => {
    const { memory } = await createTestMemory();
    const created = await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...owner, source: source('s1') });
    await expect(memory.undo({ ...created, action: 'NOOP' }, owner)).rejects.toThrow(ValidationError);
    await expect(memory.undo({ ...created, action: 'UPDATE', targetId: 'mem_nothing' }, owner)).rejects.toThrow(ValidationError);
    await memory.close();
  });
});
