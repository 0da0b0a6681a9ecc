import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { DBCoreMutateRequest, DBCoreQueryRequest } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_EVERY, checkpointStride } from '../../src/store/checkpoints';
import { EngramDatabase } from '../../src/store/database';
import { appPartition, userPartition } from '../../src/storage/owner';
import { createStore, type Store } from '../../src/store/store';
import { CATCH_UP_VERSIONS, createActiveSets, REBUILD_ROWS, type ActivePartition } from '../../src/store/active-set';
import type { MemoryRow } from '../../src/store/database';
import { factHash } from '../../src/text';
import type { MemoryRecord } from '../../src/schema';
import { record } from '../consolidate/fixtures';
import { wrapTables } from '../helpers/idb-store';

const OWNER = { userId: 'u', appName: 'default' };
const KEY = userPartition(OWNER);

let open: EngramDatabase[] = [];
afterEach(() => {
  for (const db of open) db.close();
  open = [];
});

/** Index queries on `memories` (by index name) and a switch that fails the next `partitions` write. */
interface Probe {
  indexQueries: string[];
  failNextPartitionWrite: boolean;
}

function probe(db: EngramDatabase): Probe {
  const seen: Probe = { indexQueries: [], failNextPartitionWrite: false };
  wrapTables(db, 'active-set-probe', (name, table) => ({
    query: (request: DBCoreQueryRequest) => {
      if (name === 'memories' && request.query.index.name) seen.indexQueries.push(request.query.index.name);
      return table.query(request);
    },
    mutate: (request: DBCoreMutateRequest) => {
      if (name === 'partitions' && seen.failNextPartitionWrite) {
        seen.failNextPartitionWrite = false;
        return Promise.reject(new Error('injected'));
      }
      return table.mutate(request);
    },
  }));
  return seen;
}

async function openStore(factory: IDBFactory, name = 'active-set-test'): Promise<{ store: Store; db: EngramDatabase; seen: Probe }> {
  const db = new EngramDatabase(name, { indexedDB: factory, IDBKeyRange });
  const seen = probe(db);
  await db.open();
  open.push(db);
  return { store: createStore(db), db, seen };
}

/** Commits `records` as a writer that read the partition at its current version. */
async function write(store: Store, records: MemoryRecord[], creates: string[] = records.map((r) => r.id)) {
  const versions = await store.versions([KEY]);
  return store.commit({ records, creates, expected: versions });
}

const dietSweep = (store: Store) => store.workingSet(OWNER, { ids: [], topics: ['diet'], scope: 'user', sourceId: 'none' }).then((rows) => rows.map((r) => r.id));

/** Diet memory `i` superseding memory `i - 1`: the tombstone and its successor in one commit. */
function supersede(i: number): MemoryRecord[] {
  const next = record(`d${i}`, `diet number ${i}`, 'diet');
  if (i === 0) return [next];
  return [record(`d${i - 1}`, `diet number ${i - 1}`, 'diet', { invalidatedAt: i, supersededBy: `d${i}` }), next];
}

/** Two instances on one database, each having read the partition once it holds diet memory d0. */
async function bothRead() {
  const factory = new IDBFactory();
  const a = await openStore(factory);
  const b = await openStore(factory);
  await write(a.store, supersede(0));
  expect(await dietSweep(b.store)).toEqual(['d0']);
  return { a, b };
}

