/**
 * Opening engram's storage on a Chroma server: the collections, any commit left behind by a
 * writer that died (finished or withdrawn before anything is read), and the two layers of the
 * contract over them. The lock namespace is the server, tenant, database and prefix, so every
 * instance on the same collections takes turns with the others in this realm; instances in
 * other processes meet at the intents (intents.ts). Erasures are announced on the
 * BroadcastChannel named after that namespace (storage/erasure-channel.ts).
 */
import { ClosedError } from 'engram';
import type { RecordStore, Storage, StorageBackend, StorageContext, VectorLayer } from '../../storage/contract';
import { openCollections, type ChromaConnection, type WriteFaults } from './collections';
import { createErasureChannel } from '../../storage/erasure-channel';
import { createCommit } from './commit';
import { recoverIntents, upgradeFormat, type IntentOptions } from './intents';
import { createRecordReads } from './records';
import { parseChromaOptions } from './options';
import { createSnapshots } from './snapshot';
import { createVectorLayer } from './vectors';

/** Test seams (never in the published options). */
export interface ChromaInternals {
  /** How long an intent may stay before another instance finishes it for a writer that died (ms); default 30 s. */
  leaseMs?: number;
  clock?: () => number;
  /** Overrides the lock namespace: two "processes" in one test. */
  lockName?: string;
  /** Makes a chosen write request fail (the contract suite's fault sweep). */
  faults?: WriteFaults;
  /** Most memory rows the instance holds (snapshot.ts); default 200,000. */
  maxHeldRows?: number;
}

export const DEFAULT_LEASE_MS = 30_000;

/** `createChromaStorage` with test seams (lease, clock, lock namespace, write faults); internal. */
export function createChromaStorageWith(options: unknown, internals: ChromaInternals): StorageBackend {
  const connection = parseChromaOptions(options);
  return {
    open(context) {
      const collectionPrefix = connection.collectionPrefix ?? `${context.name.replace(/[^a-zA-Z0-9._-]/g, '_')}_`;
      return openChromaStorage({ ...connection, collectionPrefix }, context, internals);
    },
  };
}

/** `connection` is already validated; `collectionPrefix` is set. */
export async function openChromaStorage(connection: ChromaConnection & { collectionPrefix: string }, context: StorageContext, internals: ChromaInternals = {}): Promise<Storage> {
  const collections = await openCollections(connection, internals.faults);
  const intents: IntentOptions = { leaseMs: internals.leaseMs ?? DEFAULT_LEASE_MS, clock: internals.clock ?? Date.now };
  try {
    await upgradeFormat(collections);
    await recoverIntents(collections, intents);
  } catch (error) {
    throw collections.fail('finishing commits left behind', error);
  }
  const { tenant = 'default_tenant', database = 'default_database' } = connection;
  const lockName = internals.lockName ?? `chroma:${collections.url}/${tenant}/${database}/${connection.collectionPrefix}`;
  // Erasures are told to the other instances in this realm over the same collections (docs/chroma.md).
  const erasures = createErasureChannel(lockName);
  const quarantined = new Set<string>();
  const snapshots = createSnapshots(collections, intents, context.embedder.id, quarantined, internals.maxHeldRows);
  const records: RecordStore = { quarantined, ...createRecordReads(collections, intents, quarantined, snapshots), commit: createCommit(collections, intents, snapshots, erasures.announce) };
  const vectors = createVectorLayer(snapshots, context.embedder.id, context.embedder.dim);
  let closed = false;
  const isClosed = () => closed;
  return {
    lockName,
    records: guardClosed(records, isClosed),
    vectors: guardClosed(vectors, isClosed),
    watchErasures: erasures.listen,
    async close() {
      closed = true;
      erasures.close();
      snapshots.clear();
    },
  };
}

/** `target` whose methods reject with ClosedError once `isClosed()` (`quarantined` and other fields pass through). */
function guardClosed<T extends RecordStore | VectorLayer>(target: T, isClosed: () => boolean): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function') {
      guarded[name] = value;
      continue;
    }
    const call = value as (...args: unknown[]) => unknown;
    guarded[name] = (...args: unknown[]) => {
      if (isClosed()) {
        const error = new ClosedError(`the Chroma storage was closed before ${name}() was called; open it again with createMemory({ storage })`);
        if (name === 'foreignRows') throw error;
        return Promise.reject(error);
      }
      return call(...args);
    };
  }
  return guarded as T;
}
