/**
 * Eviction detection under Node: the note outside the database is a Storage-shaped map here
 * (Node has no localStorage; Chromium's real one is in test/e2e/durability.test.ts), the
 * database is fake-indexeddb's, deleted through IndexedDB itself as a browser would clear it.
 */
import Dexie, { type DBCoreGetRequest } from 'dexie';
import { forceCloseDatabase, IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { ClosedError, StorageError, StorageEvictedError, ValidationError, type Memory } from '../../src/index';
import type { NoteStore } from '../../src/durability/eviction';
import { checkedForEviction } from '../../src/durability/eviction-check';
import { EngramDatabase } from '../../src/store/database';
import { guardEviction, STORE_MARKER_KEY } from '../../src/store/eviction';
import { wrapTables } from '../helpers/idb-store';
import { createTestMemory, type TestMemoryOptions } from '../helpers/memory';

const ada = { userId: 'u_ada', appName: 'trips' };
const opened: Memory[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

function createNotes(): NoteStore & { size: () => number } {
  const map = new Map<string, string>();
  return { getItem: (key) => map.get(key) ?? null, setItem: (key, value) => void map.set(key, String(value)), size: () => map.size };
}

async function open(options: TestMemoryOptions) {
  const test = await createTestMemory(options);
  opened.push(test.memory);
  return test;
}

function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

const remember = (memory: Memory) => memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...ada, source: { type: 'user_explicit', id: 'f1' } });

