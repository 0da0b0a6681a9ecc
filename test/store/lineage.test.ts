import type { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { EngramDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { writeRecords } from '../../src/store/lineage';
import { withLineage, type CommitLineage } from '../../src/storage/lineage';
import type { MemoryRecord } from '../../src/schema';
import { record } from '../consolidate/fixtures';
import { createReadCounter, longUserConversations } from '../../scripts/bench-long';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { must } from '../helpers/must';
import { findInDatabases } from '../helpers/scan';

const ada = { userId: 'u_ada', appName: 'default' };
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });

let tests: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(tests.map((test) => test.memory.close()));
  tests = [];
});

async function open(onDatabase?: (db: Dexie) => void): Promise<{ test: TestMemory; db: () => EngramDatabase }> {
  let handle: EngramDatabase | undefined;
  const test = await createTestMemory({
    onDatabase: (db) => {
      handle = db as EngramDatabase;
      onDatabase?.(db);
    },
  });
  tests.push(test);
  return { test, db: () => handle! };
}

describe('createStore (lineage side tables, schema v4)', () => {
  it('keeps a row the same size however often the memory is corroborated, while get returns every source and event', async () => {
    const { test, db } = await open();
    const fact = { content: 'The user likes jazz.', topic: 'music' };
    const sizes: number[] = [];
    for (let i = 0; i < 150; i++) {
      const operation = await test.memory.remember(fact, { ...ada, source: explicit(`s${i}`) });
      test.clock.advance(DAY);
      if (i === 9 || i === 149) {
        const [row] = await db().memories.toArray();
        sizes.push(JSON.stringify({ ...row, embedding: [], updatedAt: 0, confidence: 0, sourceCount: 0, sourceTotal: 0, historyCount: 0, changed: 0 }).length);
        expect(row!.sources.length).toBeLessThanOrEqual(4);
        expect(row!.history).toEqual([]);
        expect(operation.action).toBe('NOOP');
      }
    }
    expect(sizes[1]).toBe(sizes[0]);
    const { id } = must((await test.memory.list(ada))[0], "ada's memory");
    const full = await test.memory.get(id, ada);
    expect(full.sources.map((source) => source.id)).toEqual(Array.from({ length: 150 }, (_, i) => `s${i}`));
    expect(full.history.map((entry) => entry.event)).toEqual(['created', ...Array<string>(149).fill('corroborated')]);
    expect(full.confidence).toBe(1);
  });

  it("gives an UPDATE's memory every source of the one it supersedes with one lineage row per source, and forgetSource still finds them all", async () => {
    const { test, db } = await open();
    const diets = ["I'm vegetarian.", "I'm vegan.", "I'm pescatarian."];
    for (let i = 0; i < 60; i++) {
      const content = i === 0 ? "I'm vegetarian, zqx-old-excerpt." : diets[i % 3]!;
      await test.memory.ingest([{ role: 'user', content }], { ...ada, sessionId: `c${i}`, source: explicit(`s${i}`) });
      test.clock.advance(DAY);
    }
    const [active] = await test.memory.list(ada);
    expect(active!.content).toBe('The user follows a pescatarian diet.');
    expect(active!.sources.map((source) => source.id)).toEqual(Array.from({ length: 60 }, (_, i) => `s${i}`));
    // 60 sources across a chain of 60 memories, stored once each: no copy per UPDATE.
    expect(await db().lineage.count()).toBe(60);
    expect((await db().memories.get(active!.id))!.sourceTotal).toBe(60);
    const chain = (await db().memories.toArray()).map((row) => row.chain);
    expect(new Set(chain).size).toBe(1);

    await test.memory.forgetSource('s0', ada);
    const after = await test.memory.list({ ...ada, includeInvalid: true });
    expect(after.filter((record) => record.invalidatedAt === undefined).flatMap((record) => record.sources.map((source) => source.id))).not.toContain('s0');
    expect(after.flatMap((record) => record.sources).filter((source) => source.id === 's0' && source.excerpt !== '')).toEqual([]);
    expect(await findInDatabases(test.factory, 'zqx-old-excerpt')).toEqual([]);
  });

  it('reads as many rows per ingest at 200 stored conversations as at 20', async () => {
    const counter = createReadCounter();
    const { test } = await open((db) => counter.install(db));
    const conversations = longUserConversations(230);
    const ingest = (i: number) => test.memory.ingest(conversations[i]!, { ...ada, sessionId: `c${i}`, source: explicit(`c${i}`) });
    const rowsPerIngest = async (from: number) => {
      counter.reset();
      for (let i = from; i < from + 10; i++) await ingest(i);
      return counter.rows / 10;
    };
    for (let i = 0; i < 20; i++) await ingest(i);
    const early = await rowsPerIngest(20);
    for (let i = 30; i < 220; i++) await ingest(i);
    const late = await rowsPerIngest(220);
    console.log(`rows read per ingest: ${early} at 20 stored conversations, ${late} at 220`);
    expect(early).toBeGreaterThan(0);
    expect(late).toBeLessThanOrEqual(early * 1.25);
  }, 60_000);

  it('stamps only tombstones in the erasure index, so a corroborated memory leaves no entries there, and forgetSource still erases what a source changed', async () => {
    const { test, db } = await open();
    const fact = { content: 'The user likes zqv-jazz.', topic: 'music' };
    for (let i = 0; i < 30; i++) {
      await test.memory.remember(fact, { ...ada, source: explicit(`s${i}`) });
      test.clock.advance(DAY);
    }
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...ada, sessionId: 'd1', source: explicit('d1') });
    await test.memory.ingest([{ role: 'user', content: "I'm vegan, zqv-canary." }], { ...ada, sessionId: 'd2', source: explicit('d2') });
    const stamped = await db().memories.where('[userId+appName+changed]').between([ada.userId, ada.appName, 0], [ada.userId, ada.appName, Infinity]).toArray();
    expect(stamped.map((row) => row.content)).toEqual(['The user follows a vegetarian diet.']);
    expect(stamped.every((row) => row.invalidatedAt !== undefined)).toBe(true);
    await test.memory.forgetSource('d2', ada);
    expect((await findInDatabases(test.factory, 'zqv-canary')).length).toBe(0);
    expect((await test.memory.list(ada)).map((record) => record.content).sort()).toEqual(['The user follows a vegetarian diet.', 'The user likes zqv-jazz.']);
  });
});

