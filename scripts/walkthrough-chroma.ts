/**
 * The Chroma half of `npm run walkthrough -- --storage chroma`: a server of its own (started
 * here, stopped by its pid at the end), and the seed's Part 9 view of what engram stored there:
 * the raw rows Chroma returns for the dietary query, with their distances (`1 − cos`: lower is
 * nearer), and the topic sweep as a `get` by topic in any state.
 */
import { ChromaClient, type Where } from 'chromadb';
import { startChromaServer, type ChromaServer } from './chroma-server';
import { createChromaStorage } from '../src/adapters/chroma/index';
import type { StorageBackend } from '../src/storage/contract';

export const WALKTHROUGH_PREFIX = 'walkthrough_';

export async function startWalkthroughChroma(): Promise<{ server: ChromaServer; storage: StorageBackend }> {
  const server = await startChromaServer();
  return { server, storage: createChromaStorage({ host: server.host, port: server.port, collectionPrefix: WALKTHROUGH_PREFIX }) };
}

/** Prints Chroma's own answer for `vector` under the owner's `where` filter, and the diet sweep. */
export async function printChromaRows(server: ChromaServer, owner: { userId: string; appName: string }, query: string, vector: Float32Array, print: (line?: string) => void): Promise<void> {
  const client = new ChromaClient({ host: server.host, port: server.port });
  const collection = await client.getCollection({ name: `${WALKTHROUGH_PREFIX}memories` } as never);
  const pk = JSON.stringify(['user', owner.appName, owner.userId]);
  const where: Where = { $and: [{ pk: { $eq: pk } }, { active: { $eq: true } }] };
  const result = await collection.query({ queryEmbeddings: [Array.from(vector)], nResults: 3, where, include: ['documents', 'metadatas', 'distances'] });
  print(`RAW CHROMA ROWS for '${query}' (collection ${collection.name}, where ${JSON.stringify(where)}):`);
  result.ids[0]!.forEach((id, i) => {
    const distance = result.distances[0]![i]!;
    const metadata = result.metadatas[0]![i]!;
    print(`  dist=${distance.toFixed(3)}  (cos ${(1 - distance).toFixed(3)})  conf=${Number(metadata.confidence).toFixed(2)}  ${id}  ${result.documents[0]![i]}`);
  });
  print();
  print('  candidate sweep for consolidation (same topic, any state: get where topic = diet):');
  const sweep = await collection.get({ where: { $and: [{ pk: { $eq: pk } }, { topic: { $eq: 'diet' } }] }, include: ['documents', 'metadatas'] });
  const rows = sweep.ids.map((id, i) => ({ id, document: sweep.documents[i], metadata: sweep.metadatas[i]! })).sort((a, b) => Number(a.metadata.createdAt) - Number(b.metadata.createdAt));
  for (const row of rows) print(`    active=${String(row.metadata.active).padEnd(5)}  ${row.id}  ${row.document}`);
}
