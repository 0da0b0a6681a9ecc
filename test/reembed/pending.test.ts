/**
 * reembed.ts `embedPending` after a write: the owner's memories an erasure left waiting for a
 * vector are found by an index on the embedder, not by reading every memory of the owner. A
 * partition that still holds another embedder's vectors (a model switch before `reembed()`)
 * has foreign rows, so every write looks for pending ones; that look must not grow with them.
 */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHashEmbedder } from '../../src/index';
import { createReadCounter } from '../../scripts/bench-long';
import { createSequentialIds, createTestMemory } from '../helpers/memory';

const owner = { userId: 'u_ada', appName: 'default' };
const TOPICS = ['diet', 'travel', 'work', 'music', 'family', 'sport', 'pets', 'books'];

/** Memory rows one `remember` reads once `count` memories of another embedder are stored for the owner. */
async function rowsReadByAWrite(count: number): Promise<number> {
  const factory = new IDBFactory();
  const name = `pending-${count}`;
  const writer = await createTestMemory({ indexedDB: factory, name });
  for (let i = 0; i < count; i++) {
    await writer.memory.remember({ content: `The user keeps note zq${i}x about ${TOPICS[i % TOPICS.length]}.`, topic: TOPICS[i % TOPICS.length]! }, { ...owner, source: { type: 'user_explicit', id: `c${i}` } });
  }
  await writer.memory.close();
  const counter = createReadCounter();
  const reader = await createTestMemory({ indexedDB: factory, name, embedder: createHashEmbedder(64), idGenerator: createSequentialIds('later_'), onDatabase: (db) => counter.install(db) });
  onTestFinished(() => reader.memory.close());
  const write = (i: number) => reader.memory.remember({ content: `The user mentioned plan zq${i}y.`, topic: 'plans' }, { ...owner, source: { type: 'user_explicit', id: `w${i}` } });
  // The first write loads the partition; the second is the one measured.
  await write(0);
  counter.reset();
  await write(1);
  return counter.rows;
}

describe('a write in a partition with foreign vectors', () => {
  it('reads as many rows with 120 memories of another embedder stored as with 15', async () => {
    const few = await rowsReadByAWrite(15);
    const many = await rowsReadByAWrite(120);
    console.log(`rows read by one write: ${few} with 15 foreign memories, ${many} with 120`);
    expect(few).toBeGreaterThan(0);
    expect(many).toBeLessThanOrEqual(few * 1.25);
  }, 60_000);
});
