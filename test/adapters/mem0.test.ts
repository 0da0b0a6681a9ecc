/**
 * engram/mem0's Memory: mem0's shapes and argument rules, and engram's guarantees under them
 * (erasure that leaves no text, isolation of id-only calls). Each test has its own database.
 */
import { createHash } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError } from 'engram';
import { Memory, type MemoryConfig } from 'engram/mem0';
import { md5Hex } from '../../src/adapters/mem0/md5';
import { createTestMemory } from '../helpers/memory';
import { dumpDatabases, findInDatabases } from '../helpers/scan';

let counter = 0;

/** A facade on a fresh fake-indexeddb, in-process compute. */
function createFacade(config: Omit<MemoryConfig, 'indexedDB' | 'IDBKeyRange'> = {}) {
  const factory = new IDBFactory();
  const memory = new Memory({ name: `mem0-test-${++counter}`, worker: 'off', ...config, indexedDB: factory, IDBKeyRange });
  return { memory, factory };
}

describe('md5Hex', () => {
  it('equals node:crypto md5 when the text spans block boundaries and non-ASCII', () => {
    for (const text of ['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'y'.repeat(64), 'Zoë 李雷 😀 \u{1F600}', 'z'.repeat(1000)]) {
      expect(md5Hex(text)).toBe(createHash('md5').update(text).digest('hex'));
    }
  });
});

describe('Memory.add', () => {
  it('stores every non-system message verbatim when infer is false', async () => {
    const { memory } = createFacade();
    const added = await memory.add(
      [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'My cat is called Miso' },
        { role: 'assistant', content: 'Miso is a lovely name' },
      ],
      { userId: 'alice', infer: false },
    );
    expect(added.results.map((item) => [item.memory, item.metadata])).toEqual([
      ['My cat is called Miso', { event: 'ADD' }],
      ['Miso is a lovely name', { event: 'ADD' }],
    ]);
    const all = await memory.getAll({ filters: { user_id: 'alice' } });
    expect(all.results.map((item) => [item.memory, item.hash, item.metadata?.['source_types']])).toEqual([
      ['My cat is called Miso', md5Hex('My cat is called Miso'), ['user_explicit']],
      ['Miso is a lovely name', md5Hex('Miso is a lovely name'), ['tool_output']],
    ]);
    await memory.close();
  });

  it('reports an engram UPDATE as event UPDATE when a statement contradicts an exclusive topic', async () => {
    const { memory } = createFacade();
    const [first] = (await memory.add("I'm vegetarian.", { userId: 'alice' })).results;
    const [second] = (await memory.add("I'm vegan.", { userId: 'alice' })).results;
    expect(second).toEqual({ id: expect.any(String), memory: 'The user follows a vegan diet.', metadata: { event: 'UPDATE' } });
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.id)).toEqual([second!.id]);
    expect(first!.id).not.toBe(second!.id);
    await memory.close();
  });

  it('rejects an add without a user with a ValidationError when only agentId or runId is given', async () => {
    const { memory } = createFacade();
    await expect(memory.add('I am here', { agentId: 'helper' })).rejects.toThrow(ValidationError);
    await expect(memory.add('I am here', {})).rejects.toThrow('One of the filters: userId, agentId or runId is required!');
    await expect(memory.add([], { userId: 'alice' })).rejects.toThrow('messages array cannot be empty');
    await expect(memory.add('hi', { userId: 'has space' })).rejects.toThrow('Invalid userId: cannot contain whitespace');
  });

  it('stores none of the messages when one of them is too long for engram', async () => {
    const { memory } = createFacade();
    const messages = [
      { role: 'user', content: "I'm vegetarian." },
      { role: 'user', content: 'x'.repeat(100_001) },
    ];
    await expect(memory.add(messages, { userId: 'alice' })).rejects.toThrow(ValidationError);
    await expect(memory.add(messages, { userId: 'alice', infer: false })).rejects.toThrow('messages.1.content');
    expect(await memory.getAll({ filters: { user_id: 'alice' } })).toEqual({ results: [] });
    await memory.close();
  });
});

