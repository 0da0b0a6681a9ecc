/**
 * Embedder migration on a 10k-memory store: written with the hash embedder at 256 dimensions,
 * reopened with it at 128 (another embedder id). retrieve refuses until reembed() has run;
 * reembed reports progress, stops on abort, resumes after a reload, and ends with the store
 * a fresh one built with the new embedder would be: same records, same top-k.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AbortedError, EmbedderMismatchError, createHashEmbedder, type Embedder, type MemoryRecord, type ReembedProgress } from '../../src/index';
import { checkEmbedder } from '../../src/embed/checked-embedder';
import { EngramDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { createTestMemory, DAY, T0 } from '../helpers/memory';

const USERS = Array.from({ length: 10 }, (_, i) => `u_${i}`);
const APP = 'default';
const PER_USER = 1_000;
const APP_FACTS = 40;
const TOMBSTONES = 60;
const SUBJECTS = ['coffee', 'hiking', 'jazz', 'sushi', 'python', 'chess', 'cycling', 'poetry', 'tennis', 'baking', 'rust', 'opera'];
const VERBS = ['enjoys', 'avoids', 'is learning', 'writes about', 'teaches', 'collects books on'];

function recordOf(i: number, userId: string, scope: 'user' | 'app', embedding: Float32Array, embedderId: string): MemoryRecord {
  const content = `The user ${VERBS[i % VERBS.length]} ${SUBJECTS[(i * 7) % SUBJECTS.length]} and ${SUBJECTS[(i * 5 + 3) % SUBJECTS.length]}, note ${i}.`;
  const at = T0 - (i % 365) * DAY;
  return {
    id: `mem_${String(i).padStart(6, '0')}`,
    userId: scope === 'app' ? '' : userId,
    appName: APP,
    scope,
    topic: SUBJECTS[i % SUBJECTS.length]!,
    content,
    importance: (i % 10) / 10,
    halfLifeDays: 30 + (i % 400),
    confidence: 0.9,
    sources: [{ type: scope === 'app' ? 'bootstrapped' : 'user_explicit', id: `src_${i}`, excerpt: content, at }],
    createdAt: at,
    updatedAt: at,
    ...(i < TOMBSTONES ? { invalidatedAt: T0, supersededBy: 'mem_gone' } : {}),
    history: [{ at, event: 'created', reason: 'seeded', sourceId: `src_${i}` }],
    embedding,
    embedderId,
  };
}

/** Writes the 10k records straight through the store, embedded with `embedder`, in one commit. */
async function seedStore(factory: IDBFactory, name: string, embedder: Embedder): Promise<number> {
  const db = new EngramDatabase(name, { indexedDB: factory, IDBKeyRange });
  const store = createStore(db, embedder);
  const records: MemoryRecord[] = [];
  let i = 0;
  for (const userId of USERS) for (let n = 0; n < PER_USER; n++, i++) records.push(recordOf(i, userId, 'user', new Float32Array(0), embedder.id));
  for (let n = 0; n < APP_FACTS; n++, i++) records.push(recordOf(i, '', 'app', new Float32Array(0), embedder.id));
  // Through the same guard createMemory puts around an embedder: these are the vectors engram would store.
  const vectors = await checkEmbedder(embedder).embed(records.map((record) => record.content));
  records.forEach((record, n) => (record.embedding = vectors[n]!));
  await store.commit({ records, creates: records.map((record) => record.id), expected: new Map() });
  db.close();
  return records.filter((record) => record.invalidatedAt === undefined).length;
}

const QUERIES = ['coffee and jazz', 'learning python', 'tennis', 'books on opera and baking'];

/** Every stored row (raw, all owners, tombstones included) and the top-k of sample queries for three users. */
async function snapshot(factory: IDBFactory, name: string, memory: Awaited<ReturnType<typeof createTestMemory>>['memory']) {
  const db = new EngramDatabase(name, { indexedDB: factory, IDBKeyRange });
  const rows = await db.memories.toArray();
  db.close();
  const topK: { id: string; score: number }[][] = [];
  for (const userId of USERS.slice(0, 3)) {
    for (const query of QUERIES) topK.push((await memory.retrieve(query, { userId, appName: APP, k: 10 })).map((hit) => ({ id: hit.memory.id, score: hit.score })));
  }
  return { rows: rows.sort((a, b) => (a.id < b.id ? -1 : 1)), topK, listed: await memory.list({ userId: USERS[9]!, appName: APP }) };
}

describe('memory.reembed', () => {
  it('migrates a 10k-memory store to a new embedder with progress, abort and resume after a reload, ending equal to a store built with the new embedder', async () => {
    const factory = new IDBFactory();

    const active = await seedStore(factory, 'migrating', createHashEmbedder(256));
    await seedStore(factory, 'reference', createHashEmbedder(128));
    const open = (name: string) => createTestMemory({ indexedDB: factory, name, embedder: createHashEmbedder(128) });

    const first = await open('migrating');
    await expect(first.memory.retrieve('coffee', { userId: 'u_3', appName: APP })).rejects.toThrow(EmbedderMismatchError);
    await expect(first.memory.retrieve('coffee', { userId: 'u_3', appName: APP })).rejects.toThrow(/memory\.reembed\(\)/);

    const controller = new AbortController();
    const progress: ReembedProgress[] = [];
    const aborted = first.memory.reembed({
      batchSize: 700,
      signal: controller.signal,
      onProgress: (step) => {
        progress.push(step);
        if (progress.length === 3) controller.abort();
      },
    });
    await expect(aborted).rejects.toThrow(AbortedError);
    expect(progress).toEqual([1, 2, 3].map((n) => ({ done: 700 * n, total: active, embedderId: 'hash-fnv1a-128' })));
    await expect(first.memory.retrieve('coffee', { userId: 'u_0', appName: APP })).rejects.toThrow(EmbedderMismatchError);
    await first.memory.close();

    // A reload: a new instance on the same database continues with what is left.
    const second = await open('migrating');
    const resumed: ReembedProgress[] = [];
    const report = await second.memory.reembed({ batchSize: 2_000, onProgress: (step) => resumed.push(step) });
    expect(report).toEqual({ reembedded: active - 2_100, embedderId: 'hash-fnv1a-128' });
    expect(resumed.at(-1)).toEqual({ done: active - 2_100, total: active - 2_100, embedderId: 'hash-fnv1a-128' });
    expect(await second.memory.reembed()).toEqual({ reembedded: 0, embedderId: 'hash-fnv1a-128' });

    const reference = await open('reference');
    const migrated = await snapshot(factory, 'migrating', second.memory);
    const expected = await snapshot(factory, 'reference', reference.memory);
    expect(migrated.rows).toHaveLength(USERS.length * PER_USER + APP_FACTS);
    expect(migrated.rows.filter((row) => row.invalidatedAt === undefined).every((row) => row.embedderId === 'hash-fnv1a-128')).toBe(true);
    const activeOf = (rows: MemoryRecord[]) => rows.filter((row) => row.invalidatedAt === undefined);
    expect(activeOf(migrated.rows)).toEqual(activeOf(expected.rows));
    expect(migrated.listed).toEqual(expected.listed);
    expect(migrated.topK).toEqual(expected.topK);
    expect(migrated.topK.every((hits) => hits.length === 10)).toBe(true);
    await Promise.all([second.memory.close(), reference.memory.close()]);
  });
});
