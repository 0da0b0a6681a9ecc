/**
 * Encryption at rest through the public API, checked against the raw IndexedDB rows: with a
 * key, no user text and no vector is readable in any object store; a wrong, missing or extra
 * key is an EncryptionKeyError that leaves the database exactly as it was.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EncryptionKeyError, ValidationError, type MemoryOptions } from '../../src/index';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { countedPolicy } from '../helpers/counted-policy';
import { noiseEmbedder } from '../helpers/noise-embedder';
import { dumpDatabases, findInDatabases, storedRows } from '../helpers/scan';

const owner = { userId: 'u_ada', appName: 'default' };
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });
const CANARIES = ['Qvexname', 'qvx-canary-excerpt', 'qvx-canary-summary', 'qvx-canary-fact', 'qvx-canary-app', 'qvx-canary-erased', 'zucchini'];

const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

let opened: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(opened.map((test) => test.memory.close()));
  opened = [];
});

async function open(options: Parameters<typeof createTestMemory>[0] = {}): Promise<TestMemory> {
  const test = await createTestMemory(options);
  opened.push(test);
  return test;
}

async function close(test: TestMemory): Promise<void> {
  await test.memory.close();
  opened = opened.filter((other) => other !== test);
}

/** Every write path: ingest (CREATE and an UPDATE), summary, remember (user and app scope), forgetSource, prune, retrieve. */
async function writeEverything(test: TestMemory): Promise<void> {
  const { memory, clock } = test;
  await memory.ingest([{ role: 'user', content: "Please call me Qvexname. I'm vegetarian, qvx-canary-excerpt." }], { ...owner, sessionId: 'c1', source: explicit('s1') });
  clock.advance(DAY);
  const chat = [{ role: 'user' as const, content: "I've started eating fish again, with zucchini. I'm allergic to qvx-canary-summary." }];
  await memory.ingest(chat, { ...owner, sessionId: 'c2', source: explicit('s2') });
  await memory.summarizeSession(chat, { ...owner, sessionId: 'c2', source: explicit('s2') });
  await memory.remember({ content: 'The user collects qvx-canary-fact stamps.', topic: 'hobby' }, { ...owner, source: explicit('s3') });
  await memory.remember({ content: 'Support hours are qvx-canary-app.', topic: 'support' }, { appName: 'default', scope: 'app', source: { type: 'bootstrapped', id: 'b1' } });
  await memory.ingest([{ role: 'user', content: 'I prefer the aisle seat, qvx-canary-erased.' }], { ...owner, sessionId: 'c3', source: explicit('s4') });
  clock.advance(DAY);
  await memory.forgetSource('s4', owner);
  await memory.prune({ ...owner, floor: 0.01 });
  await memory.retrieve('what does the user eat', owner);
}

async function canaryHits(test: TestMemory): Promise<Record<string, number>> {
  const hits: Record<string, number> = {};
  for (const canary of CANARIES) hits[canary] = (await findInDatabases(test.factory, canary)).length;
  return hits;
}

/** The packs' columns of scoring numbers: in clear, as they are in every memory row. */
const SCORING_COLUMNS = new Set(['halfLifeDays', 'importance', 'updatedAt']);

