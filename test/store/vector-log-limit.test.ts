/**
 * A commit of more than LOG_UPSERTS_LIMIT rows into one partition (an import) logs no vector-log
 * row, whose single put would hold the page's thread for hundreds of ms: it drops the
 * partition's packs, and the vector layer writes a snapshot of the worker's rows instead. The
 * packs still equal the records afterwards; a smaller commit is logged as before.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/schema';
import { EngramDatabase } from '../../src/store/database';
import { userPartition } from '../../src/storage/owner';
import { createStore } from '../../src/store/store';
import { createVectorIndex } from '../../src/store/vector-index';
import { LOG_UPSERTS_LIMIT } from '../../src/store/vector-log';
import { readPacked } from '../../src/store/vector-pack';
import { createComputeClient } from '../../src/worker/client';
import { record } from '../consolidate/fixtures';

const EMBEDDER = { id: 'hash-fnv1a-256', dim: 256 };
const opened: EngramDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('the vector log of a large commit', () => {
  it('is a fresh snapshot instead of one huge log row, and the packs equal the records', async () => {
    const db = new EngramDatabase(`vector-log-limit-${Date.now()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const store = createStore(db);
    const compute = createComputeClient({ worker: 'off' });
    const index = createVectorIndex({ db, store, compute, embedder: EMBEDDER });
    const owner = { userId: 'big', appName: 'a' };
    const key = userPartition(owner);
    let next = 0;
    const facts = (n: number) => Array.from({ length: n }, () => record(`m${++next}`, `fact number ${next}`, 'general', owner));
    const commit = async (records: MemoryRecord[]) => {
      const versions = await index.ensure([key]);
      const result = await store.commit({ records, creates: records.map((r) => r.id), expected: versions });
      await index.afterCommit(result, records);
      return result;
    };
    const small = await commit(facts(10));
    expect(small.packsDropped).toEqual([]);
    expect(await db.vectorLog.count()).toBe(1);
    const large = await commit(facts(LOG_UPSERTS_LIMIT + 1));
    expect(large.packsDropped).toEqual([key]);
    expect(await db.vectorLog.count()).toBe(0);
    await index.settled();
    const packed = (await readPacked(db, key, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(packed.base).toBe(large.versions.get(key)![1]);
    expect(packed.log).toEqual([]);
    const ids = packed.chunks.flatMap((chunk) => chunk.ids).sort();
    const active = (await store.list(owner, { scopes: ['user'], includeInvalid: false })).map((r) => r.id).sort();
    expect(ids).toEqual(active);
    expect(ids.length).toBe(LOG_UPSERTS_LIMIT + 11);
    compute.close();
  });
});
