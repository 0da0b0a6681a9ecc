/**
 * Every failure engram reports is an {@link EngramError}. Subclasses exist only where a
 * caller would handle the failure differently. Only `name`, `message` and `stack` cross
 * Comlink, so check errors with {@link isEngramError} / `error.name`, not `instanceof`,
 * when they may have come from the worker.
 */
export class EngramError extends Error {
  override name: string = 'EngramError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Caller input was rejected: the message names the field, the value and the fix. */
export class ValidationError extends EngramError {
  override name = 'ValidationError';
  /** Dotted path of the offending field, e.g. `options.userId`. */
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(`${path}: ${message}`, options);
    this.path = path;
  }
}

/** The caller asked for something its owner may not do (e.g. write app scope from `ingest`). */
export class PermissionError extends EngramError {
  override name = 'PermissionError';
}

/** A record id that does not exist for this owner (foreign ids look exactly like missing ones). */
export class NotFoundError extends EngramError {
  override name = 'NotFoundError';
}

/** Another instance wrote the same owner's memories first and retries ran out. */
export class ConflictError extends EngramError {
  override name = 'ConflictError';
}

/**
 * A commit found that an id it was about to create already exists (a repeating id generator).
 * Internal: the write is decided again with new ids; a caller only sees a ConflictError when
 * the generator keeps repeating itself.
 */
export class IdCollisionError extends ConflictError {
  // Callers handle it as the ConflictError it is (and only `name` crosses the worker boundary).
  override name = 'ConflictError';
}

/** IndexedDB failed (closed, deleted, blocked, aborted). The store is left as it was before the call. */
export class StorageError extends EngramError {
  override name = 'StorageError';
}

/**
 * The memory was closed with `close()`: no call works on it any more. A call made after
 * close wrote nothing; one that close overtook wrote at most what it had committed (each write
 * is one transaction). Create a new memory with `createMemory()`.
 */
export class ClosedError extends EngramError {
  override name = 'ClosedError';
}

/** The browser refused to store more data. Nothing of the failed write was kept. */
export class QuotaError extends StorageError {
  override name = 'QuotaError';
}

/**
 * Internal: the owner's partition holds an erasure made on a full disk (store/full-disk.ts) whose
 * rebuild has not run; the write loop (storage/write-owner.ts) runs it, then decides again. A
 * caller sees it only from a store without that loop, as the StorageError it is.
 */
export class ErasurePendingError extends StorageError {
  override name = 'StorageError';
}

/**
 * The browser cleared or evicted this origin's IndexedDB database after engram had stored it
 * here: what is there now is empty, not the user's memories, so engram refuses to serve it.
 * Restore a backup with `memory.import` after reopening with `createMemory({ onEviction: 'start-over' })`.
 */
export class StorageEvictedError extends StorageError {
  override name = 'StorageEvictedError';
  /** When engram first stored the database that is gone (ms since epoch). */
  readonly since: number;
  constructor(message: string, since: number, options?: { cause?: unknown }) {
    super(message, options);
    this.since = since;
  }
}

/** The compute worker failed, died or did not answer in time. The next call restarts it. */
export class WorkerError extends EngramError {
  override name = 'WorkerError';
}

/**
 * A pluggable component (embedder, extractor, decider) failed or returned something unusable.
 * `status` is the HTTP status when the component is a model behind an HTTP endpoint (429, 500, …).
 */
export class PluginError extends EngramError {
  override name = 'PluginError';
  readonly status?: number;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    if (options?.status !== undefined) this.status = options.status;
  }
}

/** A model is not usable on this device: absent, or still to be downloaded (`availability` says which). */
export class ModelUnavailableError extends PluginError {
  override name = 'ModelUnavailableError';
  /** What the platform reported: `'unavailable'`, `'downloadable'`, `'downloading'`, or `'missing'` when the API itself is absent. */
  readonly availability: string;
  constructor(message: string, availability: string, options?: { cause?: unknown }) {
    super(message, options);
    this.availability = availability;
  }
}

/** The caller's AbortSignal fired. What completed before it stays stored; the rest can be resumed. */
export class AbortedError extends EngramError {
  override name = 'AbortedError';
}

/**
 * Stored memories were embedded by another embedder than the one this memory was opened with,
 * so their vectors cannot be compared with a query's. Nothing is lost: `memory.reembed()`
 * migrates them (or reopen with that embedder).
 */
export class EmbedderMismatchError extends EngramError {
  override name = 'EmbedderMismatchError';
}

/**
 * The database is encrypted at rest and the `encryptionKey` given does not open it (another key,
 * or none), or a key was given for a database written without one. Nothing was read or written:
 * the database is exactly as it was. Open it with the key it was created with.
 */
export class EncryptionKeyError extends EngramError {
  override name = 'EncryptionKeyError';
}

const ENGRAM_ERROR_NAMES = new Set([
  'EngramError',
  'ValidationError',
  'PermissionError',
  'NotFoundError',
  'ConflictError',
  'StorageError',
  'ClosedError',
  'QuotaError',
  'StorageEvictedError',
  'WorkerError',
  'PluginError',
  'ModelUnavailableError',
  'AbortedError',
  'EmbedderMismatchError',
  'EncryptionKeyError',
]);

/** True for any engram error, including one whose class was lost crossing the worker boundary. */
export function isEngramError(error: unknown): error is EngramError {
  return error instanceof EngramError || (error instanceof Error && ENGRAM_ERROR_NAMES.has(error.name));
}

/** Wraps an IndexedDB/Dexie failure into a typed engram error, keeping the cause. */
export function toStorageError(error: unknown, action: string): EngramError {
  if (isEngramError(error)) return error;
  const name = error instanceof Error ? error.name : '';
  const inner = error instanceof Error && 'inner' in error ? (error as { inner?: unknown }).inner : undefined;
  const innerName = inner instanceof Error ? inner.name : '';
  if (name === 'QuotaExceededError' || innerName === 'QuotaExceededError') {
    // Measured in Chromium at an exhausted quota: every transaction that puts a row fails, only
    // delete-only ones commit, and deleting data raises the usage it reports (its files shrink
    // only at compaction). forgetSource, forget and prune erase with deletes alone there
    // (store/full-disk.ts, forget/full-disk-erasure.ts).
    return new QuotaError(
      `${action} failed: the browser's storage quota for this origin is exhausted. Nothing was written. forgetSource, forget(id) and prune still work (they only delete then; what they must write follows with the user's next write once there is room), but every other write needs room, and data deleted frees room only once the browser compacts its files: free disk space on the device, or ask for persistent storage (memory.persist(); Firefox then allows more).`,
      { cause: error },
    );
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new StorageError(`${action} failed in IndexedDB (${detail}). Nothing was written; retry, or reopen with createMemory().`, {
    cause: error,
  });
}

/**
 * Calls a pluggable component (embedder, extractor, decider). Whatever it throws reaches the
 * caller as a PluginError naming the component, with the original as `cause`, so the three
 * fail alike; engram's own errors (a WorkerError from the built-in embedder) pass through.
 */
export async function callPlugin<T>(component: string, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toPluginError(component, error);
  }
}

/** What a pluggable component (or a value it returned, read) threw, as {@link callPlugin} reports it. */
export function toPluginError(component: string, error: unknown): EngramError {
  if (isEngramError(error)) return error;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new PluginError(`${component} threw (${detail}); nothing was written`, { cause: error });
}
