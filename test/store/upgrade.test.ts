import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory, MemoryRecord } from '../../src/index';
import { EngramDatabase } from '../../src/store/database';
import { userPartition } from '../../src/storage/owner';
import { record, source, T } from '../consolidate/fixtures';
import { createTestMemory, DAY } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';
import { factHash } from '../../src/text';

const owner = { userId: 'u', appName: 'default' };
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

/** The schema the v3 code declared, table for table, as a database written by it has it. */
function openV3(name: string, factory: IDBFactory): Dexie {
  const db = new Dexie(name, { indexedDB: factory, IDBKeyRange });
  db.version(1).stores({
    memories: 'id, [userId+appName+scope], [appName+scope], [userId+appName+topic], *sourceIds',
    inputs: '++seq, [userId+appName], [userId+appName+scope], [userId+appName+source.id]',
    partitions: 'key',
  });
  db.version(2).stores({ vectorPacks: '[partition+part]', vectorLog: '[partition+version]' });
  db.version(3).stores({ revocations: '[userId+appName+sourceId]' });
  return db;
}

/** What the v3 code stored after three conversations: an UPDATE pair (the new one inherits s1), a corroborated issue, an app fact. */
function v3Records(): MemoryRecord[] {
  const s1 = { ...source('s1', 'user_explicit'), excerpt: "I'm vegetarian, zqxv3canary." };
  const s2 = source('s2', 'user_explicit', T + DAY);
  const s3 = source('s3', 'user_explicit', T + 2 * DAY);
  return [
    record('m1', 'The user follows a vegetarian diet.', 'diet', {
      sources: [s1],
      invalidatedAt: T + DAY,
      supersededBy: 'm2',
      history: [
        { at: T, event: 'created', reason: 'novel topic for this user', sourceId: 's1' },
        { at: T + DAY, event: 'superseded', reason: 'superseded by m2: contradicts m1', related: 'm2', sourceId: 's2' },
      ],
    }),
    record('m2', 'The user eats fish again.', 'diet', {
      sources: [s1, s2],
      createdAt: T + DAY,
      updatedAt: T + DAY,
      history: [{ at: T + DAY, event: 'created', reason: 'created from m1: contradicts m1', related: 'm1', sourceId: 's2' }],
    }),
    record('m3', 'The user reported a failing export/upload.', 'issue', {
      sources: [s1, s3],
      confidence: 0.7,
      updatedAt: T + 2 * DAY,
      history: [
        { at: T, event: 'created', reason: 'novel topic for this user', sourceId: 's1' },
        { at: T + 2 * DAY, event: 'corroborated', reason: 'corroborated by user_explicit source s3', sourceId: 's3' },
      ],
    }),
    record('m4', 'Solaris serves vegetarian meals.', 'menu', { userId: '', scope: 'app', sources: [source('crm', 'bootstrapped')] }),
  ];
}

async function writeV3(name: string, factory: IDBFactory): Promise<MemoryRecord[]> {
  const records = v3Records();
  const db = openV3(name, factory);
  const input = (id: string, at: number, content: string) => ({
    ...owner,
    scope: 'user',
    sessionId: `c-${id}`,
    source: { type: 'user_explicit', id },
    at,
    kind: 'ingest',
    messages: [{ role: 'user', content }],
  });
  await db.table('memories').bulkPut(records.map((r) => ({ ...r, sourceIds: [...new Set(r.sources.map((s) => s.id))] })));
  await db.table('inputs').bulkAdd([input('s1', T, "I'm vegetarian, zqxv3canary. The export keeps failing."), input('s2', T + DAY, "I've started eating fish again."), input('s3', T + 2 * DAY, 'The export keeps failing.')]);
  await db.table('partitions').bulkPut([{ key: userPartition(owner), version: 3 }]);
  db.close();
  return records;
}

describe('EngramDatabase (upgrade from schema v3)', () => {
  it('keeps every record, source and history entry of a v3 database when the current code opens it', async () => {
    const factory = new IDBFactory();
    const records = await writeV3('v3-db', factory);
    const test = await createTestMemory({ name: 'v3-db', indexedDB: factory });
    opened.push(test.memory);

    const listed = await test.memory.list({ ...owner, includeInvalid: true });
    // list adds each memory's kind (derived, never stored): the stored record is the rest.
    expect(listed.map(({ kind: _kind, ...record }) => record)).toEqual(records.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1)));
    expect(listed.map((record) => record.kind)).toEqual(listed.map(() => 'fact'));
    expect(await test.memory.history('m2', owner)).toEqual(records.find((r) => r.id === 'm2')!.history);

    const db = new EngramDatabase('v3-db', { indexedDB: factory, IDBKeyRange });
    const rows = await db.memories.toArray();
    db.close();
    expect(rows.map((row) => [row.id, row.active, row.chain, 'sourceIds' in row])).toEqual([
      ['m1', 0, 'm1', false],
      ['m2', 1, 'm2', false],
      ['m3', 1, 'm3', false],
      ['m4', 1, 'm4', false],
    ]);
    // v5: the identical-fact index holds every migrated row.
    expect(rows.map((row) => row.fact)).toEqual(rows.map((row) => factHash(row.topic, row.content)));
  });

  it('decides over the migrated memories and erases a source from them when the v4 code writes to a v3 database', async () => {
    const factory = new IDBFactory();
    await writeV3('v3-db-write', factory);
    const test = await createTestMemory({ name: 'v3-db-write', indexedDB: factory });
    opened.push(test.memory);
    test.clock.set(T + 3 * DAY);

    // The topic sweep finds the migrated active diet memory through the new index.
    const [operation] = await test.memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...owner, sessionId: 'c4', source: { type: 'user_explicit', id: 's4' } });
    expect(operation).toMatchObject({ action: 'UPDATE', targetId: 'm2' });
    const vegan = await test.memory.get(operation!.memoryId, owner);
    expect(vegan.sources.map((s) => s.id)).toEqual(['s1', 's2', 's4']);

    await test.memory.forgetSource('s1', owner);
    expect(await findInDatabases(test.factory, 'zqxv3canary')).toEqual([]);
    const active = await test.memory.list(owner);
    expect(active.flatMap((r) => r.sources.map((s) => s.id))).not.toContain('s1');
    expect(active.map((r) => r.content).sort()).toEqual(['Solaris serves vegetarian meals.', 'The user follows a vegan diet.', 'The user reported a failing export/upload.']);
  });
});
