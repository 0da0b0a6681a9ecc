/**
 * A whole IndexedDB database as JSON, through the raw IndexedDB API (not through engram): its
 * version, every object store with its key path and indexes, and every row. Typed arrays and
 * other values JSON cannot hold are tagged, so a restored database holds exactly what was
 * dumped. Used to commit a database written by one release and open it with every later one.
 */

export interface StoreFixture {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexes: { name: string; keyPath: string | string[]; unique: boolean; multiEntry: boolean }[];
  rows: { key: unknown; value: unknown }[];
}

export interface DatabaseFixture {
  format: 'engram-idb-fixture/1';
  /** The IndexedDB version (Dexie's version × 10). */
  version: number;
  stores: StoreFixture[];
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

const TYPED = { Float32Array, Float64Array, Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array } as const;
type TypedName = keyof typeof TYPED;

/** JSON-safe form of a stored value: typed arrays and non-finite numbers are tagged. */
export function encodeValue(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const name = value.constructor.name as TypedName;
    // The bytes, base64: exact (no decimal rounding of floats) and a quarter of the text.
    return { $typed: name, base64: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return { $number: String(value) };
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, encodeValue(inner)]));
  }
  return value;
}

export function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (value !== null && typeof value === 'object') {
    const tagged = value as { $typed?: TypedName; base64?: string; $number?: string };
    if (tagged.$typed !== undefined) {
      const bytes = Buffer.from(tagged.base64!, 'base64');
      const copy = new Uint8Array(bytes.byteLength);
      copy.set(bytes);
      return new TYPED[tagged.$typed](copy.buffer);
    }
    if (tagged.$number !== undefined) return Number(tagged.$number);
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, decodeValue(inner)]));
  }
  return value;
}

function openRaw(factory: IDBFactory, name: string, version?: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = version === undefined ? factory.open(name) : factory.open(name, version);
    open.onupgradeneeded = () => upgrade?.(open.result);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** Every store and row of database `name` on `factory`. */
export async function dumpDatabase(factory: IDBFactory, name: string): Promise<DatabaseFixture> {
  const db = await openRaw(factory, name);
  try {
    const stores: StoreFixture[] = [];
    for (const storeName of Array.from(db.objectStoreNames).sort()) {
      const store = db.transaction(storeName, 'readonly').objectStore(storeName);
      const indexes = Array.from(store.indexNames)
        .sort()
        .map((indexName) => {
          const index = store.index(indexName);
          return { name: indexName, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
        });
      const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      stores.push({
        name: storeName,
        keyPath: store.keyPath,
        autoIncrement: store.autoIncrement,
        indexes,
        rows: keys.map((key, i) => ({ key: encodeValue(key), value: encodeValue(values[i]) })),
      });
    }
    return { format: 'engram-idb-fixture/1', version: db.version, stores };
  } finally {
    db.close();
  }
}

/** Recreates the dumped database as `name` on `factory`, at the dumped version, row for row. */
export async function restoreDatabase(factory: IDBFactory, name: string, fixture: DatabaseFixture): Promise<void> {
  const db = await openRaw(factory, name, fixture.version, (upgrading) => {
    for (const store of fixture.stores) {
      const created = upgrading.createObjectStore(store.name, { keyPath: store.keyPath, autoIncrement: store.autoIncrement });
      for (const index of store.indexes) created.createIndex(index.name, index.keyPath, { unique: index.unique, multiEntry: index.multiEntry });
    }
  });
  try {
    for (const store of fixture.stores) {
      const transaction = db.transaction(store.name, 'readwrite');
      const objectStore = transaction.objectStore(store.name);
      for (const row of store.rows) {
        const value = decodeValue(row.value);
        if (store.keyPath === null) objectStore.put(value, decodeValue(row.key) as IDBValidKey);
        else objectStore.put(value);
      }
      await new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
      });
    }
  } finally {
    db.close();
  }
}
