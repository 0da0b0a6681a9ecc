import { IDBKeyRange } from 'fake-indexeddb';
import { describe, expect } from 'vitest';
import { it } from '../helpers/memory-fixture';
import { StorageError } from '../../src/errors';
import { EngramDatabase } from '../../src/store/database';
import { parseInputRows } from '../../src/storage/input-row';
import { dumpDatabases } from '../helpers/scan';

const ADA = { userId: 'ada', appName: 'default' };
const source = (id: string) => ({ type: 'user_explicit' as const, id });
const ingestRow = { seq: 1, ...ADA, scope: 'user', sessionId: 's1', source: source('s1'), at: 1_000, kind: 'ingest', messages: [{ role: 'user', content: "I'm vegan." }] };
const rememberRow = {
  seq: 2,
  userId: '',
  appName: 'default',
  scope: 'app',
  sessionId: '',
  source: { type: 'bootstrapped', id: 'kb' },
  at: 2_000,
  kind: 'remember',
  messages: [],
  fact: { content: 'Free cancellation within 24 hours.', topic: 'policy' },
};
const pruneRow = { seq: 3, ...ADA, at: 3_000, kind: 'prune', floor: 0.3 };

describe('parseInputRows', () => {
  it('returns every stored input as written when the rows are whole', () => {
    expect(parseInputRows([ingestRow, rememberRow, pruneRow], 'reading')).toEqual([ingestRow, rememberRow, pruneRow]);
  });

  it('rejects with StorageError naming the seq, the field and the value when a row is damaged', () => {
    const damaged: [unknown, RegExp][] = [
      [{ ...ingestRow, at: Number.NaN }, /stored input 1 is damaged \(at: .*; got NaN\)/],
      [{ ...ingestRow, kind: 'chat' }, /stored input 1 is damaged \(kind: .*; got "chat"\)/],
      [{ ...rememberRow, fact: undefined }, /stored input 2 is damaged \(fact: a remember input must hold its fact/],
      [{ ...ingestRow, messages: [{ role: 'user', content: 42 }] }, /stored input 1 is damaged \(messages\.0\.content: .*; got 42\)/],
      [{ ...ingestRow, userId: '' }, /stored input 1 is damaged \(userId: must be '' exactly for app scope/],
      [{ ...pruneRow, seq: undefined }, /stored input undefined is damaged \(seq: /],
      [null, /stored input null is damaged \(the row: /],
    ];
    for (const [row, message] of damaged) {
      expect(() => parseInputRows([ingestRow, row], 'reading stored conversations'), JSON.stringify(row)).toThrow(StorageError);
      expect(() => parseInputRows([row], 'reading stored conversations'), JSON.stringify(row)).toThrow(message);
    }
  });
});

describe('Memory.forgetSource (damaged stored input)', () => {
  it('rejects with StorageError and changes nothing when an input it must replay is damaged', async ({ open }) => {
    const test = await open();
    const { memory } = test;
    const say = (content: string) => [{ role: 'user' as const, content }];
    await memory.ingest(say("I'm vegetarian."), { ...ADA, sessionId: 's1', source: source('s1') });
    await memory.ingest(say('I prefer the aisle seat.'), { ...ADA, sessionId: 's2', source: source('s2') });
    await memory.ingest(say("I've started eating fish again."), { ...ADA, sessionId: 's3', source: source('s3') });
    const db = new EngramDatabase(test.name, { indexedDB: test.factory, IDBKeyRange });
    const second = (await db.inputs.toArray()).find((input) => input.kind === 'ingest' && input.source.id === 's2')!;
    await db.table('inputs').put({ ...second, messages: [{ role: 'user', content: 7 }] });
    db.close();
    const before = await dumpDatabases(test.factory);

    await expect(memory.forgetSource('s1', ADA)).rejects.toThrow(StorageError);
    await expect(memory.forgetSource('s1', ADA)).rejects.toThrow(/stored input \d+ is damaged \(messages\.0\.content: .*; got 7\).*nothing was changed/);
    expect(await dumpDatabases(test.factory)).toEqual(before);
    expect((await memory.list(ADA)).map((record) => record.content).sort()).toEqual(['The user eats fish again.', 'The user prefers aisle seating on flights.']);
  });
});
