/**
 * createMemory(): the composition root, and nothing but wiring. It reads in four steps:
 *
 * 1. parse the options (memory-options.ts) and start compute (worker/client.ts) and the
 *    embedder;
 * 2. open the storage: the records layer and the vector layer over it (one block below, the
 *    only place that knows the backend; the IndexedDB backend, Dexie with it, is a chunk of its
 *    own that this step loads);
 * 3. build the deps record (verbs/deps.ts): storage, compute, embedder, extractor, the
 *    consolidation policy, the checked clock and ids;
 * 4. hand each public verb to its own module in verbs/ (ingest.ts, remember.ts, retrieve.ts,
 *    forget.ts, …), which parses its arguments at the edge and runs its stage with the deps. The
 *    write verbs (verbs/writes.ts) and those called now and then (verbs/occasional.ts: erasure,
 *    undo, prune, re-embedding, export/import) are chunks of their own (verbs/load.ts), so
 *    starting engram loads less code.
 *
 * A newcomer who wants to know what `ingest` does reads verbs/ingest.ts, not this file.
 */
import { checkEmbedder } from './embed/checked-embedder';
import { cachingEmbedder, type CachingEmbedder } from './embed/embedding-cache';
import { computeHashEmbedder } from './embed/hash-embedder';
import { resolveEmbedder } from './embed/model-embedder';
import type { Embedder } from './embed/embedder';
import { guardClosed, writesInFlight } from './closed';
import { ClosedError, StorageError } from './errors';
import { parseMemoryOptions, type ParsedMemoryOptions } from './memory-options';
import { parseOwner } from './options';
import type { Storage } from './storage/contract';
import { createComputeClient, type ComputeClient } from './worker/client';
import { createDeps, followErasures } from './verbs/deps';
import { finishErasuresWith } from './storage/write-owner';
import { occasionalVerbs, once, writeVerbs } from './verbs/load';
import { get, history, list, locate } from './verbs/inspect';
import { LOCATE, REPLACE_ONLY, RETRIEVE_UNFLOORED, type ReplaceOnly, type RetrieveUnfloored } from './facade-access';
import { assemble, inject, retrieve } from './verbs/retrieve';
import type { NoteStore } from './durability/eviction';
import { checkedForEviction } from './durability/eviction-check';
import { estimateStorage, persistStorage } from './durability/persist';
import { createSubscriptions, subscribe } from './durability/subscribe';
import type { Dexie } from 'dexie';
import type { Memory, MemoryOptions } from './memory-api';

export type { Memory, MemoryOptions } from './memory-api';

/**
 * Test seams, kept out of the published types: index.ts exports `createMemory`, never
 * `openMemory`, so nothing here reaches a user's autocompletion.
 */
export interface MemoryInternals {
  /** Receives the Dexie database before it opens, so a test can install DBCore middleware (`db.use(...)`) to inject write faults. */
  onDatabase?: (db: Dexie) => void;
  /** Where the IndexedDB backend keeps its eviction note (store/eviction.ts); default localStorage where there is one. */
  notes?: NoteStore;
  /** Records the IndexedDB backend's record cache holds at most (store/record-cache.ts); 0 turns the cache and its fill off. */
  recordCache?: number;
  /** Receives the IndexedDB backend's storage once open (benchmarks await `vectors.settled()`: its snapshot writes, the record cache's fill). */
  onOpened?: (storage: { vectors: { settled(): Promise<void> } }) => void;
  /** Receives the embedder the verbs use, behind its cache of recent texts (embed/embedding-cache.ts): a bench empties the cache before a timed call. */
  onEmbedder?: (embedder: CachingEmbedder) => void;
  /** Starts the compute worker (default: the bundled module): a test wraps the real one to hold back its answers. */
  createWorker?: () => Worker;
}

/**
 * Opens (or creates) the memory store and starts its compute.
 * @throws ValidationError for an unknown option or a bad value (the message lists the valid
 * ones), StorageError when there is no IndexedDB (under Node: pass fake-indexeddb's
 * `IDBFactory` and `IDBKeyRange`) or it cannot be opened, or when the IndexedDB backend's
 * chunk cannot be loaded (a network error).
 */
export function createMemory(memoryOptions?: MemoryOptions): Promise<Memory> {
  return openMemory(memoryOptions, {});
}

