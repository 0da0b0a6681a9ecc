/**
 * A write's metadata (kept as JSON text on its input and on the memories it creates) and a
 * remember that replaces a memory: both must hold after a replay (forgetSource of another
 * source) and through export/import, and metadata goes with the source it came with.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError, ValidationError } from '../../src/index';
import { createTestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const alice = { userId: 'alice' };
const source = (id: string) => ({ type: 'user_explicit' as const, id });

describe('metadata on writes', () => {
  it('stores the metadata as JSON text on the memories a remember or an ingest creates', async () => {
    const { memory } = await createTestMemory();
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...alice, source: source('s1'), metadata: { category: 'music', rank: 2 } });
    await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...alice, sessionId: 'c1', source: source('s2'), metadata: { category: 'food' } });
    const records = await memory.list(alice);
    expect(records.map((record) => [record.content, record.metadata && JSON.parse(record.metadata)])).toEqual([
      ['The user likes jazz.', { category: 'music', rank: 2 }],
      ['The user follows a vegetarian diet.', { category: 'food' }],
    ]);
    await expect(memory.remember({ content: 'x y', topic: 'general' }, { ...alice, source: source('s3'), metadata: { bad: () => 1 } as never })).rejects.toThrow(ValidationError);
    await memory.close();
  });

  it('refuses with ValidationError naming the depth limit, and stores nothing, when the metadata nests too deep or is cyclic', async () => {
    const { memory } = await createTestMemory();
    const nested = (levels: number) => {
      let value: Record<string, unknown> = { leaf: 1 };
      for (let i = 1; i < levels; i++) value = { inner: value };
      return value;
    };
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const cyclicArray: unknown[] = [];
    cyclicArray.push(cyclicArray);
    const limit = /^options\.metadata: must nest at most 32 levels of objects and arrays \(a cyclic object nests without end\)/;
    for (const metadata of [nested(33), nested(100_000), cyclic, { list: cyclicArray }]) {
      await expect(memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...alice, source: source('s1'), metadata: metadata as never })).rejects.toThrow(limit);
      await expect(memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...alice, sessionId: 'c1', source: source('s2'), metadata: metadata as never })).rejects.toThrow(ValidationError);
    }
    // One object under two keys at each of 30 levels: 2^31 values to walk, refused by their count.
    let shared: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 30; i++) shared = { left: shared, right: shared };
    await expect(memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...alice, source: source('s3'), metadata: shared as never })).rejects.toThrow(/^options\.metadata: must be at most 100000 characters as JSON/);
    expect(await memory.list({ ...alice, includeInvalid: true })).toEqual([]);
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...alice, source: source('s4'), metadata: nested(32) as never });
    expect(JSON.parse((await memory.list(alice))[0]!.metadata!)).toEqual(nested(32));
    await memory.close();
  });

  it('seals the metadata at rest when the memory has an encryptionKey, and reads it back', async () => {
    const encryptionKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const { memory, factory } = await createTestMemory({ encryptionKey });
    await memory.remember({ content: 'The user likes jazz.', topic: 'music' }, { ...alice, source: source('s1'), metadata: { note: 'Xylophrase-secret' } });
    expect(await findInDatabases(factory, 'Xylophrase')).toEqual([]);
    const [record] = await memory.list(alice);
    expect(JSON.parse(record!.metadata!)).toEqual({ note: 'Xylophrase-secret' });
    await memory.close();
  });

  it('keeps the metadata on a memory rebuilt by replay when another source of it is forgotten', async () => {
    const { memory } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: 'I prefer the aisle seat.' }], { ...alice, sessionId: 'c1', source: source('s1'), metadata: { category: 'travel' } });
    await memory.ingest([{ role: 'user', content: 'I prefer the aisle seat.' }], { ...alice, sessionId: 'c2', source: source('s2') });
    const [before] = await memory.list(alice);
    await memory.forgetSource('s2', alice);
    const [after] = await memory.list(alice);
    expect(after!.id).not.toBe(before!.id);
    expect(JSON.parse(after!.metadata!)).toEqual({ category: 'travel' });
    await memory.close();
  });

  it('erases the metadata with the source that wrote it, everywhere in the database', async () => {
    const { memory, factory } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: 'I prefer the aisle seat.' }], { ...alice, sessionId: 'c1', source: source('s1'), metadata: { note: 'Zebracorn-tag' } });
    await memory.ingest([{ role: 'user', content: 'I prefer the aisle seat.' }], { ...alice, sessionId: 'c2', source: source('s2'), metadata: { note: 'second' } });
    expect((await findInDatabases(factory, 'Zebracorn')).length).toBeGreaterThan(0);
    await memory.forgetSource('s1', alice);
    expect(await findInDatabases(factory, 'Zebracorn')).toEqual([]);
    const [kept] = await memory.list(alice);
    expect(kept!.content).toBe('The user prefers aisle seating on flights.');
    expect(JSON.parse(kept!.metadata!)).toEqual({ note: 'second' });
    await memory.close();
  });

  it('keeps the metadata of memories and inputs, and what a remember replaced, through export and import', async () => {
    const { memory } = await createTestMemory();
    await memory.remember({ content: 'The user likes opera.', topic: 'music' }, { ...alice, source: source('s1'), metadata: { category: 'music' } });
    await memory.remember({ content: 'The user likes opera.', topic: 'music' }, { ...alice, source: source('s2') });
    const tea = await memory.remember({ content: 'The user drinks tea.', topic: 'general' }, { ...alice, source: source('s3') });
    await memory.remember({ content: 'The user drinks coffee.', topic: 'general' }, { ...alice, source: source('s4'), replaces: tea.memoryId });
    const data = await memory.export(alice);
    const target = await createTestMemory();
    await target.memory.import(JSON.parse(JSON.stringify(data)));
    expect((await target.memory.export(alice)).inputs).toEqual(data.inputs);
    // A replay on the importing device rebuilds from the imported inputs: their metadata and replacement hold.
    await target.memory.forgetSource('s2', alice);
    const records = await target.memory.list(alice);
    expect(records.map((record) => [record.content, record.metadata]).sort()).toEqual([
      ['The user drinks coffee.', undefined],
      ['The user likes opera.', JSON.stringify({ category: 'music' })],
    ]);
    await memory.close();
    await target.memory.close();
  });
});

describe('remember({ replaces })', () => {
  it('supersedes the named memory instead of adding one beside it', async () => {
    const { memory } = await createTestMemory();
    const tea = await memory.remember({ content: 'The user drinks tea.', topic: 'general' }, { ...alice, source: source('s1') });
    const coffee = await memory.remember({ content: 'The user drinks coffee.', topic: 'general' }, { ...alice, source: source('s2'), replaces: tea.memoryId });
    expect(coffee).toMatchObject({ action: 'UPDATE', targetId: tea.memoryId });
    expect((await memory.list(alice)).map((record) => record.content)).toEqual(['The user drinks coffee.']);
    expect((await memory.get(tea.memoryId, alice)).supersededBy).toBe(coffee.memoryId);
    await expect(memory.remember({ content: 'x', topic: 'general' }, { ...alice, source: source('s3'), replaces: 'mem_missing' })).rejects.toThrow(NotFoundError);
    await memory.close();
  });

  it('refuses, writing nothing, when replaces names an episode, an app-scope memory or a memory of another scope or session', async () => {
    const { memory } = await createTestMemory();
    const episode = await memory.remember({ content: 'I went hiking in the Alps with my sister.', topic: 'episode' }, { ...alice, source: source('s1') });
    const app = await memory.remember({ content: 'Support answers within a day.', topic: 'support' }, { scope: 'app', source: { type: 'bootstrapped', id: 'b1' } });
    const session = await memory.remember({ content: 'The user wants a window seat today.', topic: 'general' }, { ...alice, scope: 'session', sessionId: 'x1', source: source('s2') });
    const user = await memory.remember({ content: 'The user drinks tea.', topic: 'general' }, { ...alice, source: source('s3') });
    const before = await memory.list({ ...alice, includeInvalid: true });
    const fact = { content: 'The user drinks coffee.', topic: 'general' };
    const write = (replaces: string, options: object = {}) => memory.remember(fact, { ...alice, source: source('s4'), replaces, ...options });
    await expect(write(episode.memoryId)).rejects.toThrow(ValidationError);
    await expect(write(episode.memoryId)).rejects.toThrow(`options.replaces: '${episode.memoryId}' is an episode`);
    await expect(write(app.memoryId)).rejects.toThrow(PermissionError);
    await expect(write(app.memoryId)).rejects.toThrow(`options.replaces: '${app.memoryId}' is an app-scope memory`);
    await expect(write(session.memoryId)).rejects.toThrow(`options.replaces: '${session.memoryId}' is a session-scope memory and this remember writes scope 'user'`);
    await expect(write(user.memoryId, { scope: 'session', sessionId: 'x1' })).rejects.toThrow(ValidationError);
    await expect(write(session.memoryId, { scope: 'session', sessionId: 'x2' })).rejects.toThrow(`options.replaces: '${session.memoryId}' belongs to session 'x1', not 'x2'`);
    expect(await memory.list({ ...alice, includeInvalid: true })).toEqual(before);
    // Within its own scope and session the write replaces as asked.
    expect(await write(session.memoryId, { scope: 'session', sessionId: 'x1' })).toMatchObject({ action: 'UPDATE', targetId: session.memoryId });
    const rule = await memory.remember({ content: 'Support answers within an hour.', topic: 'support' }, { scope: 'app', source: { type: 'bootstrapped', id: 'b2' }, replaces: app.memoryId });
    expect(rule).toMatchObject({ action: 'UPDATE', targetId: app.memoryId });
    await memory.close();
  });

  it('replaces again when a replay rebuilds the history, and keeps no text of the replaced memory in its input', async () => {
    const { memory, factory } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: 'Call me Ada.' }], { ...alice, sessionId: 'c0', source: source('s0') });
    const tea = await memory.remember({ content: 'The user drinks Quinceberry tea.', topic: 'general' }, { ...alice, source: source('s1') });
    await memory.remember({ content: 'The user drinks coffee.', topic: 'general' }, { ...alice, source: source('s2'), replaces: tea.memoryId });
    await memory.forgetSource('s0', alice);
    expect((await memory.list(alice)).map((record) => record.content)).toEqual(['The user drinks coffee.']);
    await memory.forgetSource('s1', alice);
    // The replaced memory's text was s1's: gone with it, although s2's input named what it replaced.
    expect(await findInDatabases(factory, 'Quinceberry')).toEqual([]);
    expect((await memory.list(alice)).map((record) => record.content)).toEqual(['The user drinks coffee.']);
    await memory.close();
  });
});

describe('forgetSource(sourceIds[])', () => {
  it('rejects an empty list or a bad id with a ValidationError, and forgets nothing twice when given the same id twice', async () => {
    const { memory } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...alice, sessionId: 'c1', source: source('s1') });
    await expect(memory.forgetSource([], alice)).rejects.toThrow(ValidationError);
    await expect(memory.forgetSource(['s1', ' bad '], alice)).rejects.toThrow(ValidationError);
    const report = await memory.forgetSource(['s1', 's1'], alice);
    expect(report.erased).toHaveLength(1);
    expect(await memory.forgetSource(['s1'], alice)).toEqual({ erased: [], regenerated: [] });
    expect(await memory.list(alice)).toEqual([]);
    await memory.close();
  });
});
