/**
 * engram/mem0's Memory: mem0's shapes and argument rules, and engram's guarantees under them
 * (erasure that leaves no text, isolation of id-only calls). Each test has its own database.
 */
import { createHash } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS, NotFoundError, PermissionError, StorageError, ValidationError } from 'engram';
import { Memory, type MemoryConfig } from 'engram/mem0';
import { md5Hex } from '../../src/adapters/mem0/md5';
import { LOCATE_KEY, REPLACE_ONLY_KEY, RETRIEVE_UNFLOORED_KEY } from '../../src/adapters/mem0/resolve';
import { LOCATE, REPLACE_ONLY, RETRIEVE_UNFLOORED } from '../../src/facade-access';
import { createTestMemory } from '../helpers/memory';
import { dumpDatabases, findInDatabases } from '../helpers/scan';

let counter = 0;

/** A facade on a fresh fake-indexeddb, in-process compute. */
function createFacade(config: Omit<MemoryConfig, 'indexedDB' | 'IDBKeyRange'> = {}) {
  const factory = new IDBFactory();
  const memory = new Memory({ name: `mem0-test-${++counter}`, worker: 'off', ...config, indexedDB: factory, IDBKeyRange });
  return { memory, factory };
}

describe('LOCATE_KEY', () => {
  it('is the symbol createMemory puts the locate read under', () => {
    expect(LOCATE_KEY).toBe(LOCATE);
    expect(REPLACE_ONLY_KEY).toBe(REPLACE_ONLY);
    expect(RETRIEVE_UNFLOORED_KEY).toBe(RETRIEVE_UNFLOORED);
  });
});