/** The embedder a memory runs with, checked, behind its cache of recent texts; compute is released if it cannot be had. */
async function openEmbedder(given: Embedder | undefined, compute: ComputeClient): Promise<CachingEmbedder> {
  try {
    // The built-in embedder is handed each call's owner key (compute's token cache is per owner); a plugin never is.
    return given === undefined ? cachingEmbedder(checkEmbedder(computeHashEmbedder(compute), true)) : cachingEmbedder(checkEmbedder(await resolveEmbedder(given, compute)));
  } catch (error) {
    compute.close();
    throw error;
  }
}

function computeOptions(options: ParsedMemoryOptions, createWorker: MemoryInternals['createWorker']): Parameters<typeof createComputeClient>[0] {
  return {
    ...(options.worker !== undefined ? { worker: options.worker } : {}),
    ...(options.workerTimeoutMs !== undefined ? { timeoutMs: options.workerTimeoutMs } : {}),
    ...(options.semantic !== undefined ? { semantic: options.semantic } : {}),
    ...(createWorker !== undefined ? { createWorker } : {}),
  };
}

type IndexedDbModule = typeof import('./store/indexeddb');

/**
 * The IndexedDB backend (Dexie, the records layer, the vector packs: store/indexeddb.ts), a
 * chunk of its own: a memory on another backend (`storage`) never loads it, and the page's
 * first chunk is smaller. `openMemory` starts the load at once, beside the embedder; a failed
 * load is tried again by the next `createMemory` (where the browser refetches a module that
 * failed: Firefox and WebKit do, Chromium only after a reload, whatwg/html#10327).
 */
const indexedDbModule: () => Promise<IndexedDbModule> = once(() => import('./store/indexeddb'));

/** The IndexedDB backend's module, or a StorageError saying its chunk could not be loaded. */
async function loadIndexedDb(loading: Promise<IndexedDbModule>): Promise<IndexedDbModule> {
  try {
    return await loading;
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StorageError(`loading engram's IndexedDB backend failed (${detail}). Nothing was opened; call createMemory() again, or reload the page (Chromium loads a module that failed once only after a reload).`, { cause: error });
  }
}

/**
 * ── Storage ── the backend the options name, IndexedDB (Dexie records, the worker's vector
 * index) by default: the only place that chooses one. The verbs see the storage contract.
 * `indexedDb` is the backend's module, being loaded when no other backend is named.
 */
async function openStorage(options: ParsedMemoryOptions, internals: MemoryInternals, context: { compute: ComputeClient; embedder: Embedder; indexedDb: Promise<IndexedDbModule> | undefined }): Promise<Storage> {
  try {
    const backend =
      options.storage ??
      (await loadIndexedDb(context.indexedDb ?? indexedDbModule())).indexedDbStorage({
        compute: context.compute,
        indexedDB: options.indexedDB,
        IDBKeyRange: options.IDBKeyRange,
        onEviction: options.onEviction,
        encryptionKey: options.encryptionKey,
        ...internals,
      });
    return await backend.open({ name: options.name ?? 'engram', embedder: context.embedder });
  } catch (error) {
    context.compute.close();
    throw error;
  }
}

