/**
 * Sealing wired into Dexie (the codec and the field map are in sealed.ts).
 *
 * An IndexedDB transaction commits as soon as it waits on anything but IndexedDB, and
 * WebCrypto is asynchronous. So:
 * - Writes: a commit seals what it will write *before* its transaction ({@link prepareSeals});
 *   inside, a DBCore middleware swaps each plain value for its prepared ciphertext,
 *   synchronously. A value nobody prepared fails the write (StorageError): plaintext never
 *   reaches the disk by omission.
 * - Reads: the middleware opens sealed values after each read. In a read-only transaction it
 *   keeps the transaction alive meanwhile with no-op requests and hands the rows back from
 *   inside a request callback, so the transaction's next read still finds it active. In a
 *   read-write (or upgrade) transaction rows stay sealed: a commit decides on clear fields only.
 *   A cursor's rows (filter, anyOf, each) cannot be opened on the way: their clear fields read
 *   as stored, and reading a sealed one throws. Text is read by key: get, bulkGet, toArray.
 * - Open: the key check row (a sealed known plaintext in `partitions`, under a key no partition
 *   can have) tells a wrong key, a missing key, and a key for an unencrypted database apart
 *   before anything is written ({@link checkSealing}).
 */
import type { DBCore, DBCoreCursor, DBCoreTable, Dexie, Middleware } from 'dexie';
import { EncryptionKeyError, StorageError } from '../errors';
import type { MemoryRecord } from '../schema';
import type { IndexRows } from '../worker/api';
import type { EngramDatabase, InputRow } from './database';
import { partitionOf } from '../storage/owner';
import { createCodec, isPlain, isSealed, mapSealed, plainSlots, SEALED_TABLES, sealKeyCheck, verifyKeyCheck, type Codec, type Plain, type Slot } from './sealed';
import { widestRows } from './lineage';
import { logEntry } from './vector-log';
import { storedColumns } from './pack-columns';

interface Sealer {
  codec: Codec;
  /** Prepared ciphertexts by context + value, with how many pending writes asked for each. */
  byValue: Map<string, { sealed: Uint8Array; refs: number }>;
  /** Prepared ciphertexts of large arrays by identity (a snapshot chunk is not keyed by value). */
  byObject: WeakMap<object, Map<string, Uint8Array>>;
}

const sealers = new WeakMap<Dexie, Sealer>();

/** Arrays up to this size are also found by value (a log row's terms are recomputed inside the commit). */
const VALUE_KEY_BYTES = 64 * 1024;

function valueKey(context: string, value: Plain): string {
  if (typeof value === 'string') return `${context}\u0000s${value}`;
  // Bytes of an odd-length (8-bit) array are keyed one unit per byte.
  const units = value.byteLength % 2 || value.byteOffset % 2 ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : new Uint16Array(value.buffer, value.byteOffset, value.byteLength / 2);
  let key = `${context}\u0000${value instanceof Float32Array ? 'f' : value instanceof Int8Array ? 'i' : 'u'}`;
  for (let i = 0; i < units.length; i += 8192) key += String.fromCharCode(...units.subarray(i, i + 8192));
  return key;
}

/** One row a write is about to store, for {@link prepareSeals}. */
export interface PendingRow {
  table: string;
  row: unknown;
}

/**
 * Seals every plain value of the rows `rowsOf` builds, ahead of the transaction that writes
 * them. Call the returned release once that transaction has settled. A no-op on a database
 * without a key, which never builds the rows.
 */
export async function prepareSeals(db: Dexie, rowsOf: () => readonly PendingRow[]): Promise<() => void> {
  const sealer = sealers.get(db);
  if (!sealer) return () => {};
  const slots = rowsOf().flatMap(({ table, row }) => plainSlots(table, row).map((slot) => ({ ...slot, value: slot.value as Plain })));
  const sealed = await Promise.all(slots.map((slot) => sealer.codec.seal(slot.value, slot.context)));
  const keys: string[] = [];
  slots.forEach((slot, i) => {
    if (typeof slot.value !== 'string') {
      const contexts = sealer.byObject.get(slot.value) ?? new Map<string, Uint8Array>();
      sealer.byObject.set(slot.value, contexts.set(slot.context, sealed[i]!));
      if (slot.value.byteLength > VALUE_KEY_BYTES) return;
    }
    const key = valueKey(slot.context, slot.value);
    const entry = sealer.byValue.get(key);
    if (entry) entry.refs++;
    else sealer.byValue.set(key, { sealed: sealed[i]!, refs: 1 });
    keys.push(key);
  });
  return () => {
    for (const key of keys) {
      const entry = sealer.byValue.get(key)!;
      if (--entry.refs === 0) sealer.byValue.delete(key);
    }
  };
}

/** Inside a write transaction: the prepared ciphertext of `slot` (an already sealed or empty value passes as it is). */
function sealedFor(sealer: Sealer, slot: Slot): unknown {
  const { context, value } = slot;
  if (!isPlain(value)) return value;
  const found = (typeof value === 'string' ? undefined : sealer.byObject.get(value)?.get(context)) ?? sealer.byValue.get(valueKey(context, value))?.sealed;
  if (!found) {
    throw new StorageError(`${context.split(':')[0]} was about to be written unencrypted (it was not sealed before the write transaction); nothing was written. This is a defect in engram: please report it.`);
  }
  return found;
}

