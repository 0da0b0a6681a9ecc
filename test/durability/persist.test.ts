import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/index';
import { createTestMemory } from '../helpers/memory';

let memory: Memory | undefined;
afterEach(async () => {
  await memory?.close();
  memory = undefined;
});

// Node has no Storage API (navigator.storage); the browser's answers are asserted in
// test/e2e/durability.test.ts against Chromium's.
describe('Memory.persist', () => {
  it('reports supported: false and persisted: false where there is no Storage API', async () => {
    ({ memory } = await createTestMemory());
    expect(typeof (globalThis as { navigator?: { storage?: unknown } }).navigator?.storage).toBe('undefined');
    expect(await memory.persist()).toEqual({ supported: false, persisted: false });
  });
});

describe('Memory.storageEstimate', () => {
  it('reports supported: false with null figures where there is no Storage API', async () => {
    ({ memory } = await createTestMemory());
    expect(await memory.storageEstimate()).toEqual({ supported: false, usage: null, quota: null, persisted: null });
  });
});
