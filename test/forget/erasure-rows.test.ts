/**
 * What one forgetSource reads and writes of a long-lived memory's lists (store/lineage.ts keeps
 * them in side tables): a user who restates the same preferences gives a memory a source and
 * a history entry per conversation, and a recent erasure touches it.
 */
import type { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { changesDiet, createReadCounter, longUserConversations, restatesDiet } from '../../scripts/bench-long';
import { createTestMemory, T0, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';
import { activeFacts } from '../helpers/facts';
import type { ChatMessage } from '../../src/schema';

const owner = { userId: 'u_long', appName: 'default' };
const HOUR = 3_600_000;

/** Per table, how often each lineage and event row (by its key fields) was handed out by a read, and the rows put. */
function rowTally() {
  const reads = new Map<string, Map<string, number>>();
  const puts = new Map<string, unknown[]>();
  // Lineage rows by memory, n and source: an erasure also reads the revoked source's own rows again, in its commit, to blank them.
  const keyOf = (value: { memoryId?: string; n?: number; sourceId?: string }) => JSON.stringify([value.memoryId, value.n, value.sourceId]);
  const counter = createReadCounter((table, kind, values) => {
    if (kind === 'put') puts.set(table, [...(puts.get(table) ?? []), ...values]);
    else if (table === 'lineage' || table === 'events') {
      const seen = reads.get(table) ?? reads.set(table, new Map()).get(table)!;
      for (const value of values) if (value !== undefined) seen.set(keyOf(value as object), (seen.get(keyOf(value as object)) ?? 0) + 1);
    }
  });
  return {
    reads,
    puts,
    install: (db: Dexie) => counter.install(db),
    reset() {
      reads.clear();
      puts.clear();
    },
  };
}

let tests: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(tests.map((test) => test.memory.close()));
  tests = [];
});

/** Ingests the long user's `conversations` into `test`, one an hour, each its own source `c<i>`, but `skip`. */
async function playLong(test: TestMemory, conversations: readonly ChatMessage[][], skip?: number): Promise<void> {
  for (const [i, messages] of conversations.entries()) {
    if (i === skip) continue;
    test.clock.set(T0 + i * HOUR);
    await test.memory.ingest(messages, { ...owner, sessionId: `s${i}`, source: { type: 'user_explicit', id: `c${i}` } });
  }
}

