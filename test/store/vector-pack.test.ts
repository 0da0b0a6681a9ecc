import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/schema';
import { EngramDatabase } from '../../src/store/database';
import { appPartition, partitionOf, userPartition } from '../../src/storage/owner';
import { createStore } from '../../src/store/store';
import { createVectorIndex } from '../../src/store/vector-index';
import { readPacked, readRecordRows, recordRows, recordRowsInSlices, writeSnapshot, type PackedPartition } from '../../src/store/vector-pack';
import { checkSealing, installSealing } from '../../src/store/sealing';
import { DEFAULT_WEIGHTS } from '../../src/schema';
import { createHashEmbedder } from '../../src/embed/hash-embedder';
import type { ComputeClient } from '../../src/worker/client';
import type { IndexRows } from '../../src/worker/api';
import type { VectorPackRow as VectorPackRowOf } from '../../src/store/database';
import { createComputeClient } from '../../src/worker/client';
import { createTestMemory, type TestMemory } from '../helpers/memory';
import { ingestSeed, SEED_OWNER } from '../helpers/seed';
import { record, T } from '../consolidate/fixtures';

const EMBEDDER = { id: 'hash-fnv1a-256', dim: 256 };
const KEY = userPartition(SEED_OWNER);

interface IndexedRow {
  vector: number[];
  updatedAt: number;
  importance: number;
  scope: number;
}

let test: TestMemory | undefined;
const opened: EngramDatabase[] = [];
afterEach(async () => {
  await test?.memory.close();
  test = undefined;
  for (const db of opened.splice(0)) db.close();
});

/** A second connection to the test's database: its packs, and a vector index over it. */
function openStore(t: TestMemory) {
  const db = new EngramDatabase(t.name, { indexedDB: t.factory, IDBKeyRange });
  opened.push(db);
  return {
    db,
    readPacked: (key: string, embedderId: string, dim: number, from: number | null) => readPacked(db, key, embedderId, dim, from),
    vectorIndex: (compute: ComputeClient) => createVectorIndex({ db, store: createStore(db), compute, embedder: EMBEDDER }),
  };
}

function addRows(into: Map<string, IndexedRow>, rows: IndexRows, dim: number): void {
  rows.ids.forEach((id, i) => {
    into.set(id, {
      vector: [...rows.vectors.subarray(i * dim, (i + 1) * dim)],
      updatedAt: rows.updatedAt[i]!,
      importance: rows.importance[i]!,
      scope: rows.scopes[i]!,
    });
  });
}

/** What the packs say the partition holds: snapshot chunks, then the log replayed in order. */
function materialize(packed: PackedPartition): Map<string, IndexedRow> {
  const rows = new Map<string, IndexedRow>();
  for (const chunk of packed.chunks) addRows(rows, chunk, EMBEDDER.dim);
  for (const entry of packed.log) {
    for (const id of entry.removals) rows.delete(id);
    addRows(rows, entry.upserts, EMBEDDER.dim);
  }
  return rows;
}

/** What the records say: the active user/session records of the partition. */
function fromRecords(records: readonly MemoryRecord[]): Map<string, IndexedRow> {
  const rows = new Map<string, IndexedRow>();
  for (const record of records) {
    if (record.invalidatedAt !== undefined) continue;
    rows.set(record.id, {
      vector: [...record.embedding],
      updatedAt: record.updatedAt,
      importance: Math.fround(record.importance),
      scope: record.scope === 'user' ? 1 : 2,
    });
  }
  return rows;
}

async function expectPacksMatchRecords(t: TestMemory): Promise<PackedPartition> {
  const store = openStore(t);
  const packed = await store.readPacked(KEY, EMBEDDER.id, EMBEDDER.dim, null);
  expect(packed).not.toBeNull();
  const records = await t.memory.list({ ...SEED_OWNER, includeInvalid: true });
  expect(materialize(packed!)).toEqual(fromRecords(records));
  return packed!;
}

