/**
 * RELIABILITY 15 and 16 on IndexedDB (the body is test/contract/isolation.ts): 2,500 random
 * callers, 12.5k reads. Prints the number of reads and of foreign records returned (must be 0).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkIsolation } from '../contract/isolation';
import { createTestMemory, type TestMemory } from '../helpers/memory';

describe('every read path (isolation property)', () => {
  let test: TestMemory;
  let reads = 0;
  let foreign = 0;

  afterAll(async () => {
    console.log(`isolation property: ${reads} reads over retrieve/list/export/get/history, foreign records returned: ${foreign}`);
    await test?.memory.close();
  });

  it('returns only the caller’s records and its app’s app-scope records, for random worlds and callers', async () => {
    test = await createTestMemory();
    ({ reads, foreign } = await checkIsolation(test.memory, 2_500));
    expect(reads).toBe(12_500);
    expect(foreign).toBe(0);
  });
});