describe('Memory.forgetSource (rows of a long-lived memory)', () => {
  it('reads each lineage and event row once, and leaves the stored history of the memories it retires in place', async () => {
    const tally = rowTally();
    const test = await createTestMemory({ episodes: true, onDatabase: (db) => tally.install(db) });
    tests.push(test);
    const conversations = longUserConversations(150);
    await playLong(test, conversations);
    // The memory of the longest history (a turn restated every few conversations: its episode), and the newest conversation among its sources.
    const [widest] = (await test.memory.list(owner)).sort((a, b) => b.history.length - a.history.length);
    expect(widest!.sources.length).toBeGreaterThan(30);
    expect(widest!.history.length).toBeGreaterThan(30);
    const newest = widest!.sources.at(-1)!.id;
    tally.reset();
    const report = await test.memory.forgetSource(newest, owner);

    // The erasure's set and its checkpoint hold the same memories: their lists are read once
    // (the revoked source's own lineage rows twice: found, then blanked by the commit).
    for (const table of ['lineage', 'events']) {
      const twice = [...(tally.reads.get(table) ?? new Map<string, number>())].filter(([key, count]) => count > 1 && JSON.parse(key)[2] !== newest);
      expect(twice.length, `${table} rows read more than once`).toBe(0);
    }
    // The retired memory keeps its stored history: its new last entry (and the revoked source's generalized) is written, not all of it again.
    expect(report.regenerated.map((entry) => entry.from)).toContain(widest!.id);
    const rewritten = (tally.puts.get('events') ?? []).filter((row) => (row as { memoryId: string }).memoryId === widest!.id);
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.length).toBeLessThanOrEqual(3);
    const [tombstone] = (await test.memory.list({ ...owner, includeInvalid: true })).filter((record) => record.id === widest!.id);
    expect(tombstone!.history.slice(0, widest!.history.length - 1)).toEqual(widest!.history.slice(0, -1));
    expect(tombstone!.history.at(-1)!.event).toBe('regenerated');
    expect(tombstone!.history.length).toBe(widest!.history.length + 1);
  }, 120_000);

  it('reads each lineage and event row once when the forgotten source changed a preference, and the store equals one that never saw it', async () => {
    const tally = rowTally();
    const conversations = longUserConversations(120);
    // A middle conversation that changes the diet.
    const revoked = changesDiet(conversations, 60);
    const test = await createTestMemory({ episodes: true, onDatabase: (db) => tally.install(db) });
    const fresh = await createTestMemory({ episodes: true });
    tests.push(test, fresh);
    await playLong(test, conversations);
    await playLong(fresh, conversations, revoked);
    tally.reset();
    await test.memory.forgetSource(`c${revoked}`, owner);
    // It changed the diet, so it is replayed: the records are read once, for the replay, not first
    // for the erasure without a replay (forget/restated.ts), which cannot be made (the revoked
    // source's own lineage rows twice: found, then blanked by the commit).
    for (const table of ['lineage', 'events']) {
      const twice = [...(tally.reads.get(table) ?? new Map<string, number>())].filter(([key, count]) => count > 1 && JSON.parse(key)[2] !== `c${revoked}`);
      expect(twice.length, `${table} rows read more than once`).toBe(0);
    }
    expect(activeFacts(await test.memory.list(owner))).toEqual(activeFacts(await fresh.memory.list(owner)));
  }, 180_000);

  it("reads the lineage of the chains of the memories it reads, not the owner's whole table, when they are many memories of a few chains", async () => {
    // Per table, the rows handed out: lineage rows by chain, memory rows' chains.
    const chainsRead = { lineage: new Set<string>(), memories: new Set<string>(), memoryRows: 0 };
    const counter = createReadCounter((table, kind, values) => {
      if (kind !== 'read') return;
      for (const value of values as ({ chain?: string } | undefined)[]) {
        if (value?.chain === undefined) continue;
        if (table === 'lineage') chainsRead.lineage.add(value.chain);
        if (table === 'memories') chainsRead.memories.add(value.chain), chainsRead.memoryRows++;
      }
    });
    const test = await createTestMemory({ episodes: true, onDatabase: (db) => counter.install(db) });
    tests.push(test);
    const conversations = longUserConversations(240);
    await playLong(test, conversations);
    // An old source that restated: every later memory of the lines it corroborated lists it.
    const revoked = restatesDiet(conversations, 12);
    chainsRead.lineage.clear();
    chainsRead.memories.clear();
    chainsRead.memoryRows = 0;
    await test.memory.forgetSource(`c${revoked}`, owner);
    // Past 64 memories their lists are read in one pass over the owner's tables (lineage-read.ts): this is that case.
    expect(chainsRead.memoryRows).toBeGreaterThan(64);
    const strays = [...chainsRead.lineage].filter((chain) => !chainsRead.memories.has(chain));
    expect(strays, 'lineage of chains no memory read belongs to').toEqual([]);
  }, 240_000);

  it("reads no memory's lists when the forgotten conversation left nothing in memory, and the store still equals one that never saw it", async () => {
    const tally = rowTally();
    const test = await createTestMemory({ episodes: true, onDatabase: (db) => tally.install(db) });
    tests.push(test);
    const conversations = longUserConversations(60);
    const ingest = async (i: number, messages = conversations[i]!) => {
      test.clock.set(T0 + i * HOUR);
      return test.memory.ingest(messages, { ...owner, sessionId: `s${i}`, source: { type: 'user_explicit', id: `c${i}` } });
    };
    for (let i = 0; i < 40; i++) await ingest(i);
    // Small talk: no fact, no episode.
    expect(await ingest(40, [{ role: 'user', content: 'ok thanks zqsmalltalk' }])).toEqual([]);
    for (let i = 41; i < 60; i++) await ingest(i);
    const before = await test.memory.list({ ...owner, includeInvalid: true });
    tally.reset();
    expect(await test.memory.forgetSource('c40', owner)).toEqual({ erased: [], regenerated: [] });
    expect(tally.reads.get('lineage')?.size ?? 0).toBe(0);
    expect(tally.reads.get('events')?.size ?? 0).toBe(0);
    expect(await test.memory.list({ ...owner, includeInvalid: true })).toEqual(before);
    expect(await findInDatabases(test.factory, 'zqsmalltalk')).toEqual([]);
    // Revoked all the same: forgetting it again finds it forgotten and writes nothing.
    tally.reset();
    expect(await test.memory.forgetSource('c40', owner)).toEqual({ erased: [], regenerated: [] });
    expect(tally.puts.size).toBe(0);
  }, 120_000);
});
