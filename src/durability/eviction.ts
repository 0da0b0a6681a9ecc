/**
 * Telling an evicted database from a new one. A browser may clear an origin's IndexedDB (storage
 * pressure, the user clearing site data) and the next open then creates an empty database that
 * looks exactly like a first run. engram keeps two records of a store it created: a marker row
 * inside the database (a random store id) and a note outside it, in localStorage, which Chromium
 * does not evict with IndexedDB. A note without its marker (or with another store's) means the
 * database engram stored is gone: opening rejects with StorageEvictedError instead of serving an
 * empty store as the user's. While open, a connection the browser closed under engram is
 * checked again before the next call: a marker gone since open is the same eviction.
 *
 * What a memory and its options need of it lives here, backend-free; the IndexedDB backend's
 * guard (the marker row, the note, the checks) is store/eviction.ts.
 */

/** Where the note outside the database is kept: localStorage in a page, nothing where there is none. */
export type NoteStore = Pick<Storage, 'getItem' | 'setItem'>;

/** What `createMemory({ onEviction })` does when the store is found evicted at open. */
export type EvictionPolicy = 'reject' | 'start-over';

/** localStorage where a page has it; reading it throws in sandboxed frames and opaque origins. */
export function defaultNoteStore(): NoteStore | undefined {
  try {
    return (globalThis as { localStorage?: NoteStore }).localStorage;
  } catch {
    // A SecurityError: this context has no storage to keep a note in; the marker still guards a session.
    return undefined;
  }
}

/** What a memory checks before its calls (durability/eviction-check.ts); the backend makes it at open (store/eviction.ts). */
export interface EvictionGuard {
  /**
   * Rejects with StorageEvictedError once the store opened here is found gone; cheap while
   * nothing closed the connection. `force`: read the marker even so (a call just failed, and
   * the browser's close may not have been reported yet).
   */
  check(force?: boolean): Promise<void>;
}
