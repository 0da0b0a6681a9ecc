/**
 * Builds test/fixtures/engram-db-v3.json: a database written by this commit's engram (Dexie
 * schema v3), dumped raw, with what this release reads back from it. The upgrade test opens it
 * with the current code and checks that nothing was lost: memories, lineage, stored inputs,
 * revocations and packed vectors. Run it only to make a fixture for a new on-disk release:
 * `npm run fixture:db`. Committed fixtures are never rebuilt; each later schema must open them.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMemory, type Memory } from '../src/index';
import { dumpDatabase, encodeValue } from '../test/helpers/idb-fixture';
import { DAY, OTHER_USER, SEED_APP, SEED_QUERIES, SEED_SESSIONS, SEED_START, SEED_USER } from './seed-sessions';

const OUT = new URL('../test/fixtures/engram-db-v3.json', import.meta.url);
const NAME = 'engram-fixture';
const FIXTURE_OWNERS = [
  { userId: SEED_USER, appName: SEED_APP },
  { userId: OTHER_USER, appName: SEED_APP },
  { userId: SEED_USER, appName: 'other-app' },
] as const;

/** Every write path once: CREATE, corroboration, UPDATE, summary, app scope, prune, erasure. */
async function writeHistory(memory: Memory, clock: { set(value: number): void }, afterErase: () => Promise<void> = async () => {}): Promise<void> {
  const [ada, bob, adaElsewhere] = FIXTURE_OWNERS;
  for (const session of SEED_SESSIONS) {
    clock.set(SEED_START + session.day * DAY);
    await memory.ingest(session.messages, { ...ada, sessionId: session.sessionId, source: session.source });
  }
  clock.set(SEED_START + 183 * DAY);
  await memory.summarizeSession(SEED_SESSIONS[0]!.messages, { ...ada, sessionId: 's1', source: SEED_SESSIONS[0]!.source });
  await memory.remember({ content: 'Solaris Trips offers free cancellation within 24 hours.', topic: 'policy' }, { appName: SEED_APP, scope: 'app', source: { type: 'bootstrapped', id: 'handbook' } });
  await memory.ingest([{ role: 'user', content: 'The export keeps failing on my phone.' }], { ...ada, sessionId: 's4', source: { type: 'user_implicit', id: 's4' } });
  await memory.ingest([{ role: 'user', content: "I'm vegan. Call me Bo. I want an aisle seat." }], { ...bob, sessionId: 'b1', source: { type: 'user_explicit', id: 'b1' } });
  await memory.ingest([{ role: 'user', content: 'I prefer the window seat.' }], { ...adaElsewhere, sessionId: 'o1', source: { type: 'user_implicit', id: 'o1' } });
  await memory.ingest([{ role: 'user', content: "I'm pescatarian these days." }], { ...adaElsewhere, sessionId: 'o3', source: { type: 'user_implicit', id: 'o3' } });
  clock.set(SEED_START + 260 * DAY);
  await memory.prune({ ...ada, floor: 0.3 });
  await memory.forgetSource('s2', ada);
  // Erasing o1 wipes a vector, which drops that partition's packs and snapshots it afresh; the
  // ingest after the snapshot lands in the log, so the fixture holds both forms.
  await memory.forgetSource('o1', adaElsewhere);
  await afterErase();
  clock.set(SEED_START + 261 * DAY);
  await memory.ingest([{ role: 'user', content: 'Call me Ada, please.' }], { ...adaElsewhere, sessionId: 'o2', source: { type: 'user_explicit', id: 'o2' } });
}

/** Ids `mem_fx_0001`, … so the fixture is the same every time it is built. */
function sequentialIds(): () => string {
  let next = 0;
  return () => `mem_fx_${String(++next).padStart(4, '0')}`;
}

async function open(factory: IDBFactory) {
  let now = SEED_START;
  const clock = Object.assign(() => now, { set: (value: number) => void (now = value) });
  const memory = await createMemory({ name: NAME, indexedDB: factory, IDBKeyRange, worker: 'off', clock, idGenerator: sequentialIds() });
  return { memory, clock };
}

/** Snapshots are written in the background: wait until `partitions` of them are there. */
async function waitForPacks(factory: IDBFactory, partitions: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const dump = await dumpDatabase(factory, NAME);
    const packs = dump.stores.find((store) => store.name === 'vectorPacks')?.rows ?? [];
    if (new Set(packs.map((row) => JSON.stringify((row.key as unknown[])[0]))).size >= partitions) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('packed snapshots were not written');
}

async function main(): Promise<void> {
  const factory = new IDBFactory();
  const { memory, clock } = await open(factory);
  await writeHistory(memory, clock, () => waitForPacks(factory, 1));
  const retrieved: Record<string, string[][]> = {};
  for (const owner of FIXTURE_OWNERS) {
    retrieved[JSON.stringify(owner)] = [];
    for (const query of SEED_QUERIES) retrieved[JSON.stringify(owner)]!.push((await memory.retrieve(query, { ...owner, k: 10 })).map((hit) => hit.memory.id));
  }
  const exports = [];
  for (const owner of FIXTURE_OWNERS) exports.push(await memory.export(owner));
  const lists = [];
  for (const owner of FIXTURE_OWNERS) lists.push(await memory.list({ ...owner, includeInvalid: true }));
  await memory.close();
  const database = await dumpDatabase(factory, NAME);

  // What forgetting s3 after the move must give: the same history, erased by this release.
  const twin = await open(new IDBFactory());
  await writeHistory(twin.memory, twin.clock);
  const afterForget = await twin.memory.forgetSource('s3', FIXTURE_OWNERS[0]);
  const activeAfterForget = (await twin.memory.list(FIXTURE_OWNERS[0])).map(({ content, topic, scope, confidence, sources }) => ({ content, topic, scope, confidence, sources: sources.map((source) => source.id) }));
  await twin.memory.close();

  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const fixture = {
    builtFrom: commit,
    dexieSchemaVersion: 3,
    name: NAME,
    now: clock(),
    owners: FIXTURE_OWNERS,
    database,
    expected: encodeValue({ exports, lists, retrieved, afterForget: { report: afterForget, active: activeAfterForget } }),
  };
  writeFileSync(OUT, JSON.stringify(fixture) + '\n');
  const rows = database.stores.reduce((sum, store) => sum + store.rows.length, 0);
  console.log(`wrote ${OUT.pathname}: ${database.stores.length} stores, ${rows} rows, from ${commit.slice(0, 12)}`);
}

await main();
