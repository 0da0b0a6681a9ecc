/**
 * Erasure on a full disk (issue 41, item 4): with every add and put refused (test/helpers/full-disk.ts,
 * Chromium's behaviour at an exhausted quota), forgetSource, forget(id) and prune still work. Each transaction only
 * deletes; what it must rebuild is written by the owner's next write once there is room, and until
 * then no read shows the erased text or a memory only the erased source supported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaError } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { createDisk, onFullDisk, type Disk } from '../helpers/full-disk';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'u_bea', appName: 'default' };
const CANARY = 'Zqxfulldiskcanary';

/** k1 before and k2 after the canary's source, which updates k1's fact and says one of k2's again. */
async function fillStore({ memory, clock }: TestMemory): Promise<void> {
  const turn = (content: string, id: string, sessionId: string) => memory.ingest([{ role: 'user', content }], { ...owner, sessionId, source: { type: 'user_explicit', id } });
  await turn("I'm vegetarian. I live in Porto.", 'k1', 'a');
  clock.advance(DAY);
  await turn(`I eat fish again. My locker code is ${CANARY}. I play the cello.`, 'canary', 'b');
  await memory.remember({ content: `The user's bike is called ${CANARY}.`, topic: 'other' }, { ...owner, source: { type: 'user_explicit', id: 'canary' } });
  clock.advance(DAY);
  await turn('I play the cello. I prefer the aisle seat.', 'k2', 'c');
  clock.advance(DAY);
}

const hits = async (test: TestMemory, needle = CANARY) => (await findInDatabases(test.factory, needle)).map((row) => row.store);

/** A memory with the store filled, on a disk that fills when the test says (`disk`), closed after the test. */
const opened = new Set<TestMemory>();
afterEach(async () => {
  for (const test of opened) await test.memory.close();
  opened.clear();
});
async function open(disk?: Disk): Promise<TestMemory> {
  const test = await createTestMemory({ episodes: true, ...(disk ? { onDatabase: onFullDisk(disk) } : {}) });
  opened.add(test);
  await fillStore(test);
  return test;
}

describe('forgetSource on a full disk', () => {
  it('erases with a transaction that only deletes; the next write with room rebuilds the store an online erasure leaves', async () => {
    const control = await open();
    await control.memory.forgetSource('canary', owner);
    const expected = activeFacts(await control.memory.list(owner));

    const disk = createDisk();
    const test = await open(disk);
    expect(await hits(test)).not.toEqual([]);
    // A second instance over the same database, its caches warm with the canary's memories.
    const other = await createTestMemory({ episodes: true, indexedDB: test.factory, name: test.name, onDatabase: onFullDisk(disk) });
    opened.add(other);
    expect(JSON.stringify(await other.memory.retrieve(`locker code ${CANARY}`, owner))).toContain(CANARY);
    disk.full = true;
    await expect(test.memory.remember({ content: 'The user owns a kayak.', topic: 'other' }, { ...owner, source: { type: 'user_explicit', id: 'k3' } })).rejects.toBeInstanceOf(QuotaError);

    // The erasure's own commit is refused too (it puts tombstones); the one it makes instead only deletes.
    const report = await test.memory.forgetSource('canary', owner);
    expect(report.erased.length).toBeGreaterThan(0);
    expect(await hits(test)).toEqual([]);
    // Until the rebuild: no erased text, no memory the erased source alone supported, nothing of it retrieved.
    const waiting = await test.memory.list({ ...owner, includeInvalid: true });
    expect(waiting.filter((record) => record.sources.some((source) => source.id === 'canary'))).toEqual([]);
    expect(JSON.stringify(waiting)).not.toContain(CANARY);
    expect(JSON.stringify(await test.memory.retrieve(`locker code ${CANARY}`, owner))).not.toContain(CANARY);
    expect(JSON.stringify([await other.memory.retrieve(`locker code ${CANARY}`, owner), await other.memory.list({ ...owner, includeInvalid: true })])).not.toContain(CANARY);
    expect(activeFacts(waiting).every((fact) => expected.some((kept) => JSON.stringify(kept) === JSON.stringify(fact)))).toBe(true);
    // The memories k2 supports too ('I play the cello.') wait for the rebuild.
    expect(activeFacts(waiting).length).toBeLessThan(expected.length);
    // Forgetting it again at quota deletes nothing more; any other write still needs room (the rebuild first).
    await test.memory.forgetSource('canary', owner);
    await expect(test.memory.remember({ content: 'The user owns a kayak.', topic: 'other' }, { ...owner, source: { type: 'user_explicit', id: 'k3' } })).rejects.toBeInstanceOf(QuotaError);
    expect(await hits(test)).toEqual([]);

    disk.full = false;
    await test.memory.remember({ content: 'The user owns a kayak.', topic: 'other' }, { ...owner, source: { type: 'user_explicit', id: 'k3' } });
    await control.memory.remember({ content: 'The user owns a kayak.', topic: 'other' }, { ...owner, source: { type: 'user_explicit', id: 'k3' } });
    expect(activeFacts(await test.memory.list(owner))).toEqual(activeFacts(await control.memory.list(owner)));
    expect(activeFacts(await other.memory.list(owner))).toEqual(activeFacts(await control.memory.list(owner)));
    expect(JSON.stringify(await other.memory.retrieve(`locker code ${CANARY}`, owner))).not.toContain(CANARY);
    expect(await hits(test)).toEqual([]);
    // A source revoked by the rebuild: its ingest, replayed by a stale tab, is refused.
    expect(await test.memory.forgetSource('canary', owner)).toEqual({ erased: [], regenerated: [] });
  });
  it('erases a conversation that left nothing in memory (small talk) on a full disk too', async () => {
    const disk = createDisk();
    const test = await open(disk);
    await test.memory.ingest([{ role: 'user', content: `lol ok ${CANARY.toLowerCase()}` }], { ...owner, sessionId: 'd', source: { type: 'user_explicit', id: 'talk' } });
    expect(await hits(test)).not.toEqual([]);
    expect((await test.memory.list({ ...owner, includeInvalid: true })).filter((record) => record.sources.some((source) => source.id === 'talk'))).toEqual([]);
    disk.full = true;
    // Its fast path commits a revocation (a put); at quota the erasure falls back to deletes alone.
    await test.memory.forgetSource('talk', owner);
    disk.full = false;
    await test.memory.forgetSource('canary', owner);
    expect(await hits(test)).toEqual([]);
  });
});

