/**
 * Reads every object store of every database on a fake-indexeddb factory through the raw
 * IndexedDB API (not through engram), so an erasure test sees exactly what is on disk:
 * memories, inputs, partitions and anything a later schema version adds.
 */

export interface RawRow {
  database: string;
  store: string;
  text: string;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

// Typed arrays become plain arrays so a vector's numbers are scanned too.
function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => (ArrayBuffer.isView(inner) ? Array.from(inner as Float32Array) : inner));
}

/** One stored row as IndexedDB holds it (structured-cloned: typed arrays stay typed arrays). */
export interface StoredRow {
  database: string;
  store: string;
  key: IDBValidKey;
  value: unknown;
}

/** Every row (key and value) of every store of every database, read through the raw IndexedDB API. */
export async function storedRows(factory: IDBFactory): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  for (const { name } of await factory.databases()) {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = factory.open(name!);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      for (const store of Array.from(db.objectStoreNames)) {
        const objectStore = db.transaction(store, 'readonly').objectStore(store);
        const [values, keys] = await Promise.all([request(objectStore.getAll()), request(objectStore.getAllKeys())]);
        values.forEach((value, i) => rows.push({ database: name!, store, key: keys[i]!, value }));
      }
    } finally {
      db.close();
    }
  }
  return rows;
}

/** Every row (value and key) of every store of every database, as JSON text. */
export async function dumpDatabases(factory: IDBFactory): Promise<RawRow[]> {
  return (await storedRows(factory)).map(({ database, store, key, value }) => ({ database, store, text: stringify([key, value]) }));
}

/** Where `needle` (case-sensitive) occurs in the raw databases: one entry per row that holds it. */
export async function findInDatabases(factory: IDBFactory, needle: string): Promise<RawRow[]> {
  return (await dumpDatabases(factory)).filter((row) => row.text.includes(needle));
}