describe('md5Hex', () => {
  it('equals node:crypto md5 when the text spans block boundaries and non-ASCII', () => {
    for (const text of ['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'y'.repeat(64), 'Zoë 李雷 😀 \u{1F600}', 'z'.repeat(1000)]) {
      expect(md5Hex(text)).toBe(createHash('md5').update(text).digest('hex'));
    }
  });
});

describe('new Memory() under Node', () => {
  it("rejects the first call with StorageError whose advice is the facade's own constructor, not createMemory", async () => {
    expect(globalThis.indexedDB).toBeUndefined();
    const memory = new Memory();
    await expect(memory.add('I love sci-fi movies', { userId: 'alice' })).rejects.toThrow(StorageError);
    const advice = await memory.add('I love sci-fi movies', { userId: 'alice' }).catch((error: Error) => error.message);
    expect(advice).toContain("import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';");
    expect(advice).toContain('new Memory({ indexedDB: new IDBFactory(), IDBKeyRange })');
    expect(advice).not.toContain('createMemory');
    await expect(new Memory({ indexedDB: new IDBFactory(), worker: 'off' }).getAll({ filters: { user_id: 'alice' } })).rejects.toThrow(/needs its IDBKeyRange[\s\S]*new Memory\(\{ indexedDB: new IDBFactory\(\), IDBKeyRange \}\)/);
  });
});

describe('Memory.search of a question about the user as a whole', () => {
  it('scores each memory by its own standing (importance, recency, confidence) when the query tells none apart, so the scores differ and rank sensibly', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { memory } = createFacade({ clock: () => now });
    await memory.add('I have two kids.', { userId: 'alice' });
    now += 90 * 86_400_000;
    await memory.add("I'm vegetarian. I love sci-fi movies.", { userId: 'alice' });
    await memory.add("I'm allergic to nuts.", { userId: 'alice' });
    // Said again: corroborated, so more certain than the memory beside it that is equal in every other part.
    await memory.add('I love sci-fi movies.', { userId: 'alice' });
    const { results } = await memory.search('What do you know about me?', { filters: { user_id: 'alice' } });
    await memory.close();
    const scores = results.map((item) => item.score!);
    // Most important first; the corroborated preference above the older, more important family fact; of two equal in all else, the one said twice.
    expect(results.map((item) => item.memory)).toEqual(['The user is allergic to nuts.', 'The user loves sci-fi movies.', 'The user has two kids.', 'The user follows a vegetarian diet.']);
    expect(new Set(scores.map((score) => score.toFixed(3))).size).toBe(scores.length);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // On the [0, 1] scale of a relevant hit, not squeezed under the recency and importance weights.
    expect(scores[0]!).toBeGreaterThan(DEFAULT_WEIGHTS.recency + DEFAULT_WEIGHTS.importance);
    expect(scores.every((score) => score > 0 && score <= 1)).toBe(true);
  });

  it('keeps the blended score when the query does share words with the memories', async () => {
    const { memory } = createFacade();
    await memory.add("I'm vegetarian. I love sci-fi movies.", { userId: 'alice' });
    const { results } = await memory.search('sci-fi movies', { filters: { user_id: 'alice' } });
    await memory.close();
    // The diet memory shares nothing with the query, so it is not returned to fill the limit.
    expect(results.map((item) => item.memory)).toEqual(['The user loves sci-fi movies.']);
    expect(results[0]!.score!).toBeGreaterThan(DEFAULT_WEIGHTS.recency + DEFAULT_WEIGHTS.importance + 0.3);
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
      { userId: 'alice', infer: false, metadata: { category: 'pets' } },
    );
    expect(added.results.map((item) => [item.memory, item.metadata])).toEqual([
      ['My cat is called Miso', { event: 'ADD' }],
      ['Miso is a lovely name', { event: 'ADD' }],
    ]);
    const all = await memory.getAll({ filters: { user_id: 'alice' } });
    expect(all.results.map((item) => [item.id, item.memory, item.hash, item.metadata])).toEqual([
      [added.results[0]!.id, 'My cat is called Miso', md5Hex('My cat is called Miso'), { category: 'pets' }],
      [added.results[1]!.id, 'Miso is a lovely name', md5Hex('Miso is a lovely name'), { category: 'pets' }],
    ]);
    await memory.close();
  });

  it('reports an engram UPDATE as event UPDATE under the same id when a statement contradicts an exclusive topic', async () => {
    const { memory } = createFacade();
    const [first] = (await memory.add("I'm vegetarian.", { userId: 'alice' })).results;
    const [second] = (await memory.add("I'm vegan.", { userId: 'alice' })).results;
    expect(second).toEqual({ id: first!.id, memory: 'The user follows a vegan diet.', metadata: { event: 'UPDATE' } });
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => [item.id, item.memory])).toEqual([[first!.id, 'The user follows a vegan diet.']]);
    await memory.close();
  });

  it('reports only the final state, as one ADD that get() finds, when one call adds a memory and then replaces it', async () => {
    const { memory } = createFacade();
    const messages = [
      { role: 'user', content: "I'm vegetarian." },
      { role: 'assistant', content: 'Noted, no meat.' },
      { role: 'user', content: "Actually I've started eating fish again." },
    ];
    const added = await memory.add(messages, { userId: 'alice' });
    expect(added.results).toEqual([{ id: expect.any(String), memory: 'The user eats fish again.', metadata: { event: 'ADD' } }]);
    expect(await memory.get(added.results[0]!.id)).toMatchObject({ id: added.results[0]!.id, memory: 'The user eats fish again.' });
    expect((await memory.history(added.results[0]!.id)).map((row) => [row.action, row.previous_value, row.new_value])).toEqual([
      ['UPDATE', 'The user follows a vegetarian diet.', 'The user eats fish again.'],
      ['ADD', null, 'The user follows a vegetarian diet.'],
    ]);
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
    await memory.add(
      ['I prefer the aisle seat.', "I'm vegetarian.", 'Call me Ada.'].map((content) => ({ role: 'user', content })),
      { userId: 'alice' },
    );
    await memory.add("I'm vegan.", { userId: 'bob' });
    const alice = await memory.search('what diet, seat and name do I have: vegetarian, aisle, Ada?', { filters: { user_id: 'alice' }, topK: 2 });
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

  it("includes every run's memories for a user filter, and only that run's when run_id is named", async () => {
    const { memory } = createFacade();
    await memory.add([{ role: 'user', content: 'Today I am in Lisbon' }], { userId: 'alice', runId: 'trip-1', infer: false });
    await memory.add("I'm vegetarian.", { userId: 'alice', runId: 'trip-2' });
    await memory.add('I prefer the aisle seat.', { userId: 'alice' });
    const all = await memory.getAll({ filters: { user_id: 'alice' } });
    expect(all.results.map((item) => [item.memory, item.run_id])).toEqual([
      ['Today I am in Lisbon', 'trip-1'],
      ['The user follows a vegetarian diet.', 'trip-2'],
      ['The user prefers aisle seating on flights.', undefined],
    ]);
    const named = await memory.getAll({ filters: { user_id: 'alice', run_id: 'trip-1' } });
    expect(named.results.map((item) => item.memory)).toEqual(['Today I am in Lisbon']);
    expect((await memory.search('Lisbon', { filters: { user_id: 'alice' } })).results.map((item) => item.memory)).toContain('Today I am in Lisbon');
    // The run's one memory shares nothing with the query: no padding.
    expect((await memory.search('Lisbon', { filters: { user_id: 'alice', run_id: 'trip-2' } })).results).toEqual([]);
    expect((await memory.search('vegetarian', { filters: { user_id: 'alice', run_id: 'trip-2' } })).results.map((item) => item.memory)).toEqual(['The user follows a vegetarian diet.']);
    await memory.deleteAll({ userId: 'alice', runId: 'trip-1' });
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.run_id)).toEqual(['trip-2', undefined]);
    await memory.close();
  });

  it('returns only the results whose prompt block fits maxTokens, and lists them by creation when order is stable', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { memory } = createFacade({ clock: () => now });
    const texts = ['Trip to Lisbon in May', 'Trip to Rome in June', 'Trip to Oslo in July', 'Trip to Kyoto in August'];
    for (const content of texts) {
      await memory.add([{ role: 'user', content }], { userId: 'alice', infer: false });
      now += 60_000;
    }
    const ranked = await memory.search('Trip to Oslo', { filters: { user_id: 'alice' } });
    expect(ranked.results[0]!.memory).toBe('Trip to Oslo in July');
    const count = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const full = (await memory.search('Trip to Oslo', { filters: { user_id: 'alice' }, maxTokens: 10_000, countTokens: count })).results;
    expect(full.map((item) => item.memory)).toEqual(ranked.results.map((item) => item.memory));
    // A budget that holds the block with two lines but not three keeps the two best-ranked.
    const budgeted = (await memory.search('Trip to Oslo', { filters: { user_id: 'alice' }, maxTokens: 40, countTokens: count })).results;
    expect(budgeted.length).toBeGreaterThan(0);
    expect(budgeted.length).toBeLessThan(texts.length);
    expect(budgeted.map((item) => item.memory)).toEqual(ranked.results.slice(0, budgeted.length).map((item) => item.memory));
    const stable = (await memory.search('Trip to Oslo', { filters: { user_id: 'alice' }, order: 'stable' })).results;
    expect(stable.map((item) => item.memory)).toEqual(texts);
    await memory.close();
  });

  it('rejects an empty query with a ValidationError, as mem0 does', async () => {
    const { memory } = createFacade();
    await expect(memory.search('', { filters: { user_id: 'alice' } })).rejects.toThrow(ValidationError);
    await expect(memory.search('   ', { filters: { user_id: 'alice' } })).rejects.toThrow('query cannot be empty');
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

  it('resolves any id the database holds when no user is configured, as mem0 does', async () => {
    const { memory } = createFacade();
    const [alice] = (await memory.add("I'm vegetarian.", { userId: 'alice' })).results;
    const [bob] = (await memory.add('Call me Bartholomew.', { userId: 'bob', agentId: 'helper' })).results;
    expect(await memory.get(alice!.id)).toMatchObject({ id: alice!.id, memory: 'The user follows a vegetarian diet.', user_id: 'alice' });
    expect(await memory.get(bob!.id)).toMatchObject({ id: bob!.id, user_id: 'bob', agent_id: 'helper' });
    expect(await memory.get('mem_not_there')).toBeNull();
    expect(await memory.history('mem_not_there')).toEqual([]);
    await expect(memory.delete('mem_not_there')).rejects.toThrow(NotFoundError);
    await memory.update(bob!.id, 'The user goes by Bart.');
    expect((await memory.getAll({ filters: { user_id: 'bob', agent_id: 'helper' } })).results.map((item) => [item.id, item.memory])).toEqual([[bob!.id, 'The user goes by Bart.']]);
    await memory.delete(bob!.id);
    expect(await memory.get(bob!.id)).toBeNull();
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.id)).toEqual([alice!.id]);
    await expect(memory.get(42 as unknown as string)).rejects.toThrow(ValidationError);
    await memory.close();
  });
});