describe('createStore (active sets)', () => {
  it('finds what another instance on the same database committed since this one last read', async () => {
    const { a, b } = await bothRead();
    await write(a.store, supersede(1), ['d1']);
    expect(await dietSweep(b.store)).toEqual(['d1']);
    await write(b.store, supersede(2), ['d2']);
    expect(await dietSweep(a.store)).toEqual(['d2']);
    expect(await dietSweep(b.store)).toEqual(['d2']);
  });

  it('catches up from the vector log what another instance committed, reading no index', async () => {
    const { a, b } = await bothRead();
    b.seen.indexQueries.length = 0;
    for (let i = 1; i <= 5; i++) await write(a.store, supersede(i), [`d${i}`]);
    await write(a.store, [record('t1', 'a trip', 'travel')]);
    // A memory that changes topic leaves the old one's sweep.
    await write(a.store, [record('t1', 'a trip', 'diet')], []);
    expect((await dietSweep(b.store)).sort()).toEqual(['d5', 't1']);
    expect(await b.store.workingSet(OWNER, { ids: [], topics: [], facts: [{ topic: 'diet', content: 'Diet number 5' }], scope: 'user', sourceId: 'none' })).toHaveLength(1);
    expect(b.seen.indexQueries).toEqual([]);
  });

  it('rebuilds instead when the log of the commits between is gone (a snapshot compacted it) or too long', async () => {
    const { a, b } = await bothRead();
    await write(a.store, supersede(1), ['d1']);
    await write(a.store, supersede(2), ['d2']);
    const version = (await a.db.partitions.get(KEY))!.version;
    await a.db.vectorLog
      .where('[partition+version]')
      .between([KEY, version - 1], [KEY, version - 1], true, true)
      .delete();
    b.seen.indexQueries.length = 0;
    expect(await dietSweep(b.store)).toEqual(['d2']);
    expect(b.seen.indexQueries).toContain('[userId+appName+active]');
    for (let i = 3; i <= CATCH_UP_VERSIONS + 3; i++) await write(a.store, supersede(i), [`d${i}`]);
    b.seen.indexQueries.length = 0;
    expect(await dietSweep(b.store)).toEqual([`d${CATCH_UP_VERSIONS + 3}`]);
    expect(b.seen.indexQueries).toContain('[userId+appName+active]');
  });

  it('drops its set when its own commit did not start from the version the set was exact at', async () => {
    const factory = new IDBFactory();
    const a = await openStore(factory);
    const b = await openStore(factory);
    await write(a.store, supersede(0));
    expect(await dietSweep(a.store)).toEqual(['d0']);
    await write(b.store, supersede(1), ['d1']);
    // a's next commit starts from b's version, which its set never saw.
    await write(a.store, [record('t1', 'a trip', 'travel')]);
    expect(await dietSweep(a.store)).toEqual(['d1']);
  });

  it('finds the app-scope memories another instance committed', async () => {
    const factory = new IDBFactory();
    const a = await openStore(factory);
    const b = await openStore(factory);
    const app = (id: string, extra: Partial<MemoryRecord> = {}) => record(id, `app fact ${id}`, 'diet', { userId: '', scope: 'app', ...extra });
    const appKey = appPartition('default');
    const commitApp = async (store: Store, records: MemoryRecord[], creates: string[]) => store.commit({ records, creates, expected: await store.versions([appKey]) });
    const appSweep = (store: Store) => store.workingSet(OWNER, { ids: [], topics: ['diet'], scope: 'app', sourceId: 'none' }).then((rows) => rows.map((r) => r.id));
    await commitApp(a.store, [app('p0')], ['p0']);
    expect(await appSweep(b.store)).toEqual(['p0']);
    await commitApp(a.store, [app('p0', { invalidatedAt: 2, supersededBy: 'p1' }), app('p1')], ['p1']);
    expect(await appSweep(b.store)).toEqual(['p1']);
    expect(await dietSweep(b.store)).toEqual([]);
  });

  it('keeps its sweep exact when a commit fails after writing its rows', async () => {
    const { store, seen } = await openStore(new IDBFactory());
    await write(store, supersede(0));
    expect(await dietSweep(store)).toEqual(['d0']);
    seen.failNextPartitionWrite = true;
    await expect(write(store, supersede(1), ['d1'])).rejects.toThrow();
    // The next commit reaches the version the failed one would have: its set must not be the failed one's.
    await write(store, [record('t1', 'a trip', 'travel')]);
    expect(await dietSweep(store)).toEqual(['d0']);
    await write(store, supersede(1), ['d1']);
    expect(await dietSweep(store)).toEqual(['d1']);
  });

  it('sweeps a topic without querying an index once its set is built, however many memories it superseded', async () => {
    const { store, seen } = await openStore(new IDBFactory());
    await write(store, supersede(0));
    expect(await dietSweep(store)).toEqual(['d0']);
    for (let i = 1; i < 40; i++) await write(store, supersede(i), [`d${i}`]);
    seen.indexQueries.length = 0;
    expect(await dietSweep(store)).toEqual(['d39']);
    expect(await store.workingSet(OWNER, { ids: [], topics: [], facts: [{ topic: 'diet', content: 'Diet number 39' }], scope: 'user', sourceId: 'none' })).toHaveLength(1);
    expect(seen.indexQueries).toEqual([]);
  });

  it('checkpoints exactly the active rows the commit leaves', async () => {
    const { store, db } = await openStore(new IDBFactory());
    const input = (i: number) => ({ ...OWNER, scope: 'user' as const, sessionId: '', source: { type: 'user_explicit' as const, id: `c${i}` }, at: i, kind: 'remember' as const, messages: [] });
    for (let i = 0; i < CHECKPOINT_EVERY; i++) {
      const versions = await store.versions([KEY]);
      const other = record(`o${i}`, `other fact ${i}`, 'travel');
      await store.commit({ records: [...supersede(i), other], creates: [`d${i}`, `o${i}`], inputs: [input(i)], expected: versions });
    }
    const [checkpoint] = await db.checkpoints.toArray();
    const active = await db.memories.where('[userId+appName+active]').equals(['u', 'default', 1]).toArray();
    expect(checkpoint!.records.map((entry) => entry.id).sort()).toEqual(active.map((row) => row.id).sort());
    expect(checkpoint!.records).toHaveLength(CHECKPOINT_EVERY + 1);
    expect(checkpoint!.records.find((entry) => entry.id === `d${CHECKPOINT_EVERY - 1}`)).toMatchObject({ confidence: 0.65, sourceCount: 1, historyCount: 1 });
  });

  it('checkpoints an owner of more than 1,024 active memories every other interval, one of fewer every interval', async () => {
    expect([1, 1024, 1025, 2048, 10_000].map(checkpointStride)).toEqual([1, 1, 2, 2, 16]);
    const { store, db } = await openStore(new IDBFactory());
    const input = (i: number) => ({ ...OWNER, scope: 'user' as const, sessionId: '', source: { type: 'user_explicit' as const, id: `c${i}` }, at: i, kind: 'remember' as const, messages: [] });
    const many = Array.from({ length: 1100 }, (_, i) => record(`m${i}`, `fact ${i}`, 'general'));
    await write(store, many);
    for (let i = 0; i < 2 * CHECKPOINT_EVERY - 1; i++) {
      const versions = await store.versions([KEY]);
      await store.commit({ records: [record(`n${i}`, `new fact ${i}`, 'general')], creates: [`n${i}`], inputs: [input(i)], expected: versions });
    }
    expect((await store.versions([KEY])).get(KEY)).toBe(2 * CHECKPOINT_EVERY);
    const checkpoints = await db.checkpoints.toArray();
    expect(checkpoints).toHaveLength(1);
    expect(checkpoints[0]!.records).toHaveLength(1100 + 2 * CHECKPOINT_EVERY - 1);
  });
});

