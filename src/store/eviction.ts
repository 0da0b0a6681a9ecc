/**
 * The IndexedDB backend's eviction guard (durability/eviction.ts says why and holds the policy
 * types): the marker row in the database, the note outside it, compared at open and again after
 * the browser closed the connection.
 */
import { StorageEvictedError, toStorageError } from '../errors';
import type { EvictionGuard, EvictionPolicy, NoteStore } from '../durability/eviction';
import type { EngramDatabase } from './database';

/** The marker's key in the `partitions` table; partition keys are JSON arrays, so it cannot clash. */
export const STORE_MARKER_KEY = '#engram-store';

interface Note {
  storeId: number;
  since: number;
}

const noteKey = (db: EngramDatabase) => `engram:store:${db.name}`;

function readNote(notes: NoteStore | undefined, db: EngramDatabase): Note | undefined {
  const text = notes?.getItem(noteKey(db));
  if (!text) return undefined;
  let parsed: Partial<Note> | null;
  try {
    parsed = JSON.parse(text) as Partial<Note> | null;
  } catch {
    // Not JSON (another script wrote the key): no usable note, as if there were none.
    return undefined;
  }
  return typeof parsed?.storeId === 'number' && typeof parsed.since === 'number' ? { storeId: parsed.storeId, since: parsed.since } : undefined;
}

/** Keeps the note; false when the storage refused it (full, or blocked), which only weakens detection at the next open. */
function writeNote(notes: NoteStore | undefined, db: EngramDatabase, note: Note): boolean {
  try {
    notes?.setItem(noteKey(db), JSON.stringify(note));
    return true;
  } catch {
    // QuotaExceededError or SecurityError: opening goes on; the marker still guards this session.
    return false;
  }
}

function evicted(db: EngramDatabase, since: number, when: string): StorageEvictedError {
  return new StorageEvictedError(
    `the IndexedDB database '${db.name}' that engram first stored at ${new Date(since).toISOString()} was cleared ${when} (evicted by the browser or cleared with the site's data); what is there now is empty, not the user's memories. Restore a backup: reopen with createMemory({ onEviction: 'start-over' }) and memory.import(...) each owner's export.`,
    since,
  );
}

/** Names of the errors a read fails with when the browser closed or cleared the connection under it (IndexedDB's or Dexie's). */
const CUT_BY_CLOSE = new Set(['AbortError', 'InvalidStateError', 'DatabaseClosedError', 'TransactionInactiveError']);

function cutByClose(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { inner?: unknown }).inner, depth++) {
    if (CUT_BY_CLOSE.has((e as { name?: unknown }).name as string)) return true;
  }
  return false;
}

/**
 * The store id in the marker as the database holds it now (undefined: no marker). A read the
 * browser cut by closing the connection is read again on a new one: Chromium, clearing an
 * origin's IndexedDB, aborts the connection's transactions before Dexie hears of the close, and
 * the connection stays dead until then (a read retried on it fails alike). The new connection
 * opens onto what is there now, the store or the empty database that replaced it. A database
 * its owner closed (engram's close(), which Dexie records: hasBeenClosed()) is not reopened.
 */
async function readMarker(db: EngramDatabase): Promise<number | undefined> {
  const read = async () => (await db.partitions.get(STORE_MARKER_KEY))?.version;
  const failed = (error: unknown) => toStorageError(error, `reading the IndexedDB database '${db.name}'`);
  try {
    return await read();
  } catch (error) {
    // Only a read the connection's loss cut is read again: closing the connection for any other
    // failure (a damaged row, a quota error) would abort every other call's transaction on it.
    if (db.hasBeenClosed() || !cutByClose(error)) throw failed(error);
    // What Dexie does itself once the browser's close reaches it: drop the connection, reopen on the next call.
    db.close({ disableAutoOpen: false });
    return await read().catch((again: unknown) => {
      throw failed(again);
    });
  }
}

/**
 * Run right after the database opened: finds or writes the marker (in one transaction, so two
 * tabs opening a new database agree on one store id), compares it with the note, and returns
 * the guard for later calls.
 * @throws StorageEvictedError when the note names a store whose marker is gone, unless `policy` is `'start-over'`.
 */
export async function guardEviction(db: EngramDatabase, notes: NoteStore | undefined, policy: EvictionPolicy): Promise<EvictionGuard> {
  const note = readNote(notes, db);
  const fresh = Math.floor(Math.random() * 2 ** 52) + 1;
  const storeId = await db.transaction('rw', db.partitions, async () => {
    const marker = await db.partitions.get(STORE_MARKER_KEY);
    // Starting over adopts a store another tab has just started (two tabs after one Reset).
    if (marker && (!note || note.storeId === marker.version || policy === 'start-over')) return marker.version;
    if (note && policy === 'reject') throw evicted(db, note.since, 'before this open');
    await db.partitions.put({ key: STORE_MARKER_KEY, version: fresh });
    return fresh;
  });
  const since = note?.storeId === storeId ? note.since : Date.now();
  if (note?.storeId !== storeId) writeNote(notes, db, { storeId, since });
  let suspect = false;
  let gone: StorageEvictedError | undefined;
  // Dexie fires 'close' when the browser closed the connection (or another tab deleted or
  // upgraded the database); it reopens on the next call, possibly onto a new, empty database.
  db.on('close', () => void (suspect = true));
  return {
    async check(force = false) {
      if (gone) throw gone;
      if (!suspect && !force) return;
      if ((await readMarker(db)) === storeId) {
        suspect = false;
        return;
      }
      gone = evicted(db, since, 'while it was open');
      throw gone;
    },
  };
}
