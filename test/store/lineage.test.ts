import type { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngramDatabase } from '../../src/store/database';
import { createReadCounter, longUserConversations } from '../../scripts/bench-long';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const ada = { userId: 'u_ada', appName: 'default' };
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });

let tests: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(tests.map((test) => test.memory.close()));
  tests = [];
});

async function open(onDatabase?: (db: Dexie) => void): Promise<{ test: TestMemory; db: () => EngramDatabase }> {
  let handle: EngramDatabase | undefined;
  const test = await createTestMemory({
    onDatabase: (db) => {
      handle = db as EngramDatabase;
      onDatabase?.(db);
    },
  });
  tests.push(test);
  return { test, db: () => handle! };
}

describe('createStore (lineage side tables, schema v4)', () => {
  it('keeps a row the same size however often the memory is corroborated, while get returns every source and event', async () => {
    const { test, db } = await open();
    const fact = { content: 'The user likes jazz.', topic: 'music' };
    const sizes: number[] = [];
    for (let i = 0; i < 150; i++) {
      const operation = await test.memory.remember(fact, { ...ada, source: explicit(`s${i}`) });
      test.clock.advance(DAY);
      if (i === 9 || i === 149) {
        const [row] = await db().memories.toArray();
        sizes.push(JSON.stringify({ ...row, embedding: [], updatedAt: 0, confidence: 0, sourceCount: 0, sourceTotal: 0, historyCount: 0, changed: 0 }).length);
        expect(row!.sources.length).toBeLessThanOrEqual(4);
        expect(row!.history).toEqual([]);
        expect(operation.action).toBe('NOOP');
      }
    }
    expect(sizes[1]).toBe(sizes[0]);
    const [{ id }] = await test.memory.list(ada);
    const full = await test.memory.get(id, ada);
    expect(full.sources.map((source) => source.id)).toEqual(Array.from({ length: 150 }, (_, i) => `s${i}`));
    expect(full.history.map((entry) => entry.event)).toEqual(['created', ...Array<string>(149).fill('corroborated')]);
    expect(full.confidence).toBe(1);
  });

  it("gives an UPDATE's memory every source of the one it supersedes with one lineage row per source, and forgetSource still finds them all", async () => {
    const { test, db } = await open();
    const diets = ["I'm vegetarian.", "I'm vegan.", "I'm pescatarian."];
    for (let i = 0; i < 60; i++) {
      const content = i === 0 ? "I'm vegetarian, zqx-old-excerpt." : diets[i % 3]!;
      await test.memory.ingest([{ role: 'user', content }], { ...ada, sessionId: `c${i}`, source: explicit(`s${i}`) });
      test.clock.advance(DAY);
    }
    const [active] = await test.memory.list(ada);
    expect(active!.content).toBe('The user follows a pescatarian diet.');
    expect(active!.sources.map((source) => source.id)).toEqual(Array.from({ length: 60 }, (_, i) => `s${i}`));
    // 60 sources across a chain of 60 memories, stored once each: no copy per UPDATE.
    expect(await db().lineage.count()).toBe(60);
    expect((await db().memories.get(active!.id))!.sourceTotal).toBe(60);
    const chain = (await db().memories.toArray()).map((row) => row.chain);
    expect(new Set(chain).size).toBe(1);

    await test.memory.forgetSource('s0', ada);
    const after = await test.memory.list({ ...ada, includeInvalid: true });
    expect(after.filter((record) => record.invalidatedAt === undefined).flatMap((record) => record.sources.map((source) => source.id))).not.toContain('s0');
    expect(after.flatMap((record) => record.sources).filter((source) => source.id === 's0' && source.excerpt !== '')).toEqual([]);
    expect(await findInDatabases(test.factory, 'zqx-old-excerpt')).toEqual([]);
  });

  it('reads as many rows per ingest at 200 stored conversations as at 20', async () => {
    const counter = createReadCounter();
    const { test } = await open((db) => counter.install(db));
    const conversations = longUserConversations(230);
    const ingest = (i: number) => test.memory.ingest(conversations[i]!, { ...ada, sessionId: `c${i}`, source: explicit(`c${i}`) });
    const rowsPerIngest = async (from: number) => {
      counter.reset();
      for (let i = from; i < from + 10; i++) await ingest(i);
      return counter.rows / 10;
    };
    for (let i = 0; i < 20; i++) await ingest(i);
    const early = await rowsPerIngest(20);
    for (let i = 30; i < 220; i++) await ingest(i);
    const late = await rowsPerIngest(220);
    console.log(`rows read per ingest: ${early} at 20 stored conversations, ${late} at 220`);
    expect(early).toBeGreaterThan(0);
    expect(late).toBeLessThanOrEqual(early * 1.25);
  }, 60_000);

  it('stamps only tombstones in the erasure index, so a corroborated memory leaves no entries there, and forgetSource still erases what a source changed', async () => {
    const { test, db } = await open();
    const fact = { content: 'The user likes zqv-jazz.', topic: 'music' };
    for (let i = 0; i < 30; i++) {
      await test.memory.remember(fact, { ...ada, source: explicit(`s${i}`) });
      test.clock.advance(DAY);
    }
    await test.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...ada, sessionId: 'd1', source: explicit('d1') });
    await test.memory.ingest([{ role: 'user', content: "I'm vegan, zqv-canary." }], { ...ada, sessionId: 'd2', source: explicit('d2') });
    const stamped = await db().memories.where('[userId+appName+changed]').between([ada.userId, ada.appName, 0], [ada.userId, ada.appName, Infinity]).toArray();
    expect(stamped.map((row) => row.content)).toEqual(['The user follows a vegetarian diet.']);
    expect(stamped.every((row) => row.invalidatedAt !== undefined)).toBe(true);
    await test.memory.forgetSource('d2', ada);
    expect((await findInDatabases(test.factory, 'zqv-canary')).length).toBe(0);
    expect((await test.memory.list(ada)).map((record) => record.content).sort()).toEqual(['The user follows a vegetarian diet.', 'The user likes zqv-jazz.']);
  });
});
