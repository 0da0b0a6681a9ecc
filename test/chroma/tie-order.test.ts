/**
 * Equal scores on Chroma come back in the order the other backends give them (pinned first,
 * then `byCreation`), and the same after an export → import into another Chroma store.
 */
import { describe, it } from 'vitest';
import { createMemory } from '../../src/index';
import { createChromaStorage } from '../../src/adapters/chroma/index';
import { expectStableTieOrder } from '../helpers/tie-order';
import { freshPrefix, server } from './helpers';

describe('Memory.retrieve (ties) on createChromaStorage', () => {
  it('orders equal scores pinned first, then oldest, then by id, and answers the same after export → import', async () => {
    await expectStableTieOrder((options) => createMemory({ ...options, storage: createChromaStorage({ ...server(), collectionPrefix: freshPrefix('ties') }), worker: 'off', episodes: false }));
  });
});
