import type { DBCoreCountRequest, Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/index';
import { EngramDatabase } from '../../src/store/database';
import { UPGRADES_DONE_KEY } from '../../src/store/unfinished-upgrades';
import { createTestMemory } from '../helpers/memory';
import { wrapTables } from '../helpers/idb-store';
import { IDBKeyRange } from 'fake-indexeddb';

const owner = { userId: 'u', appName: 'default' };
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

/** A DBCore middleware counting the index counts run on `memories` (what finishing upgrades reads). */
function countCounts(seen: { counts: number }) {
  return (db: Dexie) =>
    wrapTables(db, 'count-counter', (name, table) => ({
      count: (request: DBCoreCountRequest) => {
        if (name === 'memories') seen.counts++;
        return table.count(request);
      },
    }));
}

describe('finishUpgrades (on open)', () => {
  it('counts the indexes once per schema version, not at every open', async () => {
    const first = { counts: 0 };
    const test = await createTestMemory({ onDatabase: countCounts(first) });
    opened.push(test.memory);
    await test.memory.remember({ content: 'The user likes tea.', topic: 'food' }, { ...owner, source: { type: 'user_explicit', id: 's1' } });
    expect(first.counts).toBe(4);
    await test.memory.close();

    const second = { counts: 0 };
    const again = await createTestMemory({ name: test.name, indexedDB: test.factory, onDatabase: countCounts(second) });
    opened.push(again.memory);
    expect(second.counts).toBe(0);
    expect((await again.memory.retrieve('tea', { ...owner })).map((hit) => hit.memory.content)).toEqual(['The user likes tea.']);
  });

  it('counts again when the recorded version is older than the schema (an upgrade ran since)', async () => {
    const test = await createTestMemory();
    await test.memory.close();
    const db = new EngramDatabase(test.name, { indexedDB: test.factory, IDBKeyRange });
    await db.partitions.put({ key: UPGRADES_DONE_KEY, version: db.verno - 1 });
    db.close();

    const seen = { counts: 0 };
    const again = await createTestMemory({ name: test.name, indexedDB: test.factory, onDatabase: countCounts(seen) });
    opened.push(again.memory);
    expect(seen.counts).toBe(4);
    const check = new EngramDatabase(test.name, { indexedDB: test.factory, IDBKeyRange });
    expect((await check.partitions.get(UPGRADES_DONE_KEY))?.version).toBe(check.verno);
    check.close();
  });
});
