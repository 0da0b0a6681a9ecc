import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError, createHashEmbedder, type OwnerExport, type Memory } from '../../src/index';
import { createSequentialIds, createTestMemory, DAY, type TestMemoryOptions } from '../helpers/memory';

const ada = { userId: 'u_ada', appName: 'trips' };
const opened: Memory[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function open(options: TestMemoryOptions = {}) {
  const test = await createTestMemory(options);
  opened.push(test.memory);
  return test;
}

/** An owner with a bit of everything: UPDATE chains, corroboration, session scope, a prune, an erasure, and a neighbour. */
async function seeded() {
  const test = await open();
  const { memory, clock } = test;
  const session = (id: string) => ({ ...ada, sessionId: `c_${id}`, source: { type: 'user_explicit' as const, id } });
  await memory.ingest([{ role: 'user', content: "I'm vegetarian. Call me Ada." }], { ...session('s1'), source: { type: 'user_implicit', id: 's1' } });
  clock.advance(DAY);
  await memory.ingest([{ role: 'user', content: "I've started eating fish again. I prefer the window seat." }], session('s2'));
  await memory.ingest([{ role: 'user', content: 'I want the aisle seat, zq-canary-s3.' }], session('s3'));
  await memory.remember({ content: 'The user likes jazz.', topic: 'music', importance: 0.2, halfLifeDays: 1 }, { ...ada, source: { type: 'user_explicit', id: 'form-7' } });
  await memory.remember({ content: 'The user is planning Lisbon.', topic: 'plans' }, { ...ada, scope: 'session', sessionId: 'c_s3', source: { type: 'user_explicit', id: 'form-8' } });
  await memory.summarizeSession([{ role: 'user', content: 'I always travel with my cat.' }], { ...session('s4'), sessionId: 'c_s4' });
  clock.advance(30 * DAY);
  await memory.prune({ ...ada, floor: 0.05 });
  await memory.ingest([{ role: 'user', content: "I'm pescatarian, zq-canary-s5." }], session('s5'));
  await memory.forgetSource('s5', ada);
  await memory.ingest([{ role: 'user', content: "I'm vegan, zq-canary-bob." }], { userId: 'u_bob', appName: 'trips', sessionId: 'b1', source: { type: 'user_explicit', id: 'b1' } });
  await memory.remember({ content: 'Solaris Trips serves no alcohol.', topic: 'policy' }, { appName: 'trips', scope: 'app', source: { type: 'bootstrapped', id: 'crm-1' } });
  return test;
}

/** What the data means for the owner, without ids: the equivalence invariant 6 states. */
async function activeSet(memory: Memory) {
  const records = await memory.list({ ...ada });
  return records
    .filter((record) => record.scope !== 'app')
    .map((record) => ({ content: record.content, topic: record.topic, scope: record.scope, confidence: record.confidence, sources: record.sources.map((s) => s.id).sort() }))
    .sort((a, b) => (a.content < b.content ? -1 : 1));
}

/** The export as it travels between devices: JSON text. */
const moved = (data: OwnerExport): unknown => JSON.parse(JSON.stringify(data));

describe('Memory.import', () => {
  it('restores an export so that exporting again gives the same data apart from exportedAt', async () => {
    const source = await seeded();
    const data = await source.memory.export(ada);
    expect(data.memories.length).toBeGreaterThan(6);
    const target = await open({ idGenerator: createSequentialIds('dev2_') });
    target.clock.set(source.clock() + DAY);
    expect(await target.memory.import(moved(data))).toEqual({ ...ada, memories: data.memories.length, inputs: data.inputs.length });
    const again = await target.memory.export(ada);
    expect(again.exportedAt).not.toBe(data.exportedAt);
    expect(JSON.stringify({ ...again, exportedAt: 0 })).toBe(JSON.stringify({ ...data, exportedAt: 0 }));
  });

  it('lets forgetSource regenerate after the move exactly as it would have on the first device', async () => {
    const source = await seeded();
    const target = await open({ idGenerator: createSequentialIds('dev2_') });
    target.clock.set(source.clock());
    await target.memory.import(moved(await source.memory.export(ada)));
    expect(await activeSet(target.memory)).toEqual(await activeSet(source.memory));
    const [here, there] = [await source.memory.forgetSource('s3', ada), await target.memory.forgetSource('s3', ada)];
    expect(there.erased.length + there.regenerated.length).toBeGreaterThan(0);
    expect([there.erased.length, there.regenerated.length]).toEqual([here.erased.length, here.regenerated.length]);
    expect(await activeSet(target.memory)).toEqual(await activeSet(source.memory));
    expect(JSON.stringify(await target.memory.export(ada))).not.toContain('zq-canary-s3');
  });

  it('embeds the memories again with the importing memory’s embedder, so retrieval works there', async () => {
    const source = await seeded();
    const target = await open({ embedder: createHashEmbedder(64) });
    await target.memory.import(moved(await source.memory.export(ada)));
    const [top] = await target.memory.retrieve('which seat should I book on the plane?', ada);
    expect(top?.memory.content).toMatch(/aisle/);
    expect(top?.memory.embedding.length).toBe(64);
    expect((await target.memory.list({ ...ada, includeInvalid: true })).every((record) => record.embedderId === 'hash-fnv1a-64')).toBe(true);
  });

  it('never carries another user, the app, or what was erased', async () => {
    const source = await seeded();
    const target = await open();
    await target.memory.import(moved(await source.memory.export(ada)));
    expect(await target.memory.list({ userId: 'u_bob', appName: 'trips' })).toEqual([]);
    const text = JSON.stringify(await target.memory.list({ ...ada, includeInvalid: true }));
    for (const canary of ['zq-canary-bob', 'zq-canary-s5', 'no alcohol']) expect(text).not.toContain(canary);
  });

  it('refuses with ConflictError and changes nothing when the owner already has memories here', async () => {
    const source = await seeded();
    const data = moved(await source.memory.export(ada));
    const target = await open({ idGenerator: createSequentialIds('dev2_') });
    await target.memory.remember({ content: 'The user likes tea.', topic: 'drinks' }, { ...ada, source: { type: 'user_explicit', id: 'f1' } });
    const before = await target.memory.export(ada);
    await expect(target.memory.import(data)).rejects.toThrow(ConflictError);
    expect(await target.memory.export(ada)).toEqual(before);
    // Importing the same export twice is the same case: the second one is refused.
    const fresh = await open();
    await fresh.memory.import(data);
    await expect(fresh.memory.import(data)).rejects.toThrow(/already has/);
  });

  it('restores onto another owner’s neighbours without touching them', async () => {
    const source = await seeded();
    const target = await open({ idGenerator: createSequentialIds('dev2_') });
    await target.memory.ingest([{ role: 'user', content: "I'm vegan." }], { userId: 'u_carol', appName: 'trips', sessionId: 'k1', source: { type: 'user_explicit', id: 'k1' } });
    const carol = await target.memory.export({ userId: 'u_carol', appName: 'trips' });
    await target.memory.import(moved(await source.memory.export(ada)));
    expect({ ...(await target.memory.export({ userId: 'u_carol', appName: 'trips' })), exportedAt: 0 }).toEqual({ ...carol, exportedAt: 0 });
  });
});
