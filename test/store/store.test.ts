import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { EngramDatabase } from '../../src/store/database';
import { appPartition, isVisibleTo, partitionOf, userPartition } from '../../src/storage/owner';
import { createStore, type Store } from '../../src/store/store';
import { ConflictError } from '../../src/errors';
import type { MemoryRecord } from '../../src/schema';
import { record } from '../consolidate/fixtures';
import { factHash } from '../../src/text';
import { createTestMemory, type TestMemory } from '../helpers/memory';
import { createMemory, type Memory } from '../../src/index';

let db: EngramDatabase | undefined;
let test: TestMemory | undefined;
const readers: Memory[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.close();
  db?.close();
  db = undefined;
  await test?.memory.close();
  test = undefined;
});

async function openStore(): Promise<Store> {
  db = new EngramDatabase('store-test', { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.open();
  return createStore(db);
}

const ADA = { userId: 'ada', appName: 'trips' };
const BOB = { userId: 'bob', appName: 'trips' };

async function seedRecords(store: Store): Promise<MemoryRecord[]> {
  const records = [
    record('a1', 'ada user fact', 'diet', { userId: 'ada', appName: 'trips' }),
    record('a2', 'ada session fact', 'diet', { userId: 'ada', appName: 'trips', scope: 'session', sessionId: 's1' }),
    record('a3', 'ada dead fact', 'diet', { userId: 'ada', appName: 'trips', invalidatedAt: 5, supersededBy: 'a1' }),
    record('b1', 'bob user fact', 'diet', { userId: 'bob', appName: 'trips' }),
    record('c1', 'ada in another app', 'diet', { userId: 'ada', appName: 'other' }),
    record('p1', 'app fact', 'diet', { userId: '', appName: 'trips', scope: 'app', sources: [{ type: 'bootstrapped', id: 'crm', excerpt: '', at: 0 }] }),
    record('p2', 'other app fact', 'diet', { userId: '', appName: 'other', scope: 'app' }),
  ];
  await store.commit({ records, expected: new Map() });
  return records;
}

describe('createStore', () => {
  it('returns only the owner’s records and its app’s app-scope records from every read', async () => {
    const store = await openStore();
    await seedRecords(store);
    const all = ['a1', 'a2', 'a3', 'b1', 'c1', 'p1', 'p2'];
    expect((await store.getMany(all, ADA)).map((r) => r.id)).toEqual(['a1', 'a2', 'a3', 'p1']);
    expect((await store.getMany(all, BOB)).map((r) => r.id)).toEqual(['b1', 'p1']);
    const scopes = ['user', 'session', 'app'] as const;
    expect((await store.list(ADA, { scopes, includeInvalid: true })).map((r) => r.id).sort()).toEqual(['a1', 'a2', 'a3', 'p1']);
    expect((await store.list(ADA, { scopes, includeInvalid: false })).map((r) => r.id).sort()).toEqual(['a1', 'a2', 'p1']);
    expect((await store.list(ADA, { scopes: ['app'], includeInvalid: false })).map((r) => r.id)).toEqual(['p1']);
    const topicSweep = (owner: typeof ADA, scope: 'user' | 'app') => store.workingSet(owner, { ids: [], topics: ['diet'], scope, sourceId: 'none' });
    expect((await topicSweep(ADA, 'user')).map((r) => r.id)).toEqual(['a1']);
    expect((await topicSweep(BOB, 'app')).map((r) => r.id)).toEqual(['p1']);
    expect((await store.bySource(ADA, 's1')).map((r) => r.id).sort()).toEqual(['a1', 'a2', 'a3']);
    expect((await store.getMany(all, { userId: 'nobody', appName: 'trips' })).map((r) => r.id)).toEqual(['p1']);
  });

  it('reads only the same fact of a topic when the sweep asks by fact instead of by topic', async () => {
    const store = await openStore();
    await seedRecords(store);
    const more = [
      record('a4', '  ADA user fact', 'diet', { userId: 'ada', appName: 'trips' }),
      record('a5', 'ada user fact', 'travel', { userId: 'ada', appName: 'trips' }),
      record('a6', 'ada user fact', 'diet', { userId: 'ada', appName: 'trips', invalidatedAt: 5, supersededBy: 'a1' }),
      record('b2', 'ada user fact', 'diet', { userId: 'bob', appName: 'trips' }),
      record('a7', 'ada likes tofu', 'diet', { userId: 'ada', appName: 'trips' }),
    ];
    await store.commit({ records: more, expected: new Map() });
    const bySweep = (owner: typeof ADA, scope: 'user' | 'app', content: string) => store.workingSet(owner, { ids: [], topics: [], facts: [{ topic: 'diet', content }], scope, sourceId: 'none' });
    // Same key (trimmed, case-folded), same topic, active, own scope and owner: a1 and a4, never a2 (session), a5, a6, a7 or b2.
    expect((await bySweep(ADA, 'user', 'Ada user fact ')).map((r) => r.id).sort()).toEqual(['a1', 'a4']);
    expect(await bySweep(ADA, 'user', 'ada session fact')).toEqual([]);
    expect((await bySweep(BOB, 'app', 'app fact')).map((r) => r.id)).toEqual(['p1']);
    expect((await db!.memories.get('a4'))!.fact).toBe(factHash('diet', 'ada user fact'));
  });

  it('defines the compound indexes the owner-scoped reads use', async () => {
    await openStore();
    const indexes = db!.memories.schema.indexes.map((index) => index.name).sort();
    expect(indexes).toEqual(expect.arrayContaining(['[userId+appName+scope]', '[appName+scope]', '[userId+appName+topic+active]', '[chain+depth]', '[userId+appName+fact+active]']));
    expect(await db!.memories.where('[userId+appName+scope]').equals(['ada', 'trips', 'user']).count()).toBe(0);
  });

  it('round-trips the embedding as a Float32Array when a record is written and read back', async () => {
    const store = await openStore();
    const [first] = await seedRecords(store);
    const [back] = await store.getMany(['a1'], ADA);
    expect(back!.embedding).toBeInstanceOf(Float32Array);
    expect([...back!.embedding]).toEqual([...first!.embedding]);
    const raw = await db!.memories.get('a1');
    expect(raw!.embedding).toBeInstanceOf(Float32Array);
    expect(raw).toMatchObject({ active: 1, chain: 'a1', depth: 0, sourceCount: 1 });
    expect((await db!.lineage.toArray()).filter((row) => row.memoryId === 'a1').map((row) => row.sourceId)).toEqual(['s1']);
  });

  it('quarantines corrupt rows instead of returning them when they are read', async () => {
    const store = await openStore();
    await seedRecords(store);
    const good = record('x', 'template', 'diet', { userId: 'ada', appName: 'trips' });
    await db!.memories.bulkPut([
      { ...good, id: 'bad-scope', scope: 'galaxy' as never },
      { ...good, id: 'bad-confidence', confidence: Number.NaN },
      { ...good, id: 'bad-embedding', embedding: [1, 2, 3] as never },
      { ...good, id: 'bad-sources', sources: 'none' as never },
    ]);
    const ids = ['bad-scope', 'bad-confidence', 'bad-embedding', 'bad-sources', 'a1'];
    expect((await store.getMany(ids, ADA)).map((r) => r.id)).toEqual(['a1']);
    expect((await store.list(ADA, { scopes: ['user', 'session', 'app'], includeInvalid: true })).map((r) => r.id).sort()).toEqual(['a1', 'a2', 'a3', 'p1']);
    expect([...store.quarantined].sort()).toEqual(['bad-confidence', 'bad-embedding', 'bad-scope', 'bad-sources']);
  });

  it('quarantines a row whose vector length does not match its own embedder when the store knows the embedder', async () => {
    const store = await openStore();
    await seedRecords(store);
    const knowing = createStore(db!, { id: 'hash-fnv1a-256', dim: 256 });
    const good = record('x', 'template', 'diet', { userId: 'ada', appName: 'trips' });
    await db!.memories.bulkPut([
      { ...good, id: 'short-vector', embedderId: 'hash-fnv1a-256', embedding: new Float32Array(3).fill(0.5) },
      { ...good, id: 'other-model', embedderId: 'some-model-768', embedding: new Float32Array(768).fill(0.01) },
    ]);
    const listed = (await knowing.list(ADA, { scopes: ['user'], includeInvalid: true })).map((r) => r.id);
    expect(listed).toContain('other-model');
    expect(listed).not.toContain('short-vector');
    expect([...knowing.quarantined]).toEqual(['short-vector']);
  });

  it('rejects a commit with ConflictError and writes nothing when the partition moved since the read', async () => {
    const store = await openStore();
    const key = userPartition(ADA);
    await store.commit({ records: [record('a1', 'one', 'diet', { userId: 'ada', appName: 'trips' })], expected: new Map([[key, 0]]) });
    await expect(store.commit({ records: [record('a2', 'two', 'diet', { userId: 'ada', appName: 'trips' })], expected: new Map([[key, 0]]) })).rejects.toThrow(ConflictError);
    expect(await db!.memories.count()).toBe(1);
    expect((await store.versions([key])).get(key)).toBe(1);
  });

  it('orders stored inputs by the order they were written when their clock times went backwards (invariant 11)', async () => {
    const store = await openStore();
    const input = (at: number, id: string) => ({
      userId: 'ada',
      appName: 'trips',
      scope: 'user' as const,
      sessionId: id,
      source: { type: 'user_implicit' as const, id },
      at,
      kind: 'ingest' as const,
      messages: [],
    });
    await store.commit({ records: [], inputs: [input(20, 'late')], expected: new Map() });
    await store.commit({ records: [], inputs: [input(10, 'early'), { ...input(5, 'bob'), userId: 'bob' }], expected: new Map() });
    expect((await store.inputs(ADA)).map((row) => (row.kind === 'prune' ? 'prune' : row.sessionId))).toEqual(['late', 'early']);
  });

  it('refuses a commit that creates an id another owner already holds, writing nothing', async () => {
    const store = await openStore();
    const bobs = record('mem_x', 'bob user fact', 'diet', { userId: 'bob', appName: 'trips' });
    await store.commit({ records: [bobs], creates: ['mem_x'], expected: new Map() });
    const adas = record('mem_x', 'Ada would overwrite Bob here.', 'diet', { userId: 'ada', appName: 'trips' });
    await expect(store.commit({ records: [adas], creates: ['mem_x'], expected: new Map() })).rejects.toThrow(ConflictError);
    const [stored] = await store.getMany(['mem_x'], { userId: 'bob', appName: 'trips' });
    expect(stored!.content).toBe(bobs.content);
  });
});

describe('isVisibleTo', () => {
  it('never treats an app-less or user-less record as everyone’s when the owner ids differ', () => {
    expect(isVisibleTo({ userId: '', appName: 'trips', scope: 'user' }, { userId: '', appName: 'trips' })).toBe(false);
    expect(isVisibleTo({ userId: 'ada', appName: 'trips', scope: 'user' }, { userId: 'ada', appName: 'other' })).toBe(false);
    expect(isVisibleTo({ userId: '', appName: 'trips', scope: 'app' }, { userId: 'x', appName: 'trips' })).toBe(true);
  });
});

describe('partitionOf', () => {
  it('keeps owners apart when concatenation would collide', () => {
    expect(userPartition({ userId: 'a|b', appName: 'c' })).not.toBe(userPartition({ userId: 'a', appName: 'b|c' }));
    expect(userPartition({ userId: 'ab', appName: 'x' })).not.toBe(userPartition({ userId: 'a|b', appName: 'x' }));
    expect(partitionOf({ userId: '', appName: 'x', scope: 'app' })).toBe(appPartition('x'));
    expect(appPartition('x')).not.toBe(userPartition({ userId: '', appName: 'x' }));
  });
});

describe('Memory.retrieve (corrupt rows)', () => {
  it('never returns or crashes on corrupt rows planted in the database when retrieving and listing', async () => {
    let handle: Dexie | undefined;
    test = await createTestMemory({ onDatabase: (database) => void (handle = database) });
    const { memory } = test;
    const owner = { userId: 'ada' };
    await memory.remember({ content: 'The user likes green tea.', topic: 'drink' }, { ...owner, source: { type: 'user_explicit', id: 'f1' } });
    await memory.remember({ content: 'The user likes window seats.', topic: 'seat' }, { ...owner, source: { type: 'user_explicit', id: 'f2' } });
    const [template] = await memory.list(owner);
    const table = (handle as EngramDatabase).memories;
    const plant = (id: string, patch: Record<string, unknown>) => table.put({ ...template!, sourceIds: ['f1'], id, ...patch } as never);
    await plant('c-userless', { userId: undefined });
    await plant('c-scope', { scope: 'galaxy' });
    await plant('c-vector', { embedding: new Float32Array(3) });
    await plant('c-nan-vector', { embedding: new Float32Array(256).fill(Number.NaN) });
    await plant('c-empty-vector', { embedding: new Float32Array(0) });
    await plant('c-nan-importance', { importance: Number.NaN });
    await plant('c-nan-confidence', { confidence: Number.NaN, content: 'The user likes green tea a lot.' });
    await plant('c-no-history', { history: undefined, content: 'green tea green tea' });
    await plant('c-type', { userId: 42 });
    await memory.remember({ content: 'The user likes black coffee.', topic: 'coffee' }, { ...owner, source: { type: 'user_explicit', id: 'f3' } });
    // A second instance on the same database loads the partition from the store, corrupt rows included.
    const reader = await createMemory({ name: test.name, indexedDB: test.factory, IDBKeyRange, worker: 'off', clock: test.clock });
    readers.push(reader);
    // A question about the user as a whole: every valid memory is a candidate, so none of the corrupt rows may come back with them.
    const hits = await reader.retrieve('what do you know about me?', { ...owner, k: 10 });
    expect(hits.map((h) => h.memory.content).sort()).toEqual(['The user likes black coffee.', 'The user likes green tea.', 'The user likes window seats.']);
    for (const h of hits) expect(Number.isFinite(h.score)).toBe(true);
    // 'c-vector' (a 3-d vector under a 256-d embedder id) passes the schema, which has no dim;
    // it is kept out of scans, but list() still returns it: a store-side check (reported).
    const listed = (await memory.list({ ...owner, includeInvalid: true })).map((r) => r.id);
    expect(listed.filter((id) => id.startsWith('c-') && id !== 'c-vector')).toEqual([]);
    // k = 1: a corrupt row that outranks everything must not take the only slot.
    const [top] = await reader.retrieve('green tea', { ...owner, k: 1 });
    expect(top?.memory.content).toBe('The user likes green tea.');
  });
});