describe('Memory.search', () => {
  it("rejects top-level ids with mem0's message when they are not in filters", async () => {
    const { memory } = createFacade();
    // @ts-expect-error mem0 v3 takes ids only in filters
    await expect(memory.search('diet', { userId: 'alice' })).rejects.toThrow(ValidationError);
    // @ts-expect-error mem0 v3 takes ids only in filters
    await expect(memory.search('diet', { user_id: 'alice' })).rejects.toThrow('Top-level entity parameters [user_id] are not supported in search(). Use filters: { userId: "..." } instead.');
    // @ts-expect-error mem0 v3 takes ids only in filters
    await expect(memory.getAll({ userId: 'alice' })).rejects.toThrow('Top-level entity parameters [userId] are not supported in getAll().');
    await expect(memory.search('diet', {})).rejects.toThrow("filters must contain at least one of: user_id, agent_id, run_id. Example: filters: { user_id: 'u1' }");
    await expect(memory.search('diet', { filters: { user_id: 'alice' }, topK: 1.5 })).rejects.toThrow('topK must be a valid integer');
    await expect(memory.search('diet', { filters: { user_id: 'alice' }, threshold: 2 })).rejects.toThrow('Invalid threshold: 2');
  });

  it('returns only the filtered user, at most topK, above threshold when several users share the store', async () => {
    const { memory } = createFacade();
    await memory.add(['I prefer the aisle seat.', "I'm vegetarian.", 'Call me Ada.'].map((content) => ({ role: 'user', content })), { userId: 'alice' });
    await memory.add("I'm vegan.", { userId: 'bob' });
    const alice = await memory.search('what diet do I follow, vegetarian?', { filters: { user_id: 'alice' }, topK: 2 });
    expect(alice.results).toHaveLength(2);
    expect(alice.results.every((item) => item.user_id === 'alice')).toBe(true);
    expect(alice.results[0]!.memory).toBe('The user follows a vegetarian diet.');
    expect(alice.results[0]!.score!).toBeGreaterThanOrEqual(alice.results[1]!.score!);
    const strict = await memory.search('vegetarian diet', { filters: { user_id: 'alice' }, threshold: 0.5 });
    expect(strict.results.map((item) => item.memory)).toEqual(['The user follows a vegetarian diet.']);
    const bob = await memory.search('vegetarian diet', { filters: { user_id: 'bob' } });
    expect(bob.results.map((item) => item.memory)).toEqual(['The user follows a vegan diet.']);
    await memory.close();
  });

  it("adds a run's session memories only when filters name the run", async () => {
    const { memory } = createFacade();
    await memory.add([{ role: 'user', content: 'Today I am in Lisbon' }], { userId: 'alice', runId: 'trip-1', infer: false });
    const named = await memory.getAll({ filters: { user_id: 'alice', run_id: 'trip-1' } });
    expect(named.results.map((item) => [item.memory, item.run_id])).toEqual([['Today I am in Lisbon', 'trip-1']]);
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results).toEqual([]);
    expect((await memory.search('Lisbon', { filters: { user_id: 'alice', run_id: 'trip-1' } })).results).toHaveLength(1);
    expect((await memory.search('Lisbon', { filters: { user_id: 'alice', run_id: 'trip-2' } })).results).toEqual([]);
    await memory.close();
  });
});

describe('Memory.get', () => {
  it("returns null for another user's id when the facade is configured for one user", async () => {
    const { memory, factory } = createFacade({ name: 'shared-store' });
    const [alice] = (await memory.add("I'm vegetarian.", { userId: 'alice' })).results;
    await memory.close();
    const asBob = new Memory({ name: 'shared-store', worker: 'off', indexedDB: factory, IDBKeyRange, userId: 'bob' });
    expect(await asBob.get(alice!.id)).toBeNull();
    expect(await asBob.history(alice!.id)).toEqual([]);
    await expect(asBob.delete(alice!.id)).rejects.toThrow(NotFoundError);
    await expect(asBob.update(alice!.id, 'I eat fish')).rejects.toThrow(NotFoundError);
    const asAlice = new Memory({ name: 'shared-store', worker: 'off', indexedDB: factory, IDBKeyRange, userId: 'alice' });
    expect(await asAlice.get(alice!.id)).toMatchObject({ id: alice!.id, memory: 'The user follows a vegetarian diet.', user_id: 'alice' });
    await asBob.close();
    await asAlice.close();
  });

  it('rejects id-only calls with a ValidationError when no user is configured', async () => {
    const { memory } = createFacade();
    await expect(memory.get('mem_1')).rejects.toThrow(ValidationError);
    await expect(memory.delete('mem_1')).rejects.toThrow(/construct it with new Memory\(\{ userId/);
  });
});

describe('Memory.delete', () => {
  it("leaves none of the memory's text in IndexedDB when it is deleted, and keeps what came from the same message", async () => {
    const { memory, factory } = createFacade({ userId: 'alice' });
    const [seat, name] = (await memory.add('Call me Zanzibarine. I prefer the aisle seat.', { userId: 'alice' })).results;
    expect(seat!.memory).toBe('The user prefers aisle seating on flights.');
    const [note] = (await memory.add('Kumquatcanary notes for later', { userId: 'alice', infer: false })).results;
    expect((await findInDatabases(factory, 'Zanzibarine')).length).toBeGreaterThan(0);
    await memory.delete(name!.id);
    await memory.delete(note!.id);
    expect(await findInDatabases(factory, 'Zanzibarine')).toEqual([]);
    expect(await findInDatabases(factory, 'Kumquatcanary')).toEqual([]);
    expect(await memory.get(name!.id)).toBeNull();
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.memory)).toEqual(['The user prefers aisle seating on flights.']);
    expect((await memory.history(name!.id)).map((row) => [row.action, row.previous_value, row.new_value, row.is_deleted])).toEqual([
      ['DELETE', null, null, 1],
      ['ADD', null, null, 0],
    ]);
    await memory.close();
  });

  it('erases a replaced memory and keeps its successor when the old id is deleted', async () => {
    const { memory, factory } = createFacade({ userId: 'alice' });
    const [old] = (await memory.add("I'm vegetarian.", { userId: 'alice' })).results;
    await memory.add("I'm vegan.", { userId: 'alice' });
    expect((await findInDatabases(factory, 'vegetarian')).length).toBeGreaterThan(0);
    await memory.delete(old!.id);
    expect(await findInDatabases(factory, 'vegetarian')).toEqual([]);
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.memory)).toEqual(['The user follows a vegan diet.']);
    await memory.close();
  });

  it('refuses to delete an app-scope memory with a PermissionError when the app shares it with every user', async () => {
    const { memory: engram, factory, name } = await createTestMemory();
    const shared = await engram.remember({ content: 'Support hours are 9 to 5.', topic: 'general' }, { scope: 'app', source: { type: 'bootstrapped', id: 'handbook' } });
    const facade = new Memory({ memory: engram, userId: 'alice' });
    await expect(facade.delete(shared.memoryId)).rejects.toThrow(PermissionError);
    await expect(facade.reset()).rejects.toThrow(PermissionError);
    expect((await engram.get(shared.memoryId, { userId: 'alice' })).content).toBe('Support hours are 9 to 5.');
    expect(name).toMatch(/engram-test/);
    expect((await findInDatabases(factory, 'Support hours')).length).toBeGreaterThan(0);
    await engram.close();
  });
});

