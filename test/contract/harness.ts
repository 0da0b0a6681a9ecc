/**
 * What a backend gives the contract suite, and memories opened over it. A backend under test
 * is a factory of fresh, empty stores; each test asks for as many as it needs (an equivalence
 * run wants two) and the suite tears every one down after the test.
 */
import type { Memory, MemoryOptions } from '../../src/index';
import type { StorageBackend } from '../../src/storage/contract';
import { createMemory } from '../../src/memory';
import { createSequentialIds, createTestClock } from '../helpers/memory';

/** One fresh, empty store of the backend under test. */
export interface ContractStore {
  /** What `createMemory({ storage })` opens; every open of it sees this one store. */
  storage: StorageBackend;
  /** The name memories open it with: unique per store (a database, a collection prefix). */
  name: string;
  /**
   * Everything the store holds, comparable with `toEqual`: the fault sweep requires it equal
   * before and after a failed write (unless the store shows the finished write instead).
   */
  snapshot(): Promise<unknown>;
  /**
   * Makes the `k`-th write the store makes from now on fail (k ≥ 1), with an error the store
   * reports as StorageError; `0` stops failing. Resets {@link ContractStore.writes}.
   */
  failWrite(k: number): void;
  /** Writes counted since the last {@link ContractStore.failWrite}. */
  readonly writes: number;
  /** Releases everything of the store (database, collections, server state). Called once, after the test. */
  teardown(): Promise<void>;
}

/**
 * Everything `store` holds as one text (vectors left out), for erasure canaries: a text the
 * user erased must not occur in it.
 */
export async function storedText(store: ContractStore): Promise<string> {
  return JSON.stringify(await store.snapshot(), (_key, value: unknown) => (ArrayBuffer.isView(value) ? null : value));
}

/** The backend under test: async, so a server-backed store can create what it needs. */
export type MakeStore = () => Promise<ContractStore>;

/** A memory under test with its clock; `close` closes it and everything opened for it. */
export interface OpenedMemory {
  memory: Memory;
  clock: ReturnType<typeof createTestClock>;
  close(): Promise<void>;
}

/** Opens a memory on a fresh store (the IndexedDB tests pass createTestMemory; the suite a backend). */
export type OpenMemory = (options?: MemoryOptions) => Promise<OpenedMemory>;

/** Memories over `store` with the tests' clock, sequential ids and in-process compute. */
export async function openOn(store: ContractStore, options: MemoryOptions = {}): Promise<OpenedMemory> {
  const clock = createTestClock();
  const memory = await createMemory({ worker: 'off', idGenerator: createSequentialIds(), clock, episodes: false, ...options, name: store.name, storage: store.storage });
  return { memory, clock, close: () => memory.close() };
}

/**
 * The stores one test made, torn down after it (memories first). `open` makes a store and a
 * memory on it; `store` only a store (for a second instance or a snapshot).
 */
export function createStores(makeStore: MakeStore) {
  const stores: ContractStore[] = [];
  const memories: OpenedMemory[] = [];
  async function store(): Promise<ContractStore> {
    const made = await makeStore();
    stores.push(made);
    return made;
  }
  return {
    store,
    async open(options?: MemoryOptions): Promise<OpenedMemory> {
      const opened = await openOn(await store(), options);
      memories.push(opened);
      return opened;
    },
    async on(target: ContractStore, options?: MemoryOptions): Promise<OpenedMemory> {
      const opened = await openOn(target, options);
      memories.push(opened);
      return opened;
    },
    async teardown(): Promise<void> {
      for (const opened of memories.splice(0)) await opened.close();
      for (const made of stores.splice(0)) await made.teardown();
    },
  };
}
