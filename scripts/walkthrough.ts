/**
 * `npm run walkthrough`: replays the seed's Part 7 and Part 8 through the public API under
 * Node (fake-indexeddb, in-process compute) and prints the same transcript shape.
 * `npm run walkthrough -- --storage chroma`: the same on a real Chroma server (the seed's
 * Part 9), which it starts and stops itself, plus the raw Chroma rows for the dietary query.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createHashEmbedder, createMemory, decayedConfidence, type MemoryRecord, type Operation } from '../src/index';
import { DAY, OTHER_USER, SEED_APP, SEED_QUERIES, SEED_SESSIONS, SEED_START, SEED_SYSTEM, SEED_USER } from './seed-sessions';
import { printChromaRows, startWalkthroughChroma } from './walkthrough-chroma';

const args = process.argv.slice(2);
const flag = args.indexOf('--storage');
const storageArgument = args.find((arg) => arg.startsWith('--storage='))?.slice('--storage='.length) ?? (flag >= 0 ? args[flag + 1] : undefined) ?? 'indexeddb';
if (storageArgument !== 'indexeddb' && storageArgument !== 'chroma') throw new Error(`--storage must be 'indexeddb' or 'chroma' (got '${storageArgument}')`);
const chroma = storageArgument === 'chroma' ? await startWalkthroughChroma() : undefined;

let now = SEED_START;
const owner = { userId: SEED_USER, appName: SEED_APP };
const where = chroma ? { storage: chroma.storage } : { indexedDB: new IDBFactory(), IDBKeyRange };
const memory = await createMemory({ name: 'walkthrough', ...where, clock: () => now, worker: 'off' });
const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
const print = (line = '') => console.log(line);

function printOperations(operations: Operation[]) {
  for (const op of operations) {
    const arrow = op.targetId ? `-> ${op.targetId} ` : ''.padEnd(0);
    print(`    ${op.action.padEnd(6)} ${arrow}'${op.content}'`);
    print(`           reason: ${op.reason}`);
  }
}

function printStore(records: MemoryRecord[]) {
  print('STORE STATE -- ACTIVE:');
  for (const m of records.filter((r) => r.invalidatedAt === undefined)) {
    print(`  ${m.id}  [${m.topic.padEnd(8)}] conf=${m.confidence.toFixed(2)} (decayed ${decayedConfidence(m, now).toFixed(2)})  ${m.content}`);
    print(`      sources: [${m.sources.map((s) => `('${s.type}', '${s.id}')`).join(', ')}]`);
  }
  print();
  print('INVALIDATED (kept for lineage, never retrieved):');
  for (const m of records.filter((r) => r.invalidatedAt !== undefined)) {
    print(`  ${m.id}  ${m.content}${m.supersededBy ? `  (superseded by ${m.supersededBy})` : ''}`);
    print(`      sources: [${m.sources.map((s) => `('${s.type}', '${s.id}')`).join(', ')}]`);
    for (const h of m.history.filter((entry) => entry.event !== 'created')) print(`      ${stamp(h.at)} ${h.event}: ${h.reason}`);
  }
}

try {
  for (const session of SEED_SESSIONS) {
    now = SEED_START + session.day * DAY;
    print(`${session.title}   [${stamp(now)}]`);
    for (const message of session.messages) print(`  ${message.role}: ${message.content}`);
    printOperations(await memory.ingest(session.messages, { ...owner, sessionId: session.sessionId, source: session.source }));
    print();
  }

  printStore(await memory.list({ ...owner, includeInvalid: true }));
  print();
  print('Retrieval:');
  for (const query of SEED_QUERIES) {
    print();
    print(`query: '${query}'`);
    for (const hit of await memory.retrieve(query, { ...owner, k: 3 })) {
      print(`  ${hit.score.toFixed(3)}  ${hit.memory.content.padEnd(45)} (relevance ${hit.relevance.toFixed(3)}, recency ${hit.recency.toFixed(3)}, importance ${hit.importance.toFixed(2)})`);
    }
  }
  if (chroma) {
    print();
    const [vector] = await createHashEmbedder().embed([SEED_QUERIES[0]!]);
    await printChromaRows(chroma.server, owner, SEED_QUERIES[0]!, vector!, print);
  }
  print();
  print('isolation check -- a different user sees nothing:');
  print(`  ${JSON.stringify(await memory.retrieve(SEED_QUERIES[0]!, { userId: OTHER_USER, appName: SEED_APP }))}`);
  print();
  print('CONTEXT FOR THE NEXT TURN');
  // The seat question's hits (k is a maximum: the seat alone) with the user's standing profile
  // (who the user is: the name, the diet), which the block shows whatever the question.
  print(memory.inject(SEED_SYSTEM, await memory.retrieve(SEED_QUERIES[1]!, { ...owner, k: 3, profile: true })));
  print();
  print('RIGHT TO ERASURE: revoking source s1');
  const beforeErasure = new Map((await memory.list({ ...owner, includeInvalid: true })).map((m) => [m.id, m.content]));
  const report = await memory.forgetSource('s1', owner);
  for (const id of report.erased) print(`   ${id}  ${'erased (sole source s1)'.padEnd(28)} was '${beforeErasure.get(id)}'`);
  for (const { from, to } of report.regenerated) print(`   ${from}  ${`regenerated -> ${to ?? 'nothing'}`.padEnd(28)} was '${beforeErasure.get(from)}'`);
  print('   (rebuilt by replaying the stored conversations of s2 and s3 at their original times)');
  print();
  print('remaining active:');
  for (const m of await memory.list(owner)) {
    print(`   ${m.id}  ${m.content}  conf=${m.confidence.toFixed(2)}  sources: [${m.sources.map((s) => s.id).join(', ')}]`);
    for (const h of m.history) print(`      ${stamp(h.at)} ${h.event}: ${h.reason}`);
  }
  print();
  print('erased tombstones (ids, times and the reason; no text):');
  for (const m of (await memory.list({ ...owner, includeInvalid: true })).filter((r) => report.erased.includes(r.id))) {
    print(`   ${m.id}  content=${JSON.stringify(m.content)}  ${m.history.at(-1)!.reason}`);
  }
} finally {
  await memory.close();
  await chroma?.server.stop();
}