describe('Memory.update', () => {
  it('replaces the text, erasing the old one, when given a new text', async () => {
    const { memory, factory } = createFacade({ userId: 'alice' });
    const [old] = (await memory.add('Prefers Earl Greyish tea', { userId: 'alice', infer: false })).results;
    const updated = await memory.update(old!.id, 'Prefers decaf coffee');
    expect(updated).toEqual({ message: 'Memory updated successfully!', id: expect.any(String) });
    expect(await memory.get(updated.id)).toMatchObject({ memory: 'Prefers decaf coffee', hash: md5Hex('Prefers decaf coffee') });
    expect(await findInDatabases(factory, 'Earl Greyish')).toEqual([]);
    await expect(memory.update(updated.id, { text: '   ' })).rejects.toThrow(ValidationError);
    expect((await memory.get(updated.id))?.memory).toBe('Prefers decaf coffee');
    await expect(memory.update(old!.id, 'Prefers green tea')).rejects.toThrow(NotFoundError);
    await memory.close();
  });
});

describe('Memory.history', () => {
  it("gives mem0's snake_case rows, newest first, when a memory was superseded", async () => {
    const { memory } = createFacade({ userId: 'alice' });
    const [first] = (await memory.add("I'm vegetarian.", { userId: 'alice' })).results;
    await memory.add("I'm vegan.", { userId: 'alice' });
    const rows = await memory.history(first!.id);
    expect(rows).toEqual([
      expect.objectContaining({ memory_id: first!.id, action: 'UPDATE', previous_value: 'The user follows a vegetarian diet.', new_value: 'The user follows a vegan diet.', is_deleted: 0 }),
      expect.objectContaining({ memory_id: first!.id, action: 'ADD', previous_value: null, new_value: 'The user follows a vegetarian diet.', updated_at: null, is_deleted: 0 }),
    ]);
    expect(Object.keys(rows[0]!).sort()).toEqual(['action', 'created_at', 'id', 'is_deleted', 'memory_id', 'new_value', 'previous_value', 'updated_at']);
    await memory.close();
  });
});

describe('Memory.deleteAll', () => {
  it("erases one user's memories and conversations when another user's stay", async () => {
    const { memory, factory } = createFacade();
    await memory.add(['Call me Quillonia.', "I'm vegetarian."].map((content) => ({ role: 'user', content })), { userId: 'alice' });
    await memory.add('Nothing durable here, Quillonia said', { userId: 'alice' });
    await memory.add('Call me Bartholomew.', { userId: 'bob' });
    await memory.deleteAll({ userId: 'alice' });
    expect(await findInDatabases(factory, 'Quillonia')).toEqual([]);
    expect(await findInDatabases(factory, 'vegetarian')).toEqual([]);
    expect((await memory.getAll({ filters: { user_id: 'bob' } })).results.map((item) => item.memory)).toEqual(['The user goes by Bartholomew.']);
    await expect(memory.deleteAll({})).rejects.toThrow('At least one filter is required to delete all memories.');
    await memory.close();
  });
});

describe('Memory.reset', () => {
  it('deletes the database and starts empty when the facade opened the store', async () => {
    const { memory, factory } = createFacade();
    await memory.add('Call me Resettia.', { userId: 'alice' });
    await memory.reset();
    expect(await dumpDatabases(factory)).toEqual([]);
    expect(await memory.getAll({ filters: { user_id: 'alice' } })).toEqual({ results: [] });
    await memory.close();
  });
});
