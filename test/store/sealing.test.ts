/**
 * The sealing middleware under Dexie: reads open sealed values without ending the read
 * transaction they run in, read-write transactions see rows as stored, and a write of a value
 * nobody sealed beforehand fails instead of reaching the disk.
 */
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { createHashEmbedder, StorageError } from '../../src/index';
import type { EngramDatabase } from '../../src/store/database';
import { createTestMemory, type TestMemory } from '../helpers/memory';
import { dumpDatabases } from '../helpers/scan';

const owner = { userId: 'u_ada', appName: 'default' };
let test: TestMemory | undefined;
afterEach(async () => {
  await test?.memory.close();
  test = undefined;
});

async function sealedStore(facts: number): Promise<EngramDatabase> {
  const encryptionKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  let db: EngramDatabase | undefined;
  test = await createTestMemory({ encryptionKey, onDatabase: (database) => void (db = database as EngramDatabase) });
  for (let i = 0; i < facts; i++) {
    await test.memory.remember({ content: `The user owns boat number ${i}.`, topic: `boat-${i}` }, { ...owner, source: { type: 'user_explicit', id: `s${i}` } });
  }
  return db!;
}

describe('installSealing', () => {
  it('keeps every later read of a read-only transaction inside it when earlier reads opened sealed rows', async () => {
    const db = await sealedStore(20);
    const seen = await db.transaction('r', db.memories, db.lineage, db.events, async (transaction) => {
      const memories = await db.memories.where('[userId+appName+active]').equals([owner.userId, owner.appName, 1]).toArray();
      const inside = [Dexie.currentTransaction === transaction];
      const lineage = await db.lineage.bulkGet(memories.map((row) => [row.id, 0] as [string, number]));
      inside.push(Dexie.currentTransaction === transaction);
      const event = await db.events.get([memories[0]!.id, 0]);
      inside.push(Dexie.currentTransaction === transaction);
      return { memories, lineage, event, inside };
    });
    expect(seen.inside).toEqual([true, true, true]);
    expect(seen.memories.map((row) => row.content).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `The user owns boat number ${i}.`).sort());
    expect(seen.memories.every((row) => row.embedding instanceof Float32Array && row.embedding.length === 256)).toBe(true);
    expect(seen.lineage.every((row) => typeof row?.source.excerpt === 'string')).toBe(true);
    expect(typeof seen.event?.entry.reason).toBe('string');
  });

  it('hands read-write transactions the rows as stored, sealed, when a commit reads them', async () => {
    const db = await sealedStore(1);
    const row = await db.transaction('rw', db.memories, async () => (await db.memories.toArray())[0]!);
    expect(row.content).toBeInstanceOf(Uint8Array);
    expect(row.embedding).toBeInstanceOf(Uint8Array);
    expect(row.topic).toBe('boat-0');
  });

  it('rejects a write of text nobody sealed before the transaction with StorageError and writes nothing', async () => {
    const db = await sealedStore(1);
    const before = await dumpDatabases(test!.factory);
    const [row] = await db.memories.toArray();
    await expect(db.memories.put({ ...row!, id: 'mem_planted', content: 'The user is planted in clear.' })).rejects.toThrow(StorageError);
    await expect(db.memories.put({ ...row!, id: 'mem_planted', content: 'The user is planted in clear.' })).rejects.toThrow('memories.content was about to be written unencrypted');
    expect(await dumpDatabases(test!.factory)).toEqual(before);
  });

  it('reads the clear fields of cursor rows and throws StorageError on a sealed one when a read goes by cursor', async () => {
    const db = await sealedStore(3);
    const filtered = await db.memories.filter((row) => row.topic === 'boat-1').toArray();
    const anyOf = await db.memories
      .where('[userId+appName+scope]')
      .anyOf([
        [owner.userId, owner.appName, 'user'],
        [owner.userId, owner.appName, 'session'],
      ])
      .toArray();
    expect(filtered.map((row) => row.topic)).toEqual(['boat-1']);
    expect(anyOf.map((row) => row.topic).sort()).toEqual(['boat-0', 'boat-1', 'boat-2']);
    expect(() => filtered[0]!.content).toThrow(StorageError);
    expect(() => anyOf[0]!.embedding).toThrow('memories.embedding was read by cursor (filter, anyOf, each), which cannot decrypt');
  });

  it('re-embeds an encrypted store when reopened with another embedder (its walk reads clear fields by cursor)', async () => {
    const encryptionKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const first = await createTestMemory({ encryptionKey });
    for (let i = 0; i < 5; i++) await first.memory.remember({ content: `The user owns boat number ${i}.`, topic: `boat-${i}` }, { ...owner, source: { type: 'user_explicit', id: `s${i}` } });
    await first.memory.close();
    test = await createTestMemory({ name: first.name, indexedDB: first.factory, encryptionKey, embedder: createHashEmbedder(128) });
    const report = await test.memory.reembed();
    expect(report.reembedded).toBe(5);
    const hits = await test.memory.retrieve('boat number 3', { ...owner, k: 1 });
    expect(hits[0]!.memory.content).toBe('The user owns boat number 3.');
    expect(hits[0]!.memory.embedding).toHaveLength(128);
  });
});