/** Settles with `work`, from inside a request callback of `trans`, keeping a read-only transaction alive until then. */
function keepingAlive<T>(trans: IDBTransaction, table: string, work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let outcome: (() => void) | undefined;
    work.then(
      (value) => void (outcome = () => resolve(value)),
      (error: unknown) => void (outcome = () => reject(error)),
    );
    const spin = () => {
      if (outcome) return outcome();
      let request: IDBRequest;
      try {
        request = trans.objectStore(table).get(-Infinity);
      } catch {
        // The transaction already ended (a one-request read): nothing waits on it any more.
        return void work.then(resolve, reject);
      }
      request.onsuccess = spin;
      request.onerror = () => reject(request.error);
    };
    spin();
  });
}

function isReadOnly(trans: unknown): boolean {
  return (trans as IDBTransaction).mode === 'readonly';
}

/** Opens every sealed value of `rows`, read in the read-only transaction `trans`. */
function openRows(sealer: Sealer, trans: unknown, table: string, rows: unknown[]): Promise<unknown[]> | unknown[] {
  const idb = trans as IDBTransaction;
  const slots: Slot[] = [];
  for (const row of rows) mapSealed(table, row, (slot) => (isSealed(slot.value) && slots.push(slot), slot.value));
  if (slots.length === 0) return rows;
  // A value that does not open although the key check passed was altered or moved on disk: it
  // stays as stored, and the row's validation rejects it (a memory is quarantined, a pack
  // rebuilt from the records, a stored input fails the replay with a typed error).
  const work = Promise.all(slots.map(({ value, context }) => sealer.codec.open(value as Uint8Array, context).catch(() => value)));
  return keepingAlive(
    idb,
    table,
    work.then((opened) => {
      const byValue = new Map(slots.map((slot, i) => [slot.value, opened[i]]));
      return rows.map((row) => mapSealed(table, row, (slot) => (byValue.has(slot.value) ? byValue.get(slot.value) : slot.value)));
    }),
  );
}

/**
 * A row read by cursor (filter, anyOf, each, modify) in a read-only transaction: its clear
 * fields read as stored, but reading a field that holds sealed values throws, because a
 * cursor's rows cannot be opened on the way. Loud, not a row silently quarantined as corrupt.
 */
