/**
 * Eviction detection under Node: the note outside the database is a Storage-shaped map here
 * (Node has no localStorage; Chromium's real one is in test/e2e/durability.test.ts), the
 * database is fake-indexeddb's, deleted through IndexedDB itself as a browser would clear it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StorageError, StorageEvictedError, ValidationError, type Memory } from '../../src/index';
import type { NoteStore } from '../../src/durability/eviction';
import { checkedForEviction } from '../../src/durability/eviction-check';
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
