/**
 * The sliced-requests middleware (src/store/sliced-requests.ts): a large bulk call goes down in
 * calls of GRAIN requests, each slice issued once the previous one completed, inside the same
 * transaction, with the answer the unsliced call gives; and a failure in a late slice still
 * rolls the whole transaction back. `sliceMs` 0 makes every call a slice of its own, so the
 * transaction must survive a completed slice every GRAIN rows.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Dexie, type DBCoreMutateRequest } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLICE_MS, sliceElapsed } from '../../src/slices';
import { GRAIN, slicedRequestsMiddleware } from '../../src/store/sliced-requests';
import { wrapTables } from '../helpers/idb-store';

const opened: Dexie[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** Below the slicing (level -20): sees the calls it sends down; `failAt` makes that put call fail (1-based). */
function recorder(db: Dexie, calls: { type: string; size: number }[], failAt?: { table: string; call: number }): void {
  let puts = 0;
  wrapTables(
    db,
    'test-recorder',
    (name, table) => ({
      mutate(request: DBCoreMutateRequest) {
        calls.push({ type: request.type, size: request.type === 'delete' ? request.keys.length : request.type === 'deleteRange' ? 0 : request.values.length });
        if (failAt && name === failAt.table && request.type === 'put' && ++puts === failAt.call) return Promise.reject(new Error('injected write fault'));
        return table.mutate(request);
      },
      getMany(request) {
        calls.push({ type: 'getMany', size: request.keys.length });
        return table.getMany(request);
      },
    }),
    -20,
  );
}

async function open(sliceMs: number, calls: { type: string; size: number }[], failAt?: { table: string; call: number }) {
  const db = new Dexie(`sliced-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  db.version(1).stores({ rows: 'id', other: 'id' });
  db.use(slicedRequestsMiddleware(sliceMs));
  recorder(db, calls, failAt);
  await db.open();
  opened.push(db);
  return db;
}

const rows = (n: number, tag = 'v') => Array.from({ length: n }, (_, i) => ({ id: `r${String(i).padStart(5, '0')}`, value: `${tag}${i}`, vector: Float32Array.of(i, i + 1) }));

describe('sliced IndexedDB requests', () => {
  it('writes and reads a large batch in calls of GRAIN, with the answer of one call', async () => {
    const calls: { type: string; size: number }[] = [];
    const db = await open(0, calls);
    const data = rows(1000);
    const keys = await db.table('rows').bulkPut(data, { allKeys: true });
    expect(keys).toEqual(data.map((row) => row.id));
    const puts = calls.filter((call) => call.type === 'put');
    expect(puts.length).toBe(Math.ceil(1000 / GRAIN));
    expect(Math.max(...puts.map((call) => call.size))).toBe(GRAIN);
    const read = await db.table('rows').bulkGet([...data.map((row) => row.id), 'missing']);
    expect(read).toEqual([...data, undefined]);
    expect(calls.filter((call) => call.type === 'getMany').length).toBe(Math.ceil(1001 / GRAIN));
    await db.table('rows').bulkDelete(data.slice(0, 500).map((row) => row.id));
    expect(await db.table('rows').count()).toBe(500);
  });

  it('sends a small batch down whole', async () => {
    const calls: { type: string; size: number }[] = [];
    const db = await open(0, calls);
    await db.table('rows').bulkPut(rows(GRAIN));
    expect(calls.filter((call) => call.type === 'put')).toEqual([{ type: 'put', size: GRAIN }]);
  });

  it('reports a failed add at its index in the whole batch', async () => {
    const db = await open(0, []);
    await db.table('rows').put({ id: 'r00700', value: 'there already' });
    const error = await db
      .table('rows')
      .bulkAdd(rows(1000))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(Dexie.BulkError);
    expect(Object.keys((error as InstanceType<typeof Dexie.BulkError>).failuresByPos)).toEqual(['700']);
    // Outside a transaction of its own a bulkAdd keeps the rows that did not fail, as unsliced.
    expect(await db.table('rows').count()).toBe(1000);
  });

  it('keeps one transaction across slices: a fault in a late slice writes nothing', async () => {
    const db = await open(0, [], { table: 'rows', call: 40 });
    await db.table('other').put({ id: 'before', value: 1 });
    const write = db.transaction('rw', db.table('rows'), db.table('other'), async () => {
      await db.table('other').put({ id: 'during', value: 2 });
      await db.table('rows').bulkPut(rows(1000));
    });
    await expect(write).rejects.toThrow(/injected write fault/);
    expect(await db.table('rows').count()).toBe(0);
    expect(await db.table('other').toArray()).toEqual([{ id: 'before', value: 1 }]);
  });

  it('commits every slice of a transaction together', async () => {
    const calls: { type: string; size: number }[] = [];
    const db = await open(0, calls);
    await db.transaction('rw', db.table('rows'), db.table('other'), async () => {
      await db.table('rows').bulkPut(rows(1000, 'a'));
      await db.table('other').bulkPut(rows(300, 'b'));
      await db.table('rows').bulkPut(rows(1000, 'c'));
    });
    expect((await db.table('rows').toArray()).map((row: { value: string }) => row.value)).toEqual(rows(1000, 'c').map((row) => row.value));
    expect(await db.table('other').count()).toBe(300);
    expect(calls.filter((call) => call.type === 'put').length).toBe(2 * Math.ceil(1000 / GRAIN) + Math.ceil(300 / GRAIN));
  });

  it('issues a first slice only as large as what the task’s other sliced work left of SLICE_MS', async () => {
    // A fake clock that moves 1 ms for each call issued down, so a slice holds what fits.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const issued: { before: number }[] = [];
      let completed = 0;
      const db = new Dexie(`sliced-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
      db.version(1).stores({ rows: 'id' });
      db.use(slicedRequestsMiddleware(SLICE_MS));
      wrapTables(
        db,
        'test-clock',
        (_, table) => ({
          mutate(request: DBCoreMutateRequest) {
            issued.push({ before: completed });
            now += 1;
            return table.mutate(request).finally(() => completed++);
          },
        }),
        -20,
      );
      await db.open();
      opened.push(db);
      const firstSlice = () => issued.filter((call) => call.before === 0).length;
      // A task of its own: seven calls of GRAIN fit in its 8 ms.
      await new Promise((resolve) => setImmediate(resolve));
      await db.table('rows').bulkPut(rows(7 * GRAIN, 'a'));
      expect(firstSlice()).toBe(7);
      // Another task whose other sliced work (a check loop, say) took 7 ms: one call goes, the
      // rest in the next tasks. Each loop on its own clock, all seven went at once again.
      issued.length = 0;
      completed = 0;
      await new Promise((resolve) => setImmediate(resolve));
      sliceElapsed();
      now += SLICE_MS - 1;
      await db.table('rows').bulkPut(rows(7 * GRAIN, 'b'));
      expect(firstSlice()).toBe(1);
      expect(issued).toHaveLength(7);
      expect((await db.table('rows').toArray()).map((row: { value: string }) => row.value)).toEqual(rows(7 * GRAIN, 'b').map((row) => row.value));
    } finally {
      vi.restoreAllMocks();
    }
  });
});
