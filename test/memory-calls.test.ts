import { describe, expect, it } from 'vitest';
import { ClosedError, type Memory } from '../src/index';
import { decorateCalls, MEMORY_CALLS, type CallTable } from '../src/memory-calls';
import { createTestMemory } from './helpers/memory';

describe('MEMORY_CALLS', () => {
  it('has one row for every member of a memory createMemory returns, and none more', async () => {
    const { memory } = await createTestMemory();
    try {
      expect(Object.keys(memory).sort()).toEqual(Object.keys(MEMORY_CALLS).sort());
    } finally {
      await memory.close();
    }
  });

  it('does not type-check without a row for a verb, or with a synchronous verb filed as a promise', () => {
    const { ingest: _ingest, ...withoutIngest } = MEMORY_CALLS;
    // @ts-expect-error ingest is a member of Memory, so its row is required
    const missing: CallTable = withoutIngest;
    // @ts-expect-error inject returns a string, not a promise: only 'sync' fits it
    const misfiled: CallTable = { ...MEMORY_CALLS, inject: 'store' };
    // @ts-expect-error a row for a member Memory does not have
    const extra: CallTable = { ...MEMORY_CALLS, teleport: 'store' };
    expect([missing, misfiled, extra].every((table) => typeof table === 'object')).toBe(true);
  });
});

describe('decorateCalls', () => {
  it('wraps the methods of the given kinds only and keeps the rest, symbol-keyed members included', async () => {
    const { memory } = await createTestMemory();
    const marker = Symbol('marker');
    Object.assign(memory, { [marker]: 'kept' });
    const wrapped: string[] = [];
    try {
      const decorated = decorateCalls(memory, ['sync', 'device'], (name, call) => {
        wrapped.push(name);
        return (...args) => call(...args);
      });
      expect(wrapped.sort()).toEqual(['assemble', 'inject', 'persist', 'storageEstimate', 'subscribe']);
      expect(decorated.list).toBe(memory.list);
      expect(decorated.computeLocation).toBe(memory.computeLocation);
      expect((decorated as Memory & { [marker]: string })[marker]).toBe('kept');
      expect(decorated.inject('system', [])).toBe(memory.inject('system', []));
    } finally {
      await memory.close();
    }
    await expect(memory.list({ userId: 'ada', appName: 'default' })).rejects.toThrow(ClosedError);
  });
});
