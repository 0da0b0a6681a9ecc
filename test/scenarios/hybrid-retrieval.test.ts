import { IDBKeyRange } from 'fake-indexeddb';
import { describe, expect } from 'vitest';
import { it } from '../helpers/memory-fixture';
import { EngramDatabase } from '../../src/store/database';
import { DAY, type TestMemory } from '../helpers/memory';

const OWNER = { userId: 'u_mel', appName: 'app' };
const SOURCE = { type: 'user_implicit', id: 'chat-1' } as const;
const FACTS = [
  'Melanie ran a charity race for mental health awareness.',
  'Melanie painted a lake sunrise last year.',
  'Melanie took her kids camping in the mountains.',
  'Melanie is reading a book about pottery.',
  'Melanie signed up for a pottery class.',
];

async function writeFacts(memory: TestMemory): Promise<void> {
  for (const content of FACTS) {
    await memory.memory.remember({ content, topic: 'general' }, { ...OWNER, source: SOURCE });
    memory.clock.advance(60 * DAY);
  }
}

describe('Memory.retrieve (hybrid relevance)', () => {
  it('ranks the old memory that shares the rare words first when newer ones are fresher', async ({ open }) => {
    const test = await open();
    await writeFacts(test);
    const [first, second] = await test.memory.retrieve('What did Melanie raise awareness for with the race?', { ...OWNER, k: 3 });
    expect(first!.memory.content).toBe(FACTS[0]);
    expect(first!.lexical).toBe(1);
    expect(second!.lexical).toBeLessThan(1);
    expect(first!.recency).toBeLessThan(second!.recency);
    expect(first!.relevance).toBeCloseTo(0.05 * first!.cosine! + 0.95 * first!.lexical!, 6);
  });

  it('ranks by the lexical channel again after reopening a database whose packs hold no terms', async ({ open }) => {
    const test = await open();
    await writeFacts(test);
    const query = 'Which class did Melanie sign up for?';
    const before = await test.memory.retrieve(query, { ...OWNER, k: 3 });
    await test.memory.close();
    // What a database written before the lexical channel looks like: packs and log without term ids.
    const db = new EngramDatabase(test.name, { indexedDB: test.factory, IDBKeyRange });
    await db.open();
    await db.vectorPacks.toCollection().modify((row) => {
      delete (row as { terms?: unknown }).terms;
      delete (row as { termOffsets?: unknown }).termOffsets;
    });
    await db.vectorLog.toCollection().modify((row) => {
      for (const upsert of row.upserts) delete (upsert as { terms?: unknown }).terms;
    });
    expect((await db.vectorPacks.count()) + (await db.vectorLog.count())).toBeGreaterThan(0);
    db.close();
    // At the same moment as before (the clock, not a new one at T0): the comparison is of the ranking, which recency is part of.
    const reopened = await open({ name: test.name, indexedDB: test.factory, clock: test.clock });
    const after = await reopened.memory.retrieve(query, { ...OWNER, k: 3 });
    expect(after.map((hit) => [hit.memory.id, hit.lexical])).toEqual(before.map((hit) => [hit.memory.id, hit.lexical]));
    expect(after[0]!.memory.content).toBe(FACTS[4]);
  });
});
