/**
 * What a retrieve reads on IndexedDB: the 8-bit scan's candidates highest ceiling first and only
 * as many as prove the top k, the winners' records hydrated in that same read (no second read
 * of them), no lineage read for a memory whose stored summary already is its source list, and
 * the partitions' versions checked in that read (no catch-up read before it), so another
 * instance's write or erasure is seen by the next retrieve all the same.
 */
import { IDBKeyRange } from 'fake-indexeddb';
import type { DBCoreGetManyRequest, DBCoreQueryRequest, Dexie } from 'dexie';
import { createMemory } from '../../src/index';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/index';
import { FIRST_CANDIDATES } from '../../src/worker/quantised';
import { createTestMemory } from '../helpers/memory';
import { wrapTables } from '../helpers/idb-store';

const owner = { userId: 'u', appName: 'default' };
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

interface Reads {
  on: boolean;
  memoryRows: number;
  lineageQueries: number;
  /** Requests for partition rows (versions): a catch-up's read or the search's own check. */
  partitionReads?: number;
}

function countReads(reads: Reads) {
  return (db: Dexie) =>
    wrapTables(db, 'read-counter', (name, table) => ({
      getMany: (request: DBCoreGetManyRequest) => {
        if (reads.on && name === 'memories') reads.memoryRows += request.keys.length;
        if (reads.on && name === 'partitions') reads.partitionReads = (reads.partitionReads ?? 0) + 1;
        return table.getMany(request);
      },
      query: (request: DBCoreQueryRequest) => {
        if (reads.on && name === 'lineage') reads.lineageQueries++;
        return table.query(request);
      },
    }));
}

const PLACES = ['Lisbon', 'Kyoto', 'Oslo', 'Lima', 'Cairo', 'Quito', 'Seoul', 'Dublin'];
const THINGS = ['museums', 'beaches', 'markets', 'concerts', 'hikes', 'bakeries', 'castles', 'ferries'];

describe('retrieve on IndexedDB (the exact re-rank’s reads)', () => {
  it('reads fewer candidate rows than the scan kept, each once, and no lineage for single-source memories', async () => {
    const reads: Reads = { on: false, memoryRows: 0, lineageQueries: 0 };
    // A record cache of 5 holds the warm-up's winners but cannot take the partition whole
    // (record-fill.ts), so the retrieve below reads its candidates from the store.
    const { memory, clock } = await createTestMemory({ onDatabase: countReads(reads), recordCache: 5 });
    opened.push(memory);
    let n = 0;
    for (const place of PLACES) {
      for (const thing of THINGS) {
        clock.advance(60_000);
        await memory.remember({ content: `The user likes ${thing} in ${place}.`, topic: `trip-${n++}` }, { ...owner, source: { type: 'user_explicit', id: `s${n}` } });
      }
    }
    await memory.retrieve('warm up', { ...owner, k: 5 });
    reads.on = true;
    const hits = await memory.retrieve('Which beaches in Kyoto does the user like?', { ...owner, k: 5 });
    reads.on = false;
    expect(hits).toHaveLength(5);
    expect(hits[0]!.memory.content).toBe('The user likes beaches in Kyoto.');
    expect(hits.every((hit) => hit.memory.sources.length === 1 && hit.memory.history.length === 1)).toBe(true);
    expect(reads.memoryRows).toBeGreaterThanOrEqual(5);
    expect(reads.memoryRows).toBeLessThan(FIRST_CANDIDATES);
    expect(reads.lineageQueries).toBe(0);
    // No ensure first: the versions are read beside the scan (the warm-up's records are cached,
    // record-cache.ts) and in the read of the rows (the search's check), nowhere else.
    expect(reads.partitionReads).toBe(2);
  });

  it('sees another instance’s write and erasure on the next retrieve, caught up inside the search', async () => {
    const test = await createTestMemory();
    opened.push(test.memory);
    const other = await createMemory({ name: test.name, indexedDB: test.factory, IDBKeyRange, worker: 'off', clock: test.clock });
    opened.push(other);
    await test.memory.remember({ content: 'The user likes quiet beaches.', topic: 'beaches' }, { ...owner, source: { type: 'user_explicit', id: 's1' } });
    expect((await test.memory.retrieve('ferries in Oslo', { ...owner, k: 5 })).map((hit) => hit.memory.content)).toEqual(['The user likes quiet beaches.']);
    test.clock.advance(60_000);
    await other.remember({ content: 'The user likes ferries in Oslo.', topic: 'ferries' }, { ...owner, source: { type: 'user_explicit', id: 's2' } });
    const after = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 5 });
    expect(after[0]!.memory.content).toBe('The user likes ferries in Oslo.');
    await other.forgetSource('s2', owner);
    const erased = await test.memory.retrieve('ferries in Oslo', { ...owner, k: 5 });
    expect(erased.map((hit) => hit.memory.content)).toEqual(['The user likes quiet beaches.']);
  });

  it('reads the lineage of a memory whose sources share a type, and returns all of them', async () => {
    const reads: Reads = { on: false, memoryRows: 0, lineageQueries: 0 };
    // A record cache of 5 holds the warm-up's winners but cannot take the partition whole
    // (record-fill.ts), so the retrieve below reads its candidates from the store.
    const { memory, clock } = await createTestMemory({ onDatabase: countReads(reads), recordCache: 5 });
    opened.push(memory);
    for (const id of ['s1', 's2', 's3']) {
      clock.advance(60_000);
      await memory.remember({ content: 'The user likes quiet beaches.', topic: 'beaches' }, { ...owner, source: { type: 'user_explicit', id } });
    }
    reads.on = true;
    const [hit] = await memory.retrieve('quiet beaches', { ...owner, k: 1 });
    reads.on = false;
    expect(hit!.memory.sources.map((source) => source.id)).toEqual(['s1', 's2', 's3']);
    expect(reads.lineageQueries).toBeGreaterThan(0);
  });
});
