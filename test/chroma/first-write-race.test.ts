/**
 * Reads beside another client's first write to a collection, on the real server: Chroma's local
 * server fails a read that needs the vector index ("Nothing found on disk") until that write is
 * applied. The raw client shows the failure happens in this very setup; engram's reads, through
 * the same race, never fail and see either none or all of the write's rows.
 */
import { describe, expect, it } from 'vitest';
import { type Collections, openCollections, readPastFirstWrite, TABLES } from '../../src/adapters/chroma/collections';
import { chromaClient, freshPrefix, server, unitVector } from './helpers';

const ROWS = 40;
const TRIALS = 12;
const rows = Array.from({ length: ROWS }, (_, i) => ({ id: `m${i}`, embedding: Array.from(unitVector(i + 1)), document: `row ${i}`, metadata: { n: i } }));
const ids = rows.map((row) => row.id);

/** Runs `read` in a loop while `write` is in flight; returns each read's outcome. */
async function readWhile<T>(write: () => Promise<void>, read: () => Promise<T>): Promise<{ answers: T[]; failures: string[] }> {
  let done = false;
  const writing = write().finally(() => {
    done = true;
  });
  const answers: T[] = [];
  const failures: string[] = [];
  while (!done) {
    try {
      answers.push(await read());
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  await writing;
  return { answers, failures };
}

describe('chroma reads beside a first write (real server)', () => {
  it('the raw client fails reads with vectors during another client’s first write to a collection', async () => {
    const writer = chromaClient();
    const reader = chromaClient();
    const failures: string[] = [];
    for (let trial = 0; trial < TRIALS && failures.length === 0; trial++) {
      const name = `${freshPrefix('race_raw')}memories`;
      const written = await writer.getOrCreateCollection({ name, embeddingFunction: null, configuration: { hnsw: { space: 'cosine' } } });
      const read = await reader.getCollection({ name, embeddingFunction: null } as never);
      const outcome = await readWhile(
        () => written.upsert({ ids, embeddings: rows.map((row) => row.embedding), documents: rows.map((row) => row.document), metadatas: rows.map((row) => row.metadata) }),
        () => read.get({ ids, include: ['embeddings', 'metadatas'] as never }),
      );
      failures.push(...outcome.failures);
      await writer.deleteCollection({ name });
    }
    // If this starts failing, the server no longer has the race and readPastFirstWrite can go.
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toMatch(/Nothing found on disk/);
  });

  it('engram’s reads through the same race never fail, and a get sees none or all of the rows', async () => {
    /** Two storages' collections on one fresh prefix: one writes its first rows while the other reads. */
    async function race<T>(read: (reader: Collections) => Promise<T>): Promise<T[]> {
      const prefix = freshPrefix('race');
      const writer = await openCollections({ ...server(), collectionPrefix: prefix });
      const reader = await openCollections({ ...server(), collectionPrefix: prefix });
      const outcome = await readWhile(
        () => writer.upsert('memories', rows),
        () => read(reader),
      );
      for (const table of TABLES) await chromaClient().deleteCollection({ name: writer.collection(table).name });
      expect(outcome.failures).toEqual([]);
      return outcome.answers;
    }
    let reads = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const got = await race((reader) => reader.get('memories', { ids, embeddings: true }));
      for (const answer of got) expect([0, ROWS]).toContain(answer.length);
      const searched = await race((reader) => reader.query('memories', { vectors: [unitVector(3)], n: 5 }));
      reads += got.length + searched.length;
    }
    expect(reads).toBeGreaterThan(2 * TRIALS);
  });

  it('a failure other than the race, and the race past its patience, reach the caller', async () => {
    let calls = 0;
    await expect(
      readPastFirstWrite(async () => {
        calls++;
        throw new Error('Error executing plan: collection not found');
      }),
    ).rejects.toThrow('collection not found');
    expect(calls).toBe(1);
    calls = 0;
    const start = Date.now();
    await expect(
      readPastFirstWrite(async () => {
        calls++;
        throw new Error('Error creating hnsw segment reader: Nothing found on disk');
      }, 100),
    ).rejects.toThrow('Nothing found on disk');
    expect(calls).toBeGreaterThan(2);
    expect(Date.now() - start).toBeLessThan(1000);
  });
});
