/**
 * RELIABILITY 1, 2 and 7: fail each write of session 3's UPDATE in turn (a Dexie DBCore
 * middleware on the instance's own database), a decider that takes its time, and two
 * instances ingesting for one user at once. The store is always the state before or after.
 */
import fc from 'fast-check';
import { IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPolicyDecider, createMemory, DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, StorageError, type Decider, type Memory } from '../../src/index';
import type { EngramDatabase } from '../../src/store/database';
import { installFaults, normalise, snapshot, type Faults } from '../helpers/idb-store';
import { createTestMemory, type TestMemory } from '../helpers/memory';
import { ingestSeed, ingestSeedSession, SEED_OWNER } from '../helpers/seed';

const open: Memory[] = [];
afterEach(async () => {
  for (const memory of open.splice(0)) await memory.close();
});

async function seeded(options: Parameters<typeof createTestMemory>[0] = {}) {
  let db: EngramDatabase | undefined;
  const onDatabase = options.onDatabase;
  const test: TestMemory = await createTestMemory({
    ...options,
    onDatabase: (database) => {
      db = database as EngramDatabase;
      onDatabase?.(database);
    },
  });
  open.push(test.memory);
  return { ...test, db: db! };
}

describe('Memory.ingest (fault sweep over apply)', () => {
  it('leaves the store at the pre-state after each failed write and reaches the post-state on retry, for every k', async () => {
    const reference = await seeded();
    await ingestSeed(reference.memory, reference.clock);
    const post = normalise(await snapshot(reference.db));

    let writes = 0;
    for (let k = 1; ; k++) {
      const faults: Faults = { count: 0, failAt: 0 };
      const { memory, clock, db } = await seeded({ onDatabase: installFaults(faults) });
      await ingestSeed(memory, clock, 2);
      const pre = await snapshot(db);
      faults.count = 0;
      faults.failAt = k;
      const attempt = ingestSeedSession(memory, clock, 2);
      const outcome = await attempt.then(
        () => 'ok' as const,
        (error: unknown) => error,
      );
      if (outcome === 'ok') {
        expect(faults.count).toBeLessThan(k);
        writes = k - 1;
        expect(normalise(await snapshot(db))).toEqual(post);
        break;
      }
      expect(outcome).toBeInstanceOf(StorageError);
      expect((outcome as Error).message).toContain('injected');
      // Never between: exactly the session-2 state, every table.
      expect(await snapshot(db)).toEqual(pre);
      expect((await memory.list(SEED_OWNER)).map((r) => r.content)).toContain('The user follows a vegetarian diet.');
      expect((await memory.retrieve('vegetarian diet', { ...SEED_OWNER, k: 1 }))[0]!.memory.content).toBe('The user follows a vegetarian diet.');
      faults.failAt = 0;
      const operations = await ingestSeedSession(memory, clock, 2);
      expect(operations.map((op) => op.action)).toEqual(['UPDATE']);
      expect(normalise(await snapshot(db))).toEqual(post);
      expect((await memory.retrieve('vegetarian diet fish', { ...SEED_OWNER, k: 10 })).map((h) => h.memory.content)).not.toContain('The user follows a vegetarian diet.');
    }
    console.log(`fault sweep: session 3's apply makes ${writes} writes; each failed in turn; half-applied states: 0`);
    expect(writes).toBeGreaterThanOrEqual(3);
  });
});

describe('Memory.ingest (slow decider)', () => {
  it('writes nothing until an async decider resolves', async () => {
    const policy = createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: new Set(DEFAULT_EXCLUSIVE_TOPICS) });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let waiting = false;
    const decider: Decider = {
      async decide(input) {
        if (input.source.id === 's3') {
          waiting = true;
          await gate;
        }
        return policy.decide(input);
      },
    };
    const reference = await seeded();
    await ingestSeed(reference.memory, reference.clock);
    const post = normalise(await snapshot(reference.db));

    const { memory, clock, db } = await seeded({ decider });
    await ingestSeed(memory, clock, 2);
    const pre = await snapshot(db);
    const pending = ingestSeedSession(memory, clock, 2);
    for (let tick = 0; tick < 20; tick++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(await snapshot(db)).toEqual(pre);
    }
    expect(waiting).toBe(true);
    release();
    expect((await pending).map((op) => op.action)).toEqual(['UPDATE']);
    expect(normalise(await snapshot(db))).toEqual(post);
  });
});

