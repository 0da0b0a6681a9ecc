// The browser side of test/e2e/durability.test.ts: restoring a raw database fixture (the
// committed v3 one, so an upgrade runs in the page) and reading an owner's state in a form
// two stores can be compared by (the pre- and post-state of an erasure), with its canary count.
import type * as engram from '../../../src/index';
import type { DatabaseFixture } from '../../helpers/idb-fixture';

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const tagged = value as { $typed?: string; base64?: string; $number?: string };
  if (tagged.$typed !== undefined) {
    const bytes = Uint8Array.from(atob(tagged.base64!), (char) => char.charCodeAt(0));
    const types: Record<string, new (buffer: ArrayBuffer) => ArrayBufferView> = { Float32Array, Float64Array, Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array };
    return new types[tagged.$typed]!(bytes.buffer);
  }
  if (tagged.$number !== undefined) return Number(tagged.$number);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, decode(inner)]));
}

/**
 * Recreates the dumped database as `name` at its version, row for row, plus `copies` more of
 * every memory row under new ids (so the upgrade that follows has enough rows to take a while).
 */
async function restoreFixture(name: string, fixture: DatabaseFixture, copies: number): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, fixture.version);
    request.onupgradeneeded = () => {
      for (const store of fixture.stores) {
        const created = request.result.createObjectStore(store.name, { keyPath: store.keyPath, autoIncrement: store.autoIncrement });
        for (const index of store.indexes) created.createIndex(index.name, index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  let memories = 0;
  try {
    const tx = db.transaction(
      fixture.stores.map((store) => store.name),
      'readwrite',
    );
    for (const store of fixture.stores) {
      for (const row of store.rows) {
        const value = decode(row.value) as { id?: string };
        tx.objectStore(store.name).put(value);
        if (store.name !== 'memories') continue;
        memories += 1 + copies;
        for (let k = 1; k <= copies; k++) tx.objectStore(store.name).put({ ...value, id: `${value.id}~${k}` });
      }
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
  return memories;
}

/** The IndexedDB version of database `name` (0 when it does not exist), without creating or upgrading it. */
async function versionOf(name: string): Promise<number> {
  const found = (await indexedDB.databases()).find((database) => database.name === name);
  return found?.version ?? 0;
}

/**
 * What an erasure changes, without ids or times (a rebuilt memory gets a new id): the active
 * memories as `topic|content|source ids`, the source ids of the stored inputs, in order.
 */
async function stateOf(memory: engram.Memory, owner: engram.OwnerOptions): Promise<{ active: string[]; inputs: string[] }> {
  const data = await memory.export(owner);
  const active = data.memories
    .filter((record) => record.invalidatedAt === undefined)
    .map((record) => `${record.topic}|${record.content}|${[...new Set(record.sources.map((source) => source.id))].sort().join(',')}`)
    .sort();
  return { active, inputs: data.inputs.map((input) => ('source' in input ? input.source.id : input.kind)) };
}

/**
 * Logs `upgrade-needed <ms>` when an open of `name` starts a version upgrade and `upgrade-done
 * <ms>` when it succeeds (console, for the test to time a tab close into the upgrade). Patches
 * IDBFactory.prototype.open, which the indexedDB object Dexie captured at import uses too.
 */
function watchUpgrades(name: string): void {
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (this: IDBFactory, opened: string, version?: number) {
    const request = open.call(this, opened, version);
    if (opened === name) {
      request.addEventListener('upgradeneeded', () => console.log(`upgrade-needed ${performance.now()}`));
      request.addEventListener('success', () => console.log(`upgrade-done ${performance.now()}`));
    }
    return request;
  };
}

/** How many memory rows of database `name` carry the v4 lineage fields (`chain`) and v5's fact key, of all rows; read raw. */
async function migratedRows(name: string): Promise<{ chained: number; keyed: number; rows: number }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const rows = await new Promise<{ chain?: string; fact?: number }[]>((resolve, reject) => {
      const request = db.transaction('memories', 'readonly').objectStore('memories').getAll();
      request.onsuccess = () => resolve(request.result as { chain?: string; fact?: number }[]);
      request.onerror = () => reject(request.error);
    });
    return { chained: rows.filter((row) => row.chain !== undefined).length, keyed: rows.filter((row) => typeof row.fact === 'number').length, rows: rows.length };
  } finally {
    db.close();
  }
}

export const durability = { restoreFixture, versionOf, stateOf, watchUpgrades, migratedRows };
