/**
 * An upgrade cut short by closing the tab (test/e2e/durability.test.ts shows it in Chromium):
 * the upgrade transaction commits once the page's script is gone, so the database is at the
 * current version with its new stores and indexes while its rows are still in v3 form. Here that state is built
 * raw: the committed v3 fixture, then today's schema applied through IndexedDB itself with no
 * data migration. Opening it must finish the migration: nothing lost, nothing invisible.
 */
import { readFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/index';
import { decodeValue, dumpDatabase, restoreDatabase, type DatabaseFixture } from '../helpers/idb-fixture';
import { expectRetrievedAsBefore } from '../helpers/retrieved-before';

interface Fixture {
  name: string;
  now: number;
  owners: { userId: string; appName: string }[];
  database: DatabaseFixture;
  expected: unknown;
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/engram-db-v3.json', import.meta.url), 'utf8')) as Fixture;
const expected = decodeValue(fixture.expected) as { lists: { id: string }[][]; retrieved: Record<string, string[][]> };
const QUERIES = ['any dietary restrictions I should know about?', 'what seat should I book on the flight?', 'what should we order for lunch?'];

let memory: Memory | undefined;
afterEach(async () => {
  await memory?.close();
  memory = undefined;
});

const open = (factory: IDBFactory) => createMemory({ name: fixture.name, indexedDB: factory, IDBKeyRange, worker: 'off', clock: () => fixture.now });

/** The schema (stores, key paths, indexes) today's engram creates, read from a fresh database. */
async function currentSchema(): Promise<DatabaseFixture> {
  const factory = new IDBFactory();
  (await open(factory)).close();
  return dumpDatabase(factory, fixture.name);
}

/** Applies `schema` to the existing database raw, at its version, moving no row: what a cut-short upgrade commits. */
function applySchemaOnly(factory: IDBFactory, schema: DatabaseFixture): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.open(fixture.name, schema.version);
    request.onupgradeneeded = () => {
      const db = request.result;
      const transaction = request.transaction!;
      for (const store of schema.stores) {
        const target = db.objectStoreNames.contains(store.name) ? transaction.objectStore(store.name) : db.createObjectStore(store.name, { keyPath: store.keyPath, autoIncrement: store.autoIncrement });
        for (const name of Array.from(target.indexNames)) if (!store.indexes.some((index) => index.name === name)) target.deleteIndex(name);
        for (const index of store.indexes) if (!target.indexNames.contains(index.name)) target.createIndex(index.name, index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
      }
    };
    request.onsuccess = () => (request.result.close(), resolve());
    request.onerror = () => reject(request.error);
  });
}

describe('createMemory (an upgrade cut short)', () => {
  it('finishes the upgrade steps on open: every memory listed and retrieved as before, every row in the new indexes', async () => {
    const factory = new IDBFactory();
    await restoreDatabase(factory, fixture.name, fixture.database);
    await applySchemaOnly(factory, await currentSchema());
    const raw = (await dumpDatabase(factory, fixture.name)).stores.find((store) => store.name === 'memories')!.rows;
    expect(raw.filter((row) => (row.value as { chain?: string }).chain !== undefined)).toHaveLength(0);

    memory = await open(factory);
    for (const [i, owner] of fixture.owners.entries()) {
      expect((await memory.list({ ...owner, includeInvalid: true })).map((record) => record.id)).toEqual(expected.lists[i]!.map((record) => record.id));
      for (const [q, query] of QUERIES.entries()) {
        await expectRetrievedAsBefore(memory, query, owner, expected.retrieved[JSON.stringify(owner)]![q]!);
      }
    }
    await memory.close();
    const after = (await dumpDatabase(factory, fixture.name)).stores.find((store) => store.name === 'memories')!.rows;
    // v4's lineage fields and v5's identical-fact key, on every row.
    expect(after.filter((row) => (row.value as { chain?: string }).chain === undefined)).toHaveLength(0);
    expect(after.filter((row) => typeof (row.value as { fact?: number }).fact !== 'number')).toHaveLength(0);
  });
});