describe('Memory (an engram memory not made by createMemory)', () => {
  it('needs the user for id-only calls when the engram memory it is given cannot locate an id', async () => {
    const { memory: engram } = await createTestMemory();
    // A wrapper of the app's own (string keys only): it has no locate read.
    const wrapped = Object.fromEntries(Object.entries(engram)) as unknown as typeof engram;
    const [added] = (await new Memory({ memory: wrapped }).add("I'm vegetarian.", { userId: 'alice' })).results;
    await expect(new Memory({ memory: wrapped }).get(added!.id)).rejects.toThrow(/construct the facade with new Memory\(\{ userId/);
    expect(await new Memory({ memory: wrapped, userId: 'alice' }).get(added!.id)).toMatchObject({ id: added!.id, memory: 'The user follows a vegetarian diet.' });
    await engram.close();
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
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => [item.id, item.memory])).toEqual([[seat!.id, 'The user prefers aisle seating on flights.']]);
    expect((await memory.history(name!.id)).map((row) => [row.action, row.previous_value, row.new_value, row.is_deleted])).toEqual([
      ['DELETE', null, null, 1],
      ['ADD', null, null, 0],
    ]);
    await memory.close();
  });

  it('deletes a memory of a message whose episode is kept (episodes on): the episode goes with the message, the sibling fact stays', async () => {
    const { memory, factory } = createFacade({ userId: 'alice', episodes: true });
    const added = (await memory.add('My name is Zanzibarine and I live in Berlin.', { userId: 'alice' })).results;
    expect(added.map((item) => item.memory)).toEqual(expect.arrayContaining(["The user's name is Zanzibarine.", 'The user lives in Berlin.']));
    const name = added.find((item) => item.memory === "The user's name is Zanzibarine.")!;
    const home = added.find((item) => item.memory === 'The user lives in Berlin.')!;
    await memory.delete(name.id);
    expect(await findInDatabases(factory, 'Zanzibarine')).toEqual([]);
    expect(await memory.get(name.id)).toBeNull();
    expect((await memory.get(home.id))?.memory).toBe(home.memory);
  });

  it('erases every text of the memory, its earlier versions included, when an updated memory is deleted', async () => {
    const { memory, factory } = createFacade();
    const [diet] = (await memory.add("I'm vegetarian.", { userId: 'alice' })).results;
    await memory.add("I'm vegan.", { userId: 'alice' });
    await memory.add('I prefer the aisle seat.', { userId: 'alice' });
    expect((await findInDatabases(factory, 'vegetarian')).length).toBeGreaterThan(0);
    await memory.delete(diet!.id);
    expect(await findInDatabases(factory, 'vegetarian')).toEqual([]);
    expect(await findInDatabases(factory, 'vegan')).toEqual([]);
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.memory)).toEqual(['The user prefers aisle seating on flights.']);
    expect((await memory.history(diet!.id)).map((row) => [row.action, row.previous_value, row.new_value, row.is_deleted])).toEqual([
      ['DELETE', null, null, 1],
      ['UPDATE', null, null, 0],
      ['ADD', null, null, 0],
    ]);
    await expect(memory.delete(diet!.id)).rejects.toThrow(NotFoundError);
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
  it('keeps the id, and the ids of what came from the same message, when the text is replaced', async () => {
    const { memory } = createFacade();
    const added = (await memory.add('Call me Zanzibarine. I prefer the aisle seat.', { userId: 'alice', metadata: { category: 'profile' } })).results;
    const [seat, name] = added;
    expect(await memory.update(seat!.id, 'The user prefers the window seat.')).toEqual({ message: 'Memory updated successfully!' });
    expect(await memory.get(seat!.id)).toMatchObject({ id: seat!.id, memory: 'The user prefers the window seat.', hash: md5Hex('The user prefers the window seat.'), metadata: { category: 'profile' } });
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => item.id).sort()).toEqual([seat!.id, name!.id].sort());
    expect((await memory.history(seat!.id)).map((row) => [row.action, row.previous_value, row.new_value])).toEqual([
      ['UPDATE', 'The user prefers aisle seating on flights.', 'The user prefers the window seat.'],
      ['ADD', null, 'The user prefers aisle seating on flights.'],
    ]);
    await memory.update(seat!.id, { metadata: { category: 'travel' } });
    expect(await memory.get(seat!.id)).toMatchObject({ memory: 'The user prefers the window seat.', metadata: { category: 'travel' } });
    // Deleting the other memory of that message rebuilds the updated one: still under its id.
    await memory.delete(name!.id);
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results.map((item) => [item.id, item.memory])).toEqual([[seat!.id, 'The user prefers the window seat.']]);
    await expect(memory.update(seat!.id, { text: '   ' })).rejects.toThrow(ValidationError);
    await expect(memory.update(name!.id, 'Call me Ann.')).rejects.toThrow(NotFoundError);
    await expect(memory.update(seat!.id, {})).rejects.toThrow(ValidationError);
    await memory.close();
  });
});

