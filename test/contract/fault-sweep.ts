/**
 * RELIABILITY 1 for any backend: the seed's session 3 (an UPDATE: a tombstone, a new memory, an
 * input, versions) with the k-th write of the store failing, for every k until the write needs
 * fewer. After each failure the store is the state before (its snapshot unchanged) or, for a
 * store that finishes an interrupted commit itself, the state after; never between. A retry
 * then reaches the state after.
 */
import { expect } from 'vitest';
import { StorageError, type Memory, type MemoryOptions } from '../../src/index';
import { renamerByContent } from '../helpers/facts';
import { ingestSeed, ingestSeedSession, SEED_OWNER } from '../helpers/seed';
import type { ContractStore, OpenedMemory } from './harness';

/** The owner's whole state through the public reads, with generated ids replaced by content (unique in the seed). */
async function view(memory: Memory) {
  const exported = await memory.export(SEED_OWNER);
  const { rename, entry } = renamerByContent(exported.memories);
  return {
    memories: exported.memories
      .map((record) => ({
        ...record,
        id: rename(record.id),
        ...(record.supersededBy !== undefined ? { supersededBy: rename(record.supersededBy) } : {}),
        history: record.history.map(entry),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)),
    inputs: exported.inputs,
  };
}

export interface FaultSweepStores {
  store(): Promise<ContractStore>;
  on(store: ContractStore, options?: MemoryOptions): Promise<OpenedMemory>;
}

/** Runs the sweep; resolves to how many writes session 3's commit makes on this backend. */
export function sweepSessionThree(stores: FaultSweepStores): Promise<number> {
  return sweepVerb(stores, {
    prepare: async ({ memory, clock }) => void (await ingestSeed(memory, clock, 2)),
    act: async ({ memory, clock }) => expect((await ingestSeedSession(memory, clock, 2)).map((op) => op.action)).toEqual(['UPDATE']),
    // Never between: exactly the session-2 state, and its diet memory still retrieved.
    before: async ({ memory }) => expect((await memory.retrieve('vegetarian diet', { ...SEED_OWNER, k: 1 }))[0]!.memory.content).toBe('The user follows a vegetarian diet.'),
  });
}

/** A verb whose commit the generic sweep fails: `prepare` builds the state before, `act` makes the one write under test. */
export interface SweptVerb<P = void> {
  prepare(opened: OpenedMemory): Promise<P>;
  act(opened: OpenedMemory, prepared: P): Promise<unknown>;
  /** The state compared before, after and on the reference; the seed owner's export by default. */
  view?(memory: Memory): Promise<unknown>;
  /** What the memories open with (e.g. `{ review }`). */
  open?: MemoryOptions;
  /** Checked when a failure left the state before, ahead of the retry. */
  before?(opened: OpenedMemory): Promise<void>;
}

/**
 * RELIABILITY 1 for any verb: `act`'s commit with the k-th write of the store failing, for
 * every k until it needs fewer. After each failure the store is the state before (its snapshot
 * unchanged) or after; never between. A retry then reaches the state after. Resolves to how
 * many writes the verb's commit makes on this backend.
 */
export async function sweepVerb<P>(stores: FaultSweepStores, verb: SweptVerb<P>): Promise<number> {
  const see = verb.view ?? view;
  const reference = await stores.on(await stores.store(), verb.open);
  await verb.act(reference, await verb.prepare(reference));
  const post = await see(reference.memory);
  for (let k = 1; ; k++) {
    const store = await stores.store();
    const opened = await stores.on(store, verb.open);
    const prepared = await verb.prepare(opened);
    const before = { snapshot: await store.snapshot(), view: await see(opened.memory) };
    store.failWrite(k);
    const outcome = await verb.act(opened, prepared).then(
      () => 'ok' as const,
      (error: unknown) => error,
    );
    const writes = store.writes;
    store.failWrite(0);
    if (outcome === 'ok') {
      expect(writes).toBeLessThan(k);
      expect(await see(opened.memory)).toEqual(post);
      return k - 1;
    }
    expect(outcome).toBeInstanceOf(StorageError);
    const after = await see(opened.memory);
    if (JSON.stringify(after) === JSON.stringify(post)) continue;
    expect(after).toEqual(before.view);
    expect(await store.snapshot()).toEqual(before.snapshot);
    await verb.before?.(opened);
    await verb.act(opened, prepared);
    expect(await see(opened.memory)).toEqual(post);
  }
}