function guardedRow(table: string, row: unknown): unknown {
  const sealedFields = new Set<string>();
  mapSealed(table, row, (slot) => (isSealed(slot.value) && sealedFields.add(slot.context.split(':')[0]!.split('.')[1]!), slot.value));
  if (sealedFields.size === 0) return row;
  return new Proxy(row as object, {
    get(target, property, receiver) {
      if (typeof property === 'string' && sealedFields.has(property)) {
        throw new StorageError(`${table}.${property} was read by cursor (filter, anyOf, each), which cannot decrypt; read it with get, bulkGet or where(…).equals/between(…).toArray() instead`);
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

function guardedCursor(table: string, cursor: DBCoreCursor | null): DBCoreCursor | null {
  if (!cursor) return cursor;
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: { get: () => guardedRow(table, cursor.value) },
  }) as DBCoreCursor;
}

/**
 * The identical-fact key (`memories.fact`) is an unkeyed 32-bit hash of the topic and content:
 * in clear, anyone holding the disk could confirm a guessed fact ("vegetarian" on `diet`). An
 * encrypted database stores 0 instead; the sweep finds the same fact by the hash it keeps in memory (active-set.ts).
 */
function withoutFactKey(table: string, row: unknown): unknown {
  return table === 'memories' && typeof row === 'object' && row !== null && 'fact' in row ? { ...row, fact: 0 } : row;
}

function sealingMiddleware(sealer: Sealer, sealedTables: ReadonlySet<string>): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'EngramSealing',
    create: (down) => ({
      ...down,
      table(name: string): DBCoreTable {
        const table = down.table(name);
        if (!sealedTables.has(name)) return table;
        return {
          ...table,
          mutate: (request) =>
            request.type === 'add' || request.type === 'put'
              ? table.mutate({
                  ...request,
                  values: request.values.map((row) =>
                    withoutFactKey(
                      name,
                      mapSealed(name, row, (slot) => sealedFor(sealer, slot)),
                    ),
                  ),
                } as typeof request)
              : table.mutate(request),
          // Outside read-only transactions the calls go straight down, adding no promise hop:
          // Dexie follows a transaction's zone across native awaits only as far as it expects.
          get: (request) => (isReadOnly(request.trans) ? table.get(request).then(async (row) => (await openRows(sealer, request.trans, name, [row]))[0]) : table.get(request)),
          getMany: (request) => (isReadOnly(request.trans) ? table.getMany(request).then((rows) => openRows(sealer, request.trans, name, rows)) : table.getMany(request)),
          openCursor: (request) => (isReadOnly(request.trans) && request.values ? table.openCursor(request).then((cursor) => guardedCursor(name, cursor)) : table.openCursor(request)),
          query: (request) => (isReadOnly(request.trans) && request.values ? table.query(request).then(async (response) => ({ ...response, result: await openRows(sealer, request.trans, name, response.result) })) : table.query(request)),
        };
      },
    }),
  };
}

/** Installs sealing with `key` on `db` before it opens. */
export function installSealing(db: Dexie, key: CryptoKey): void {
  const sealer: Sealer = { codec: createCodec(key), byValue: new Map(), byObject: new WeakMap() };
  sealers.set(db, sealer);
  db.use(sealingMiddleware(sealer, new Set(Object.keys(SEALED_TABLES))));
}

/** The key of the key check row in `partitions`: partition keys are JSON arrays, so none can be this. */
export const SEALING_ROW_KEY = 'engram:sealing';

interface SealingRow {
  key: string;
  version: number;
  scheme: 'aes-gcm/1';
  check: Uint8Array;
}

/**
 * Right after open: with a key, verifies it against the key check row (or, on a database that
 * holds nothing yet, writes that row); without one, refuses an encrypted database. Throws
 * EncryptionKeyError, having written nothing, on a wrong key, a missing key, or a key for a
 * database already written without one.
 */
export async function checkSealing(db: EngramDatabase): Promise<void> {
  const sealer = sealers.get(db);
  const row = (await db.partitions.get(SEALING_ROW_KEY)) as SealingRow | undefined;
  if (!sealer) {
    if (row) throw new EncryptionKeyError(`database '${db.name}' is encrypted at rest and no encryptionKey was given. Nothing was read or written; pass the key it was created with: createMemory({ encryptionKey }).`);
    return;
  }
  if (row) return verifyKeyCheck(sealer.codec, row.check, db.name);
  const fresh: SealingRow = { key: SEALING_ROW_KEY, version: 0, scheme: 'aes-gcm/1', check: await sealKeyCheck(sealer.codec) };
  const written = await db.transaction('rw', db.partitions, db.memories, db.inputs, async () => {
    if (await db.partitions.get(SEALING_ROW_KEY)) return false;
    // Partition keys are JSON arrays; other rows of the table are markers (this one, the eviction guard's).
    const counts = await Promise.all([db.partitions.where(':id').startsWith('[').count(), db.memories.count(), db.inputs.count()]);
    if (counts.some((count) => count > 0)) {
      throw new EncryptionKeyError(
        `database '${db.name}' was written without an encryptionKey, so it cannot be opened with one (its data would be half encrypted). Nothing was read or written; open it without a key, or export its owners and import them into a new database opened with the key.`,
      );
    }
    await db.partitions.add(fresh);
    return true;
  });
  // Another tab sealed it between the two reads: its key must be this one.
  if (!written) return verifyKeyCheck(sealer.codec, ((await db.partitions.get(SEALING_ROW_KEY)) as SealingRow | undefined)?.check, db.name);
}

/**
 * Inside a commit's transaction: refuses the write when the database's encryption is not what
 * this instance opened it with: a tab without a key that opened an empty database which another
 * tab then sealed, or a sealed database deleted and recreated under a keyed instance.
 */
export async function refuseMixedSealing(db: EngramDatabase): Promise<void> {
  const sealed = (await db.partitions.get(SEALING_ROW_KEY)) !== undefined;
  if (sealed === sealers.has(db)) return;
  throw new EncryptionKeyError(
    sealed
      ? `database '${db.name}' was encrypted by another instance after this one opened it without a key; nothing was written. Reopen it with the encryptionKey.`
      : `database '${db.name}' is no longer encrypted (it was deleted or replaced after this instance opened it with a key); nothing was written. Reopen it with createMemory().`,
  );
}

/**
 * What a commit of `records` and `inputs` can write, built by the functions that build the
 * rows it writes (lineage.ts `widestRows`, vector-log.ts `logEntry`), so the two cannot
 * drift apart: each record's row, a lineage row per source, an event row per history entry,
 * its vector log entry, and the inputs as they are appended.
 */
export function commitRows(records: readonly MemoryRecord[], inputs: readonly InputRow[]): PendingRow[] {
  const rows: PendingRow[] = inputs.map((row) => ({ table: 'inputs', row }));
  for (const record of records) {
    const { memory, lineage, events } = widestRows(record);
    rows.push({ table: 'memories', row: memory });
    for (const row of lineage) rows.push({ table: 'lineage', row });
    for (const row of events) rows.push({ table: 'events', row });
    rows.push({ table: 'vectorLog', row: logEntry(partitionOf(record), 0, [record]) });
  }
  return rows;
}

/** What writeSnapshot stores for the partition `key` at `version` (its columns as pack-columns.ts stores them). */
export function snapshotRows(key: string, version: number, chunks: readonly IndexRows[]): PendingRow[] {
  return chunks.map((chunk, part) => ({ table: 'vectorPacks', row: { partition: key, part, version, ...storedColumns(chunk) } }));
}
