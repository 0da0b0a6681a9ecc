/**
 * RELIABILITY 1 for any backend: the seed's session 3 (an UPDATE: a tombstone, a new memory, an
 * input, versions) with the k-th write of the store failing, for every k until the write needs
 * fewer. After each failure the store is the state before (its snapshot unchanged) or, for a
 * store that finishes an interrupted commit itself, the state after; never between. A retry
 * then reaches the state after.
 */
import { expect } from 'vitest';
import { StorageError, type Memory } from '../../src/index';
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
  on(store: ContractStore): Promise<OpenedMemory>;
}

/** Runs the sweep; resolves to how many writes session 3's commit makes on this backend. */
export async function sweepSessionThree(stores: FaultSweepStores): Promise<number> {
  const reference = await stores.on(await stores.store());
  await ingestSeed(reference.memory, reference.clock);
  const post = await view(reference.memory);
  for (let k = 1; ; k++) {
    const store = await stores.store();
    const { memory, clock } = await stores.on(store);
    await ingestSeed(memory, clock, 2);
    const before = { snapshot: await store.snapshot(), view: await view(memory) };
    store.failWrite(k);
    const outcome = await ingestSeedSession(memory, clock, 2).then(
      () => 'ok' as const,
      (error: unknown) => error,
    );
    const writes = store.writes;
    store.failWrite(0);
    if (outcome === 'ok') {
      expect(writes).toBeLessThan(k);
      expect(await view(memory)).toEqual(post);
      return k - 1;
    }
    expect(outcome).toBeInstanceOf(StorageError);
    const after = await view(memory);
    if (JSON.stringify(after) === JSON.stringify(post)) continue;
    // Never between: exactly the session-2 state, everything the store holds.
    expect(after).toEqual(before.view);
    expect(await store.snapshot()).toEqual(before.snapshot);
    expect((await memory.retrieve('vegetarian diet', { ...SEED_OWNER, k: 1 }))[0]!.memory.content).toBe('The user follows a vegetarian diet.');
    expect((await ingestSeedSession(memory, clock, 2)).map((op) => op.action)).toEqual(['UPDATE']);
    expect(await view(memory)).toEqual(post);
  }
}

/** A verb whose commit the generic sweep fails: `prepare` builds the state before, `act` makes the one write under test. */
export interface SweptVerb {
  prepare(opened: OpenedMemory): Promise<void>;
  act(opened: OpenedMemory): Promise<unknown>;
}

/**
 * RELIABILITY 1 for any verb: `act`'s commit with the k-th write of the store failing, for
 * every k until it needs fewer. After each failure the store is the state before (its snapshot
 * unchanged) or after; never between. A retry then reaches the state after. Resolves to how
 * many writes the verb's commit makes on this backend.
 */
export async function sweepVerb(stores: FaultSweepStores, verb: SweptVerb): Promise<number> {
  const reference = await stores.on(await stores.store());
  await verb.prepare(reference);
  await verb.act(reference);
  const post = await view(reference.memory);
  for (let k = 1; ; k++) {
    const store = await stores.store();
    const opened = await stores.on(store);
    await verb.prepare(opened);
    const before = { snapshot: await store.snapshot(), view: await view(opened.memory) };
    store.failWrite(k);
    const outcome = await verb.act(opened).then(
      () => 'ok' as const,
      (error: unknown) => error,
    );
    const writes = store.writes;
    store.failWrite(0);
    if (outcome === 'ok') {
      expect(writes).toBeLessThan(k);
      expect(await view(opened.memory)).toEqual(post);
      return k - 1;
    }
    expect(outcome).toBeInstanceOf(StorageError);
    const after = await view(opened.memory);
    if (JSON.stringify(after) === JSON.stringify(post)) continue;
    expect(after).toEqual(before.view);
    expect(await store.snapshot()).toEqual(before.snapshot);
    await verb.act(opened);
    expect(await view(opened.memory)).toEqual(post);
  }
}
