/**
 * createMemory(): the composition root, and nothing but wiring. It reads in four steps:
 *
 * 1. parse the options (memory-options.ts) and start compute (worker/client.ts) and the
 *    embedder;
 * 2. open the storage: the records layer and the vector layer over it (one block below, the
 *    only place that knows the backend);
 * 3. build the deps record (verbs/deps.ts): storage, compute, embedder, extractor, the
 *    consolidation policy, the checked clock and ids;
 * 4. hand each public verb to its own module in verbs/ (ingest.ts, remember.ts, retrieve.ts,
 *    forget.ts, …), which parses its arguments at the edge and runs its stage with the deps.
 *
 * A newcomer who wants to know what `ingest` does reads verbs/ingest.ts, not this file.
 */
import { checkEmbedder } from './embed/checked-embedder';
import { computeHashEmbedder } from './embed/hash-embedder';
import { resolveEmbedder } from './embed/model-embedder';
import type { Embedder } from './embed/embedder';
import { guardClosed } from './closed';
import { ClosedError } from './errors';
import { parseMemoryOptions, type ParsedMemoryOptions } from './memory-options';
import { parseOwner } from './options';
import type { Storage } from './storage/contract';
import { indexedDbStorage } from './store/indexeddb';
import { createComputeClient, type ComputeClient } from './worker/client';
import { createDeps } from './verbs/deps';
import { forgetSource } from './verbs/forget';
import { forget } from './verbs/forget-memory';
import { correct, pin, why } from './verbs/control';
import { ingest } from './verbs/ingest';
import { get, history, list, locate } from './verbs/inspect';
import { LOCATE } from './facade-access';
import { prune } from './verbs/prune';
import { reembed } from './verbs/reembed';
import { remember } from './verbs/remember';
import { assemble, inject, retrieve } from './verbs/retrieve';
import { summarizeSession } from './verbs/summarize';
import { undo } from './verbs/undo';
import { approve, pending, reject } from './verbs/review';
import { explain } from './verbs/explain';
import type { NoteStore } from './durability/eviction';
import { checkedForEviction } from './durability/eviction-check';
import { estimateStorage, persistStorage } from './durability/persist';
import { createSubscriptions, subscribe } from './durability/subscribe';
import { exportOwner } from './transfer/export';
import { importOwner } from './transfer/import';
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
  /** Where the IndexedDB backend keeps its eviction note (durability/eviction.ts); default localStorage where there is one. */
  notes?: NoteStore;
}

/**
 * Opens (or creates) the memory store and starts its compute.
 * @throws ValidationError for an unknown option or a bad value (the message lists the valid
 * ones), StorageError when there is no IndexedDB (under Node: pass fake-indexeddb's
 * `IDBFactory` and `IDBKeyRange`) or it cannot be opened.
 */
export function createMemory(memoryOptions?: MemoryOptions): Promise<Memory> {
  return openMemory(memoryOptions, {});
}

/** The embedder a memory runs with, checked; compute is released if it cannot be had. */
async function openEmbedder(given: Embedder, compute: ComputeClient): Promise<Embedder> {
  try {
    return checkEmbedder(await resolveEmbedder(given, compute));
  } catch (error) {
    compute.close();
    throw error;
  }
}

function computeOptions(options: ParsedMemoryOptions): Parameters<typeof createComputeClient>[0] {
  return {
    ...(options.worker !== undefined ? { worker: options.worker } : {}),
    ...(options.workerTimeoutMs !== undefined ? { timeoutMs: options.workerTimeoutMs } : {}),
  };
}

/**
 * ── Storage ── the backend the options name, IndexedDB (Dexie records, the worker's vector
 * index) by default: the only place that chooses one. The verbs see the storage contract.
 */
async function openStorage(options: ParsedMemoryOptions, internals: MemoryInternals, context: { compute: ComputeClient; embedder: Embedder }): Promise<Storage> {
  const backend = options.storage ?? indexedDbStorage({ compute: context.compute, indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange, onEviction: options.onEviction, encryptionKey: options.encryptionKey, ...internals });
  try {
    return await backend.open({ name: options.name ?? 'engram', embedder: context.embedder });
  } catch (error) {
    context.compute.close();
    throw error;
  }
}

/** `createMemory` with test seams; internal (not exported from index.ts). */
export async function openMemory(memoryOptions: MemoryOptions | undefined, internals: MemoryInternals): Promise<Memory> {
  const options = parseMemoryOptions(memoryOptions);
  const compute = createComputeClient(computeOptions(options));
  const embedder = await openEmbedder(options.embedder ?? computeHashEmbedder(compute), compute);
  let closed = false;
  const storage = await openStorage(options, internals, { compute, embedder });
  const deps = createDeps(options, { storage, compute, embedder });
  const subscriptions = createSubscriptions(storage);
  const memory: Memory = {
    computeLocation: compute.location,
    ingest: (messages, options) => ingest(deps, messages, options),
    remember: (fact, options) => remember(deps, fact, options),
    summarizeSession: (messages, options) => summarizeSession(deps, messages, options),
    retrieve: (query, options) => retrieve(deps, query, options),
    explain: (query, options) => explain(deps, query, options),
    inject: (system, retrieved) => inject(deps, system, retrieved),
    assemble: (system, retrieved, options) => assemble(deps, system, retrieved, options),
    forgetSource: (sourceId, options) => forgetSource(deps, sourceId, options),
    forget: (id, owner) => forget(deps, id, owner),
    correct: (id, content, owner) => correct(deps, id, content, owner),
    pin: (id, owner) => pin(deps, id, owner, true),
    unpin: (id, owner) => pin(deps, id, owner, false),
    why: (id, owner) => why(deps, id, owner),
    prune: (options) => prune(deps, options),
    undo: (operation, owner) => undo(deps, operation, owner),
    pending: (owner) => pending(deps, owner),
    approve: (id, owner) => approve(deps, id, owner),
    reject: (id, owner) => reject(deps, id, owner),
    list: (options) => list(deps, options),
    get: (id, owner) => get(deps, id, owner),
    history: (id, owner) => history(deps, id, owner),
    reembed: (options) => reembed(deps, options),
    export: async (options) => exportOwner(storage.records, parseOwner(options), deps.clock()),
    import: (data) => importOwner(deps, data),
    subscribe: (options, listener) => subscribe(subscriptions, options, listener),
    persist: persistStorage,
    storageEstimate: estimateStorage,
    async close() {
      if (closed) return;
      closed = true;
      subscriptions.clear();
      compute.close();
      await storage.close();
    },
  };
  // Off the public type: engram/mem0's id-only calls (facade-access.ts). Spread along with the wrappers below.
  Object.assign(memory, { [LOCATE]: (id: string) => (closed ? Promise.reject(new ClosedError('memory.locate was called after close(): this memory is closed.')) : locate(deps, id)) });
  const guarded = guardClosed(checkedForEviction(memory, storage), () => closed);
  if (options.reembed === 'auto') {
    await guarded.reembed().catch(async (error: unknown) => {
      await guarded.close();
      throw error;
    });
  }
  return guarded;
}
