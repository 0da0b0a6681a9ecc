import './helpers/web-worker';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { ClosedError, createMemory, EPISODE_TOPIC, isEngramError, ValidationError, WorkerError, type Memory } from '../src/index';
import { SEED_QUERIES, SEED_SYSTEM } from '../scripts/seed-sessions';
import { openMemory } from '../src/memory';
import { createComputeClient } from '../src/worker/client';
import { createSequentialIds, createTestClock } from './helpers/memory';
import { ingestSeed, SEED_OWNER } from './helpers/seed';

const open: Memory[] = [];
afterEach(async () => {
  for (const memory of open.splice(0)) await memory.close();
});

async function build(worker: 'auto' | 'off') {
  const clock = createTestClock();
  const memory = await createMemory({ name: `wiring-${worker}`, indexedDB: new IDBFactory(), IDBKeyRange, worker, clock, idGenerator: createSequentialIds() });
  open.push(memory);
  return { memory, clock };
}

async function transcript(memory: Memory, clock: ReturnType<typeof createTestClock>) {
  const operations = await ingestSeed(memory, clock);
  const retrieved = [];
  for (const query of SEED_QUERIES) {
    retrieved.push((await memory.retrieve(query, { ...SEED_OWNER, k: 3 })).map((h) => ({ id: h.memory.id, score: h.score, relevance: h.relevance, semantic: h.semantic, recency: h.recency })));
  }
  const context = memory.inject(SEED_SYSTEM, await memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3 }));
  const records = (await memory.list({ ...SEED_OWNER, includeInvalid: true })).map((r) => ({ ...r, embedding: [...r.embedding] }));
  return { operations, retrieved, context, records };
}

describe('createMemory (worker wiring)', () => {
  it('runs compute in the real worker module when worker is auto and Worker exists', async () => {
    expect(typeof Worker).toBe('function');
    const { memory } = await build('auto');
    expect(memory.computeLocation).toBe('worker');
  });

  it('gives the same seed results in the worker as in-process', async () => {
    const inWorker = await build('auto');
    const inProcess = await build('off');
    expect(inProcess.memory.computeLocation).toBe('in-process');
    const viaWorker = await transcript(inWorker.memory, inWorker.clock);
    const local = await transcript(inProcess.memory, inProcess.clock);
    expect(viaWorker).toEqual(local);
    // Each session's turns are kept as episodes too (by default), ahead of its facts.
    const episodeIds = new Set(viaWorker.records.filter((record) => record.topic === EPISODE_TOPIC).map((record) => record.id));
    expect(episodeIds.size).toBeGreaterThan(0);
    expect(
      viaWorker.operations
        .flat()
        .filter((op) => !episodeIds.has(op.memoryId))
        .map((op) => op.action),
    ).toEqual(['CREATE', 'CREATE', 'CREATE', 'NOOP', 'UPDATE']);
    expect(viaWorker.retrieved[0]![0]!.id).toBe(viaWorker.operations[2]!.at(-1)!.memoryId);
    // The worker has the semantic channel's table (the client hands it over before the first scan): the lunch query's diet memory is found by meaning.
    expect(viaWorker.retrieved[2]![0]!.id).toBe(viaWorker.operations[2]!.at(-1)!.memoryId);
    expect(viaWorker.retrieved[2]![0]!.semantic).toBeGreaterThan(0);
  });

  it('extracts ordinary speech the same whether compute runs in the worker or in-process (the default extractor runs on the calling thread)', async () => {
    const facts = async (worker: 'auto' | 'off') => {
      const { memory } = await build(worker);
      await memory.ingest([{ role: 'user', content: 'My name is Sam and I live in Berlin. Yesterday I adopted a puppy!' }], { userId: 'sam', sessionId: 's1', source: { type: 'user_explicit', id: 'm1' } });
      return (await memory.list({ userId: 'sam' })).filter((r) => r.topic !== EPISODE_TOPIC).map((r) => [r.topic, r.content]);
    };
    const viaWorker = await facts('auto');
    expect(viaWorker).toEqual(await facts('off'));
    expect(viaWorker).toEqual([
      ['identity', "The user's name is Sam."],
      ['home', 'The user lives in Berlin.'],
      ['pets', 'The user adopted a puppy on 31 December 2025.'],
    ]);
  });

  it('rejects with ClosedError, not the terminated worker or closed database, when a call comes after close()', async () => {
    const { memory } = await build('auto');
    await memory.remember({ content: 'The user likes tea.', topic: 'drink' }, { userId: 'ada', source: { type: 'user_explicit', id: 'f1' } });
    await memory.close();
    const error = await memory.retrieve('tea', { userId: 'ada' }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ClosedError);
    expect(error).not.toBeInstanceOf(WorkerError);
    expect(isEngramError(error)).toBe(true);
    await expect(memory.ingest([{ role: 'user', content: "I'm vegan" }], { userId: 'ada', sessionId: 's', source: { type: 'user_implicit', id: 's' } })).rejects.toThrow(ClosedError);
  });
});

