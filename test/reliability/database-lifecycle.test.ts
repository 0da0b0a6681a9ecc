/**
 * RELIABILITY 3: the database force-closed or deleted under a live memory instance. Calls
 * reject with a typed engram error (never hang, never a raw Dexie error), nothing is
 * half-written, and a new instance on the same database works and sees exactly what was
 * committed.
 */
import type { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError, StorageError, StorageEvictedError, type Memory } from '../../src/index';
import { createSequentialIds, createTestMemory, type TestMemory } from '../helpers/memory';
import { activeFacts } from '../helpers/facts';

const owner = { userId: 'u_ada', appName: 'default' };
const source = (id: string) => ({ type: 'user_implicit' as const, id });
const opened: Memory[] = [];

afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function open(options: Parameters<typeof createTestMemory>[0] = {}): Promise<TestMemory & { db: () => Dexie }> {
  let db: Dexie | undefined;
  const test = await createTestMemory({ ...options, onDatabase: (instance) => (db = instance) });
  opened.push(test.memory);
  return { ...test, db: () => db! };
}

/** Settles within `ms` or fails the test: a call on a dead database must not hang. */
function settled<T>(promise: Promise<T>, ms = 2_000): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms))]);
}

async function expectTypedRejection(promise: Promise<unknown>) {
  const error = await settled(promise).then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(StorageError);
  expect(isEngramError(error)).toBe(true);
}

describe('createMemory (database lifecycle)', () => {
  it('rejects every call with StorageError when the database was force-closed, and a new instance sees all committed memories', async () => {
    const test = await open();
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian. Call me Ada." }], { ...owner, sessionId: 's1', source: source('s1') });
    const before = activeFacts(await test.memory.list(owner));
    test.db().close();

    await expectTypedRejection(test.memory.ingest([{ role: 'user', content: 'I prefer the aisle seat.' }], { ...owner, sessionId: 's2', source: source('s2') }));
    await expectTypedRejection(test.memory.list(owner));
    await expectTypedRejection(test.memory.retrieve('diet', owner));
    await expectTypedRejection(test.memory.forgetSource('s1', owner));

    const again = await open({ indexedDB: test.factory, name: test.name });
    expect(activeFacts(await again.memory.list(owner))).toEqual(before);
    expect((await again.memory.retrieve('vegetarian diet', owner)).map((hit) => hit.memory.content)).toContain('The user follows a vegetarian diet.');
  });

  it('rejects every call with StorageEvictedError when another tab deletes the database, never serving the new empty one as the user’s', async () => {
    const test = await open();
    await test.memory.ingest([{ role: 'user', content: "I'm vegan. I prefer the window seat." }], { ...owner, sessionId: 's1', source: source('s1') });
    expect(await test.memory.retrieve('window seat or vegan?', owner)).toHaveLength(2);
    // What another tab's indexedDB.deleteDatabase does: Dexie closes this connection on
    // versionchange and reopens on the next call, onto a new database.
    await new Promise<void>((resolve, reject) => {
      const request = test.factory.deleteDatabase(test.name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    // Another instance (with no note of the old store: Node has no localStorage) starts a new
    // store there and writes into it; the first instance must not take it for its own.
    const other = await open({ indexedDB: test.factory, name: test.name, idGenerator: createSequentialIds('other_') });
    await other.memory.ingest([{ role: 'user', content: 'Call me Zed.' }], { ...owner, sessionId: 's2', source: source('s2') });

    await expect(settled(test.memory.list({ ...owner, includeInvalid: true }))).rejects.toThrow(StorageEvictedError);
    await expect(settled(test.memory.retrieve('window seat vegan Zed', owner))).rejects.toThrow(StorageEvictedError);
    await expect(settled(test.memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...owner, sessionId: 's3', source: source('s3') }))).rejects.toThrow(StorageEvictedError);
    expect((await other.memory.list(owner)).map((record) => record.content)).toEqual(['The user goes by Zed.']);
  });

  it('writes nothing of an ingest whose database closed while its decision was being made', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let waiting = false;
    const test = await open({
      decider: {
        async decide() {
          waiting = true;
          await gate;
          return { action: 'CREATE', reason: 'novel topic for this user' };
        },
      },
    });
    const pending = test.memory.ingest([{ role: 'user', content: 'Call me Ada.' }], { ...owner, sessionId: 's1', source: source('s1') });
    await expect.poll(() => waiting).toBe(true);
    test.db().close();
    release();
    await expectTypedRejection(pending);

    const again = await open({ indexedDB: test.factory, name: test.name });
    expect(await again.memory.list({ ...owner, includeInvalid: true })).toEqual([]);
  });
});
