/**
 * The user's verbs as the generic fault sweep runs them (fault-sweep.ts `sweepVerb`): each
 * prepares the seed's three sessions and makes its one write on the diet memory.
 */
import { expect } from 'vitest';
import type { MemoryRecord } from '../../src/index';
import { ingestSeed, SEED_OWNER } from '../helpers/seed';
import type { SweptVerb } from './fault-sweep';
import type { OpenedMemory } from './harness';

/** The seed's active memory on `topic`. */
async function onTopic({ memory }: OpenedMemory, topic: string): Promise<MemoryRecord> {
  const record = (await memory.list(SEED_OWNER)).find((candidate) => candidate.topic === topic);
  if (!record) throw new Error(`the seed has no active memory on '${topic}'`);
  return record;
}

const seeded = async (opened: OpenedMemory) => {
  await ingestSeed(opened.memory, opened.clock);
  opened.clock.advance(1000);
};

export const CONTROL_VERBS: Record<string, SweptVerb> = {
  forget: {
    prepare: seeded,
    act: async (opened) => opened.memory.forget((await onTopic(opened, 'diet')).id, SEED_OWNER),
  },
  correct: {
    prepare: seeded,
    act: async (opened) => opened.memory.correct((await onTopic(opened, 'diet')).id, 'The user is vegan.', SEED_OWNER),
  },
  pin: {
    prepare: seeded,
    act: async (opened) => opened.memory.pin((await onTopic(opened, 'diet')).id, SEED_OWNER),
  },
  unpin: {
    prepare: async (opened) => {
      await seeded(opened);
      await opened.memory.pin((await onTopic(opened, 'diet')).id, SEED_OWNER);
    },
    act: async (opened) => opened.memory.unpin((await onTopic(opened, 'diet')).id, SEED_OWNER),
  },
};

/**
 * correct, pin and why on the seed, for every backend: the correction is an UPDATE with its
 * lineage, the pin survives a prune, decay and a regeneration, and why names the line.
 */
export async function checkControlVerbs(opened: OpenedMemory): Promise<void> {
  const { memory, clock } = opened;
  await seeded(opened);
  const diet = await onTopic(opened, 'diet');
  const seat = await onTopic(opened, 'travel');
  const pinned = await memory.pin(seat.id, SEED_OWNER);
  expect(pinned.pinned).toBe(true);
  const operation = await memory.correct(diet.id, 'The user is vegan.', SEED_OWNER);
  expect(operation).toMatchObject({ action: 'UPDATE', targetId: diet.id });
  const why = await memory.why(operation.memoryId, SEED_OWNER);
  expect(why.line.at(-2)).toBe(diet.id);
  expect(why.sources.at(-1)).toMatchObject({ type: 'user_explicit', id: `correction:${diet.id}` });
  clock.advance(10_000 * 86_400_000);
  await memory.prune({ ...SEED_OWNER, floor: 0.3 });
  const left = await memory.list(SEED_OWNER);
  expect(left.map((record) => [record.id, record.pinned])).toEqual([[seat.id, true]]);
  const [hit] = await memory.retrieve('aisle seat', { ...SEED_OWNER, k: 1 });
  expect(hit!.recency).toBeCloseTo(1, 6);
}