describe('createMemory (workerTimeoutMs)', () => {
  it('rejects a timeout that is not a positive number of ms with ValidationError', async () => {
    for (const workerTimeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(createMemory({ indexedDB: new IDBFactory(), IDBKeyRange, workerTimeoutMs })).rejects.toThrow(ValidationError);
    }
  });
});

/**
 * The real worker module, each one started pushed to `spawned`. While `held` names a compute
 * method, the calls of it are never delivered: the worker hangs on them as one that is busy
 * past the timeout does (Comlink sends each call as `{ path: [method], … }`).
 */
function spawnTracked(spawned: Worker[], held: { method?: string } = {}) {
  return () => {
    const worker = new Worker(new URL('../src/worker/worker.ts', import.meta.url), { type: 'module' });
    const post = worker.postMessage.bind(worker) as (message: unknown, transfer?: Transferable[]) => void;
    worker.postMessage = ((message: { path?: string[] } | undefined, transfer?: Transferable[]) => {
      if (held.method !== undefined && message?.path?.[0] === held.method) return;
      post(message, transfer);
    }) as Worker['postMessage'];
    spawned.push(worker);
    return worker;
  };
}

describe('createMemory (cold start)', () => {
  it('starts the compute worker and hands it the semantic table while the database opens, before any call', async () => {
    const spawned: Worker[] = [];
    const posted: string[] = [];
    const track = spawnTracked(spawned);
    const createWorker = () => {
      const worker = track();
      const post = worker.postMessage.bind(worker) as (message: unknown, transfer?: Transferable[]) => void;
      worker.postMessage = ((message: { path?: string[] } | undefined, transfer?: Transferable[]) => {
        if (message?.path?.[0] !== undefined) posted.push(message.path[0]);
        post(message, transfer);
      }) as Worker['postMessage'];
      return worker;
    };
    const memory = await openMemory({ name: 'wiring-cold-start', indexedDB: new IDBFactory(), IDBKeyRange, worker: 'auto', clock: createTestClock(), idGenerator: createSequentialIds() }, { createWorker });
    open.push(memory);
    // Nothing was called yet: the worker was started by the open, its first answer asked for,
    // and the table (read beside it) is on its way to it or there.
    expect(spawned).toHaveLength(1);
    expect(posted[0]).toBe('partitionVersion');
    await expect.poll(() => posted.includes('loadConcepts'), { timeout: 10_000 }).toBe(true);
    // The first retrieve uses that worker: no second start.
    await memory.retrieve('what does the user eat for lunch', { userId: 'ada', appName: 'default' });
    expect(spawned).toHaveLength(1);
  });
});

