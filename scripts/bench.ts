/**
 * `npm run bench`: the benchmark under Node. The store is fake-indexeddb (an in-memory
 * IndexedDB in JS: its figures are NOT browser figures) and compute runs in-process.
 * `npm run bench:browser` runs the same benchmark in headless Chromium.
 * Sizes: `npm run bench -- 1000 10000` (default 1k, 10k, 100k). Exits 1 if any top-k is wrong.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { EngramDatabase } from '../src/store/database';
import { createComputeClient } from '../src/worker/client';
import { runBench } from './bench-core';

const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
const factory = new IDBFactory();

const failures = await runBench({
  label: `Node ${process.versions.node}, store on fake-indexeddb (not a browser), compute in-process`,
  sizes: sizes.length ? sizes : [1_000, 10_000, 100_000],
  memoryOptions: (name) => ({ name, indexedDB: factory, IDBKeyRange, worker: 'off' }),
  openDatabase: (name) => new EngramDatabase(name, { indexedDB: factory, IDBKeyRange }),
  computeClient: () => createComputeClient({ worker: 'off' }),
  print: (line) => console.log(line),
});
process.exit(failures.length ? 1 : 0);