/** Paths of every Float32Array / Uint32Array in the raw rows (a vector or term list in clear), scoring columns aside. */
async function clearArrays(test: TestMemory): Promise<string[]> {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value instanceof Float32Array || value instanceof Uint32Array) {
      if (!SCORING_COLUMNS.has(path.split('.').at(-1)!)) found.push(path);
    } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`);
  };
  for (const row of await storedRows(test.factory)) walk(row.value, `${row.store}[${JSON.stringify(row.key)}]`);
  return found;
}

/** Copies the sealed `content` of memory `from` into memory `to`, through the raw IndexedDB API. */
async function moveContent(test: TestMemory, from: string, to: string): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = test.factory.open(test.name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const transaction = db.transaction('memories', 'readwrite');
  const store = transaction.objectStore('memories');
  const read = store.getAll();
  read.onsuccess = () => {
    const rows = read.result as { id: string; content: unknown }[];
    store.put({ ...rows.find((row) => row.id === to)!, content: rows.find((row) => row.id === from)!.content });
  };
  await new Promise((resolve) => (transaction.oncomplete = resolve));
  db.close();
}

const storesWithRows = async (test: TestMemory) => new Set((await storedRows(test.factory)).map((row) => row.store));

describe('createMemory({ encryptionKey })', () => {
  it('leaves 0 plaintext canaries and 0 clear vectors in every object store when every write path ran', async () => {
    const test = await open({ encryptionKey: await newKey() });
    await writeEverything(test);
    // The snapshot of packed vectors is written in the background after the erasure dropped the packs.
    await vi.waitFor(async () => expect(await storesWithRows(test)).toContain('vectorPacks'), { timeout: 5000 });
    expect([...(await storesWithRows(test))].sort()).toEqual(['events', 'inputs', 'lineage', 'memories', 'partitions', 'revocations', 'vectorLog', 'vectorPacks']);

    expect(await canaryHits(test)).toEqual(Object.fromEntries(CANARIES.map((canary) => [canary, 0])));
    expect(await clearArrays(test)).toEqual([]);
  });

  it('keeps no content-derived fact key and still corroborates an identical fact on a non-exclusive topic', async () => {
    // The identical-fact index holds an unkeyed hash of the content: with a key it must not be
    // stored (a guessed fact could be confirmed against it), and the sweep reads the topic instead.
    const memories = async (test: TestMemory) => (await storedRows(test.factory)).filter((row) => row.store === 'memories').map((row) => row.value as { fact?: unknown });
    for (const encryptionKey of [await newKey(), undefined]) {
      const test = await open({ ...(encryptionKey ? { encryptionKey } : {}), embedder: noiseEmbedder(), exclusiveTopics: ['diet'], candidateThreshold: 0.99 });
      for (let i = 0; i < 6; i++) await test.memory.remember({ content: `The user owns board game number ${i}.`, topic: 'general' }, { ...owner, source: explicit(`s${i}`) });
      const operation = await test.memory.remember({ content: 'the user owns BOARD GAME number 3.', topic: 'general' }, { ...owner, source: explicit('again') });
      expect(operation).toMatchObject({ action: 'NOOP', reason: 'identical to an existing memory' });
      const keys = new Set((await memories(test)).map((row) => row.fact));
      if (encryptionKey) expect([...keys]).toEqual([0]);
      else expect(keys.size).toBe(6); // in clear, each fact has its own key
    }
  });

  it('stores the same canaries in clear when no key is given (the scan above can see them)', async () => {
    const test = await open();
    await writeEverything(test);
    const hits = await canaryHits(test);
    expect(CANARIES.filter((canary) => canary !== 'qvx-canary-erased').every((canary) => hits[canary]! > 0)).toBe(true);
    expect(hits['qvx-canary-erased']).toBe(0);
    expect((await clearArrays(test)).length).toBeGreaterThan(0);
  });

  it('reads back exactly what it wrote, in this instance and after a reopen with the same key', async () => {
    const key = await newKey();
    const test = await open({ encryptionKey: key });
    await writeEverything(test);
    const listed = await test.memory.list({ ...owner, includeInvalid: true });
    const found = await test.memory.retrieve('Qvexname', owner);
    const history = await test.memory.history(listed[0]!.id, owner);
    const exported = await test.memory.export(owner);
    expect(listed.map((record) => record.content)).toContain('The user goes by Qvexname.');
    expect(found[0]!.memory.content).toBe('The user goes by Qvexname.');
    await close(test);

    const again = await open({ name: test.name, indexedDB: test.factory, encryptionKey: key });
    expect(await again.memory.list({ ...owner, includeInvalid: true })).toEqual(listed);
    expect((await again.memory.retrieve('Qvexname', owner)).map((hit) => hit.memory.id)).toEqual(found.map((hit) => hit.memory.id));
    expect(await again.memory.history(listed[0]!.id, owner)).toEqual(history);
    expect({ ...(await again.memory.export(owner)), exportedAt: 0 }).toEqual({ ...exported, exportedAt: 0 });
  });

  it('keeps one active memory per exclusive topic, and forgetSource keeps unrelated memories, when a fresh instance’s first write lands on a checkpoint version', async () => {
    const key = await newKey();
    const options = { encryptionKey: key, embedder: noiseEmbedder(), exclusiveTopics: ['diet'], candidateThreshold: 0.99 };
    const test = await open(options);
    const fact = (content: string, topic: string, id: string) => test.memory.remember({ content, topic }, { ...owner, source: explicit(id) });
    const chat = async (memory: typeof test.memory, i: number) => memory.ingest([{ role: 'user', content: 'ok' }], { ...owner, sessionId: `k${i}`, source: explicit(`k${i}`) });
    await fact('The user is vegetarian.', 'diet', 'v');
    await fact('The user likes hiking.', 'hobby', 'h');
    for (let i = 0; i < 29; i++) await chat(test.memory, i);
    await close(test);
    // Reopened, its first write brings the partition to version 32 (a checkpoint), before any sweep.
    const again = await open({ ...options, name: test.name, indexedDB: test.factory });
    await chat(again.memory, 99);
    const checkpoints = (await storedRows(again.factory)).filter((row) => row.store === 'checkpoints').map((row) => row.value as { records: unknown[] });
    expect(checkpoints.map((checkpoint) => checkpoint.records.length)).not.toContain(0);
    await again.memory.remember({ content: 'The user is vegan.', topic: 'diet' }, { ...owner, source: explicit('w') });
    expect((await again.memory.list(owner)).filter((record) => record.topic === 'diet').map((record) => record.content)).toEqual(['The user is vegan.']);
    await again.memory.forgetSource('h', owner);
    expect((await again.memory.list(owner)).map((record) => record.content)).toEqual(['The user is vegan.']);
  });

  it('rejects a wrong key with EncryptionKeyError at open and leaves the database byte-identical', async () => {
    const test = await open({ encryptionKey: await newKey() });
    await writeEverything(test);
    await close(test);
    const before = await dumpDatabases(test.factory);

    const wrong: MemoryOptions = { name: test.name, indexedDB: test.factory, encryptionKey: await newKey() };
    await expect(open(wrong)).rejects.toThrow(EncryptionKeyError);
    await expect(open(wrong)).rejects.toThrow(`the encryptionKey does not open database '${test.name}': it was encrypted with another key`);
    expect(await dumpDatabases(test.factory)).toEqual(before);
  });

  it('rejects opening an encrypted database without a key, and a key for a database written without one, changing nothing', async () => {
    const sealed = await open({ encryptionKey: await newKey() });
    await writeEverything(sealed);
    await close(sealed);
    const plain = await open({ indexedDB: sealed.factory });
    await writeEverything(plain);
    await close(plain);
    const before = await dumpDatabases(sealed.factory);

    await expect(open({ name: sealed.name, indexedDB: sealed.factory })).rejects.toThrow(EncryptionKeyError);
    await expect(open({ name: sealed.name, indexedDB: sealed.factory })).rejects.toThrow('is encrypted at rest and no encryptionKey was given');
    await expect(open({ name: plain.name, indexedDB: plain.factory, encryptionKey: await newKey() })).rejects.toThrow(EncryptionKeyError);
    await expect(open({ name: plain.name, indexedDB: plain.factory, encryptionKey: await newKey() })).rejects.toThrow('was written without an encryptionKey');
    expect(await dumpDatabases(sealed.factory)).toEqual(before);
  });

  it("quarantines a memory whose sealed content was moved into another owner's row, and serves the rest", async () => {
    const key = await newKey();
    const test = await open({ encryptionKey: key });
    const bob = { userId: 'u_bob', appName: 'default' };
    await test.memory.remember({ content: 'The user collects qvx-canary-fact stamps.', topic: 'hobby' }, { ...owner, source: explicit('a1') });
    await test.memory.remember({ content: 'The user plays the oboe.', topic: 'music' }, { ...bob, source: explicit('b1') });
    await test.memory.remember({ content: 'The user sings.', topic: 'voice' }, { ...bob, source: explicit('b2') });
    const adas = await test.memory.list(owner);
    const bobs = await test.memory.list(bob);
    await close(test);
    await moveContent(test, adas[0]!.id, bobs[0]!.id);

    const again = await open({ name: test.name, indexedDB: test.factory, encryptionKey: key });
    expect(await again.memory.list(bob)).toEqual(bobs.slice(1));
    expect(await again.memory.list(owner)).toEqual(adas);
  });

  it('encrypts a database that was only opened without a key, never written to', async () => {
    const plain = await open();
    await close(plain);
    const key = await newKey();
    const sealed = await open({ name: plain.name, indexedDB: plain.factory, encryptionKey: key });
    await writeEverything(sealed);
    expect(await canaryHits(sealed)).toEqual(Object.fromEntries(CANARIES.map((canary) => [canary, 0])));
  });

  it('refuses the write of an instance opened without a key after another tab encrypted the empty database, writing nothing', async () => {
    const plain = await open();
    const sealed = await open({ name: plain.name, indexedDB: plain.factory, encryptionKey: await newKey() });
    const before = await dumpDatabases(plain.factory);
    const write = plain.memory.remember({ content: 'The user collects qvx-canary-fact stamps.', topic: 'hobby' }, { ...owner, source: explicit('s1') });
    await expect(write).rejects.toThrow(EncryptionKeyError);
    await expect(plain.memory.remember({ content: 'The user sings.', topic: 'voice' }, { ...owner, source: explicit('s2') })).rejects.toThrow('was encrypted by another instance after this one opened it without a key');
    expect(await dumpDatabases(plain.factory)).toEqual(before);
    await sealed.memory.remember({ content: 'The user plays the oboe.', topic: 'music' }, { ...owner, source: explicit('s3') });
    expect((await sealed.memory.list(owner)).map((record) => record.content)).toEqual(['The user plays the oboe.']);
  });

  it('rejects encryptionKey together with another storage backend with ValidationError', async () => {
    const storage = { open: () => Promise.reject(new Error('never opened')) };
    await expect(open({ encryptionKey: await newKey(), storage } as never)).rejects.toThrow(ValidationError);
    await expect(open({ encryptionKey: await newKey(), storage } as never)).rejects.toThrow('options.encryptionKey: encrypts the default IndexedDB storage and cannot be combined with options.storage');
  });

  it('rejects an encryptionKey that is not an AES-GCM key for encrypt and decrypt with ValidationError', async () => {
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const encryptOnly = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    for (const encryptionKey of [hmac, encryptOnly, { algorithm: { name: 'AES-GCM' }, usages: ['encrypt', 'decrypt'], type: 'secret' }, 'hunter2']) {
      await expect(open({ encryptionKey } as never)).rejects.toThrow(ValidationError);
    }
    await expect(open({ encryptionKey: hmac })).rejects.toThrow("options.encryptionKey: must be a WebCrypto AES-GCM CryptoKey with usages ['encrypt', 'decrypt']");
  });
});

/** Text no other row holds, in three scripts: a dotted capital I (two code units lower-cased), an accent, an emoji. */
const ERASED = ['İnciqx', 'crèmeqx', '🦊qx'];
/** A turn past the 1,000 characters an episode keeps, with accents and emoji of its own. */
const LONG_TURN = `${'Café crème ☕ by the river, naïve señor, the rain kept on. '.repeat(20)}I'm allergic to İnciqx and I play the crèmeqx 🦊qx.`;
const FILLER = 'naïve señor, the rain';