describe('createStore (a rebuilt memory joins the chain of the one it replaces)', () => {
  const owner = { userId: 'u', appName: 'default' };
  const from = (id: string) => ({ type: 'user_explicit' as const, id, excerpt: `said ${id}`, at: 1 });
  let db: EngramDatabase | undefined;
  afterEach(() => db?.close());

  async function openStore() {
    db = new EngramDatabase(`lineage-join-${Date.now()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    const store = createStore(db);
    const commit = (records: MemoryRecord[], creates: string[], lineage?: CommitLineage) => store.commit(withLineage({ records, creates, expected: new Map() }, lineage ?? { working: new Set(), inherits: new Map() }));
    return { store, commit, lineageRows: () => db!.lineage.count() };
  }

  it('stores only the rebuilt memory’s new sources, excludes the ones it lacks, and gives each memory its own list back', async () => {
    const { store, commit, lineageRows } = await openStore();
    await commit([record('o', 'fact', 'general', { sources: [from('a'), from('b'), from('c')] })], ['o']);
    const [o] = await store.getMany(['o'], owner);
    const rebuilt = record('r', 'fact', 'general', { sources: [from('a'), from('c'), from('d')] });
    await commit([{ ...o!, invalidatedAt: 5, supersededBy: 'r' }, rebuilt], ['r'], { working: new Set(), inherits: new Map([['r', 'o']]) });
    expect(await lineageRows()).toBe(4);
    expect(await db!.memories.get('r')).toMatchObject({ chain: 'o', depth: 1, excluded: [['user_explicit\u0000b', 0]] });
    const [oldOne, newOne] = await store.getMany(['o', 'r'], owner);
    expect(oldOne!.sources.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(newOne!.sources.map((s) => s.id)).toEqual(['a', 'c', 'd']);
    expect((await store.bySource(owner, 'b')).map((r) => r.id)).toEqual(['o']);
  });

  it('gives a source it excluded a row of its own when the memory gains it again, at the end of its list', async () => {
    const { store, commit, lineageRows } = await openStore();
    await commit([record('o', 'fact', 'general', { sources: [from('a'), from('b'), from('c')] })], ['o']);
    const [o] = await store.getMany(['o'], owner);
    await commit([{ ...o!, invalidatedAt: 5, supersededBy: 'r' }, record('r', 'fact', 'general', { sources: [from('a'), from('c')] })], ['r'], {
      working: new Set(),
      inherits: new Map([['r', 'o']]),
    });
    const [working] = await store.workingSet(owner, { ids: ['r'], topics: [], scope: 'user', sourceId: 'b' });
    expect(working!.sources.map((s) => s.id)).toEqual(['a']);
    await commit([{ ...working!, sources: [...working!.sources, from('b')] }], [], { working: new Set(['r']), inherits: new Map() });
    expect(await lineageRows()).toBe(4);
    expect((await store.getMany(['r'], owner))[0]!.sources.map((s) => s.id)).toEqual(['a', 'c', 'b']);
    expect((await store.getMany(['o'], owner))[0]!.sources.map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });

  it('starts a chain of its own when its sources are not the replaced memory’s in order', async () => {
    const { store, commit, lineageRows } = await openStore();
    await commit([record('o', 'fact', 'general', { sources: [from('a'), from('b')] })], ['o']);
    const [o] = await store.getMany(['o'], owner);
    await commit([{ ...o!, invalidatedAt: 5, supersededBy: 'r' }, record('r', 'fact', 'general', { sources: [from('b'), from('a')] })], ['r'], {
      working: new Set(),
      inherits: new Map([['r', 'o']]),
    });
    expect(await lineageRows()).toBe(4);
    expect(await db!.memories.get('r')).toMatchObject({ chain: 'r', depth: 0 });
    expect((await store.getMany(['r'], owner))[0]!.sources.map((s) => s.id)).toEqual(['b', 'a']);
  });

  it('compares a complete record an erasure hands back with its chain, even when its row predates the source count', async () => {
    const { store, commit, lineageRows } = await openStore();
    await commit([record('o', 'fact', 'general', { sources: [from('a'), from('b'), from('c')] })], ['o']);
    const row = (await db!.memories.get('o'))!;
    delete row.sourceTotal;
    await db!.memories.put(row);
    const [o] = await store.getMany(['o'], owner);
    await commit([{ ...o!, invalidatedAt: 5 }], [], { working: new Set(), inherits: new Map() });
    expect(await lineageRows()).toBe(3);
    expect((await store.getMany(['o'], owner))[0]!.sources.map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('writeRecords (in batches, pausing between them)', () => {
  const src = (id: string) => ({ type: 'user_explicit' as const, id, excerpt: `said ${id}`, at: 1 });

  /** Two commits on a fresh database: 700 memories, then 1,300 records corroborating, superseding and adding to them. */
  async function run(pace: { sliceMs?: number; batch?: number }) {
    const db = new EngramDatabase(`write-batches-${pace.sliceMs}-${pace.batch}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.open();
    const gets = { count: 0 };
    const get = db.memories.get.bind(db.memories);
    db.memories.get = ((key: string) => {
      if (key === '') gets.count++;
      return get(key);
    }) as typeof db.memories.get;
    const first = Array.from({ length: 700 }, (_, i) => record(`m${i}`, `fact ${i}`, ['diet', 'travel', 'general'][i % 3]!, { sources: [src(`a${i}`), ...(i % 4 === 0 ? [src(`b${i}`)] : [])] }));
    const tables = [db.memories, db.lineage, db.events];
    await db.transaction('rw', tables, () => writeRecords(db, first, 1, { working: new Set(), inherits: new Map() }, undefined, pace));
    const second: MemoryRecord[] = [];
    const working = new Set<string>();
    const inherits = new Map<string, string>();
    for (let i = 0; i < 700; i++) {
      const old = first[i]!;
      if (i % 2 === 0) {
        // A corroboration in working form: the sources read plus the new one, the history entry it adds.
        working.add(old.id);
        second.push({ ...old, confidence: 0.7, sources: [...old.sources, src(`c${i}`)], history: [{ at: 2, event: 'corroborated', reason: `again ${i}` }] });
      } else {
        // An UPDATE: the tombstone, and its successor inheriting its sources.
        second.push({ ...old, invalidatedAt: 2, supersededBy: `n${i}`, history: [...old.history, { at: 2, event: 'superseded', reason: `by n${i}` }] });
        inherits.set(`n${i}`, old.id);
        second.push(record(`n${i}`, `new fact ${i}`, old.topic, { sources: [...old.sources, src(`d${i}`)] }));
      }
    }
    for (let i = 0; i < 250; i++) second.push(record(`x${i}`, `extra ${i}`, 'general', { sources: [src(`e${i}`)] }));
    const existing = await db.memories.bulkGet(second.map((r) => r.id));
    const written = await db.transaction('rw', tables, () => writeRecords(db, second, 2, { working, inherits }, existing, pace));
    const tablesNow = { memories: await db.memories.toArray(), lineage: await db.lineage.toArray(), events: await db.events.toArray() };
    db.close();
    return { written, tables: tablesNow, pauses: gets.count };
  }

  it('writes the same rows as placing and building every record in one go', async () => {
    const oneGo = await run({ sliceMs: Number.POSITIVE_INFINITY, batch: Number.POSITIVE_INFINITY });
    const sliced = await run({ sliceMs: 0, batch: 100 });
    expect(oneGo.pauses).toBe(0);
    expect(sliced.pauses).toBeGreaterThan(30);
    expect(sliced.written.length).toBe(1300);
    expect(sliced.written).toEqual(oneGo.written);
    expect(sliced.tables).toEqual(oneGo.tables);
    expect(sliced.tables.lineage.length).toBeGreaterThan(1500);
    expect(sliced.tables.memories.filter((row) => row.chain !== row.id).length).toBeGreaterThan(300);
  });
});