/** A fresh store + compute cold-loads the partition and exports what it holds. */
async function coldLoad(t: TestMemory): Promise<{ rows: Map<string, IndexedRow>; version: number }> {
  const store = openStore(t);
  const compute = createComputeClient({ worker: 'off', compute: { codes: 'f32' } });
  const index = store.vectorIndex(compute);
  const versions = await index.ensure([KEY]);
  const exported = (await compute.exportPartition(KEY, 2))!;
  await index.settled();
  const rows = new Map<string, IndexedRow>();
  for (const chunk of exported.chunks) addRows(rows, chunk, EMBEDDER.dim);
  expect(exported.version).toBe(versions.get(KEY));
  return { rows, version: exported.version };
}

describe('packed vectors', () => {
  it('mirror the active records after creates, a corroboration and a supersede', async () => {
    test = await createTestMemory();
    await ingestSeed(test.memory, test.clock, 1);
    const afterCreate = await expectPacksMatchRecords(test);
    expect(afterCreate.log.length).toBe(afterCreate.version);
    expect(materialize(afterCreate).size).toBe(3);
    await ingestSeed(test.memory, test.clock, 3);
    const afterUpdate = await expectPacksMatchRecords(test);
    expect(afterUpdate.version).toBeGreaterThan(afterCreate.version);
  });

  it('are dropped by an erasure and rebuilt as a snapshot without the erased vectors', async () => {
    test = await createTestMemory();
    await ingestSeed(test.memory, test.clock, 3);
    const before = (await test.memory.list({ ...SEED_OWNER, includeInvalid: true })).map((record) => record.id);
    const report = await test.memory.forgetSource('s1', SEED_OWNER);
    expect(report.erased.length).toBeGreaterThan(0);
    const store = openStore(test);
    // The erasing instance snapshots its matrix in the background; a cold load also rebuilds.
    const { rows, version } = await coldLoad(test);
    const records = await test.memory.list({ ...SEED_OWNER, includeInvalid: true });
    expect(rows).toEqual(fromRecords(records));
    const packed = (await store.readPacked(KEY, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(packed.base).toBe(version);
    expect(materialize(packed)).toEqual(fromRecords(records));
    // No pack or log row anywhere still names an erased memory.
    const db = store.db;
    const stored = JSON.stringify([...(await db.vectorPacks.toArray()).map((row) => row.ids), ...(await db.vectorLog.toArray()).map((row) => row.upserts.map((u) => u.id))]);
    for (const id of report.erased) expect(stored).not.toContain(id);
    expect(before.length).toBeGreaterThan(0);
  });

  it('cold-load to the same state the writing instance holds incrementally', async () => {
    test = await createTestMemory();
    await ingestSeed(test.memory, test.clock, 3);
    for (let i = 0; i < 20; i++) {
      await test.memory.remember({ content: `The user collects stamp series number ${i} from ${['Peru', 'Chile', 'Japan'][i % 3]}.`, topic: `stamps${i % 4}` }, { ...SEED_OWNER, source: { type: 'user_explicit', id: `r${i}` } });
    }
    const { rows } = await coldLoad(test);
    const records = await test.memory.list({ ...SEED_OWNER, includeInvalid: true });
    expect(rows).toEqual(fromRecords(records));
    expect(rows.size).toBeGreaterThan(20);
  });

  it('snapshot and log together reload what was snapshotted, then catch up from the log', async () => {
    test = await createTestMemory();
    await ingestSeed(test.memory, test.clock, 1);
    const store = openStore(test);
    const compute = createComputeClient({ worker: 'off', compute: { codes: 'f32' } });
    const index = store.vectorIndex(compute);
    await index.ensure([KEY]);
    expect(await index.compact(KEY)).toBe(true);
    await ingestSeed(test.memory, test.clock, 3);
    const packed = (await store.readPacked(KEY, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(packed.chunks.length).toBe(1);
    expect(packed.log.length).toBe(packed.version - packed.base);
    expect(packed.log.length).toBeGreaterThan(0);
    // The index held the snapshot's version: ensure() catches up from the log alone.
    const delta = (await store.readPacked(KEY, EMBEDDER.id, EMBEDDER.dim, packed.base))!;
    expect(delta.chunks).toEqual([]);
    await index.ensure([KEY]);
    const exported = (await compute.exportPartition(KEY, 100))!;
    const rows = new Map<string, IndexedRow>();
    addRows(rows, exported.chunks[0]!, EMBEDDER.dim);
    expect(rows).toEqual(fromRecords(await test.memory.list({ ...SEED_OWNER, includeInvalid: true })));
  });

  it('stream a snapshot of several chunks into compute, and load from the records when a later chunk is damaged', async () => {
    test = await createTestMemory();
    await ingestSeed(test.memory, test.clock, 3);
    const store = openStore(test);
    const writer = createComputeClient({ worker: 'off', compute: { codes: 'f32' } });
    await store.vectorIndex(writer).ensure([KEY]);
    const exported = (await writer.exportPartition(KEY, 1))!;
    expect(exported.chunks.length).toBeGreaterThan(2);
    expect(await writeSnapshot(store.db, KEY, EMBEDDER, exported.version, exported.chunks)).toBe(true);
    const records = fromRecords(await test.memory.list({ ...SEED_OWNER, includeInvalid: true }));
    expect((await coldLoad(test)).rows).toEqual(records);
    // While the chunks stream in, the partition reads as stale: nothing scans part of it as current.
    const inner = createComputeClient({ worker: 'off', compute: { codes: 'f32' } });
    const seen: number[] = [];
    const watched: ComputeClient = {
      ...inner,
      loadPartition: (async (...args: Parameters<ComputeClient['loadPartition']>) => {
        const loaded = await inner.loadPartition(...args);
        seen.push(await inner.partitionVersion(KEY));
        return loaded;
      }) as ComputeClient['loadPartition'],
      applyChanges: (async (...args: Parameters<ComputeClient['applyChanges']>) => {
        const applied = await inner.applyChanges(...args);
        seen.push(await inner.partitionVersion(KEY));
        return applied;
      }) as ComputeClient['applyChanges'],
    };
    await store.vectorIndex(watched).ensure([KEY]);
    expect(seen.length).toBe(exported.chunks.length + 1);
    expect(seen.slice(0, -1).every((version) => version === -1)).toBe(true);
    expect(seen.at(-1)).toBe(exported.version);
    // The last chunk claims another snapshot's version: the chunks before it already went to
    // compute, yet the partition must load from the records, not stop at what they held.
    const last = exported.chunks.length - 1;
    const chunk = (await store.db.vectorPacks.get([KEY, last]))!;
    await store.db.vectorPacks.put({ ...chunk, version: chunk.version + 1 });
    expect(await store.readPacked(KEY, EMBEDDER.id, EMBEDDER.dim, null)).toBeNull();
    expect((await coldLoad(test)).rows).toEqual(records);
  });

  it('fall back to the records when the log has a gap (a database written before packs)', async () => {
    test = await createTestMemory();
    await ingestSeed(test.memory, test.clock, 3);
    const store = openStore(test);
    await store.db.vectorLog.clear();
    expect(await store.readPacked(KEY, EMBEDDER.id, EMBEDDER.dim, null)).toBeNull();
    const { rows } = await coldLoad(test);
    expect(rows).toEqual(fromRecords(await test.memory.list({ ...SEED_OWNER, includeInvalid: true })));
    // The cold load wrote a snapshot, so the next one is a bulk load.
    expect(await store.readPacked(KEY, EMBEDDER.id, EMBEDDER.dim, null)).not.toBeNull();
  });

  it('let a cold search read the partition before its scan, so it scans once instead of first finding compute stale', async () => {
    const db = new EngramDatabase(`vector-pack-cold-${Date.now()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const store = createStore(db);
    const owner = { userId: 'cold', appName: 'a' };
    const key = userPartition(owner);
    const writer = createVectorIndex({ db, store, compute: createComputeClient({ worker: 'off' }), embedder: EMBEDDER });
    const versions = await writer.ensure([key]);
    const records = Array.from({ length: 40 }, (_, i) => record(`c${i}`, `fact number ${i} about tea`, 'general', owner));
    const result = await store.commit({ records, creates: records.map((r) => r.id), expected: versions });
    await writer.afterCommit(result, records);
    await writer.compact(key);
    // Another instance's cold start: a fresh compute, a fresh index over the same database.
    const compute = createComputeClient({ worker: 'off' });
    const calls: string[] = [];
    const counted: ComputeClient = {
      ...compute,
      scan: (...args) => (calls.push('scan'), compute.scan(...args)),
      loadPartition: (...args) => (calls.push('load'), compute.loadPartition(...args)),
    };
    const index = createVectorIndex({ db, store, compute: counted, embedder: EMBEDDER });
    const search = () => index.search({ owner, scopes: ['user'], vector: records[7]!.embedding, k: 1, now: T, weights: DEFAULT_WEIGHTS });
    expect((await search()).map((hit) => hit.id)).toEqual(['c7']);
    expect(calls).toEqual(['load', 'scan']);
    // Once compared, a search scans first again (its read checks the versions itself).
    expect((await search()).map((hit) => hit.id)).toEqual(['c7']);
    expect(calls).toEqual(['load', 'scan', 'scan']);
    // A reset (the database closed under the instance) forgets it: the next search reads first again.
    await index.reset();
    expect((await search()).map((hit) => hit.id)).toEqual(['c7']);
    expect(calls).toEqual(['load', 'scan', 'scan', 'load', 'scan']);
  });

  it('lets a search that meets a large commit half followed wait for it, instead of catching up and breaking the follow', async () => {
    const db = new EngramDatabase(`vector-pack-follow-${Date.now()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const store = createStore(db);
    const compute = createComputeClient({ worker: 'off' });
    const loads = { count: 0 };
    const counted: ComputeClient = { ...compute, loadPartition: (...args) => (loads.count++, compute.loadPartition(...args)) };
    const index = createVectorIndex({ db, store, compute: counted, embedder: EMBEDDER });
    const owner = { userId: 'follow', appName: 'a' };
    const key = userPartition(owner);
    const versions = await index.ensure([key]);
    loads.count = 0;
    const records = Array.from({ length: 1500 }, (_, i) => record(`f${i}`, `fact number ${i} about tea`, 'general', owner));
    const result = await store.commit({ records, creates: records.map((r) => r.id), expected: versions });
    // The search's ensure comes while compute follows the commit slice by slice.
    const [, ensured] = await Promise.all([index.afterCommit(result, records), index.ensure([key])]);
    expect(ensured.get(key)).toBe(result.versions.get(key)![1]);
    expect(await compute.partitionVersion(key)).toBe(result.versions.get(key)![1]);
    expect(loads.count).toBe(0);
    const hits = await index.search({ owner, scopes: ['user'], vector: records[7]!.embedding, k: 1, now: T, weights: DEFAULT_WEIGHTS });
    expect(hits.map((hit) => hit.id)).toEqual(['f7']);
    expect(loads.count).toBe(0);
  });

  it('rewrite the snapshot of a small partition after 64 logged writes, of a big one only after an eighth of its rows', async () => {
    const db = new EngramDatabase(`vector-pack-log-${Date.now()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const store = createStore(db);
    const index = createVectorIndex({ db, store, compute: createComputeClient({ worker: 'off' }), embedder: EMBEDDER });
    const owners = { small: { userId: 'small', appName: 'a' }, big: { userId: 'big', appName: 'a' } };
    let next = 0;
    const fact = (owner: { userId: string; appName: string }) => record(`m${++next}`, `fact number ${next} of ${owner.userId}`, 'general', owner);
    const commit = async (records: MemoryRecord[]) => {
      const keys = [...new Set(records.map((r) => userPartition(r)))];
      const versions = await index.ensure(keys);
      await index.afterCommit(await store.commit({ records, creates: records.map((r) => r.id), expected: versions }), records);
    };
    await commit([fact(owners.small), ...Array.from({ length: 1200 }, () => fact(owners.big))]);
    const base = async (owner: { userId: string; appName: string }) => (await readPacked(db, userPartition(owner), EMBEDDER.id, EMBEDDER.dim, null))!.base;
    for (const owner of Object.values(owners)) expect(await index.compact(userPartition(owner))).toBe(true);
    const snapshotAt = { small: await base(owners.small), big: await base(owners.big) };
    for (let i = 0; i < 100; i++) await commit([fact(owners.small), fact(owners.big)]);
    await index.settled();
    expect(await base(owners.small)).toBeGreaterThan(snapshotAt.small);
    expect(await base(owners.big)).toBe(snapshotAt.big);
    for (let i = 0; i < 60; i++) await commit([fact(owners.big)]);
    await index.settled();
    expect(await base(owners.big)).toBeGreaterThan(snapshotAt.big);
  });
});

describe('packed 8-bit codes', () => {
  const OWNER = { userId: 'coded', appName: 'a' };
  const CODED = userPartition(OWNER);
  const WORDS = 'quiet spicy early vintage remote sunny vegan local classic noisy hotels trains museums beaches markets concerts novels teas wines ferries Lisbon Kyoto Oslo Lima Porto'.split(' ');
  const queries = ['quiet hotels in Lisbon', 'vegan markets Kyoto', 'vintage trains', 'sunny beaches in Porto', 'noisy concerts'];
  const hash = createHashEmbedder(EMBEDDER.dim);

  /** A database of `n` facts of OWNER written through an index over `compute`, and what reads it. */
  async function written(n: number, codes: 'i8' | 'f32', key?: CryptoKey, exactCopy?: false) {
    const factory = new IDBFactory();
    const name = `vector-pack-codes-${codes}-${Date.now()}-${Math.random()}`;
    const db = new EngramDatabase(name, { indexedDB: factory, IDBKeyRange });
    opened.push(db);
    if (key) {
      installSealing(db, key);
      await db.open();
      await checkSealing(db);
    }
    const store = createStore(db);
    const indexOver = (compute: ComputeClient) => createVectorIndex({ db, store, compute, embedder: EMBEDDER });
    const commitThrough = async (index: ReturnType<typeof indexOver>, records: MemoryRecord[]) => {
      const versions = await index.ensure([CODED]);
      await index.afterCommit(await store.commit({ records, creates: records.map((r) => r.id), expected: versions }), records);
    };
    let next = 0;
    const fact = () => {
      const id = `c${++next}`;
      const text = Array.from({ length: 6 }, (_, j) => WORDS[(next * 7 + j * 11 + ((next * j) % 5)) % WORDS.length]).join(' ');
      return record(id, `${text} ${id}`, 'general', { ...OWNER, updatedAt: T - next * 3_600_000, importance: (next % 10) / 10 });
    };
    const writerCompute = createComputeClient({ worker: 'off', compute: { codes, ...(exactCopy === false ? { exactCopy } : {}) } });
    const writer = indexOver(writerCompute);
    await commitThrough(writer, Array.from({ length: n }, fact));
    return { db, factory, name, store, indexOver, writer, writerCompute, commit: (index: ReturnType<typeof indexOver>) => commitThrough(index, [fact()]) };
  }

  /** The top 10 of each query through `index` (ids and scores). */
  async function topK(index: ReturnType<typeof createVectorIndex>) {
    const out = [];
    for (const text of queries) {
      const hits = await index.search({ owner: OWNER, scopes: ['user'], vector: hash.embedOne(text), text, k: 10, now: T, weights: DEFAULT_WEIGHTS });
      out.push(hits.map((hit) => [hit.id, hit.score]));
    }
    return out;
  }

  /** The top k of a compute built from the records alone (what a rebuild gives). */
  async function rebuiltTopK(env: Awaited<ReturnType<typeof written>>) {
    const compute = createComputeClient({ worker: 'off', compute: { codes: 'i8' } });
    const { version, rows } = await readRecordRows(env.db, CODED, EMBEDDER, () => {});
    await compute.loadPartition(CODED, version, EMBEDDER.dim, rows);
    const top = await topK(env.indexOver(compute));
    expect(top.every((hits) => hits.length === 10)).toBe(true);
    return { compute, top };
  }

  /** Whether `compute`'s scan of CODED answers with hits (its f32 copy re-ranks in the call) rather than candidates for the store to re-rank. */
  async function reranksInCompute(compute: ComputeClient) {
    const text = queries[0]!;
    const answer = await compute.scan({ partitions: [CODED], query: hash.embedOne(text), queryText: text, now: T, weights: DEFAULT_WEIGHTS, k: 10, scopes: ['user'] });
    return 'hits' in answer;
  }

  it('snapshot a small partition’s codes with the f32 copy beside them, so a cold compute still re-ranks in the scan call', async () => {
    const env = await written(301, 'i8');
    expect(await reranksInCompute(env.writerCompute)).toBe(true);
    expect(await env.writer.compact(CODED)).toBe(true);
    const [chunk] = (await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!.chunks;
    expect(chunk!.codes!.bytes.byteLength).toBe(304 * 256);
    expect(chunk!.vectors.length).toBe(301 * 256);
    const rebuilt = await rebuiltTopK(env);
    const cold = createComputeClient({ worker: 'off', compute: { codes: 'i8' } });
    expect(await topK(env.indexOver(cold))).toEqual(rebuilt.top);
    expect(await reranksInCompute(cold)).toBe(true);
  });

  it('snapshot an 8-bit compute’s own codes, a quarter of the vector bytes, which a cold start loads to the same codes and top k as a rebuild from the records', async () => {
    // No f32 copy in the writer (a partition past its budget): the packs hold codes alone.
    const env = await written(301, 'i8', undefined, false);
    expect(await env.writer.compact(CODED)).toBe(true);
    const packed = (await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(packed.coded).toBe(true);
    expect(packed.log).toEqual([]);
    const [chunk] = packed.chunks;
    // The lexical index goes in per term: the chunk's postings hold every occurrence of its terms.
    expect(chunk!.postings!.entries.reduce((sum, entry) => sum + (entry & 0xffff), 0)).toBe(chunk!.terms!.length);
    expect(chunk!.vectors.length).toBe(0);
    expect(chunk!.codes!.bytes.byteLength).toBe(304 * 256);
    expect(chunk!.codes!.bytes.byteLength * 4).toBeLessThanOrEqual(301 * 256 * 4 + 3 * 256 * 4);
    const rebuilt = await rebuiltTopK(env);
    const cold = createComputeClient({ worker: 'off', compute: { codes: 'i8' } });
    const coldIndex = env.indexOver(cold);
    expect(await topK(coldIndex)).toEqual(rebuilt.top);
    // Rows that came as codes alone end the cold compute's f32 copy: it never answers for a row it does not hold.
    expect(await reranksInCompute(cold)).toBe(false);
    // The cold compute holds the writer's codes byte for byte: copied, not quantised again.
    const codesOf = async (compute: ComputeClient) => (await compute.exportPartition(CODED, 8192))!.chunks[0]!.codes!;
    const [held, wrote] = [await codesOf(cold), await codesOf(env.writerCompute)];
    expect(Buffer.from(held.bytes.buffer).equals(Buffer.from(wrote.bytes.buffer))).toBe(true);
    expect([held.scales, held.errors, held.norms]).toEqual([wrote.scales, wrote.errors, wrote.norms]);
    // In chunks whose length is not a multiple of the four-row block (copied row by row).
    const exported = (await cold.exportPartition(CODED, 50))!;
    expect(await writeSnapshot(env.db, CODED, EMBEDDER, exported.version, exported.chunks)).toBe(true);
    expect((await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!.chunks.length).toBe(7);
    expect(await topK(env.indexOver(createComputeClient({ worker: 'off', compute: { codes: 'i8' } })))).toEqual(rebuilt.top);
  });

  it('seal the codes, their bounds and the postings at rest, and load them back whole with the key', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const env = await written(60, 'i8', key);
    expect(await env.writer.compact(CODED)).toBe(true);
    const raw = new EngramDatabase(env.name, { indexedDB: env.factory, IDBKeyRange });
    opened.push(raw);
    const stored = (await raw.vectorPacks.get([CODED, 0]))! as unknown as Record<string, unknown>;
    for (const field of ['vectors', 'codes', 'codeScales', 'codeErrors', 'codeNorms', 'terms', 'termOffsets', 'postingTerms', 'postingStarts', 'postingEntries']) expect([field, stored[field]?.constructor]).toEqual([field, Uint8Array]);
    const packed = (await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(packed.coded).toBe(true);
    expect(packed.chunks[0]!.postings).toBeDefined();
    const rebuilt = await rebuiltTopK(env);
    expect(await topK(env.indexOver(createComputeClient({ worker: 'off', compute: { codes: 'i8' } })))).toEqual(rebuilt.top);
  });

  it('load f32 packs (written before codes) into 8-bit codes with the same top k, and rewrite them as codes at the next write, not on the read', async () => {
    const env = await written(120, 'f32');
    expect(await env.writer.compact(CODED)).toBe(true);
    const before = (await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(before.coded).toBe(false);
    expect(before.chunks[0]!.codes).toBeUndefined();
    const rebuilt = await rebuiltTopK(env);
    const cold = env.indexOver(createComputeClient({ worker: 'off', compute: { codes: 'i8' } }));
    expect(await topK(cold)).toEqual(rebuilt.top);
    await cold.settled();
    const afterRead = (await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect([afterRead.coded, afterRead.base]).toEqual([false, before.base]);
    await env.commit(cold);
    await cold.settled();
    const rewritten = (await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(rewritten.coded).toBe(true);
    expect(rewritten.base).toBe(before.base + 1);
    expect(rewritten.log).toEqual([]);
  });

  it('load from the records, with the same top k, when a chunk of codes is damaged, of another layout, or when compute holds f32', async () => {
    const env = await written(150, 'i8');
    const exported = (await env.writerCompute.exportPartition(CODED, 40))!;
    const rebuilt = await rebuiltTopK(env);
    const damage = async (change: (chunk: VectorPackRowOf) => Partial<VectorPackRowOf>) => {
      expect(await writeSnapshot(env.db, CODED, EMBEDDER, exported.version, exported.chunks)).toBe(true);
      const chunk = (await env.db.vectorPacks.get([CODED, 2]))!;
      await env.db.vectorPacks.put({ ...chunk, ...change(chunk) });
    };
    const errors = (chunk: VectorPackRowOf) => Float32Array.from(chunk.codeErrors!, (value, i) => (i === 3 ? Number.NaN : value));
    const entries = (chunk: VectorPackRowOf) => Uint32Array.from(chunk.postingEntries!, (entry, i) => (i === 5 ? entry + 1 : entry));
    const damages = [
      (chunk: VectorPackRowOf) => ({ codeErrors: errors(chunk) }),
      (chunk: VectorPackRowOf) => ({ codes: chunk.codes!.slice(0, 256) }),
      () => ({ codeStride: 100 }),
      (chunk: VectorPackRowOf) => ({ postingEntries: entries(chunk) }),
    ];
    for (const change of damages) {
      await damage(change);
      expect(await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null)).toBeNull();
      const cold = env.indexOver(createComputeClient({ worker: 'off', compute: { codes: 'i8' } }));
      expect(await topK(cold)).toEqual(rebuilt.top);
      await cold.settled();
    }
    // Codes of a layout this compute does not write: the packs read, compute refuses them.
    await damage(() => ({ codeLayout: 99 }));
    expect(await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null)).not.toBeNull();
    const other = env.indexOver(createComputeClient({ worker: 'off', compute: { codes: 'i8' } }));
    expect(await topK(other)).toEqual(rebuilt.top);
    await other.settled();
    const fresh = (await readPacked(env.db, CODED, EMBEDDER.id, EMBEDDER.dim, null))!;
    expect(fresh.chunks.every((chunk) => chunk.codes?.layout === 1)).toBe(true);
    // An f32 compute cannot take codes: it loads the f32 records, exactly.
    expect(await writeSnapshot(env.db, CODED, EMBEDDER, exported.version, exported.chunks)).toBe(true);
    const exact = createComputeClient({ worker: 'off', compute: { codes: 'f32' } });
    const f32Index = env.indexOver(exact);
    expect(await topK(f32Index)).toEqual(rebuilt.top);
    const { rows } = await readRecordRows(env.db, CODED, EMBEDDER, () => {});
    const held = new Map<string, IndexedRow>();
    for (const chunk of (await exact.exportPartition(CODED, 1000))!.chunks) addRows(held, chunk, EMBEDDER.dim);
    const expected = new Map<string, IndexedRow>();
    addRows(expected, rows, EMBEDDER.dim);
    expect(held).toEqual(expected);
    await f32Index.settled();
  });
});

describe('recordRows', () => {
  it('builds a large commit’s rows in slices with the page given its turn between them, the same rows as in one go', async () => {
    const key = userPartition({ userId: 'u', appName: 'default' });
    const records = Array.from({ length: 1300 }, (_, i) => record(`m${i}`, `fact number ${i} about tea`, 'general', i % 9 === 0 ? { invalidatedAt: T } : {}));
    const { embedderId } = records[0]!;
    const dim = records[0]!.embedding.length;
    /** Whether a macrotask queued now ran before `work` resolved. */
    const yielded = async (work: () => Promise<unknown>) => {
      let ran = false;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        ran = true;
        channel.port1.close();
      };
      channel.port2.postMessage(0);
      const result = await work();
      channel.port1.close();
      return { ran, result };
    };
    const sliced = await yielded(() => recordRowsInSlices(records, key, embedderId, dim));
    expect(sliced.ran).toBe(true);
    expect(sliced.result).toEqual(recordRows(records, key, embedderId, dim));
    // A commit of one ingest's rows is built at once: no yield, no extra task.
    expect((await yielded(() => recordRowsInSlices(records.slice(0, 20), key, embedderId, dim))).ran).toBe(false);
  });

  it("keeps exactly the partition's active rows when owners, scopes and tombstones alternate row by row", () => {
    const owners = [{ userId: 'u' }, { userId: 'v' }, { userId: 'u', appName: 'other' }, { userId: '', scope: 'app' as const }, { userId: 'u', scope: 'session' as const, sessionId: 's' }];
    const records = Array.from({ length: 200 }, (_, i) => record(`m${i}`, `fact ${i}`, 'general', { ...owners[i % owners.length]!, ...(i % 7 === 0 ? { invalidatedAt: T } : {}) }));
    for (const key of [userPartition({ userId: 'u', appName: 'default' }), userPartition({ userId: 'v', appName: 'default' }), appPartition('default')]) {
      const quarantined: string[] = [];
      const rows = recordRows(records, key, records[0]!.embedderId, records[0]!.embedding.length, (id) => quarantined.push(id));
      const expected = records.filter((r) => r.invalidatedAt === undefined && partitionOf(r) === key);
      expect(rows.ids).toEqual(expected.map((r) => r.id));
      expect(rows.ids.length).toBeGreaterThan(20);
      expect([...rows.vectors.subarray(0, rows.vectors.length / rows.ids.length)]).toEqual([...expected[0]!.embedding]);
      // Another partition's rows are reported, as before (isIndexable quarantines what is not this partition's).
      expect(quarantined.length).toBe(records.filter((r) => r.invalidatedAt === undefined).length - expected.length);
    }
  });
});
