/**
 * A large import, as the page's thread now runs it: parsed and checked in slices (transfer/parse.ts)
 * and written in sliced IndexedDB calls inside one transaction (store/sliced-requests.ts). It
 * stays all or nothing: a write fault in a late slice of the commit leaves the database
 * byte-identical, and the first damaged memory far down the export is named at its path.
 */
import type { DBCoreMutateRequest, Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageError, ValidationError, type Memory, type OwnerExport } from '../../src/index';
import { dumpDatabase } from '../helpers/idb-fixture';
import { wrapTables } from '../helpers/idb-store';
import { createTestMemory, type TestMemoryOptions } from '../helpers/memory';

const ada = { userId: 'u_ada', appName: 'trips' };
const SIZE = 600;
const opened: Memory[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function open(options: TestMemoryOptions = {}) {
  const test = await createTestMemory(options);
  opened.push(test.memory);
  return test;
}

/** An export of SIZE distinct memories, all from one stored conversation. */
async function largeExport(): Promise<OwnerExport> {
  const { memory } = await open();
  await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...ada, sessionId: 'c1', source: { type: 'user_explicit', id: 's1' } });
  const data = JSON.parse(JSON.stringify(await memory.export(ada))) as OwnerExport;
  const [first] = data.memories;
  const memories = Array.from({ length: SIZE }, (_, i) => ({ ...structuredClone(first!), id: `mem_big_${i}`, content: `The user likes place number ${i}.`, topic: `topic-${i}` }));
  return { ...data, memories };
}

/** Fails the `failAt`-th put into `memories` as it reaches IndexedDB (below the slicing), counting those puts. */
function failingPut(state: { puts: number; failAt: number }): (db: Dexie) => void {
  return (db) =>
    wrapTables(
      db,
      'test-late-fault',
      (name, table) => ({
        mutate: (request: DBCoreMutateRequest) => (name === 'memories' && request.type === 'put' && ++state.puts === state.failAt ? Promise.reject(new Error('injected write fault')) : table.mutate(request)),
      }),
      -20,
    );
}

describe('Memory.import of a large export', () => {
  it('writes every memory, and exporting again gives them back', async () => {
    const data = await largeExport();
    const state = { puts: 0, failAt: 0 };
    const { memory } = await open({ onDatabase: failingPut(state) });
    await expect(memory.import(data)).resolves.toMatchObject({ memories: SIZE });
    // The commit's memories reached IndexedDB in many calls, not one.
    expect(state.puts).toBeGreaterThan(SIZE / 32);
    const back = await memory.export(ada);
    expect(back.memories.map((record) => record.content).sort()).toEqual(data.memories.map((record) => record.content).sort());
    expect((await memory.retrieve('place number 417', { ...ada, k: 1 }))[0]?.memory.id).toBe('mem_big_417');
  });

  it('writes nothing when a late slice of the commit fails', async () => {
    const data = await largeExport();
    const state = { puts: 0, failAt: 30 };
    const target = await open({ onDatabase: failingPut(state) });
    const before = JSON.stringify(await dumpDatabase(target.factory, target.name));
    await expect(target.memory.import(data)).rejects.toThrow(StorageError);
    expect(state.puts).toBeGreaterThanOrEqual(30);
    expect(JSON.stringify(await dumpDatabase(target.factory, target.name))).toBe(before);
    // Nothing half-written stands in the way of the same import afterwards.
    state.failAt = 0;
    await expect(target.memory.import(data)).resolves.toMatchObject({ memories: SIZE });
  });

  it('names the first damaged memory far down the export at its path, and writes nothing', async () => {
    const data = await largeExport();
    (data.memories[SIZE - 7] as { confidence: number }).confidence = 7;
    (data.memories[SIZE - 2] as { importance: number }).importance = -1;
    const target = await open();
    const before = JSON.stringify(await dumpDatabase(target.factory, target.name));
    const error = await target.memory.import(data).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(`data.memories.${SIZE - 7}.confidence`);
    expect(JSON.stringify(await dumpDatabase(target.factory, target.name))).toBe(before);
  });
});
