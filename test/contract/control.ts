/**
 * The user's verbs as the generic fault sweep runs them (fault-sweep.ts `sweepVerb`): each
 * prepares the seed's three sessions and makes its one write on the diet memory.
 */
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
};
