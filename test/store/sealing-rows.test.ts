/**
 * commitRows (what sealing prepares before a commit's transaction) against what the commit
 * then really writes: every value on a sealed path of every row a commit puts must be one it
 * prepared, under the same context. A row kind or a field added to the write path and not to
 * commitRows fails here, not only when an encrypted database first meets it.
 */
import type { DBCore, Middleware } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/schema';
import type { Commit } from '../../src/storage/contract';
import { withLineage, type CommitLineage } from '../../src/storage/lineage';
import { EngramDatabase } from '../../src/store/database';
import { plainSlots } from '../../src/store/sealed';
import { commitRows } from '../../src/store/sealing';
import { createStore } from '../../src/store/store';
import { record, source } from '../consolidate/fixtures';

const owner = { userId: 'u', appName: 'default' };

/** A slot as a comparable string: its context and its value (vectors by their numbers). */
const slotKey = ({ context, value }: { context: string; value: unknown }) => `${context}\u0000${typeof value === 'string' ? value : JSON.stringify(Array.from(value as ArrayLike<number>))}`;

let db: EngramDatabase | undefined;
afterEach(() => db?.close());

/** A store whose every put is seen (table and row, as they reach IndexedDB). */
async function capturingStore() {
  const puts: { table: string; row: unknown }[] = [];
  const capture: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'capture',
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        return {
          ...table,
          mutate: (request) => {
            if (request.type === 'put' || request.type === 'add') for (const row of request.values) puts.push({ table: name, row });
            return table.mutate(request);
          },
        };
      },
    }),
  };
  db = new EngramDatabase(`sealing-rows-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  db.use(capture);
  await db.open();
  const store = createStore(db);
  /** Commits, and resolves to the sealed slots written that commitRows did not prepare. */
  const commit = async (records: MemoryRecord[], creates: string[], lineage?: CommitLineage, inputs: Commit['inputs'] = []) => {
    const prepared = new Set(commitRows(records, inputs).flatMap(({ table, row }) => plainSlots(table, row).map(slotKey)));
    puts.length = 0;
    await store.commit(withLineage({ records, creates, inputs, expected: new Map() }, lineage ?? { working: new Set(), inherits: new Map() }));
    const written = puts.flatMap(({ table, row }) => plainSlots(table, row));
    return { written: written.length, unprepared: written.map(slotKey).filter((key) => !prepared.has(key)) };
  };
  return { store, commit };
}

describe('commitRows', () => {
  it('prepares every sealed value a complete, a working-form, an inherited and a rebuilt record are written with', async () => {
    const { store, commit } = await capturingStore();
    const first = await commit([record('o', 'The user likes jazz.', 'music', { sources: [source('a', 'user_explicit'), source('b', 'user_implicit'), source('c', 'tool_output')], metadata: '{"tag":"x"}' })], ['o'], undefined, [
      {
        kind: 'ingest',
        userId: 'u',
        appName: 'default',
        scope: 'user',
        sessionId: 'c1',
        at: 1,
        source: { type: 'user_explicit', id: 'a' },
        messages: [{ role: 'user', content: 'I like jazz.' }],
        candidates: [{ content: 'The user likes jazz.', topic: 'music', confidence: 0.9, excerpt: 'I like jazz.', importance: 0.5, halfLifeDays: 365 }],
        metadata: '{"tag":"x"}',
      },
    ]);
    expect(first.written).toBeGreaterThan(5);
    expect(first.unprepared).toEqual([]);

    // Working form: corroborated by a new source, then superseded by an UPDATE in the same commit.
    const [working] = await store.workingSet(owner, { ids: ['o'], topics: [], scope: 'user', sourceId: 'd' });
    const corroborated: MemoryRecord = {
      ...working!,
      sources: [...working!.sources, source('d', 'user_explicit')],
      invalidatedAt: 5,
      supersededBy: 'n',
      history: [
        { at: 5, event: 'corroborated', reason: 'corroborated by d', sourceId: 'd' },
        { at: 5, event: 'superseded', reason: 'superseded by n', related: 'n' },
      ],
    };
    const update = record('n', 'The user likes free jazz.', 'music', { sources: [...corroborated.sources, source('e')] });
    const second = await commit([corroborated, update], ['n'], { working: new Set(['o']), inherits: new Map([['n', 'o']]) });
    expect(second.written).toBeGreaterThan(3);
    expect(second.unprepared).toEqual([]);

    // A complete rebuild that lacks one source joins the chain with an exclusion; its parent is redacted.
    const [full] = await store.getMany(['n'], owner);
    const redacted: MemoryRecord = { ...full!, content: '[redacted]', sources: full!.sources.map((s) => (s.id === 'b' ? { ...s, excerpt: '' } : s)), supersededBy: 'r' };
    const rebuilt = record('r', 'The user likes free jazz.', 'music', { sources: full!.sources.filter((s) => s.id !== 'b') });
    const third = await commit([redacted, rebuilt], ['r'], { working: new Set(), inherits: new Map([['r', 'n']]) });
    expect(third.written).toBeGreaterThan(3);
    expect(third.unprepared).toEqual([]);
  });
});
