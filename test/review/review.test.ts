import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../src/errors';
import { createTestMemory, DAY } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';
import { wrapTables } from '../helpers/idb-store';
import { EngramDatabase } from '../../src/store/database';
import { UPGRADES_DONE_KEY } from '../../src/store/unfinished-upgrades';
import { IDBKeyRange } from 'fake-indexeddb';
import type { DBCoreQueryRequest, Dexie } from 'dexie';

/** A DBCore middleware counting the input rows queries return (what reading the review queue costs). */
function countInputReads(seen: { rows: number }) {
  return (db: Dexie) =>
    wrapTables(db, 'input-read-counter', (name, table) => ({
      query: async (request: DBCoreQueryRequest) => {
        const response = await table.query(request);
        if (name === 'inputs') seen.rows += response.result.length;
        return response;
      },
    }));
}

const owner = { userId: 'ada', appName: 'default' };
const review = { sources: ['user_implicit', 'tool_output'] as const };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });

describe('review before saving', () => {
  it('holds a reviewed write as pending: not retrieved, not listed, listed by pending', async () => {
    const { memory } = await createTestMemory({ review });
    const [operation] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    expect(operation).toMatchObject({ action: 'CREATE', pending: true });
    expect(await memory.list(owner)).toEqual([]);
    expect(await memory.list({ ...owner, includeInvalid: true })).toEqual([]);
    expect(await memory.retrieve('where does the user live?', owner)).toEqual([]);
    const pending = await memory.pending(owner);
    expect(pending).toEqual([expect.objectContaining({ id: operation!.memoryId, action: 'CREATE', source: expect.objectContaining({ type: 'user_implicit', id: 'c1' }) })]);
    expect(await memory.pending({ userId: 'bob', appName: 'default' })).toEqual([]);
    await memory.close();
  });

  it('reads only the inputs that hold pending writes, whatever the owner’s history: 40 applied writes and 2 held', async () => {
    const seen = { rows: 0 };
    const { memory } = await createTestMemory({ review, onDatabase: countInputReads(seen) });
    for (let i = 0; i < 40; i++) await memory.remember({ content: `The user visited city number ${i}.`, topic: 'travel' }, { ...owner, source: explicit(`e${i}`) });
    const [first] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    seen.rows = 0;
    // The second held write checks the queue (so a fact waiting already is not queued twice): one held input read.
    const [second] = await memory.ingest([{ role: 'user', content: 'I play the cello.' }], { ...owner, sessionId: 's2', source: implicit('c2') });
    expect(second).toMatchObject({ pending: true });
    expect(seen.rows).toBe(1);
    seen.rows = 0;
    expect((await memory.pending(owner)).map((entry) => entry.id)).toEqual([first!.memoryId, second!.memoryId]);
    expect(seen.rows).toBe(2);
    await memory.approve(first!.memoryId, owner);
    seen.rows = 0;
    // Approved, its input is no longer held: the queue is the other one alone.
    expect((await memory.pending(owner)).map((entry) => entry.id)).toEqual([second!.memoryId]);
    expect(seen.rows).toBe(1);
    await memory.reject(second!.memoryId, owner);
    seen.rows = 0;
    expect(await memory.pending(owner)).toEqual([]);
    expect(seen.rows).toBe(0);
    await memory.close();
  });

  it('finds held writes of a database whose marks an upgrade cut short left out (finishing upgrades marks them on open)', async () => {
    const test = await createTestMemory({ review });
    const [held] = await test.memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    await test.memory.remember({ content: 'The user plays the cello.', topic: 'hobbies' }, { ...owner, source: explicit('e1') });
    await test.memory.close();
    // What a v5 database (no mark) upgraded with its data step cut short holds.
    const db = new EngramDatabase(test.name, { indexedDB: test.factory, IDBKeyRange });
    await db.inputs.toCollection().modify((row) => void delete row.held);
    expect(await db.inputs.where('[userId+appName+held]').equals([owner.userId, owner.appName, 1]).count()).toBe(0);
    await db.partitions.put({ key: UPGRADES_DONE_KEY, version: db.verno - 1 });
    db.close();
    const again = await createTestMemory({ review, name: test.name, indexedDB: test.factory });
    expect((await again.memory.pending(owner)).map((entry) => entry.id)).toEqual([held!.memoryId]);
    await again.memory.close();
  });

  it('applies writes of other source types at once', async () => {
    const { memory } = await createTestMemory({ review });
    const [operation] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: explicit('c1') });
    expect(operation!.pending).toBeUndefined();
    expect(await memory.pending(owner)).toEqual([]);
    expect((await memory.list(owner)).map((record) => record.id)).toEqual([operation!.memoryId]);
    await memory.close();
  });

  it('stores the memory under the pending id when approved, and retrieval finds it', async () => {
    const { memory, clock } = await createTestMemory({ review });
    const [operation] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    clock.advance(DAY);
    const applied = await memory.approve(operation!.memoryId, owner);
    expect(applied).toMatchObject({ action: 'CREATE', memoryId: operation!.memoryId });
    expect(await memory.pending(owner)).toEqual([]);
    const [record] = await memory.list(owner);
    expect(record).toMatchObject({ id: operation!.memoryId, content: operation!.content, sources: [expect.objectContaining({ id: 'c1', type: 'user_implicit' })] });
    expect((await memory.retrieve('where does the user live?', owner)).map((hit) => hit.memory.id)).toEqual([operation!.memoryId]);
    await expect(memory.approve(operation!.memoryId, owner)).rejects.toThrow(NotFoundError);
    await memory.close();
  });

  it('holds nothing when the trust gate refuses the write (a NOOP has nothing to approve)', async () => {
    const { memory } = await createTestMemory({ review });
    await memory.ingest([{ role: 'user', content: 'I am vegetarian.' }], { ...owner, sessionId: 's1', source: explicit('c1') });
    const [refused] = await memory.ingest([{ role: 'user', content: 'I am vegan.' }], { ...owner, sessionId: 's2', source: implicit('c2') });
    expect(refused).toMatchObject({ action: 'NOOP' });
    expect(refused!.pending).toBeUndefined();
    expect(await memory.pending(owner)).toEqual([]);
    await memory.close();
  });

  it('supersedes only on approve, for a pending UPDATE a trusted enough source made', async () => {
    const { memory, clock } = await createTestMemory({ review: { sources: ['user_explicit'] } });
    const first = await memory.remember({ content: 'The user is vegetarian.', topic: 'diet' }, { ...owner, source: implicit('c1') });
    clock.advance(DAY);
    const update = await memory.remember({ content: 'The user eats fish.', topic: 'diet' }, { ...owner, source: explicit('c2') });
    expect(update).toMatchObject({ action: 'UPDATE', targetId: first.memoryId, pending: true });
    expect((await memory.list(owner)).map((record) => record.id)).toEqual([first.memoryId]);
    clock.advance(DAY);
    await memory.approve(update.memoryId, owner);
    const all = await memory.list({ ...owner, includeInvalid: true });
    expect(all.find((record) => record.id === first.memoryId)).toMatchObject({ supersededBy: update.memoryId, invalidatedAt: clock() });
    expect((await memory.list(owner)).map((record) => record.content)).toEqual(['The user eats fish.']);
    await memory.close();
  });

  it('refuses to approve an UPDATE whose target was replaced since', async () => {
    const { memory, clock } = await createTestMemory({ review: { sources: ['user_implicit'] } });
    await memory.remember({ content: 'The user is vegetarian.', topic: 'diet' }, { ...owner, source: implicit('c0') });
    // The first write was held too: approve it so there is something to update.
    await memory.approve((await memory.pending(owner))[0]!.id, owner);
    clock.advance(DAY);
    const update = await memory.remember({ content: 'The user eats fish.', topic: 'diet' }, { ...owner, source: implicit('c1') });
    expect(update).toMatchObject({ action: 'UPDATE', pending: true });
    await memory.remember({ content: 'The user is vegan.', topic: 'diet' }, { ...owner, source: explicit('c2') });
    await expect(memory.approve(update.memoryId, owner)).rejects.toThrow(ConflictError);
    expect(await memory.pending(owner)).toHaveLength(1);
    await memory.close();
  });

  it('does not queue the same fact twice', async () => {
    const { memory } = await createTestMemory({ review });
    const [first] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    const [second] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's2', source: implicit('c2') });
    expect(second).toMatchObject({ action: 'NOOP', memoryId: first!.memoryId, pending: true });
    expect(await memory.pending(owner)).toHaveLength(1);
    await memory.close();
  });

  it('erases a rejected memory: no text of it remains, and no replay brings it back', async () => {
    const { memory, factory } = await createTestMemory({ review });
    await memory.ingest([{ role: 'user', content: 'I am vegetarian.' }], { ...owner, sessionId: 's0', source: explicit('c0') });
    const [operation] = await memory.ingest([{ role: 'user', content: 'I live in Zanzibarville.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    expect(await findInDatabases(factory, 'Zanzibarville')).not.toEqual([]);
    expect(await memory.reject(operation!.memoryId, owner)).toEqual({ rejected: operation!.memoryId });
    expect(await findInDatabases(factory, 'Zanzibarville')).toEqual([]);
    expect(await memory.pending(owner)).toEqual([]);
    // Replays (forgetSource of another source, asOf) rebuild from the stored inputs: it stays out.
    await memory.forgetSource('unrelated', owner);
    await memory.forgetSource('c0', owner);
    expect(await memory.list({ ...owner, includeInvalid: true })).toSatisfy((records: { content: string }[]) => records.every((record) => !record.content.includes('Zanzibar')));
    expect(await findInDatabases(factory, 'Zanzibarville')).toEqual([]);
    await expect(memory.reject(operation!.memoryId, owner)).rejects.toThrow(NotFoundError);
    await memory.close();
  });

  it('keeps pending memories pending through a replay of the owner’s history', async () => {
    const { memory, clock } = await createTestMemory({ review });
    await memory.ingest([{ role: 'user', content: 'I am vegetarian.' }], { ...owner, sessionId: 's0', source: explicit('c0') });
    const [held] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    await memory.ingest([{ role: 'user', content: 'I play the cello.' }], { ...owner, sessionId: 's2', source: explicit('c2') });
    await memory.forgetSource('c0', owner);
    expect((await memory.list(owner)).map((record) => record.content)).not.toContain(held!.content);
    expect((await memory.pending(owner)).map((entry) => entry.id)).toEqual([held!.memoryId]);
    expect(await memory.list({ ...owner, asOf: clock() })).toSatisfy((records: { content: string }[]) => records.every((record) => record.content !== held!.content));
    await memory.approve(held!.memoryId, owner);
    // Approved, it is replayed like any other write.
    expect(await memory.forgetSource('unrelated', owner)).toEqual({ erased: [], regenerated: [] });
    expect((await memory.list(owner)).map((record) => record.content)).toContain(held!.content);
    await memory.close();
  });

  it('holds an approved memory in past states only from the approval on', async () => {
    const { memory, clock } = await createTestMemory({ review });
    const [held] = await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    clock.advance(DAY);
    const between = clock();
    clock.advance(DAY);
    await memory.approve(held!.memoryId, owner);
    expect(await memory.list({ ...owner, asOf: between })).toEqual([]);
    expect((await memory.list({ ...owner, asOf: clock() })).map((record) => record.content)).toEqual([held!.content]);
    expect((await memory.get(held!.memoryId, owner)).sources[0]!.at).toBe(clock());
    await memory.close();
  });

  it('reports a held write to subscribers', async () => {
    const { memory } = await createTestMemory({ review });
    let calls = 0;
    memory.subscribe(owner, () => void calls++);
    await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    await expect.poll(() => calls).toBeGreaterThan(0);
    await memory.close();
  });

  it('refuses an unknown key or source type in the review option', async () => {
    await expect(createTestMemory({ review: { sources: ['user_implicit'], typo: true } as never })).rejects.toThrow(ValidationError);
    await expect(createTestMemory({ review: { sources: ['gossip'] } as never })).rejects.toThrow(ValidationError);
  });

  it('carries pending memories through export and import, where they can be approved', async () => {
    const { memory } = await createTestMemory({ review });
    await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    await memory.remember({ content: 'The user plays the cello.', topic: 'hobbies' }, { ...owner, source: implicit('r1') });
    const pending = await memory.pending(owner);
    expect(pending).toHaveLength(2);
    const data = await memory.export(owner);
    const other = await createTestMemory({ review });
    await other.memory.import(JSON.parse(JSON.stringify(data)));
    expect(await other.memory.pending(owner)).toEqual(pending);
    expect(await other.memory.list(owner)).toEqual([]);
    for (const entry of pending) await other.memory.approve(entry.id, owner);
    expect((await other.memory.list(owner)).map((record) => record.id).sort()).toEqual(pending.map((entry) => entry.id).sort());
    const exported = await other.memory.export(owner);
    expect(exported.inputs.every((input) => input.kind === 'prune' || input.pending === undefined || input.pending.length === 0)).toBe(true);
    await memory.close();
    await other.memory.close();
  });

  it('refuses an import whose pending entry names no candidate', async () => {
    const { memory } = await createTestMemory({ review });
    await memory.ingest([{ role: 'user', content: 'I live in Lisbon.' }], { ...owner, sessionId: 's1', source: implicit('c1') });
    const data = JSON.parse(JSON.stringify(await memory.export(owner)));
    data.inputs[0].pending[0].index = 7;
    const other = await createTestMemory();
    await expect(other.memory.import(data)).rejects.toThrow(ValidationError);
    expect(await other.memory.export(owner)).toMatchObject({ memories: [], inputs: [] });
    await memory.close();
    await other.memory.close();
  });
});
