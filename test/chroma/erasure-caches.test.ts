/**
 * Erasure reaches every instance's caches of user text on Chroma too: two memories over the
 * same Chroma collections (the same server, tenant, database and prefix), one erases, and the
 * other's embedding cache no longer serves the erased text (Storage.watchErasures, the
 * BroadcastChannel of storage/erasure-channel.ts named after the Chroma lock namespace).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Memory, Operation } from '../../src/index';
import { openMemory } from '../../src/memory';
import { createChromaStorage } from '../../src/adapters/chroma/index';
import type { CachingEmbedder } from '../../src/embed/embedding-cache';
import { countingEmbedder } from '../helpers/counting-embedder';
import { createSequentialIds, createTestClock } from '../helpers/memory';
import { freshPrefix, server } from './helpers';

const owner = { userId: 'ada', appName: 'default' };
const said = 'I am allergic to peanuts';

const erasures: Record<string, (memory: Memory, operations: Operation[]) => Promise<unknown>> = {
  forgetSource: (memory) => memory.forgetSource('turn-1', owner),
  forget: (memory, operations) => memory.forget(operations[0]!.memoryId, owner),
  undo: (memory, operations) => memory.undo(operations.at(-1)!, owner),
};

describe('erasure on createChromaStorage reaches another instance over the same collections', () => {
  const opened: Memory[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((memory) => memory.close()));
  });
  const open = async (prefix: string, onEmbedder?: (embedder: CachingEmbedder) => void) => {
    const options = { storage: createChromaStorage({ ...server(), collectionPrefix: prefix }), embedder: countingEmbedder(), clock: createTestClock(), idGenerator: createSequentialIds(), episodes: false, worker: 'off' as const };
    const memory = await openMemory(options, onEmbedder ? { onEmbedder } : {});
    opened.push(memory);
    return { memory, embedder: options.embedder };
  };

  for (const [verb, erase] of Object.entries(erasures)) {
    it(`empties the other instance's embedding cache when one runs ${verb}`, async () => {
      const prefix = freshPrefix('erasecache');
      const eraser = await open(prefix);
      let cache: CachingEmbedder | undefined;
      const other = await open(prefix, (made) => void (cache = made));
      const operations = await eraser.memory.ingest([{ role: 'user', content: said }], { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 'turn-1' } });
      await other.memory.retrieve(said, owner);
      expect(cache!.cached).toBe(1);
      await erase(eraser.memory, operations);
      await vi.waitFor(() => expect(cache!.cached).toBe(0));
      other.embedder.calls.length = 0;
      await other.memory.retrieve(said, owner);
      expect(other.embedder.calls).toEqual([[said]]);
    });
  }

  it('leaves the other instance’s cache alone for a write that erases nothing', async () => {
    const prefix = freshPrefix('erasecache');
    const writer = await open(prefix);
    let cache: CachingEmbedder | undefined;
    const other = await open(prefix, (made) => void (cache = made));
    await other.memory.retrieve(said, owner);
    await writer.memory.ingest([{ role: 'user', content: said }], { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 'turn-1' } });
    // A message would have arrived by now: the channel delivers within a turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cache!.cached).toBe(1);
  });
});
