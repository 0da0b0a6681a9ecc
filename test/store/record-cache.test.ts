/**
 * The warm retrieve's record cache (src/store/record-cache.ts): a retrieve whose winners were
 * returned before reads no memory row again, and yet never answers with what the store no
 * longer holds: another instance's write or erasure is seen through the partition versions read
 * beside the scan, this instance's erasures clear it, a caller's change to a returned record
 * does not reach it, and every cached record passes the owner check.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { DBCoreGetManyRequest, Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/index';
import type { MemoryRecord } from '../../src/schema';
import { indexedDbStorage, type IndexedDbStorage } from '../../src/store/indexeddb';
import { createRecordCache } from '../../src/store/record-cache';
import { FILL_SLICE } from '../../src/store/record-fill';
import type { VectorLogRow } from '../../src/store/database';
import { partitionRange } from '../../src/store/vector-log';
import { userPartition } from '../../src/storage/owner';
import { createComputeClient } from '../../src/worker/client';
import { createTestMemory } from '../helpers/memory';
import { wrapTables } from '../helpers/idb-store';

const owner = { userId: 'u', appName: 'default' };
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

/** Memory rows read while `reads.on`. */
function countRows(reads: { on: boolean; rows: number }) {
  return (db: Dexie) =>
    wrapTables(db, 'row-counter', (name, table) => ({
      getMany: (request: DBCoreGetManyRequest) => {
        if (reads.on && name === 'memories') reads.rows += request.keys.length;
        return table.getMany(request);
      },
    }));
}

const FACTS = ['The user likes quiet beaches in Lisbon.', 'The user likes ferries in Oslo.', 'The user likes museums in Kyoto.', 'The user likes markets in Lima.'];

/** A memory whose IndexedDB storage the test holds (to look into its cache), with FACTS remembered. */
async function memoryWithStorage(reads = { on: false, rows: 0 }) {
  let storage: IndexedDbStorage | undefined;
  let db: Dexie | undefined;
  const compute = createComputeClient({ worker: 'off' });
  const factory = new IDBFactory();
  const test = await createTestMemory({
    indexedDB: factory,
    storage: {
      open: async (context) => (storage = (await indexedDbStorage({ compute, indexedDB: factory, IDBKeyRange, onDatabase: (opened) => countRows(reads)((db = opened)) }).open(context)) as IndexedDbStorage),
    },
  });
  opened.push(test.memory);
  for (const [i, content] of FACTS.entries()) {
    test.clock.advance(60_000);
    await test.memory.remember({ content, topic: `trip-${i}` }, { ...owner, source: { type: 'user_explicit', id: `s${i}` } });
  }
  return { ...test, storage: storage!, reads, db: db! };
}

/** A second instance on `test`'s database (another tab, in effect), closed after the test. */
async function otherInstance(test: Awaited<ReturnType<typeof memoryWithStorage>>): Promise<Memory> {
  const other = await createMemory({ name: test.name, indexedDB: test.factory, IDBKeyRange, worker: 'off', clock: test.clock });
  opened.push(other);
  return other;
}

const contents = (hits: readonly { memory: MemoryRecord }[]) => hits.map((hit) => hit.memory.content);