describe('createMemory (eviction)', () => {
  it('rejects with StorageEvictedError when the database it stored before is gone at the next open', async () => {
    const notes = createNotes();
    const first = await open({ notes });
    await remember(first.memory);
    await first.memory.close();
    await deleteDatabase(first.factory, first.name);
    const error = await open({ notes, indexedDB: first.factory, name: first.name }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(StorageEvictedError);
    expect((error as StorageEvictedError).since).toBeGreaterThan(Date.now() - 60_000);
    expect((error as Error).message).toMatch(/onEviction: 'start-over'/);
  });

  it('opens the same database again without complaint, and reopens after an upgrade by another instance', async () => {
    const notes = createNotes();
    const first = await open({ notes });
    await remember(first.memory);
    await first.memory.close();
    const again = await open({ notes, indexedDB: first.factory, name: first.name });
    expect(await again.memory.list(ada)).toHaveLength(1);
    expect(notes.size()).toBe(1);
  });

  it("starts over on the empty database with onEviction: 'start-over', and the next open accepts it", async () => {
    const notes = createNotes();
    const first = await open({ notes });
    await remember(first.memory);
    await first.memory.close();
    await deleteDatabase(first.factory, first.name);
    const restarted = await open({ notes, indexedDB: first.factory, name: first.name, onEviction: 'start-over' });
    expect(await restarted.memory.list(ada)).toEqual([]);
    await remember(restarted.memory);
    await restarted.memory.close();
    const next = await open({ notes, indexedDB: first.factory, name: first.name });
    expect(await next.memory.list(ada)).toHaveLength(1);
  });

  it('rejects every later call with StorageEvictedError when the database is deleted while open, even with no note', async () => {
    const test = await open({});
    await remember(test.memory);
    await deleteDatabase(test.factory, test.name);
    await expect(test.memory.list(ada)).rejects.toThrow(StorageEvictedError);
    await expect(remember(test.memory)).rejects.toThrow(StorageEvictedError);
    await expect(test.memory.export(ada)).rejects.toThrow(StorageEvictedError);
  });

  it('opens as usual when the note outside the database is not one engram wrote, and writes its own', async () => {
    const notes = createNotes();
    const first = await open({ notes });
    await remember(first.memory);
    await first.memory.close();
    notes.setItem(`engram:store:${first.name}`, '{not json');
    const again = await open({ notes, indexedDB: first.factory, name: first.name });
    expect(await again.memory.list(ada)).toHaveLength(1);
    expect(JSON.parse(notes.getItem(`engram:store:${first.name}`)!)).toMatchObject({ storeId: expect.any(Number) });
  });

  it('rejects an unknown onEviction value with ValidationError', async () => {
    await expect(open({ onEviction: 'ignore' as never })).rejects.toThrow(ValidationError);
  });
});

describe('checkedForEviction', () => {
  it('reports an eviction found right after a call failed on storage, and leaves other failures as they are', async () => {
    let forced = 0;
    const guard = {
      check: async (force?: boolean) => {
        if (!force) return;
        forced++;
        throw new StorageEvictedError('the database was cleared while it was open', 0);
      },
    };
    const memory = {
      list: () => Promise.reject(new StorageError('reading memories: the transaction was aborted')),
      get: () => Promise.reject(new ValidationError('id', 'must be a non-empty string')),
    } as unknown as Memory;
    const checked = checkedForEviction(memory, guard);
    await expect(checked.list(ada)).rejects.toThrow(StorageEvictedError);
    await expect(checked.get('', ada)).rejects.toThrow(ValidationError);
    expect(forced).toBe(1);
  });
});

/** fake-indexeddb's forced close of Dexie's connection (its typings ask for the IDBDatabase class; it takes a connection). */
const forceClose = (db: Dexie) => forceCloseDatabase(db.backendDB() as unknown as typeof IDBDatabase);

/**
 * What Chromium does to an open connection when the origin's IndexedDB is cleared
 * (Storage.clearDataForOrigin in test/e2e/durability.test.ts): the backend aborts the
 * connection's transactions, closes it forcibly (its 'close' event, which Dexie reports a moment
 * later) and deletes the database. fake-indexeddb's forced close waits for the running
 * transactions instead of aborting them, so `transaction`, the one running, is aborted here.
 */
function clearLikeChromium(factory: IDBFactory, db: Dexie, transaction: IDBTransaction): void {
  forceClose(db);
  transaction.abort();
  factory.deleteDatabase(db.name);
}

/** Clears the database (clearLikeChromium) under the next read of the eviction marker, once `armed.on` is set. */
function clearUnderMarkerRead(factory: IDBFactory, armed: { on: boolean }) {
  return (db: Dexie) =>
    wrapTables(db, 'clear-under-marker-read', (table, down) => ({
      get: (request: DBCoreGetRequest) => {
        const reading = down.get(request);
        if (armed.on && table === 'partitions' && request.key === STORE_MARKER_KEY) {
          armed.on = false;
          clearLikeChromium(factory, db, request.trans as unknown as IDBTransaction);
        }
        return reading;
      },
    }));
}

describe('eviction guard (the browser closes the connection under the marker read)', () => {
  it('reports StorageEvictedError, not the aborted read, when the database is gone on reopen', async () => {
    const factory = new IDBFactory();
    const armed = { on: false };
    const db = new EngramDatabase('engram-evict-under-read', { indexedDB: factory, IDBKeyRange });
    clearUnderMarkerRead(factory, armed)(db);
    await db.open();
    const guard = await guardEviction(db, createNotes(), 'reject');
    armed.on = true;
    try {
      await expect(guard.check(true)).rejects.toThrow(StorageEvictedError);
      expect(armed.on).toBe(false);
      // Found once, reported for good: the new, empty database is never taken for the old one.
      await expect(guard.check()).rejects.toThrow(StorageEvictedError);
    } finally {
      db.close();
    }
  });

  it('rejects the call with StorageEvictedError when the check after a reported close is what the clear cuts', async () => {
    const armed = { on: false };
    const factory = new IDBFactory();
    let db!: Dexie;
    const test = await open({
      indexedDB: factory,
      onDatabase: (instance) => {
        db = instance;
        clearUnderMarkerRead(factory, armed)(instance);
      },
    });
    await remember(test.memory);
    // A close the browser forced with the database still there: the next call reads the marker
    // (and finds it), and the one after that is served as before.
    forceClose(db);
    await expect.poll(() => db.isOpen()).toBe(false);
    expect(await test.memory.list(ada)).toHaveLength(1);
    forceClose(db);
    await expect.poll(() => db.isOpen()).toBe(false);
    armed.on = true;
    await expect(test.memory.list(ada)).rejects.toThrow(StorageEvictedError);
    expect(armed.on).toBe(false);
    await expect(remember(test.memory)).rejects.toThrow(StorageEvictedError);
  });

  it('does not drop the connection for a marker read that failed for another reason: the other calls on it go on', async () => {
    const factory = new IDBFactory();
    const db = new EngramDatabase('engram-evict-other-failure', { indexedDB: factory, IDBKeyRange });
    const failing = { on: false };
    wrapTables(db, 'fail-marker-read', (table, down) => ({
      get: (request: DBCoreGetRequest) => {
        if (failing.on && table === 'partitions' && request.key === STORE_MARKER_KEY) {
          failing.on = false;
          return Promise.reject(new Dexie.DataError('a damaged marker row'));
        }
        return down.get(request);
      },
    }));
    await db.open();
    const guard = await guardEviction(db, createNotes(), 'reject');
    try {
      // Another call's transaction is open on the connection when the guard's read fails.
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      const other = db.transaction('r', db.partitions, async () => {
        await Dexie.waitFor(paused);
        return db.partitions.get(STORE_MARKER_KEY);
      });
      failing.on = true;
      await expect(guard.check(true)).rejects.toThrow(StorageError);
      resume();
      expect((await other)?.version).toBeTypeOf('number');
      expect(db.isOpen()).toBe(true);
    } finally {
      db.close();
    }
  });

  it("keeps a read that engram's own close() overtook a ClosedError, and does not reopen the database for it", async () => {
    let db!: Dexie;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gated = false;
    let waiting = false;
    const test = await open({
      onDatabase: (instance) => void (db = instance),
      embedder: {
        id: 'gated-4',
        dim: 4,
        async embed(texts) {
          if (gated) {
            waiting = true;
            await gate;
          }
          return texts.map((text) => Float32Array.from([1, text.length, 0, 0]));
        },
      },
    });
    await remember(test.memory);
    gated = true;
    const pending = test.memory.retrieve('jazz', ada).catch((error: unknown) => error);
    await expect.poll(() => waiting).toBe(true);
    await test.memory.close();
    release();
    expect(await pending).toBeInstanceOf(ClosedError);
    expect(db.isOpen()).toBe(false);
    expect(db.hasBeenClosed()).toBe(true);
  });
});
