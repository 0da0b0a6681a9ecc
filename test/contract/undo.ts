/**
 * `memory.undo`, model-based: undoing every operation of the last message leaves the store that
 * never received it (the owner's active memories and stored inputs alike). Shared by
 * test/undo/undo.test.ts (IndexedDB) and describeStorageContract (every backend).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Memory, Operation } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { historyArbitrary, play, USERS, type Conversation } from './equivalence';
import type { OpenMemory } from './harness';

/** Plays one conversation and resolves to the operations it made. */
async function playOne(memory: Memory, c: Conversation): Promise<Operation[]> {
  const options = { userId: c.userId, sessionId: c.sessionId, source: { type: c.sourceType, id: c.sourceId } };
  if (c.kind === 'remember') return [await memory.remember(c.fact!, { userId: c.userId, source: options.source })];
  if (c.kind === 'summary') {
    const operation = await memory.summarizeSession([{ role: 'user', content: c.text }], options);
    return operation ? [operation] : [];
  }
  return memory.ingest([{ role: 'user', content: c.text }], options);
}

async function stateOf(memory: Memory) {
  const out: Record<string, unknown> = {};
  for (const userId of USERS) out[userId] = { active: activeFacts(await memory.list({ userId })), inputs: (await memory.export({ userId })).inputs };
  return out;
}

/**
 * The property over `runs` random histories. Resolves to how many runs there were, and in how
 * many the last message made only CREATEs and UPDATEs (undo reverts those; a NOOP made nothing
 * to revert, so such runs check nothing beyond playing).
 */
export async function checkUndo(open: OpenMemory, runs: number): Promise<{ runs: number; undone: number; operations: number }> {
  let count = 0;
  let undone = 0;
  let operations = 0;
  await fc.assert(
    fc.asyncProperty(historyArbitrary, async (conversations) => {
      const original = await open();
      const fresh = await open();
      try {
        const last = conversations.at(-1)!;
        await play(original.memory, original.clock.set, conversations.slice(0, -1));
        original.clock.set(last.at);
        const made = await playOne(original.memory, last);
        count++;
        if (made.length === 0 || made.some((operation) => operation.action === 'NOOP')) return;
        original.clock.advance(1000);
        for (const operation of [...made].reverse()) await original.memory.undo(operation, { userId: last.userId });
        await play(fresh.memory, fresh.clock.set, conversations.slice(0, -1));
        expect(await stateOf(original.memory)).toEqual(await stateOf(fresh.memory));
        undone++;
        operations += made.length;
      } finally {
        await original.close();
        await fresh.close();
      }
    }),
    { numRuns: runs, seed: 20260103 },
  );
  return { runs: count, undone, operations };
}
