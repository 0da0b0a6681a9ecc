/**
 * The IndexedDB backend as the contract suite's store (test/contract/harness.ts), and the
 * fault tools the IndexedDB fault sweep uses directly: a Dexie DBCore middleware that fails the
 * k-th mutation, and a snapshot of every table a commit writes.
 */
import type { DBCore, DBCoreMutateRequest, DBCoreTable, Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { EngramDatabase } from '../../src/store/database';
import { indexedDbStorage } from '../../src/store/indexeddb';
import { createComputeClient } from '../../src/worker/client';
import type { ContractStore } from '../contract/harness';
import { renamerByContent } from './facts';
import { STORE_MARKER_KEY } from '../../src/store/eviction';

export interface Faults {
  /** Mutations seen since armed. */
  count: number;
  /** Reject the mutation with this number (1-based); 0: never. */
  failAt: number;
}

/**
 * Installs a DBCore middleware that replaces some methods of every table (`wrap` gets the table's
 * name and the layer below). `level`: where it sits (Dexie's default 10; below engram's request
 * slicing, store/sliced-requests.ts, a negative one sees the calls as they reach IndexedDB).
 */
export function wrapTables(db: Dexie, name: string, wrap: (table: string, down: DBCoreTable) => Partial<DBCoreTable>, level?: number): void {
  db.use({
    stack: 'dbcore',
    name,
    ...(level !== undefined ? { level } : {}),
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (table: string) => {
        const below = down.table(table);
        return { ...below, ...wrap(table, below) };
      },
    }),
  });
}

export function installFaults(faults: Faults) {
  return (db: Dexie) =>
    wrapTables(db, 'fault-injection', (_name, table) => ({
      mutate: (request: DBCoreMutateRequest) => (++faults.count === faults.failAt ? Promise.reject(new Error('injected')) : table.mutate(request)),
    }));
}

/** Every row of every table a commit writes, vectors as plain arrays so deep equality compares values. */
export async function snapshot(db: EngramDatabase) {
  const memories = (await db.memories.toArray()).map((row) => ({ ...row, embedding: [...row.embedding] }));
  return {
    memories: memories.sort((a, b) => (a.id < b.id ? -1 : 1)),
    inputs: await db.inputs.toArray(),
    partitions: await db.partitions.toArray(),
    // Sources and history live beside the rows since schema v4: all or nothing with them.
    lineage: await db.lineage.toArray(),
    events: await db.events.toArray(),
  };
}
export type Snapshot = Awaited<ReturnType<typeof snapshot>>;

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/** The snapshot with ids replaced by content (unique in the seed) and auto-increment keys dropped. */
export function normalise(state: Snapshot) {
  const { rename, entry } = renamerByContent(state.memories);
  return {
    memories: state.memories
      .map((row) => ({
        ...row,
        id: rename(row.id),
        ...(row.chain !== undefined ? { chain: rename(row.chain) } : {}),
        ...(row.supersededBy !== undefined ? { supersededBy: rename(row.supersededBy) } : {}),
        history: row.history.map(entry),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
    inputs: state.inputs.map(({ seq: _seq, ...row }) => row),
    // The store marker (eviction.ts) is a random id per database: not part of the state compared.
    partitions: state.partitions.filter((row) => row.key !== STORE_MARKER_KEY),
    lineage: state.lineage.map((row) => ({ ...row, memoryId: rename(row.memoryId), chain: rename(row.chain) })).sort(byJson),
    events: state.events.map((row) => ({ ...row, memoryId: rename(row.memoryId), entry: entry(row.entry) })).sort(byJson),
  };
}

let counter = 0;

/** A fresh fake-indexeddb store; the fault middleware sits on every connection a memory opens. */
export async function createIndexedDbStore(): Promise<ContractStore> {
  const factory = new IDBFactory();
  const name = `engram-contract-${++counter}`;
  const faults: Faults = { count: 0, failAt: 0 };
  // Its own in-process compute for the vector layer (a backend is made before any memory).
  const compute = createComputeClient({ worker: 'off' });
  const backend = indexedDbStorage({ compute, indexedDB: factory, IDBKeyRange, onDatabase: installFaults(faults) });
  return {
    storage: backend,
    name,
    async snapshot() {
      const db = new EngramDatabase(name, { indexedDB: factory, IDBKeyRange });
      try {
        return await snapshot(db);
      } finally {
        db.close();
      }
    },
    failWrite(k) {
      faults.count = 0;
      faults.failAt = k;
    },
    get writes() {
      return faults.count;
    },
    // Its own IDBFactory: nothing else outlives the test once the memories are closed.
    teardown: async () => compute.close(),
  };
}