describe('Memory.ingest (two instances, one database)', () => {
  const conversations = [
    "I'm vegetarian.",
    "I've started eating fish.",
    "I'm vegan.",
    "I've gone back to eating meat.",
    'I prefer the aisle seat.',
    'I want a window seat.',
    'Call me Ada.',
    'Call me Bea.',
    'The export keeps failing.',
    'My upload timed out.',
  ];
  const types = ['user_implicit', 'user_explicit'] as const;

  const interleavings = async (label: string) => {
    const stats = { runs: 0, ingests: 0, lost: 0, duplicated: 0, dangling: 0, overfull: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: conversations.length - 1 }), fc.constantFrom(...types)), { minLength: 4, maxLength: 10 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: conversations.length - 1 }), fc.constantFrom(...types)), { minLength: 4, maxLength: 10 }),
        fc.scheduler(),
        async (left, right, scheduler) => {
          const first = await seeded();
          const second = await createMemory({
            name: first.name,
            indexedDB: first.factory,
            IDBKeyRange,
            worker: 'off',
            clock: first.clock,
            idGenerator: (() => {
              let next = 0;
              return () => `other_${String(++next).padStart(4, '0')}`;
            })(),
          });
          open.push(second);
          let sessions = 0;
          const run = async (memory: Memory, plan: typeof left, tag: string) => {
            for (const [index, type] of plan) {
              await scheduler.schedule(Promise.resolve(), `${tag} ${index}`);
              const id = `${tag}${sessions++}`;
              await memory.ingest([{ role: 'user', content: conversations[index]! }], { userId: 'ada', sessionId: id, source: { type, id } });
            }
          };
          const done = Promise.all([run(first.memory, left, 'L'), run(second, right, 'R')]);
          await scheduler.waitFor(done);

          const rows = await first.db.memories.toArray();
          const active = rows.filter((row) => row.invalidatedAt === undefined);
          const ids = new Set(rows.map((row) => row.id));
          const inputs = await first.db.inputs.count();
          const lost = left.length + right.length - inputs;
          const keys = active.map((row) => `${row.topic}\u0000${row.content}`);
          const duplicated = keys.length - new Set(keys).size;
          const dangling = rows.filter((row) => row.supersededBy !== undefined && !ids.has(row.supersededBy)).length;
          const overfull = DEFAULT_EXCLUSIVE_TOPICS.filter((topic) => active.filter((row) => row.topic === topic).length > 1).length;
          stats.runs++;
          stats.ingests += left.length + right.length;
          stats.lost += lost;
          stats.duplicated += duplicated;
          stats.dangling += dangling;
          stats.overfull += overfull;
          expect({ lost, duplicated, dangling, overfull }).toEqual({ lost: 0, duplicated: 0, dangling: 0, overfull: 0 });
          // Every input a memory cites is a stored input: no fact from nowhere.
          const sourceIds = new Set((await first.db.inputs.toArray()).flatMap((row) => (row.kind === 'prune' ? [] : [row.source.id])));
          for (const row of rows) for (const source of row.sources) expect(sourceIds.has(source.id)).toBe(true);
          await second.close();
          await first.memory.close();
        },
      ),
      { numRuns: 25, seed: 20_260_101 },
    );
    console.log(
      `two instances (${label}): ${stats.runs} interleavings, ${stats.ingests} ingests; lost ${stats.lost}, duplicated ${stats.duplicated}, dangling supersededBy ${stats.dangling}, exclusive topics with >1 active ${stats.overfull}`,
    );
  };

  it('loses, duplicates and dangles nothing and keeps ≤ 1 active memory per exclusive topic when ingests interleave', async () => {
    await interleavings('shared lock');
  });

  it('completes forgetSource and prune while another instance ingests for the same user without pause', async () => {
    const first = await seeded();
    const second = await createMemory({ name: first.name, indexedDB: first.factory, IDBKeyRange, worker: 'off', clock: first.clock });
    open.push(second);
    for (let i = 0; i < 20; i++) {
      await first.memory.ingest([{ role: 'user', content: conversations[i % conversations.length]! }], { userId: 'ada', sessionId: `h${i}`, source: { type: 'user_implicit', id: `h${i}` } });
    }
    let streaming = true;
    let streamed = 0;
    const stream = (async () => {
      while (streaming) {
        await second.ingest([{ role: 'user', content: conversations[streamed % conversations.length]! }], { userId: 'ada', sessionId: `t${streamed}`, source: { type: 'user_implicit', id: `t${streamed}` } });
        streamed++;
      }
    })();
    try {
      // Each replays 20+ conversations: far longer than one ingest of the stream takes.
      for (let i = 0; i < 5; i++) await first.memory.forgetSource(`h${i}`, { userId: 'ada' });
      await first.memory.prune({ userId: 'ada', floor: 0.1 });
    } finally {
      streaming = false;
      await stream;
    }
    expect(streamed).toBeGreaterThan(0);
    const cited = new Set((await first.memory.list({ userId: 'ada' })).flatMap((record) => record.sources.map((source) => source.id)));
    for (let i = 0; i < 5; i++) expect(cited.has(`h${i}`)).toBe(false);
  });

  it('holds the same invariants on version checks alone when the lock does not exclude (two tabs without Web Locks)', async () => {
    vi.stubGlobal('navigator', { locks: { request: <T>(_name: string, body: () => Promise<T>) => body() } });
    try {
      await interleavings('no lock, optimistic versions only');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
