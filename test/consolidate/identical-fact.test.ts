import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/index';
import { noiseEmbedder } from '../helpers/noise-embedder';
import { createTestMemory } from '../helpers/memory';

const owner = { userId: 'u', appName: 'default' };
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

async function open(): Promise<Memory> {
  const { memory } = await createTestMemory({ embedder: noiseEmbedder(), exclusiveTopics: ['diet'], candidateThreshold: 0.99 });
  opened.push(memory);
  return memory;
}

describe('createMemory (the sweep on a non-exclusive topic)', () => {
  it('corroborates the same fact found by the identical-fact index when no similarity links them', async () => {
    const memory = await open();
    for (let i = 0; i < 20; i++) await memory.remember({ content: `The user owns board game number ${i}.`, topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: `s${i}` } });
    const operation = await memory.remember({ content: '  the user owns BOARD GAME number 7.', topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: 'again' } });
    expect(operation).toMatchObject({ action: 'NOOP', reason: 'identical to an existing memory' });
    const corroborated = await memory.get(operation.memoryId, owner);
    expect(corroborated.content).toBe('The user owns board game number 7.');
    expect(corroborated.sources.map((source) => source.id)).toEqual(['s7', 'again']);
    expect(await memory.list(owner)).toHaveLength(20);
  });

  it('creates beside the topic’s other memories when the fact is new, and still replaces on an exclusive topic', async () => {
    const memory = await open();
    await memory.remember({ content: 'The user likes chess.', topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: 'a' } });
    const other = await memory.remember({ content: 'The user likes go.', topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: 'b' } });
    expect(other.action).toBe('CREATE');
    await memory.remember({ content: 'The user is vegetarian.', topic: 'diet' }, { ...owner, source: { type: 'user_explicit', id: 'c' } });
    // No word or vector in common: only the exclusive topic's sweep pairs them.
    const update = await memory.remember({ content: 'The user eats fish again.', topic: 'diet' }, { ...owner, source: { type: 'user_explicit', id: 'd' } });
    expect(update.action).toBe('UPDATE');
    expect((await memory.list(owner)).map((record) => record.content).sort()).toEqual(['The user eats fish again.', 'The user likes chess.', 'The user likes go.']);
  });
});
