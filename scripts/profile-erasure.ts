/**
 * Where one forgetSource's time goes on the bench's long user (scripts/bench-long.ts): builds
 * the history once (Node, fake-indexeddb, default options: episodes on), then forgets a middle
 * and a recent source that changed the diet and one of each that only restated, each timed in
 * CPU ms with its rows read, and writes a V8 CPU profile of the erasures alone.
 *
 *   node --import tsx scripts/profile-erasure.ts 2000 [out.cpuprofile]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openMemory } from '../src/memory';
import { changesDiet, createReadCounter, longUserConversations, restatesDiet } from './bench-long';
import { cpuMs, T0 } from './bench-data';

const HOUR = 3_600_000;
const OWNER = { userId: 'u_long', appName: 'bench-long' };
const n = Number(process.argv[2] ?? 1000);
const out = process.argv[3];

const conversations = longUserConversations(n);
const byTable = new Map<string, number>();
const counter = createReadCounter((table, kind, values) => {
  if (kind === 'read') byTable.set(table, (byTable.get(table) ?? 0) + values.filter((value) => value !== undefined).length);
});
let now = T0;
const memory = await openMemory({ name: `profile-erasure-${Date.now()}`, indexedDB: new IDBFactory(), IDBKeyRange, worker: 'off', clock: () => now }, { onDatabase: (db) => counter.install(db) });
const built = performance.now();
for (let i = 0; i < n; i++, now += HOUR) await memory.ingest(conversations[i]!, { ...OWNER, sessionId: `long-s${i}`, source: { type: 'user_explicit', id: `long-c${i}` } });
console.log(`built ${n} conversations in ${((performance.now() - built) / 1000).toFixed(1)} s`);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const picks: [string, number][] = [
  ['recent changed', changesDiet(conversations, n - 1)],
  ['recent restated', restatesDiet(conversations, n - 1)],
  ['middle changed', changesDiet(conversations, Math.floor(n / 2))],
  ['middle restated', restatesDiet(conversations, Math.floor(n / 2))],
];
for (const [label, i] of picks) {
  counter.reset();
  byTable.clear();
  const [wall, cpu] = [performance.now(), cpuMs()];
  const report = await memory.forgetSource(`long-c${i}`, OWNER);
  console.log(
    `${label.padEnd(16)} c${i}: ${(cpuMs() - cpu).toFixed(0)} ms CPU, ${(performance.now() - wall).toFixed(0)} ms wall, rows read ${counter.rows} (inputs ${counter.inputs}), put ${counter.written}; erased ${report.erased.length}, regenerated ${report.regenerated.length}`,
  );
  console.log(`  by table: ${[...byTable].map(([table, rows]) => `${table} ${rows}`).join(', ')}`);
}
const { profile } = await session.post('Profiler.stop');
if (out) writeFileSync(out, JSON.stringify(profile));
// Self time by function, the top 25.
const self = new Map<string, number>();
const dt = new Map<number, number>();
profile.samples!.forEach((id, k) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas![k] ?? 0)));
for (const node of profile.nodes) {
  const key = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.replace(/.*\/(src|node_modules)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt.get(node.id) ?? 0) / 1000);
}
for (const [key, value] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${value.toFixed(0).padStart(7)} ms  ${key}`);
await memory.close();
