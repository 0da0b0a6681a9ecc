/**
 * One `ingest` of N messages through the public API with default options (fake-indexeddb, the
 * hash embedder, episodes on): `npx tsx scripts/profile-ingest.ts 1000 2000 4000 [--facts 0.6|0.1]`
 * prints each call's CPU and wall time. Run under `node --cpu-prof --import tsx` to see where the time goes.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMemory, type ChatMessage } from '../src/index';

const PLACES = ['Lisbon', 'the lake', 'my parents', 'the market', 'Kyoto', 'the gym', 'my office', 'the coast'];
const PASTIMES = ['pottery', 'chess', 'the violin', 'sourdough', 'climbing', 'Spanish', 'watercolours', 'running'];

/** Turns of a chat, `facts` of them (a share, spread evenly) stating a new fact of their own. */
export function chat(n: number, facts: number): ChatMessage[] {
  return Array.from({ length: n }, (_, i) => ({
    role: 'user' as const,
    content: Math.floor((i + 1) * facts) > Math.floor(i * facts) ? `I love my dog number ${i}.` : `On day ${i} I went to ${PLACES[i % 8]} and practised ${PASTIMES[(i >> 3) % 8]} with my friend number ${i % 37}.`,
  }));
}

const args = process.argv.slice(2);
const factsAt = args.indexOf('--facts');
const facts = factsAt >= 0 ? Number(args[factsAt + 1]) : 0.6;
const sizes = args.filter((_, i) => factsAt < 0 || (i !== factsAt && i !== factsAt + 1)).map(Number);
let db = 0;
for (const n of sizes.length ? sizes : [1000, 2000, 4000]) {
  const memory = await createMemory({ name: `profile-ingest-${db++}`, indexedDB: new IDBFactory(), IDBKeyRange });
  const messages = chat(n, facts);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const operations = await memory.ingest(messages, { userId: 'u', sessionId: 's', source: { type: 'user_explicit', id: 'chat' } });
  const used = process.cpuUsage(cpu);
  console.log(`${n} messages (${facts} facts): ${operations.length} operations, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU, ${((performance.now() - wall) / 1000).toFixed(2)} s wall`);
  await memory.close();
}