describe('forget(id) and prune on a full disk', () => {
  const DRUMS = 'Zqxdrumcanary';
  const remember = (test: TestMemory, content: string, id: string) => test.memory.remember({ content, topic: 'other' }, { ...owner, source: { type: 'user_explicit', id } });
  /** The store filled, then a turn of two facts, one of which (the drums) holds the canary. */
  async function openTwoFacts(disk?: Disk): Promise<TestMemory> {
    const test = await open(disk);
    await test.memory.ingest([{ role: 'user', content: `I play the drums in ${DRUMS} and I'm allergic to dust.` }], { ...owner, sessionId: 'e', source: { type: 'user_explicit', id: 'two' } });
    test.clock.advance(DAY);
    return test;
  }
  const factOf = <R extends { topic: string; content: string }>(records: readonly R[], needle: string) => records.find((record) => record.topic !== 'episode' && record.content.includes(needle));

  it('forgets one fact of a two-fact sentence with deletes alone; the sibling survives the rebuild, as online', async () => {
    const control = await openTwoFacts();
    await control.memory.forget(factOf(await control.memory.list(owner), DRUMS)!.id, owner);
    expect(factOf(await control.memory.list(owner), 'dust')).toBeDefined();

    const disk = createDisk();
    const test = await openTwoFacts(disk);
    const drums = factOf(await test.memory.list(owner), DRUMS)!;
    expect(drums).toBeDefined();
    disk.full = true;
    const report = await test.memory.forget(drums.id, owner);
    expect(report.erased).toContain(drums.id);
    // Nothing of it is stored, and no read shows it, until and after the rebuild.
    expect(await hits(test, DRUMS)).toEqual([]);
    expect(JSON.stringify(await test.memory.list({ ...owner, includeInvalid: true }))).not.toContain(DRUMS);
    expect(JSON.stringify(await test.memory.retrieve(`drums ${DRUMS}`, owner))).not.toContain(DRUMS);
    await expect(remember(test, 'The user owns a kayak.', 'k3')).rejects.toBeInstanceOf(QuotaError);

    disk.full = false;
    await remember(test, 'The user owns a kayak.', 'k3');
    await remember(control, 'The user owns a kayak.', 'k3');
    const after = await test.memory.list(owner);
    expect(factOf(after, 'dust')).toBeDefined();
    expect(activeFacts(after)).toEqual(activeFacts(await control.memory.list(owner)));
    expect(await hits(test, DRUMS)).toEqual([]);
    expect(JSON.stringify(await test.memory.export(owner))).not.toContain(DRUMS);
  });

  it('prunes with deletes alone; the rebuild leaves what an online prune leaves', async () => {
    const pruneAt = async (test: TestMemory, disk?: Disk) => {
      await test.memory.ingest([{ role: 'user', content: 'The export keeps failing.' }], { ...owner, sessionId: 'f', source: { type: 'user_explicit', id: 'issue' } });
      test.clock.advance(365 * DAY);
      if (disk) disk.full = true;
      return test.memory.prune({ ...owner, floor: 0.3 });
    };
    const control = await open();
    const online = await pruneAt(control);
    expect(online.pruned.map((entry) => entry.content)).toContain('The user reported a failing export/upload.');
    expect(online.remaining).toBeGreaterThan(0);

    const disk = createDisk();
    const test = await open(disk);
    // The disk fills between the turn and the prune.
    const report = await pruneAt(test, disk);
    expect(report).toEqual(online);
    const contents = (await test.memory.list(owner)).map((record) => record.content);
    expect(online.pruned.filter((entry) => contents.includes(entry.content))).toEqual([]);

    disk.full = false;
    await remember(test, 'The user owns a kayak.', 'k3');
    await remember(control, 'The user owns a kayak.', 'k3');
    expect(activeFacts(await test.memory.list(owner))).toEqual(activeFacts(await control.memory.list(owner)));
    // The prune is stored with the rebuild: a later erasure's replay prunes the same.
    await test.memory.forgetSource('k1', owner);
    await control.memory.forgetSource('k1', owner);
    expect(activeFacts(await test.memory.list(owner))).toEqual(activeFacts(await control.memory.list(owner)));
  });

  it('prunes nothing on a full disk without touching the store: retrieve answers as before, no rebuild is due', async () => {
    const disk = createDisk();
    const test = await open(disk);
    const before = (await test.memory.retrieve('cello', { ...owner, k: 5 })).map((hit) => hit.memory.id);
    expect(before.length).toBeGreaterThan(0);
    disk.full = true;
    // Nothing has decayed below the floor a day after it was said.
    expect((await test.memory.prune({ ...owner, floor: 0.01 })).pruned).toEqual([]);
    expect((await test.memory.retrieve('cello', { ...owner, k: 5 })).map((hit) => hit.memory.id)).toEqual(before);
    disk.full = false;
    expect((await test.memory.retrieve('cello', { ...owner, k: 5 })).map((hit) => hit.memory.id)).toEqual(before);
  });
});
