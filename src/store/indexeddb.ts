/**
 * The default storage backend: records in IndexedDB through Dexie (database.ts, store.ts) and
 * vectors in the compute's matrices, loaded from packed snapshots in the same database
 * (vector-index.ts). The only place the three are put together.
 */
import type { Dexie } from 'dexie';
import { toStorageError, WorkerError } from '../errors';
import type { Storage, StorageBackend, StorageContext } from '../storage/contract';
import { defaultNoteStore, type EvictionPolicy, type NoteStore } from '../durability/eviction';
import { guardEviction } from './eviction';
import { EngramDatabase, type DatabaseOptions } from './database';
import { finishUpgrades } from './unfinished-upgrades';
import { watchPartitions } from './watch';
import { createErasureChannel } from '../storage/erasure-channel';
import { checkSealing, installSealing } from './sealing';
import { createStore, type Store } from './store';
import { createVectorIndex, type VectorIndex, type VectorIndexDeps } from './vector-index';
import { slicedRequests } from './sliced-requests';

/** The IndexedDB storage with its concrete layers (tests and benchmarks reach into them). */
export interface IndexedDbStorage extends Storage {
  readonly records: Store;
  readonly vectors: VectorIndex;
}

/** Test seams of the IndexedDB backend; internal (the published `createMemory` never takes them). */
export interface IndexedDbInternals {
  /** Receives the Dexie database before it opens, so a test can install DBCore middleware (`db.use(...)`) to inject write faults. */
  onDatabase?: ((db: Dexie) => void) | undefined;
  /** Where the eviction note is kept (store/eviction.ts); default localStorage where there is one. */
  notes?: NoteStore | undefined;
  /** Records the record cache holds at most (record-cache.ts RECORD_CACHE_LIMIT); 0 turns it and its fill off. */
  recordCache?: number | undefined;
  /** Receives the storage once it is open (benchmarks await its background work: `vectors.settled()`). */
  onOpened?: ((storage: IndexedDbStorage) => void) | undefined;
}

/** What the built-in backend is made with: engram's own compute (its vector layer's matrices) and `createMemory`'s IndexedDB options. */
export interface IndexedDbOptions extends IndexedDbInternals, DatabaseOptions {
  compute: VectorIndexDeps['compute'];
  /** `createMemory({ onEviction })`: what opening does with a database the browser evicted. Default `'reject'`. */
  onEviction?: EvictionPolicy | undefined;
  /** `createMemory({ encryptionKey })`: encrypt at rest with it (sealing.ts). */
  encryptionKey?: CryptoKey | undefined;
}

/**
 * The storage over an already constructed database, not yet opened (Dexie opens on first use).
 * `embedder` also makes the records layer quarantine rows that claim it with a vector of another length.
 */
export function createIndexedDbStorage(db: EngramDatabase, context: Pick<VectorIndexDeps, 'embedder' | 'compute'>, recordCache?: number): IndexedDbStorage {
  const erasures = createErasureChannel(db.name);
  const records = createStore(db, context.embedder, recordCache, erasures.announce);
  const vectors = createVectorIndex({ db, store: records, compute: context.compute, embedder: context.embedder });
  let closed = false;
  db.on('close', () => {
    // Another tab deleted or upgraded the database: Dexie closed this connection and reopens
    // on the next call, possibly onto a new, empty database whose versions restart. Matrices
    // loaded from the old one must not survive that (a restarted version could match theirs).
    // A WorkerError here needs nothing more: a restarted worker holds no matrices at all.
    if (!closed) {
      records.forgetCaches();
      void vectors.reset().catch((error: unknown) => {
        if (!(error instanceof WorkerError)) throw error;
      });
    }
  });
  return {
    lockName: db.name,
    records,
    vectors,
    watch: (partitions, onChange) => watchPartitions(db, partitions, onChange),
    watchErasures: erasures.listen,
    async close() {
      closed = true;
      erasures.close();
      db.close();
    },
  };
}

/**
 * IndexedDB storage (`createMemory`'s default): the database `context.name`, opened before it
 * resolves. Compute and the IndexedDB factory are given here, not in the context: only
 * engram's own backend scans in engram's worker, and the context stays backend-neutral.
 */
export function indexedDbStorage({ compute, onDatabase, notes, recordCache, onOpened, onEviction, encryptionKey, ...database }: IndexedDbOptions): StorageBackend {
  return {
    async open(context: StorageContext): Promise<IndexedDbStorage> {
      const db = new EngramDatabase(context.name, database);
      // Large batches in slices, so an import does not hold the main thread for seconds (sliced-requests.ts).
      db.use(slicedRequests);
      if (encryptionKey) installSealing(db, encryptionKey);
      onDatabase?.(db);
      const storage = createIndexedDbStorage(db, { embedder: context.embedder, compute }, recordCache);
      await db.open().catch((error: unknown) => {
        throw toStorageError(error, `opening the IndexedDB database '${db.name}'`);
      });
      const failed =
        (action: string) =>
        (error: unknown): never => {
          db.close();
          throw toStorageError(error, `${action} the IndexedDB database '${db.name}'`);
        };
      // A wrong, missing or extra key is refused first, before anything is written.
      await checkSealing(db).catch(failed('checking the encryption key of'));
      await finishUpgrades(db).catch(failed('finishing the upgrade of'));
      const guard = await guardEviction(db, notes === undefined ? defaultNoteStore() : notes, onEviction ?? 'reject').catch(failed('checking'));
      const opened = { ...storage, check: guard.check };
      onOpened?.(opened);
      return opened;
    },
  };
}