describe('Memory.update racing Memory.delete', () => {
  /** An engram memory whose calls named in `gated` wait for `open()` (symbol-keyed ones too). */
  async function gatedEngram() {
    const { memory: engram, factory } = await createTestMemory();
    let release = () => {};
    let gate = Promise.resolve();
    const closed = () => (gate = new Promise<void>((resolve) => (release = resolve)));
    const wait =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A) => {
        await gate;
        return call(...args);
      };
    const replaceOnly = (engram as unknown as Record<symbol, (...args: unknown[]) => Promise<unknown>>)[REPLACE_ONLY]!;
    const gated = (names: readonly ('remember' | 'forgetSource' | 'replaceOnly')[]) => ({
      ...engram,
      ...(names.includes('remember') ? { remember: wait(engram.remember) } : {}),
      ...(names.includes('forgetSource') ? { forgetSource: wait(engram.forgetSource) } : {}),
      [REPLACE_ONLY]: names.includes('replaceOnly') ? wait(replaceOnly) : replaceOnly,
    });
    return { engram, factory, gated, close: closed, open: () => release() };
  }

  it('writes nothing when the delete commits first: the update is a NotFoundError and the new text is nowhere', async () => {
    const { engram, factory, gated, close, open } = await gatedEngram();
    const memory = new Memory({ memory: gated(['remember', 'replaceOnly']) as unknown as typeof engram });
    const [added] = (await memory.add('I prefer the aisle seat on trains.', { userId: 'alice' })).results;
    close();
    const updating = memory.update(added!.id, 'The user prefers the window seat on trains.');
    updating.catch(() => {});
    // The update has read the memory and waits at its write; the delete runs whole meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await memory.delete(added!.id);
    open();
    await expect(updating).rejects.toThrow(NotFoundError);
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results).toEqual([]);
    expect(await findInDatabases(factory, 'window seat')).toEqual([]);
    await engram.close();
  });

  it('erases the updated version too when the update commits in the middle of the delete', async () => {
    const { engram, gated, close, open } = await gatedEngram();
    const memory = new Memory({ memory: gated(['forgetSource']) as unknown as typeof engram });
    const [added] = (await memory.add('I prefer the aisle seat on trains.', { userId: 'bob' })).results;
    close();
    // The delete has read the memory's sources and waits at its erasure; the update commits meanwhile.
    const deleting = memory.delete(added!.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await memory.update(added!.id, 'The user prefers the window seat on trains.');
    open();
    await deleting;
    expect((await memory.getAll({ filters: { user_id: 'bob' } })).results).toEqual([]);
    await expect(memory.get(added!.id)).resolves.toBeNull();
    await engram.close();
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

describe('Memory.search and Memory.getAll (metadata filters)', () => {
  it("filters on metadata with mem0's operators when filters name metadata keys", async () => {
    const { memory } = createFacade();
    const add = (content: string, metadata: Record<string, unknown>) => memory.add([{ role: 'user', content }], { userId: 'alice', infer: false, metadata });
    await add('Loves ramen', { category: 'food', priority: 7, tags: ['asian', 'noodles'] });
    await add('Flies to Oslo in May', { category: 'travel', priority: 3, status: 'planned' });
    await add('Hates olives', { category: 'food', priority: 5, status: 'archived' });
    await add('Plays chess', { priority: 9 });
    const memories = async (filters: Record<string, unknown>) => (await memory.getAll({ filters: { user_id: 'alice', ...filters } })).results.map((item) => item.memory);
    expect(await memories({ category: 'food' })).toEqual(['Loves ramen', 'Hates olives']);
    expect(await memories({ priority: { gte: 5, lt: 9 } })).toEqual(['Loves ramen', 'Hates olives']);
    expect(await memories({ category: { in: ['travel', 'music'] } })).toEqual(['Flies to Oslo in May']);
    expect(await memories({ status: { nin: ['archived'] } })).toEqual(['Loves ramen', 'Flies to Oslo in May', 'Plays chess']);
    expect(await memories({ tags: { contains: 'noodles' } })).toEqual(['Loves ramen']);
    expect(await memories({ status: { icontains: 'PLAN' } })).toEqual(['Flies to Oslo in May']);
    expect(await memories({ category: '*' })).toEqual(['Loves ramen', 'Flies to Oslo in May', 'Hates olives']);
    expect(await memories({ OR: [{ category: 'travel' }, { priority: { gt: 8 } }] })).toEqual(['Flies to Oslo in May', 'Plays chess']);
    expect(await memories({ category: 'food', NOT: [{ status: 'archived' }] })).toEqual(['Loves ramen']);
    expect(await memories({ AND: [{ OR: [{ category: 'food' }, { category: 'travel' }] }, { priority: { ne: 5 } }] })).toEqual(['Loves ramen', 'Flies to Oslo in May']);
    const found = await memory.search('ramen olives food', { filters: { user_id: 'alice', category: 'food' }, topK: 1 });
    expect(found.results.map((item) => item.metadata?.['category'])).toEqual(['food']);
    await expect(memory.getAll({ filters: { user_id: 'alice', priority: { between: [1, 2] } } })).rejects.toThrow(ValidationError);
    await expect(memory.getAll({ filters: { user_id: 'alice', category: { in: 'food' } } })).rejects.toThrow(ValidationError);
    await memory.close();
  });
});

describe('Memory.search and Memory.getAll (kind)', () => {
  it("say each result's kind, 'fact' or 'episode', beside the caller's metadata, which stays theirs", async () => {
    const { memory } = createFacade({ episodes: true });
    await memory.add("I'm allergic to peanuts.", { userId: 'alice', metadata: { category: 'health', kind: 'mine' } });
    const all = (await memory.getAll({ filters: { user_id: 'alice' } })).results;
    expect(all.map((item) => item.kind).sort()).toEqual(['episode', 'fact']);
    for (const item of all) expect(item.metadata).toEqual({ category: 'health', kind: 'mine' });
    const episode = all.find((item) => item.kind === 'episode')!;
    expect(episode.memory).toContain('allergic to peanuts');
    const found = (await memory.search('peanuts allergy', { filters: { user_id: 'alice' } })).results;
    expect(found.length).toBeGreaterThan(0);
    for (const item of found) expect(item.kind).toBe(all.find((other) => other.id === item.id)!.kind);
    expect((await memory.get(episode.id))?.kind).toBe('episode');
    await memory.close();
  });
});

describe('Memory.deleteAll', () => {
  it('erases all of a user in one forgetSource call when the user has many messages', async () => {
    const { memory: engram, factory } = await createTestMemory();
    const calls: unknown[] = [];
    const spied = { ...engram, forgetSource: (ids: string | readonly string[], owner: { userId: string }) => (calls.push(ids), engram.forgetSource(ids, owner)) };
    const facade = new Memory({ memory: spied });
    for (let i = 0; i < 12; i++) await facade.add([{ role: 'user', content: `Note number ${i} about Plumquist` }], { userId: 'alice', infer: false });
    await facade.add("I'm vegetarian.", { userId: 'alice' });
    await facade.deleteAll({ userId: 'alice' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(13);
    expect(await findInDatabases(factory, 'Plumquist')).toEqual([]);
    expect(await facade.getAll({ filters: { user_id: 'alice' } })).toEqual({ results: [] });
    await engram.close();
  });

  it("erases one user's memories and conversations when another user's stay", async () => {
    const { memory, factory } = createFacade();
    await memory.add(
      ['Call me Quillonia.', "I'm vegetarian."].map((content) => ({ role: 'user', content })),
      { userId: 'alice' },
    );
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
