/**
 * `npm run bench`: the benchmark under Node. The store is fake-indexeddb (an in-memory
 * IndexedDB in JS: its figures are NOT browser figures) and compute runs in-process.
 * `npm run bench:browser` runs the same benchmark in headless Chromium.
 * Sizes: `npm run bench -- 1000 10000` (default 1k, 10k, 100k); the long-user section's
 * history sizes with `--long=100,1000,2000,10000`, and `--long-only` skips the rest; `--topic-only`
 * runs only the big-topic write section; `--no-long` skips the long-user section; the
 * encryption-at-rest section's sizes with `--sealed=1000,10000`, and `--sealed-only` runs only it;
 * `--peers` runs only the peers table (PGlite + pgvector, hnswlib-wasm, voy-search, Orama, MeMemo; sizes default
 * 10k and 100k: scripts/bench-peers.ts; `--peers=orama,pglite-exact` only those); `--e2e-only` only the end-to-end table and its stage breakdown;
 * `--codes-only` runs only the 8-bit section (at the largest size: `npm run bench -- --codes-only 100000`);
 * `--mem0-only` runs only the engram/mem0 section (deleteAll of a user with 1k and 2k memories);
 * `--speech-only` runs only the ordinary-speech ingest section (which otherwise runs first).
 * Exits 1 if any top-k is wrong, or deleteAll of 2k memories takes over 2 s.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { EngramDatabase } from '../src/store/database';
import { createComputeClient } from '../src/worker/client';
import { runBench, runCodesBench, type BenchEnvironment } from './bench-core';
import { LONG_USER_SIZES, runLongUserBench } from './bench-long';
import { runSealedBench, SEALED_SIZES } from './bench-sealed';
import { runSpeechBench } from './bench-speech';
import { printTopicIngest } from './bench-topic';
import { runMem0Bench } from './bench-mem0';
import { runPeersBench } from './bench-peers';
import { nodePeers } from './bench-peers-node';
import { benchCommand, benchSection } from './bench-doc';

const args = process.argv.slice(2);
const sizes = args.map(Number).filter((n) => Number.isInteger(n) && n > 0);
const longSizes =
  args
    .find((arg) => arg.startsWith('--long='))
    ?.slice('--long='.length)
    .split(',')
    .map(Number) ?? LONG_USER_SIZES;
const sealedSizes =
  args
    .find((arg) => arg.startsWith('--sealed='))
    ?.slice('--sealed='.length)
    .split(',')
    .map(Number) ?? SEALED_SIZES;
const sealedOnly = args.includes('--sealed-only');
const factory = new IDBFactory();
/** Each section's printed lines also go to docs/benchmarks.md (scripts/bench-doc.ts). */
const command = benchCommand('bench', args);
const NODE = ' (Node, fake-indexeddb)';

const env: BenchEnvironment = {
  label: `Node ${process.versions.node}, store on fake-indexeddb (not a browser), compute in-process`,
  sizes: sizes.length ? sizes : [1_000, 10_000, 100_000],
  memoryOptions: (name) => ({ name, indexedDB: factory, IDBKeyRange, worker: 'off' }),
  openDatabase: (name) => new EngramDatabase(name, { indexedDB: factory, IDBKeyRange }),
  computeClient: () => createComputeClient({ worker: 'off' }),
  print: (line) => console.log(line),
  endToEndOnly: args.includes('--e2e-only'),
};
const peers = args.find((arg) => arg === '--peers' || arg.startsWith('--peers='));
if (peers) {
  // The peers run in this thread on no IndexedDB: the section is not titled with the others' fake-indexeddb.
  await benchSection(env, 'node-peers', 'Peers (Node, in this thread)', command, (e) =>
    runPeersBench(e.print, sizes.length ? sizes : [10_000, 100_000], nodePeers, peers.includes('=') ? peers.slice('--peers='.length).split(',') : undefined),
  );
  process.exit(0);
}
if (args.includes('--codes-only')) process.exit((await benchSection(env, 'node-codes', `8-bit codes${NODE}`, command, runCodesBench)).length ? 1 : 0);
if (args.includes('--mem0-only')) process.exit((await benchSection(env, 'node-mem0', `engram/mem0 deleteAll${NODE}`, command, runMem0Bench)).length ? 1 : 0);
if (!env.endToEndOnly) await benchSection(env, 'node-speech', `Ordinary speech ingest${NODE}`, command, runSpeechBench);
if (args.includes('--speech-only')) process.exit(0);
if (args.includes('--topic-only')) {
  await benchSection(env, 'node-topic', `Writes on a big topic${NODE}`, command, printTopicIngest);
  process.exit(0);
}
const failures = args.includes('--long-only') || sealedOnly ? [] : await benchSection(env, env.endToEndOnly ? 'node-e2e' : 'node-core', `Retrieve, ingest, cold start and scan${NODE}`, command, runBench);
if (env.endToEndOnly) process.exit(failures.length ? 1 : 0);
if (!args.includes('--no-long') && !sealedOnly) await benchSection(env, 'node-long', `A long-time user${NODE}`, command, (e) => runLongUserBench(e, longSizes));
if (!args.includes('--long-only')) await benchSection(env, 'node-sealed', `Encryption at rest${NODE}`, command, (e) => runSealedBench(e, sealedSizes));
const slowErasures = args.includes('--long-only') || sealedOnly ? [] : await benchSection(env, 'node-mem0', `engram/mem0 deleteAll${NODE}`, command, runMem0Bench);
process.exit(failures.length || slowErasures.length ? 1 : 0);
