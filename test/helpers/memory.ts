/**
 * Test helpers: a fresh fake-indexeddb database per memory, an injectable clock and
 * deterministic ids. Nothing global is patched.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Memory, MemoryOptions } from '../../src/index';
import { openMemory, type MemoryInternals } from '../../src/memory';
import type { OpenMemory } from '../contract/harness';

export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 0, 1);

/** A clock tests move by hand: `clock.advance(180 * DAY)`. */
export function createTestClock(start = T0) {
  let now = start;
  const clock = () => now;
  return Object.assign(clock, {
    set: (value: number) => void (now = value),
    advance: (ms: number) => void (now += ms),
  });
}

/** Ids `mem_0001`, `mem_0002`, … so tests can name records. */
export function createSequentialIds(prefix = 'mem_') {
  let next = 0;
  return () => `${prefix}${String(++next).padStart(4, '0')}`;
}

/**
 * Ids that sometimes repeat one already handed out (to this or another instance sharing `pool`):
 * a generator that collides, for the invariant-9 runs. Deterministic for a given `seed`.
 */
export function createRepeatingIds(prefix: string, pool: string[], seed: number, repeatRate = 0.25) {
  let state = seed >>> 0 || 1;
  let next = 0;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return () => {
    if (pool.length && random() < repeatRate) return pool[Math.floor(random() * pool.length)]!;
    const id = `${prefix}${String(++next).padStart(4, '0')}`;
    pool.push(id);
    return id;
  };
}

export interface TestMemory {
  memory: Memory;
  clock: ReturnType<typeof createTestClock>;
  factory: IDBFactory;
  name: string;
}

let counter = 0;

/** The public options plus the internal test seams (`onDatabase`), which only `openMemory` takes. */
export type TestMemoryOptions = MemoryOptions & MemoryInternals;

/**
 * A memory on its own fresh database (in-process compute unless `worker` is given). Episodes are
 * off unless a test asks for them (`episodes: true`): a test of another stage asserts the facts
 * its messages yield, and the episode suites (test/episode/, the erasure and equivalence tests,
 * the corpora, the contract suite) turn them on.
 */
export async function createTestMemory({ onDatabase, notes, recordCache, onEmbedder, ...options }: TestMemoryOptions = {}): Promise<TestMemory> {
  const clock = createTestClock();
  const factory = (options.indexedDB as IDBFactory | undefined) ?? new IDBFactory();
  const name = options.name ?? `engram-test-${++counter}`;
  const memory = await openMemory(
    {
      worker: 'off',
      idGenerator: createSequentialIds(),
      clock,
      episodes: false,
      ...options,
      name,
      indexedDB: factory,
      IDBKeyRange,
    },
    { ...(onDatabase ? { onDatabase } : {}), ...(notes ? { notes } : {}), ...(recordCache !== undefined ? { recordCache } : {}), ...(onEmbedder ? { onEmbedder } : {}) },
  );
  return { memory, clock, factory, name };
}

/** {@link createTestMemory} in the contract suite's shape (test/contract/harness.ts), for the IndexedDB runs of its bodies. */
export const openTestMemory: OpenMemory = async (options) => {
  const test = await createTestMemory(options);
  return { ...test, close: () => test.memory.close() };
};
