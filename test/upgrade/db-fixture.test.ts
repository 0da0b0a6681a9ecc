/**
 * On-disk upgrades: a database written by an earlier release (test/fixtures/engram-db-v3.json,
 * built by scripts/build-db-fixture.ts from that release's commit and never rebuilt) must open
 * with the current code with nothing lost: memories and their lineage, stored inputs (so
 * forgetting still regenerates), revocations, and the packed vectors retrieval loads from.
 */
import { readFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, EPISODE_TOPIC, type Memory, type MemoryRecord } from '../../src/index';
import { decodeValue, dumpDatabase, restoreDatabase, type DatabaseFixture } from '../helpers/idb-fixture';
import { EngramDatabase } from '../../src/store/database';
import { expectRetrievedAsBefore } from '../helpers/retrieved-before';

interface Owner {
  userId: string;
  appName: string;
}

interface Fixture {
  builtFrom: string;
  name: string;
  now: number;
  owners: Owner[];
  database: DatabaseFixture;
  expected: unknown;
}

interface Expected {
  exports: { exportedAt: number; memories: unknown[]; inputs: unknown[] }[];
  lists: MemoryRecord[][];
  retrieved: Record<string, string[][]>;
  afterForget: { report: { erased: string[]; regenerated: { from: string; to: string | null }[] }; active: unknown[] };
}

const QUERIES = ['any dietary restrictions I should know about?', 'what seat should I book on the flight?', 'what should we order for lunch?'];
const fixture = JSON.parse(readFileSync(new URL('../fixtures/engram-db-v3.json', import.meta.url), 'utf8')) as Fixture;
const expected = decodeValue(fixture.expected) as Expected;

let memory: Memory | undefined;
afterEach(async () => {
  await memory?.close();
  memory = undefined;
});

/** The fixture restored raw into a fresh factory, opened with today's createMemory. */
async function openUpgraded(): Promise<{ memory: Memory; factory: IDBFactory }> {
  const factory = new IDBFactory();
  await restoreDatabase(factory, fixture.name, fixture.database);
  let next = 1000;
  memory = await createMemory({ name: fixture.name, indexedDB: factory, IDBKeyRange, worker: 'off', clock: () => fixture.now, idGenerator: () => `mem_up_${++next}` });
  return { memory, factory };
}