/** The policy with its calls counted, for the erasure that must not replay. */
const restating = countedPolicy();

/** One erasing verb, from a fresh memory: writes the erased text (and other text), then erases it. */
const ERASURES: { verb: string; options?: MemoryOptions; run: (test: TestMemory) => Promise<void> }[] = [
  {
    verb: 'forgetSource',
    run: async ({ memory }) => {
      await memory.ingest([{ role: 'user', content: LONG_TURN }], { ...owner, sessionId: 'c1', source: explicit('s1') });
      await memory.ingest([{ role: 'user', content: 'I prefer the aisle seat.' }], { ...owner, sessionId: 'c2', source: explicit('s2') });
      await memory.forgetSource('s1', owner);
    },
  },
  {
    // The erasure that reads the records and replays nothing (forget/restated.ts): the decider is not called.
    verb: 'forgetSource of a source that only restated (no replay)',
    options: { episodes: false, decider: restating.decider },
    run: async ({ memory }) => {
      await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c0', source: explicit('s0') });
      await memory.ingest([{ role: 'user', content: "I'm vegetarian, İnciqx crèmeqx 🦊qx." }], { ...owner, sessionId: 'c1', source: explicit('s1') });
      const before = restating.calls();
      await memory.forgetSource('s1', owner);
      expect(restating.calls()).toBe(before);
    },
  },
  {
    verb: 'forget (each fact of a two-fact sentence, then the episode of its long turn)',
    run: async ({ memory }) => {
      await memory.ingest([{ role: 'user', content: LONG_TURN }], { ...owner, sessionId: 'c1', source: explicit('s1') });
      for (const needle of ['İnciqx', 'crèmeqx']) {
        const fact = (await memory.list(owner)).find((record) => record.topic !== 'episode' && record.content.includes(needle));
        await memory.forget(fact!.id, owner);
      }
      const episode = (await memory.list(owner)).find((record) => record.topic === 'episode');
      await memory.forget(episode!.id, owner);
    },
  },
  {
    verb: 'reject (after a fact of the same sentence was approved)',
    options: { review: { sources: ['user_explicit'] }, episodes: false },
    run: async ({ memory }) => {
      await memory.ingest([{ role: 'user', content: "I'm allergic to İnciqx crèmeqx 🦊qx and I play squash." }], { ...owner, sessionId: 'c1', source: explicit('s1') });
      const pending = await memory.pending(owner);
      await memory.approve(pending.find((entry) => entry.content.includes('squash'))!.id, owner);
      await memory.reject(pending.find((entry) => entry.content.includes('İnciqx'))!.id, owner);
    },
  },
  {
    verb: 'undo (of a remember)',
    run: async ({ memory }) => {
      const operation = await memory.remember({ content: 'The user collects İnciqx crèmeqx 🦊qx stamps.', topic: 'hobby' }, { ...owner, source: explicit('s1') });
      await memory.undo(operation, owner);
    },
  },
  {
    verb: "forget of a corrected memory (correct's replaced text and the correction)",
    run: async ({ memory }) => {
      await memory.ingest([{ role: 'user', content: "I'm allergic to İnciqx." }], { ...owner, sessionId: 'c1', source: explicit('s1') });
      const fact = (await memory.list(owner)).find((record) => record.topic !== 'episode')!;
      const corrected = await memory.correct(fact.id, 'The user is allergic to crèmeqx 🦊qx.', owner);
      await memory.forget(corrected.memoryId!, owner);
    },
  },
];

