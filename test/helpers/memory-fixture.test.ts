/** The opened-memory fixture closes what a test opened once the test ends, and opens nothing unasked. */
import { describe, expect } from 'vitest';
import { ClosedError, type Memory } from '../../src/index';
import { it } from './memory-fixture';

describe('the open fixture (test/helpers/memory-fixture.ts)', () => {
  const seen: Memory[] = [];

  it('opens memories on separate fresh databases that answer while the test runs', async ({ open }) => {
    const first = await open();
    const second = await open();
    await first.memory.remember({ content: 'The user likes tea.', topic: 'preference' }, { userId: 'u', source: { type: 'user_explicit', id: 's' } });
    expect(first.name).not.toBe(second.name);
    expect(await second.memory.list({ userId: 'u' })).toEqual([]);
    seen.push(first.memory, second.memory);
  });

  it('has closed every memory the previous test opened', async () => {
    expect(seen).toHaveLength(2);
    for (const memory of seen) await expect(memory.list({ userId: 'u' })).rejects.toThrow(ClosedError);
  });
});
