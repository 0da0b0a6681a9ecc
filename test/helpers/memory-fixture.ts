/**
 * One vitest fixture for the tests that open memories: `it('…', async ({ open }) => …)` gets
 * `open(options)`, which is {@link createTestMemory} (a memory on its own fresh fake-indexeddb
 * database), and every memory a test opened is closed after it, passed or failed. A test that
 * does not name `open` opens nothing: vitest sets a fixture up only for the tests that ask.
 */
import { test as base } from 'vitest';
import { createTestMemory, type TestMemory, type TestMemoryOptions } from './memory';

export interface MemoryFixtures {
  /** Opens a test memory that is closed when the test ends. */
  open: (options?: TestMemoryOptions) => Promise<TestMemory>;
}

export const it = base.extend<MemoryFixtures>({
  // vitest reads the fixtures a fixture depends on from its first parameter's pattern: none here.
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern, and it has none
  open: async ({}, use) => {
    const opened: TestMemory[] = [];
    await use(async (options) => {
      const test = await createTestMemory(options);
      opened.push(test);
      return test;
    });
    for (const test of opened.reverse()) await test.memory.close();
  },
});
