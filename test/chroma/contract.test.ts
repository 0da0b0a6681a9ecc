/**
 * The storage contract suite (test/contract/) against the Chroma backend on the run's server:
 * every store is a fresh collection prefix, its snapshot is every row of its collections as
 * Chroma returns them, and the fault sweep's "k-th write fails" is the k-th write request
 * (upsert or delete batch) the storage sends.
 */
import { createChromaStorageWith } from '../../src/adapters/chroma/storage';
import type { WriteFaults } from '../../src/adapters/chroma/collections';
import { describeStorageContract } from '../contract/suite';
import { chromaClient, freshPrefix, server } from './helpers';

/** Every row of every collection under `prefix` (ids, documents, metadata, vectors), in id order. */
async function rowsUnder(prefix: string): Promise<unknown> {
  const client = chromaClient();
  const out: Record<string, unknown> = {};
  for (const { name } of (await client.listCollections()).filter((collection) => collection.name.startsWith(prefix)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
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
        for (const { name } of await client.listCollections()) if (name.startsWith(prefix)) await client.deleteCollection({ name });
      },
    };
  },
  { isolationRuns: 60, equivalenceRuns: 6, timeout: 120_000 },
);