describe('createActiveSets (a rebuild in batches)', () => {
  /** What one read of the `active` index gives (the rebuild before it was batched): entries by id, ids by topic and by fact. */
  async function oneRead(db: EngramDatabase, userId: string, app: boolean) {
    const rows = await db.memories.where('[userId+appName+active]').equals([userId, 'default', 1]).toArray();
    const kept = rows.filter((row) => (row.scope === 'app') === app && row.active === 1 && row.invalidatedAt === undefined);
    const group = (keyOf: (row: MemoryRow) => string) => {
      const out = new Map<string, string[]>();
      for (const row of kept) out.set(keyOf(row), [...(out.get(keyOf(row)) ?? []), row.id]);
      return out;
    };
    return {
      entries: new Map(kept.map((row) => [row.id, { topic: row.topic, scope: row.scope, fact: factHash(row.topic, row.content), confidence: row.confidence, updatedAt: row.updatedAt }])),
      byTopic: group((row) => `${row.scope}\u0000${row.topic}`),
      byFact: group((row) => `${row.scope}\u0000${factHash(row.topic, row.content)}`),
    };
  }

  const shape = (partition: ActivePartition) => ({
    entries: partition.rows,
    byTopic: new Map([...partition.byTopic].map(([key, ids]) => [key, [...ids].sort()])),
    byFact: new Map([...partition.byFact].map(([key, ids]) => [key, [...ids].sort()])),
  });

  /** Rows `m000 … m{n-1}` in id order, owner and state by `kind(i)`; a few share a fact. */
  async function plant(db: EngramDatabase, n: number, kind: (i: number) => 'active' | 'tombstone' | 'session' | 'app' | 'other') {
    const rows: MemoryRow[] = Array.from({ length: n }, (_, i) => {
      const id = `m${String(i).padStart(4, '0')}`;
      const k = kind(i);
      const topic = ['diet', 'travel', 'general'][i % 3]!;
      const content = `fact ${i % 7 === 0 ? 'shared' : i}`;
      const base = record(id, content, topic, { updatedAt: i, confidence: 0.5 + (i % 5) / 10 });
      if (k === 'tombstone') return { ...base, active: 0, invalidatedAt: i };
      if (k === 'session') return { ...base, scope: 'session', sessionId: 's1', active: 1 };
      if (k === 'app') return { ...base, userId: '', scope: 'app', active: 1 };
      if (k === 'other') return { ...base, userId: 'v', active: 1 };
      return { ...base, active: 1 };
    });
    await db.memories.bulkAdd(rows);
  }

  async function both(db: EngramDatabase, rebuildRows: number) {
    const sets = createActiveSets(db, { rebuildRows });
    return db.transaction('r', db.memories, db.partitions, async () => ({
      user: shape(await sets.read(OWNER, 'user')),
      app: shape(await sets.read(OWNER, 'app')),
      expectedUser: await oneRead(db, 'u', false),
      expectedApp: await oneRead(db, '', true),
    }));
  }

  it('equals one read of the index across many batches, with tombstones, session and app rows between them', async () => {
    const { db } = await openStore(new IDBFactory(), 'active-set-dense');
    const kinds = ['active', 'active', 'tombstone', 'session', 'active', 'app', 'other'] as const;
    await plant(db, 300, (i) => kinds[i % kinds.length]!);
    for (const rebuildRows of [1, 3, 8, REBUILD_ROWS]) {
      const { user, app, expectedUser, expectedApp } = await both(db, rebuildRows);
      expect(user.entries.size).toBeGreaterThan(100);
      expect(user).toEqual(expectedUser);
      expect(app).toEqual(expectedApp);
    }
  });

  it('equals one read of the index when its rows are sparse among other owners (ranges cut short, then read by id)', async () => {
    const { db } = await openStore(new IDBFactory(), 'active-set-sparse');
    // One row in 20 is this owner's: a batch's key range holds far more than its rows.
    await plant(db, 1200, (i) => (i % 20 === 0 ? 'active' : i % 20 === 10 ? 'tombstone' : 'other'));
    for (const rebuildRows of [2, 8, REBUILD_ROWS]) {
      const { user, expectedUser } = await both(db, rebuildRows);
      expect(user.entries.size).toBe(60);
      expect(user).toEqual(expectedUser);
    }
  });
});
