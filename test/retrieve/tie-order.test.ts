/**
 * Equal scores are ordered by a key every backend has and an import keeps (pinned first, then
 * `byCreation`: oldest, then id), not by where the rows happen to be stored.
 */
import { describe, it } from 'vitest';
import { createMemory } from '../../src/index';
import { createTestMemory } from '../helpers/memory';
import { createMemoryStorage } from '../helpers/memory-storage';
import { expectStableTieOrder } from '../helpers/tie-order';

describe('Memory.retrieve (ties)', () => {
  it('orders equal scores pinned first, then oldest, then by id, and answers the same after export → import, when the store is IndexedDB', async () => {
    await expectStableTieOrder(async (options) => (await createTestMemory(options)).memory);
  });

  it('orders equal scores pinned first, then oldest, then by id, and answers the same after export → import, when the store is the in-memory backend', async () => {
    await expectStableTieOrder((options) => createMemory({ ...options, storage: createMemoryStorage(), worker: 'off', episodes: false }));
  });
});