/** `createMemory` with test seams; internal (not exported from index.ts). */
export async function openMemory(memoryOptions: MemoryOptions | undefined, { onEmbedder, createWorker, ...internals }: MemoryInternals): Promise<Memory> {
  const options = parseMemoryOptions(memoryOptions);
  // Fetched while the embedder resolves; awaited (and its failure reported) in openStorage.
  const indexedDb = options.storage === undefined ? indexedDbModule() : undefined;
  indexedDb?.catch(() => {});
  const compute = createComputeClient(computeOptions(options, createWorker));
  // The IndexedDB backend scans in this compute: its worker starts and takes the semantic table
  // while the database opens, instead of after it, at the first retrieve (docs/perf.md).
  if (options.storage === undefined) void compute.start();
  const embedder = await openEmbedder(options.embedder, compute);
  onEmbedder?.(embedder);
  let closed = false;
  let closing: Promise<void> | undefined;
  const writes = writesInFlight();
  const storage = await openStorage(options, internals, { compute, embedder, indexedDb });
  const deps = createDeps(options, { storage, compute, embedder });
  const stopFollowingErasures = followErasures(deps);
  // An erasure made on a full disk is finished by the owner's next write (storage/write-owner.ts).
  finishErasuresWith(storage, async (owner, write) => (await occasionalVerbs()).finishErasure(deps, owner, write));
  const subscriptions = createSubscriptions(storage);
  const memory: Memory = {
    computeLocation: compute.location,
    ingest: async (messages, options) => (await writeVerbs()).ingest(deps, messages, options),
    remember: async (fact, options) => (await writeVerbs()).remember(deps, fact, options),
    summarizeSession: async (messages, options) => (await writeVerbs()).summarizeSession(deps, messages, options),
    retrieve: (query, options) => retrieve(deps, query, options),
    explain: async (query, options) => (await occasionalVerbs()).explain(deps, query, options),
    inject: (system, retrieved) => inject(deps, system, retrieved),
    assemble: (system, retrieved, options) => assemble(deps, system, retrieved, options),
    forgetSource: async (sourceId, options) => (await occasionalVerbs()).forgetSource(deps, sourceId, options),
    prune: async (options) => (await occasionalVerbs()).prune(deps, options),
    undo: async (operation, owner) => (await occasionalVerbs()).undo(deps, operation, owner),
    forget: async (id, owner) => (await occasionalVerbs()).forget(deps, id, owner),
    correct: async (id, content, owner) => (await occasionalVerbs()).correct(deps, id, content, owner),
    pin: async (id, owner) => (await occasionalVerbs()).pin(deps, id, owner, true),
    unpin: async (id, owner) => (await occasionalVerbs()).pin(deps, id, owner, false),
    why: async (id, owner) => (await occasionalVerbs()).why(deps, id, owner),
    pending: async (owner) => (await occasionalVerbs()).pending(deps, owner),
    approve: async (id, owner) => (await occasionalVerbs()).approve(deps, id, owner),
    reject: async (id, owner) => (await occasionalVerbs()).reject(deps, id, owner),
    list: (options) => list(deps, options),
    get: (id, owner) => get(deps, id, owner),
    history: (id, owner) => history(deps, id, owner),
    reembed: async (options) => (await occasionalVerbs()).reembed(deps, options),
    export: async (options) => (await occasionalVerbs()).exportOwner(storage.records, parseOwner(options), deps.clock()),
    import: async (data) => (await occasionalVerbs()).importOwner(deps, data),
    subscribe: (options, listener) => subscribe(subscriptions, options, listener),
    persist: persistStorage,
    storageEstimate: estimateStorage,
    close() {
      // New calls are refused at once; the writes in flight finish (and notify) before the store closes.
      closed = true;
      closing ??= (async () => {
        await writes.drain();
        stopFollowingErasures();
        subscriptions.clear();
        compute.close();
        await storage.close();
      })();
      return closing;
    },
  };
  // Off the public type: engram/mem0's id-only calls (facade-access.ts). Spread along with the wrappers below.
  const replaceOnly: ReplaceOnly = (fact, options) => {
    if (closed) return Promise.reject(new ClosedError('memory.remember was called after close(): this memory is closed.'));
    return writes.run(async () => (await writeVerbs()).remember(deps, fact, options, true));
  };
  const retrieveUnfloored: RetrieveUnfloored = (query, options) => (closed ? Promise.reject(new ClosedError('memory.retrieve was called after close(): this memory is closed.')) : retrieve(deps, query, options, false));
  Object.assign(memory, {
    [LOCATE]: (id: string) => (closed ? Promise.reject(new ClosedError('memory.locate was called after close(): this memory is closed.')) : locate(deps, id)),
    [REPLACE_ONLY]: replaceOnly,
    [RETRIEVE_UNFLOORED]: retrieveUnfloored,
  });
  const guarded = guardClosed(checkedForEviction(memory, storage), () => closed, writes);
  // The write path's chunk, fetched now so the first ingest does not wait for it (a failed load is retried there).
  writeVerbs().catch(() => {});
  if (options.reembed === 'auto') {
    // Memories an erasure stored without a vector wait for the owner's next retrieve or write:
    // an embedder offline for them alone must not keep the memory from opening.
    await writes
      .run(async () => (await occasionalVerbs()).reembed(deps, undefined, { skipPending: true }))
      .catch(async (error: unknown) => {
        await guarded.close();
        throw error;
      });
  }
  return guarded;
}