describe('a write whose commit landed when compute did not follow it', () => {
  it('resolves the ingest once, and the restarted worker serves the later calls with what it wrote', async () => {
    const spawned: Worker[] = [];
    const held: { method?: string } = {};
    const memory = await openMemory(
      { name: 'wiring-after-commit', indexedDB: new IDBFactory(), IDBKeyRange, worker: 'auto', workerTimeoutMs: 1_000, clock: createTestClock(), idGenerator: createSequentialIds(), episodes: false },
      { createWorker: spawnTracked(spawned, held) },
    );
    open.push(memory);
    const owner = { userId: 'ada', appName: 'default' };
    await memory.remember({ content: 'The user likes tea.', topic: 'drink' }, { ...owner, source: { type: 'user_explicit', id: 'f1' } });
    held.method = 'applyChanges';
    const messages = [{ role: 'user' as const, content: 'My name is Sam and I live in Berlin.' }];
    // The commit lands; following it in compute times out (the worker restarts): the call still succeeded.
    const operations = await memory.ingest(messages, { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 's1' } });
    delete held.method;
    expect(operations.map((operation) => [operation.action, operation.content])).toEqual([
      ['CREATE', "The user's name is Sam."],
      ['CREATE', 'The user lives in Berlin.'],
    ]);
    expect((await memory.list(owner)).map((record) => record.content).sort()).toEqual(['The user likes tea.', 'The user lives in Berlin.', "The user's name is Sam."]);
    // The restarted worker catches up from the store: the new memories are found.
    const [hit] = await memory.retrieve('where does the user live', { ...owner, k: 1 });
    expect(hit?.memory.content).toBe('The user lives in Berlin.');
    expect(spawned).toHaveLength(2);
  });
});

describe('createComputeClient (worker failure)', () => {
  it('answers with a timeout shorter than a worker takes to start, and after a restart', async () => {
    const spawned: Worker[] = [];
    // 15 ms: less than a worker's first answer (module load, WASM compile) on this machine.
    const client = createComputeClient({ worker: 'auto', timeoutMs: 15, createWorker: spawnTracked(spawned) });
    expect(await client.partitionVersion('nothing')).toBe(-1);
    spawned[0]!.dispatchEvent(Object.assign(new Event('error'), { message: 'simulated crash' }));
    expect(await client.partitionVersion('nothing')).toBe(-1);
    expect((await client.embed(['after restart'], 256))[0]!.length).toBe(256);
    expect(spawned).toHaveLength(2);
    client.close();
  });

  it('rejects a pending call with WorkerError and restarts when the worker crashes mid-call', async () => {
    const spawned: Worker[] = [];
    const client = createComputeClient({ worker: 'auto', createWorker: spawnTracked(spawned) });
    expect(client.location).toBe('worker');
    expect((await client.embed(['warm up'], 256))[0]!.length).toBe(256);
    const pending = client.embed(['x'.repeat(50_000)], 256);
    spawned[0]!.dispatchEvent(Object.assign(new Event('error'), { message: 'simulated crash' }));
    const error = await pending.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isEngramError(error)).toBe(true);
    expect((error as Error).name).toBe('WorkerError');
    expect((await client.embed(['after restart'], 256))[0]!.length).toBe(256);
    expect(spawned).toHaveLength(2);
    client.close();
  });

  it('rejects within the timeout and the next call works when the worker was terminated', async () => {
    const spawned: Worker[] = [];
    // 1 s, not less: a worker's first answer (module load, WASM compile) can take a few hundred
    // ms on a loaded 2-core machine, and this test is about a dead worker, not a slow one.
    const client = createComputeClient({ worker: 'auto', timeoutMs: 1_000, createWorker: spawnTracked(spawned) });
    await client.stats();
    spawned[0]!.terminate();
    const started = performance.now();
    await expect(client.stats()).rejects.toThrow(WorkerError);
    // A call that hung on the dead worker would never settle (the test's timeout would end it).
    const waited = performance.now() - started;
    expect(await client.partitionVersion('nothing')).toBe(-1);
    console.log(`terminated worker: call rejected after ${waited.toFixed(0)} ms; restarted: ${spawned.length === 2}`);
    client.close();
  });
});
