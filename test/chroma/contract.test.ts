/**
 * The storage contract suite (test/contract/) against the Chroma backend on the run's server:
 * every store is a fresh collection prefix, its snapshot is every row of its collections as
 * Chroma returns them, and the fault sweep's "k-th write fails" is the k-th write request
 * (upsert or delete batch) the storage sends.
 */
import { createChromaStorageWith } from '../../src/adapters/chroma/storage';
import { TABLES, type WriteFaults } from '../../src/adapters/chroma/collections';
import { describeStorageContract } from '../contract/suite';
import { chromaClient, freshPrefix, server } from './helpers';

/** The names of the storage's collections under `prefix` that exist, by name (a listing pages at 100: many stores on one server would be cut off). */
async function collectionsUnder(prefix: string): Promise<string[]> {
  const client = chromaClient();
  const names = TABLES.map((table) => `${prefix}${table}`).sort();
  const found = await Promise.all(
    names.map((name) =>
      client.getCollection({ name } as never).then(
        () => true,
        () => false,
      ),
    ),
  );
  return names.filter((_, i) => found[i]);
}

/** Every row of every collection under `prefix` (ids, documents, metadata, vectors), in id order. */
async function rowsUnder(prefix: string): Promise<unknown> {
  const client = chromaClient();
  const out: Record<string, unknown> = {};
  for (const name of await collectionsUnder(prefix)) {
    const rows = await (await client.getCollection({ name } as never)).get({ include: ['documents', 'metadatas', 'embeddings'] });
    out[name] = rows.ids.map((id, i) => ({ id, document: rows.documents[i], metadata: rows.metadatas[i], embedding: rows.embeddings[i] })).sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  return out;
}

describeStorageContract(
  'chroma',
  async () => {
    const prefix = freshPrefix('contract');
    const faults: WriteFaults = { failAt: 0, count: 0 };
    return {
      storage: createChromaStorageWith({ ...server(), collectionPrefix: prefix }, { faults }),
      name: prefix.slice(0, -1),
      snapshot: () => rowsUnder(prefix),
      failWrite(k) {
        faults.count = 0;
        faults.failAt = k;
      },
      get writes() {
        return faults.count;
      },
      async teardown() {
        const client = chromaClient();
        for (const name of await collectionsUnder(prefix)) await client.deleteCollection({ name });
      },
    };
  },
  { isolationRuns: 60, equivalenceRuns: 6, timeout: 120_000 },
);