describe('the warm retrieve’s record cache', () => {
  it('reads no memory row for winners it returned before, and returns the same records', async () => {
    const { memory, reads, storage } = await memoryWithStorage();
    const first = await memory.retrieve('ferries in Oslo', { ...owner, k: 2 });
    // The search's two winners, then the fill's other two: the partition whole.
    await storage.vectors.settled();
    expect(storage.records.recent.size).toBe(4);
    reads.on = true;
    const again = await memory.retrieve('ferries in Oslo', { ...owner, k: 2 });
    reads.on = false;
    expect(reads.rows).toBe(0);
    expect(again).toEqual(first);
    expect(contents(again)[0]).toBe('The user likes ferries in Oslo.');
  });

  it('sees another instance’s correction and erasure on the next retrieve, not the cached copy', async () => {
    const test = await memoryWithStorage();
    const other = await otherInstance(test);
    const [hit] = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(hit!.memory.content).toBe('The user likes ferries in Oslo.');
    test.clock.advance(60_000);
    await other.correct(hit!.memory.id, 'The user likes night ferries in Oslo.', owner);
    const corrected = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(contents(corrected)).toEqual(['The user likes night ferries in Oslo.']);
    await other.forget(corrected[0]!.memory.id, owner);
    // Forgetting the correction forgets the memory's whole line, the version it replaced (cached here) too (docs/control.md).
    const forgotten = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 4 });
    expect(contents(forgotten).some((content) => content.includes('ferries'))).toBe(false);
    expect(forgotten).toHaveLength(3);
    expect(contents(await test.memory.retrieve('markets in Lima', { ...owner, k: 1 }))).toEqual(['The user likes markets in Lima.']);
    await other.forgetSource('s3', owner);
    expect(contents(await test.memory.retrieve('markets in Lima', { ...owner, k: 4 }))).not.toContain('The user likes markets in Lima.');
  });

  it('sees another instance’s change to a record it holds under the same id (a pin, an erased source)', async () => {
    const test = await memoryWithStorage();
    const other = await otherInstance(test);
    test.clock.advance(60_000);
    await test.memory.remember({ content: 'The user likes ferries in Oslo.', topic: 'trip-1' }, { ...owner, source: { type: 'user_explicit', id: 's-again' } });
    const [hit] = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(hit!.memory.pinned ?? false).toBe(false);
    expect(hit!.memory.sources.map((source) => source.id)).toEqual(['s1', 's-again']);
    expect(test.storage.records.recent.take([hit!.memory.id], await test.storage.records.versions([userPartition(owner)]), owner).size).toBe(1);
    await other.pin(hit!.memory.id, owner);
    const [pinned] = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(pinned!.memory.id).toBe(hit!.memory.id);
    expect(pinned!.memory.pinned).toBe(true);
    await other.forgetSource('s-again', owner);
    const [kept] = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(kept!.memory.content).toBe('The user likes ferries in Oslo.');
    expect(kept!.memory.sources.map((source) => source.id)).toEqual(['s1']);
  });

  it('holds nothing after this instance forgets, forgets a source or rejects, and the next retrieve reads afresh', async () => {
    const { memory, storage, reads } = await memoryWithStorage();
    const [hit] = await memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    await storage.vectors.settled();
    expect(storage.records.recent.size).toBe(4);
    await memory.forget(hit!.memory.id, owner);
    expect(storage.records.recent.size).toBe(0);
    const after = await memory.retrieve('ferries in Oslo', { ...owner, k: 4 });
    expect(contents(after)).not.toContain('The user likes ferries in Oslo.');
    await storage.vectors.settled();
    expect(storage.records.recent.size).toBe(3);
    expect(JSON.stringify([...storage.records.recent.take([hit!.memory.id], await storage.records.versions([userPartition(owner)]), owner)])).not.toContain('ferries');
    await memory.forgetSource('s2', owner);
    expect(storage.records.recent.size).toBe(0);
    reads.on = true;
    const rest = await memory.retrieve('museums in Kyoto', { ...owner, k: 4 });
    reads.on = false;
    expect(reads.rows).toBeGreaterThan(0);
    expect(contents(rest)).not.toContain('The user likes museums in Kyoto.');
  });

  it('holds the whole partition after a fill, so a retrieve of winners never returned before reads no memory row', async () => {
    const { memory, reads, storage } = await memoryWithStorage();
    await memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    await storage.vectors.settled();
    reads.on = true;
    const hits = await memory.retrieve('markets in Lima', { ...owner, k: 1 });
    reads.on = false;
    expect(contents(hits)).toEqual(['The user likes markets in Lima.']);
    expect(reads.rows).toBe(0);
  });

  it('keeps what this instance’s own write did not touch, and reads what it wrote, corrected or pinned afresh', async () => {
    const { memory, reads, storage, clock } = await memoryWithStorage();
    const [oslo] = await memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    await storage.vectors.settled();
    expect(storage.records.recent.size).toBe(4);
    clock.advance(60_000);
    await memory.remember({ content: 'The user likes tea houses in Kyoto.', topic: 'trip-9' }, { ...owner, source: { type: 'user_explicit', id: 's9' } });
    // The write moved the partition on; what it did not write is still held, at the new version.
    expect(storage.records.recent.size).toBe(4);
    reads.on = true;
    expect(contents(await memory.retrieve('markets in Lima', { ...owner, k: 1 }))).toEqual(['The user likes markets in Lima.']);
    reads.on = false;
    expect(reads.rows).toBe(0);
    expect(contents(await memory.retrieve('tea houses in Kyoto', { ...owner, k: 1 }))).toEqual(['The user likes tea houses in Kyoto.']);
    await memory.pin(oslo!.memory.id, owner);
    const [pinned] = await memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(pinned!.memory.pinned).toBe(true);
    clock.advance(60_000);
    await memory.correct(oslo!.memory.id, 'The user likes night ferries in Oslo.', owner);
    const corrected = await memory.retrieve('ferries in Oslo', { ...owner, k: 5 });
    expect(contents(corrected)).toContain('The user likes night ferries in Oslo.');
    expect(contents(corrected)).not.toContain('The user likes ferries in Oslo.');
    await storage.vectors.settled();
    // The fill brought in what the writes added: the partition whole again, at its version.
    const version = (await storage.records.versions([userPartition(owner)])).get(userPartition(owner))!;
    expect(storage.records.recent.versionOf(userPartition(owner))).toBe(version);
    expect(storage.records.recent.size).toBe(5);
  });

  it('keeps what another instance’s write did not touch, and reads what it wrote afresh', async () => {
    const test = await memoryWithStorage();
    const other = await otherInstance(test);
    // A second source on one memory, for the erasure below to take out while the memory stays.
    test.clock.advance(60_000);
    await test.memory.remember({ content: 'The user likes markets in Lima.', topic: 'trip-3' }, { ...owner, source: { type: 'user_explicit', id: 's-again' } });
    const [oslo] = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    await test.storage.vectors.settled();
    expect(test.storage.records.recent.size).toBe(4);
    test.clock.advance(60_000);
    await other.remember({ content: 'The user likes tea houses in Kyoto.', topic: 'trip-9' }, { ...owner, source: { type: 'user_explicit', id: 's9' } });
    await other.pin(oslo!.memory.id, owner);
    // The next retrieve catches up from the log: the untouched winner is still held, at the store's version.
    test.reads.on = true;
    expect(contents(await test.memory.retrieve('markets in Lima', { ...owner, k: 1 }))).toEqual(['The user likes markets in Lima.']);
    test.reads.on = false;
    expect(test.reads.rows).toBe(0);
    const version = (await test.storage.records.versions([userPartition(owner)])).get(userPartition(owner))!;
    expect(test.storage.records.recent.versionOf(userPartition(owner))).toBe(version);
    // What the other instance wrote is read afresh: its new memory, the pin.
    expect(contents(await test.memory.retrieve('tea houses in Kyoto', { ...owner, k: 1 }))).toEqual(['The user likes tea houses in Kyoto.']);
    const [pinned] = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(pinned!.memory.pinned).toBe(true);
    // Those commits logged the chains of what they wrote; an erasure reaches rows it does not
    // name, so its entry has none and is not followed row by row: the partition's entries go.
    const log = () => test.db.table<VectorLogRow>('vectorLog').where('[partition+version]');
    const lastEntry = async () =>
      (await log()
        .between(...partitionRange(userPartition(owner)))
        .last())!;
    expect((await lastEntry()).chains).toEqual([oslo!.memory.id]);
    const before = (await lastEntry()).version;
    await other.forgetSource('s-again', owner);
    expect(await lastEntry()).toMatchObject({ version: before + 1 });
    expect(await lastEntry()).not.toHaveProperty('chains');
    expect(test.storage.records.recent.size).toBe(5);
    const [lima] = await test.memory.retrieve('markets in Lima', { ...owner, k: 1 });
    expect(lima!.memory.sources.map((source) => source.id)).toEqual(['s3']);
    expect(test.storage.records.recent.size).toBe(1);
  });

  it('fills while retrieves pause, not between retrieves that keep coming', async () => {
    const { memory, storage, clock } = await memoryWithStorage();
    for (let i = 0; i < 4 * FILL_SLICE; i++) {
      clock.advance(1_000);
      await memory.remember({ content: `The user likes ferries number ${i} in Oslo.`, topic: `ferry-${i}` }, { ...owner, source: { type: 'user_explicit', id: `f${i}` } });
    }
    const rows = 4 * FILL_SLICE + FACTS.length;
    // Back to back: each search ends as the next begins, so the fill (a slice = one read and
    // some ms of parsing on the page) waits: the cache holds what the searches read, no more.
    const returned = new Set<string>();
    for (let i = 0; i < 30; i++) for (const hit of await memory.retrieve(`ferries number ${i * 3} in Oslo`, { ...owner, k: 3 })) returned.add(hit.memory.id);
    expect(storage.records.recent.size).toBe(returned.size);
    // Paused: the fill brings in the whole partition.
    await storage.vectors.settled();
    expect(storage.records.recent.size).toBe(rows);
  });

  it('does not let a caller’s change to a returned record reach the next retrieve', async () => {
    const { memory } = await memoryWithStorage();
    const [hit] = await memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    hit!.memory.content = 'changed by the caller';
    hit!.memory.sources.length = 0;
    const [again] = await memory.retrieve('ferries in Oslo', { ...owner, k: 1 });
    expect(again!.memory.content).toBe('The user likes ferries in Oslo.');
    expect(again!.memory.sources).toHaveLength(1);
  });
});

