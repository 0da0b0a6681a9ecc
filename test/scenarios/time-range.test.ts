/**
 * Times past a Date's range (±8.64e15 ms) are refused where they come in: the clock's value
 * when it is read, the times of an imported export, `asOf`. Accepted, they made `inject` and
 * `assemble` throw a plain RangeError (an episode's date has no ISO text there).
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index';
import { createTestMemory } from '../helpers/memory';

const MAX_TIME = 8.64e15;
const alice = { userId: 'alice' };
const source = (id: string) => ({ type: 'user_explicit' as const, id });

describe('createMemory({ clock })', () => {
  it('refuses a write, a retrieve and inject with ValidationError naming options.clock when the clock reads past a Date', async () => {
    const { memory, clock } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: 'I went hiking in the Alps with my sister last week.' }], { ...alice, sessionId: 'c1', source: source('s1') });
    const before = await memory.list({ ...alice, includeInvalid: true });
    const retrieved = await memory.retrieve('hiking', alice);
    clock.set(9e15);
    await expect(memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...alice, source: source('s2') })).rejects.toThrow(ValidationError);
    await expect(memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...alice, sessionId: 'c2', source: source('s3') })).rejects.toThrow(
      /^options\.clock: returned 9000000000000000; it must be ms since epoch, from 0 to 8640000000000000/,
    );
    await expect(memory.retrieve('hiking', alice)).rejects.toThrow(ValidationError);
    expect(() => memory.inject('system', retrieved)).toThrow(ValidationError);
    expect(() => memory.assemble('system', retrieved, { maxTokens: 10_000 })).toThrow(/options\.clock/);
    clock.set(1);
    expect(await memory.list({ ...alice, includeInvalid: true })).toEqual(before);
    await memory.close();
  });

  it('writes, retrieves and injects an episode when the clock reads the last time a Date holds', async () => {
    const { memory, clock } = await createTestMemory();
    clock.set(MAX_TIME);
    await memory.remember({ content: 'I went hiking in the Alps with my sister.', topic: 'episode' }, { ...alice, source: source('s1') });
    const retrieved = await memory.retrieve('hiking in the Alps', alice);
    expect(retrieved.map((hit) => hit.memory.topic)).toEqual(['episode']);
    // The episode's line carries its date: the last day a Date holds.
    expect(memory.inject('system', retrieved)).toContain('(+275760-09-13) I went hiking');
    await memory.close();
  });
});

describe('Memory.import (times)', () => {
  async function exported() {
    const { memory } = await createTestMemory();
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...alice, source: source('s1') });
    const data = await memory.export(alice);
    await memory.close();
    return data;
  }

  it('refuses an export with ValidationError naming the field when a time in it is past a Date, and writes nothing', async () => {
    const data = await exported();
    const cases: [(copy: typeof data) => void, string][] = [
      [(copy) => void (copy.memories[0]!.createdAt = 1e16), 'data.memories.0.createdAt'],
      [(copy) => void (copy.memories[0]!.updatedAt = 1e16), 'data.memories.0.updatedAt'],
      [(copy) => void (copy.memories[0]!.sources[0]!.at = 1e16), 'data.memories.0.sources.0.at'],
      [(copy) => void (copy.memories[0]!.history[0]!.at = 1e16), 'data.memories.0.history.0.at'],
      [(copy) => void (copy.inputs[0]!.at = 1e16), 'data.inputs.0.at'],
      [(copy) => void (copy.exportedAt = 1e16), 'data.exportedAt'],
    ];
    const { memory } = await createTestMemory();
    for (const [damage, path] of cases) {
      const copy = structuredClone(data);
      damage(copy);
      const refused = memory.import(copy);
      await expect(refused).rejects.toThrow(ValidationError);
      await expect(refused).rejects.toThrow(new RegExp(`^${path.replaceAll('.', '\\.')}: must be ms since epoch, from 0 to 8640000000000000 \\(the range of a Date\\) \\(got 10000000000000000\\)`));
    }
    expect(await memory.list({ ...alice, includeInvalid: true })).toEqual([]);
    await memory.import(data);
    expect((await memory.list(alice)).map((record) => record.content)).toEqual(['The user likes jazz.']);
    await memory.close();
  });
});

describe('Memory.retrieve / Memory.list ({ asOf })', () => {
  it('rejects with ValidationError when asOf is past a Date', async () => {
    const { memory } = await createTestMemory();
    await expect(memory.retrieve('jazz', { ...alice, asOf: 1e16 })).rejects.toThrow(/^options\.asOf: must be ms since epoch, from 0 to 8640000000000000/);
    await expect(memory.list({ ...alice, asOf: 1e16 })).rejects.toThrow(ValidationError);
    await memory.close();
  });
});