describe('erasing verbs leave 0 canaries (raw rows and what the API returns), with and without a key', () => {
  for (const keyed of [false, true]) {
    for (const { verb, options, run } of ERASURES) {
      it(`${verb} ${keyed ? 'with' : 'without'} an encryptionKey`, async () => {
        const test = await open({ episodes: true, ...options, ...(keyed ? { encryptionKey: await newKey() } : {}) });
        await run(test);
        const all = await test.memory.list({ ...owner, includeInvalid: true });
        const read = JSON.stringify([all, await Promise.all(all.map((record) => test.memory.why(record.id, owner))), await test.memory.export(owner), await test.memory.explain('allergic', owner)]);
        for (const canary of [...ERASED, ...(verb.includes('episode') || verb === 'forgetSource' ? [FILLER] : [])]) {
          expect(read, `${canary} read back`).not.toContain(canary);
          expect(await findInDatabases(test.factory, canary), `${canary} in a raw row`).toEqual([]);
        }
      });
    }
  }

  it('finds each canary in the raw rows before the erasure (the scan can see them)', async () => {
    const test = await open({ episodes: true });
    await test.memory.ingest([{ role: 'user', content: LONG_TURN }], { ...owner, sessionId: 'c1', source: explicit('s1') });
    for (const canary of [...ERASED, FILLER]) expect((await findInDatabases(test.factory, canary)).length, canary).toBeGreaterThan(0);
  });
});
