import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError, type Memory } from '../src/index';
import { createTestMemory } from './helpers/memory';

const ada = { userId: 'u_ada', appName: 'trips' };
const opened: Memory[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function seeded() {
  const test = await createTestMemory();
  opened.push(test.memory);
  const { memory } = test;
  await memory.ingest(
    [
      { role: 'user', content: "I'm vegetarian. Call me Ada, zq-canary-s1." },
      { role: 'assistant', content: 'Noted, zq-canary-assistant.' },
    ],
    { ...ada, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } },
  );
  await memory.ingest([{ role: 'user', content: "I've started eating fish again." }], { ...ada, sessionId: 'c2', source: { type: 'user_explicit', id: 's2' } });
  await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...ada, source: { type: 'user_explicit', id: 'form-7' } });
  await memory.ingest([{ role: 'user', content: "I'm vegan, zq-canary-bob." }], { userId: 'u_bob', appName: 'trips', sessionId: 'b1', source: { type: 'user_explicit', id: 'b1' } });
  await memory.remember({ content: 'Solaris Trips serves no alcohol.', topic: 'policy' }, { appName: 'trips', scope: 'app', source: { type: 'bootstrapped', id: 'crm-1' } });
  await memory.prune({ ...ada, floor: 0.01 });
  return memory;
}

describe('Memory.export', () => {
  it("returns the owner's memories with tombstones and lineage, and the inputs they came from, without vectors", async () => {
    const memory = await seeded();
    const data = await memory.export(ada);
    expect(data).toMatchObject({ format: 'engram-export/1', userId: 'u_ada', appName: 'trips' });
    expect(data.memories.map((m) => [m.content, m.invalidatedAt === undefined])).toEqual([
      ['The user follows a vegetarian diet.', false],
      ['The user goes by Ada.', true],
      ['The user eats fish again.', true],
      ['The user likes jazz.', true],
    ]);
    expect(data.memories.every((m) => !('embedding' in m))).toBe(true);
    expect(data.inputs.map((input) => input.kind)).toEqual(['ingest', 'ingest', 'remember', 'prune']);
    expect(data.inputs[0]).toMatchObject({ kind: 'ingest', sessionId: 'c1', source: { id: 's1' }, messages: [{ role: 'user' }] });
    // JSON-ready: a round trip changes nothing.
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it("never includes another user's data, the app's memories, or what the assistant said", async () => {
    const memory = await seeded();
    const text = JSON.stringify(await memory.export(ada));
    expect(text).not.toContain('zq-canary-bob');
    expect(text).not.toContain('zq-canary-assistant');
    expect(text).not.toContain('no alcohol');
    expect((await memory.export({ userId: 'u_carol', appName: 'trips' })).memories).toEqual([]);
  });

  it('holds nothing of a revoked source after forgetSource', async () => {
    const memory = await seeded();
    expect(JSON.stringify(await memory.export(ada))).toContain('zq-canary-s1');
    await memory.forgetSource('s1', ada);
    const data = await memory.export(ada);
    expect(JSON.stringify(data)).not.toContain('zq-canary-s1');
    expect(data.inputs.some((input) => 'source' in input && input.source.id === 's1')).toBe(false);
  });

  it('rejects a missing or empty userId with ValidationError', async () => {
    const memory = await seeded();
    await expect(memory.export({ userId: '' })).rejects.toThrow(ValidationError);
    await expect(memory.export({} as never)).rejects.toThrow(ValidationError);
  });
});