function facts(records: readonly MemoryRecord[]) {
  return records.map(({ content, topic, scope, confidence, sources }) => ({ content, topic, scope, confidence, sources: sources.map((source) => source.id) })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('createMemory (opening a database written by an earlier release)', () => {
  it(`keeps every memory, its sources and history when the fixture from ${fixture.builtFrom.slice(0, 12)} is opened`, async () => {
    const { memory } = await openUpgraded();
    for (const [i, owner] of fixture.owners.entries()) {
      const records = await memory.list({ ...owner, includeInvalid: true });
      expect(records.length).toBe(expected.lists[i]!.length);
      expect(records).toMatchObject(expected.lists[i]!);
    }
  });

  it('exports the same memories and stored inputs for every owner after the upgrade', async () => {
    const { memory } = await openUpgraded();
    for (const [i, owner] of fixture.owners.entries()) {
      const { exportedAt: _then, ...before } = expected.exports[i]!;
      const { exportedAt: _now, ...after } = await memory.export(owner);
      expect(after).toMatchObject(before);
      expect(after.inputs).toHaveLength(before.inputs.length);
    }
  });

  it('retrieves every memory it retrieved before from the packed vectors', async () => {
    const { memory } = await openUpgraded();
    for (const owner of fixture.owners) {
      for (const [q, query] of QUERIES.entries()) {
        await expectRetrievedAsBefore(memory, query, owner, expected.retrieved[JSON.stringify(owner)]![q]!);
      }
    }
  });

  it('still knows which sources were revoked: forgetting one again reports and writes nothing', async () => {
    const { memory, factory } = await openUpgraded();
    await memory.list({ ...fixture.owners[0]!, includeInvalid: true });
    const before = await dumpDatabase(factory, fixture.name);
    expect(await memory.forgetSource('s2', fixture.owners[0]!)).toEqual({ erased: [], regenerated: [] });
    expect(await dumpDatabase(factory, fixture.name)).toEqual(before);
  });

  it('regenerates from the stored inputs as the earlier release did when a source is forgotten after the upgrade', async () => {
    const { memory } = await openUpgraded();
    const report = await memory.forgetSource('s3', fixture.owners[0]!);
    expect(report.erased.sort()).toEqual([...expected.afterForget.report.erased].sort());
    expect(report.regenerated.map((entry) => entry.from).sort()).toEqual(expected.afterForget.report.regenerated.map((entry) => entry.from).sort());
    // Inputs stored before candidates were are extracted again on replay, by today's pipeline:
    // the turns it replays gain their episodes then; the facts are the earlier release's.
    const active = await memory.list(fixture.owners[0]!);
    expect(facts(active.filter((record) => record.topic !== EPISODE_TOPIC))).toEqual(expected.afterForget.active.slice().sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    for (const episode of active.filter((record) => record.topic === EPISODE_TOPIC)) expect(episode.sources.map((source) => source.id)).not.toContain('s3');
  });

  it("finds each owner's prunes by the v8 prunes index after the upgrade, and only those", async () => {
    const { memory: upgraded, factory } = await openUpgraded();
    const owner = fixture.owners[0]!;
    const exported = await upgraded.export(owner);
    expect(exported.inputs.length).toBeGreaterThan(0);
    await upgraded.close();
    memory = undefined;
    const db = new EngramDatabase(fixture.name, { indexedDB: factory, IDBKeyRange });
    let rows: { seq?: number | undefined }[] = [];
    try {
      // Every stored input is in the index (IndexedDB filled it from the fixture's rows), under its kind.
      rows = await db.inputs.where('[userId+appName]').equals([owner.userId, owner.appName]).toArray();
      const indexed = await db.inputs.where('[userId+appName+kind+seq]').between([owner.userId, owner.appName, '', 0], [owner.userId, owner.appName, '\uffff', Infinity]).primaryKeys();
      expect([...indexed].sort()).toEqual(rows.map((row) => row.seq).sort());
    } finally {
      db.close();
    }
    // A prune stored after the upgrade is found by it.
    const last = Math.max(...rows.map((row) => row.seq!));
    const reopened = await createMemory({ name: fixture.name, indexedDB: factory, IDBKeyRange, worker: 'off', clock: () => fixture.now });
    await reopened.prune({ ...owner, floor: 0.01 });
    await reopened.close();
    const after = new EngramDatabase(fixture.name, { indexedDB: factory, IDBKeyRange });
    try {
      const prunes = await after.inputs.where('[userId+appName+kind+seq]').between([owner.userId, owner.appName, 'prune', last], [owner.userId, owner.appName, 'prune', Infinity], false, true).toArray();
      expect(prunes.map((row) => row.kind)).toEqual(['prune']);
    } finally {
      after.close();
    }
  });

  it("finds each owner's active memories of an embedder by the v7 embedder index after the upgrade", async () => {
    const { memory, factory } = await openUpgraded();
    const listed = await Promise.all(fixture.owners.map((owner) => memory.list(owner)));
    await memory.close();
    const db = new EngramDatabase(fixture.name, { indexedDB: factory, IDBKeyRange });
    try {
      for (const [i, owner] of fixture.owners.entries()) {
        const mine = listed[i]!.filter((record) => record.scope !== 'app');
        expect(mine.length).toBeGreaterThan(0);
        for (const embedderId of new Set(mine.map((record) => record.embedderId))) {
          const indexed = await db.memories.where('[userId+appName+embedderId+active]').equals([owner.userId, owner.appName, embedderId, 1]).primaryKeys();
          expect([...indexed].sort()).toEqual(
            mine
              .filter((record) => record.embedderId === embedderId)
              .map((record) => record.id)
              .sort(),
          );
        }
      }
    } finally {
      db.close();
    }
  });

  it('accepts new writes on the upgraded database', async () => {
    const { memory } = await openUpgraded();
    const bob = fixture.owners[1]!;
    const operations = await memory.ingest([{ role: 'user', content: "I've started eating fish again." }], { ...bob, sessionId: 'b2', source: { type: 'user_explicit', id: 'b2' } });
    // The turn is kept as an episode too (episodes are on by default), then the diet UPDATE.
    expect(operations.map((operation) => [operation.action, operation.content])).toEqual([
      ['CREATE', "I've started eating fish again."],
      ['UPDATE', 'The user eats fish again.'],
    ]);
    expect((await memory.retrieve('does the user eat fish?', { ...bob, k: 1 }))[0]!.memory.content).toBe('The user eats fish again.');
  });
});
