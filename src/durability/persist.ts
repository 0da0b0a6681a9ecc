/**
 * Asking the browser to keep the data: `navigator.storage.persist()` and `estimate()`. Without
 * persistence, an origin's storage is "best effort" and may be evicted under storage pressure
 * (eviction.ts notices when that happened). Where the Storage API is missing (Node, an old
 * WebView), both report `supported: false` rather than failing.
 */
import { toStorageError } from '../errors';

/** What `memory.persist()` reports. */
export interface PersistResult {
  /** Whether this environment has `navigator.storage.persist`. */
  supported: boolean;
  /** Whether the origin's storage is now persistent (the browser's answer; false when unsupported). */
  persisted: boolean;
}

/** What `memory.storageEstimate()` reports; the numbers are the browser's, for the whole origin. */
export interface StorageEstimateResult {
  supported: boolean;
  /** Bytes the origin uses (null when unsupported). */
  usage: number | null;
  /** Bytes the origin may use before writes fail with QuotaError (null when unsupported). */
  quota: number | null;
  /** Whether storage is persistent (null when the browser cannot say). */
  persisted: boolean | null;
}

type StorageManagerLike = Partial<Pick<StorageManager, 'persist' | 'persisted' | 'estimate'>>;

function storageManager(): StorageManagerLike | undefined {
  return (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
}

/** Asks for persistent storage; the browser may grant it silently, ask the user, or refuse. */
export async function persistStorage(): Promise<PersistResult> {
  const storage = storageManager();
  if (typeof storage?.persist !== 'function') return { supported: false, persisted: false };
  try {
    return { supported: true, persisted: await storage.persist() };
  } catch (error) {
    throw toStorageError(error, 'asking for persistent storage (navigator.storage.persist)');
  }
}

/** The origin's usage and quota, and whether it is persistent. */
export async function estimateStorage(): Promise<StorageEstimateResult> {
  const storage = storageManager();
  if (typeof storage?.estimate !== 'function') return { supported: false, usage: null, quota: null, persisted: null };
  try {
    const [estimate, persisted] = await Promise.all([storage.estimate(), typeof storage.persisted === 'function' ? storage.persisted() : Promise.resolve(null)]);
    return { supported: true, usage: estimate.usage ?? null, quota: estimate.quota ?? null, persisted };
  } catch (error) {
    throw toStorageError(error, 'estimating storage (navigator.storage.estimate)');
  }
}
