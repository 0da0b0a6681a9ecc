/**
 * The review queue model (test/contract/review.ts) at soak size on IndexedDB: more random
 * interleavings of held writes, approvals, rejections and erasures on two instances of one
 * database than the contract suite runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createStores } from '../contract/harness';
import { checkReviewModel } from '../contract/review';
import { createIndexedDbStore } from '../helpers/idb-store';

describe('memory.pending / approve / reject (soak)', () => {
  const stores = createStores(createIndexedDbStore);
  afterEach(() => stores.teardown());

  it('matches the queue model and erases every rejected text, for 60 random interleavings on two instances', async () => {
    const { steps, approved, rejected } = await checkReviewModel(stores, 60);
    console.log(`review model soak (indexeddb): 60 runs, ${steps} steps, ${approved} approvals, ${rejected} rejections, 0 mismatches`);
    expect(approved).toBeGreaterThan(20);
    expect(rejected).toBeGreaterThan(20);
  }, 900_000);
});