describe('createRecordCache', () => {
  const record = (id: string, userId = 'u'): MemoryRecord => ({ id, userId, appName: 'default', scope: 'user', content: `text of ${id}` }) as unknown as MemoryRecord;
  const key = userPartition(owner);

  it('answers only at the version an entry was read at, and drops a partition’s entries on another version', () => {
    const cache = createRecordCache();
    cache.put([record('a'), record('b')], new Map([[key, 3]]), cache.generation);
    expect([...cache.take(['a', 'b', 'c'], new Map([[key, 3]]), owner).keys()]).toEqual(['a', 'b']);
    expect(cache.take(['a'], new Map([[key, 4]]), owner).size).toBe(0);
    expect(cache.size).toBe(0);
    // Back at 3 (a restarted database): the dropped entries do not come back.
    expect(cache.take(['a'], new Map([[key, 3]]), owner).size).toBe(0);
  });

  it('checks the owner of every cached record', () => {
    const cache = createRecordCache();
    cache.put([record('a', 'someone-else')], new Map([[userPartition({ userId: 'someone-else', appName: 'default' }), 1]]), cache.generation);
    expect(cache.take(['a'], new Map([[userPartition({ userId: 'someone-else', appName: 'default' }), 1]]), owner).size).toBe(0);
  });

  it('applies a commit of this instance: drops what it wrote and every entry on the same chain, moves the version on', () => {
    const cache = createRecordCache();
    const chains = new Map([
      ['a', 'a'],
      ['b', 'chain-b'],
      ['c', 'chain-b'],
      ['d', 'd'],
    ]);
    cache.put([record('a'), record('b'), record('c'), record('d')], new Map([[key, 3]]), cache.generation, chains);
    cache.committed(new Map([[key, [3, 4]]]), [
      { id: 'a', chain: 'a' },
      { id: 'e', chain: 'chain-b' },
    ]);
    expect(cache.versionOf(key)).toBe(4);
    expect([...cache.take(['a', 'b', 'c', 'd'], new Map([[key, 4]]), owner).keys()]).toEqual(['d']);
    // A search that read before the commit does not put its (perhaps stale) records back.
    cache.put([record('a')], new Map([[key, 3]]), cache.generation);
    expect(cache.take(['a'], new Map([[key, 4]]), owner).size).toBe(0);
    // A commit that did not start from the held version (another writer in between): the partition goes.
    cache.committed(new Map([[key, [5, 6]]]), []);
    expect(cache.size).toBe(0);
    expect(cache.versionOf(key)).toBeUndefined();
  });

  it('follows another instance’s logged commits: drops what each wrote and its chains, moves on; drops the partition on a gap or an entry that names not all it changed', () => {
    const chains = new Map([
      ['a', 'a'],
      ['b', 'chain-b'],
      ['c', 'chain-b'],
      ['d', 'd'],
    ]);
    const filled = () => {
      const cache = createRecordCache();
      cache.put([record('a'), record('b'), record('c'), record('d')], new Map([[key, 3]]), cache.generation, chains);
      return cache;
    };
    const cache = filled();
    cache.followLog(key, [
      { version: 2, ids: ['d'], chains: [] }, // already applied (its version is behind the cache's)
      { version: 4, ids: ['a'], chains: ['a'] },
      { version: 5, ids: ['e'], chains: ['chain-b'] },
      { version: 6, ids: [], chains: [] },
    ]);
    expect(cache.versionOf(key)).toBe(6);
    expect([...cache.take(['a', 'b', 'c', 'd'], new Map([[key, 6]]), owner).keys()]).toEqual(['d']);

    // An entry without chains (an erasure), or one that does not follow on: nothing of the partition stays.
    for (const logged of [
      [
        { version: 4, ids: ['a'], chains: ['a'] },
        { version: 5, ids: [] },
      ],
      [{ version: 5, ids: ['a'], chains: ['a'] }],
    ]) {
      const behind = filled();
      behind.followLog(key, logged);
      expect(behind.size).toBe(0);
      expect(behind.versionOf(key)).toBeUndefined();
    }
    // A partition it holds nothing of: nothing to follow.
    const empty = createRecordCache();
    empty.followLog(key, [{ version: 1, ids: ['a'], chains: [] }]);
    expect(empty.versionOf(key)).toBeUndefined();
  });

  it('takes nothing for a scan behind its version, and keeps the entries for when the scan catches up', () => {
    const cache = createRecordCache();
    cache.put([record('a')], new Map([[key, 4]]), cache.generation);
    expect(cache.take(['a'], new Map([[key, 3]]), owner).size).toBe(0);
    expect(cache.take(['a'], new Map([[key, 4]]), owner).size).toBe(1);
  });

  it('keeps nothing a search read before a clear, and no more than its limit', () => {
    const cache = createRecordCache(2);
    const seen = cache.generation;
    cache.clear();
    cache.put([record('a')], new Map([[key, 1]]), seen);
    expect(cache.size).toBe(0);
    cache.put([record('a'), record('b'), record('c')], new Map([[key, 1]]), cache.generation);
    expect([...cache.take(['a', 'b', 'c'], new Map([[key, 1]]), owner).keys()]).toEqual(['b', 'c']);
  });
});
