/**
 * The partitions an instance holds (snapshot.ts) and the requests the protocol sends, on the
 * real server through the counting proxy: a search over an unchanged partition asks one control
 * read and nothing else; another instance's writes (new rows, tombstones) are caught up by write
 * version before the next answer; a decided commit whose plan spans many parts is finished by
 * the next opener after its writer failed mid-apply, and so is an intent in the earlier format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPartition, type Storage } from '../../src/storage/contract';
import type { MemoryRecord } from '../../src/index';
import { INLINE_PARTS, PART_CHARS } from '../../src/adapters/chroma/plan-rows';
import { memoryRow } from '../../src/adapters/chroma/rows';
import { chromaClient, freshPrefix, openTestStorage, server, testRecord, unitVector } from './helpers';
import { startCountingProxy, type CountingProxy } from './proxy';

const owner = { userId: 'u1', appName: 'default' };
const key = userPartition(owner);
const weights = { relevance: 0.6, recency: 0.25, importance: 0.15 };
const search = (storage: Storage, seed: number, k = 3) => storage.vectors.search({ owner, scopes: ['user'], vector: unitVector(seed), k, now: 10, weights });

describe('createChromaStorage (held partitions)', () => {
  let proxy: CountingProxy;
  beforeAll(async () => {
    const { host, port } = server();
    proxy = await startCountingProxy(`http://${host}:${port}`);
  });
  afterAll(() => proxy.close());

  it('answers ensure and search with one control read when nothing moved, and a commit in six requests', async () => {
    const storage = await openTestStorage(freshPrefix('count'), { address: proxy });
    try {
      const records = Array.from({ length: 30 }, (_, i) => testRecord({ id: `mem_${i}`, embedding: unitVector(i + 1), topic: `t${i}` }));
      await storage.records.commit({ records, creates: records.map((record) => record.id), expected: new Map() });
      await storage.vectors.ensure([key]);
      proxy.reset();
      await storage.vectors.ensure([key]);
      const hits = await search(storage, 5);
      expect(proxy.count).toBe(1);
      expect(hits[0]!.id).toBe('mem_4');
      expect(hits.every((hit) => hit.record?.id === hit.id)).toBe(true);

      const input = { ...owner, scope: 'user' as const, sessionId: 's2', source: { type: 'user_implicit' as const, id: 's2' }, at: 2, kind: 'ingest' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
      const versions = await storage.vectors.ensure([key]);
      proxy.reset();
      await storage.records.commit({ records: [testRecord({ id: 'mem_new' })], creates: ['mem_new'], inputs: [input], inputsBaseVersion: versions.get(key)!, expected: versions });
      // claim ∥ new ids, claim read, plan + decision + versions + the input, memories, clear (no revocation read: the
      // partition is expected at the version the write began from, so no revocation since can pass the claim read).
      expect(proxy.count).toBe(6);
      proxy.reset();
      expect((await storage.records.getMany(['mem_new', 'mem_3'], owner)).map((record) => record.id)).toEqual(['mem_new', 'mem_3']);
      expect(proxy.count).toBe(1);
    } finally {
      await storage.close();
    }
  });

  it('sets only the metadata of rows that keep their vector and content when a commit reinforces them', async () => {
    const prefix = freshPrefix('reinforce');
    const storage = await openTestStorage(prefix, { address: proxy });
    try {
      const records = [testRecord({ id: 'mem_a', embedding: unitVector(3) }), testRecord({ id: 'mem_b', embedding: unitVector(4) })];
      await storage.records.commit({ records, creates: ['mem_a', 'mem_b'], expected: new Map() });
      const memories = await chromaClient().getCollection({ name: `${prefix}memories` } as never);
      const before = await memories.get({ ids: ['mem_a', 'mem_b'], include: ['embeddings', 'documents'] });
      const versions = await storage.vectors.ensure([key]);
      const reinforced = records.map((record) => ({ ...record, confidence: 0.8, updatedAt: 2, sources: [...record.sources, { type: 'user_explicit' as const, id: 's2', excerpt: 'again', at: 2 }] }));
      proxy.reset();
      await storage.records.commit({ records: reinforced, expected: versions });
      const sent = proxy.requests.filter((request) => request.includes(`/collections/${memories.id}/`));
      expect(sent.map((request) => request.split('/').at(-1))).toEqual(['update']);
      const after = await memories.get({ ids: ['mem_a', 'mem_b'], include: ['embeddings', 'documents'] });
      expect(after.embeddings).toEqual(before.embeddings);
      expect(after.documents).toEqual(before.documents);
      const reopened = await openTestStorage(prefix);
      try {
        const read = await reopened.records.getMany(['mem_a', 'mem_b'], owner);
        expect(read.map((record) => [record.confidence, record.sources.map((source) => source.id)])).toEqual([
          [0.8, ['s1', 's2']],
          [0.8, ['s1', 's2']],
        ]);
      } finally {
        await reopened.close();
      }
    } finally {
      await storage.close();
    }
  });

  it("catches up on another instance's new rows and tombstones by write version when the version moved", async () => {
    const prefix = freshPrefix('catchup');
    const a = await openTestStorage(prefix, { internals: { lockName: 'a' } });
    const b = await openTestStorage(prefix, { internals: { lockName: 'b' } });
    try {
      const old = testRecord({ id: 'mem_old', embedding: unitVector(9) });
      await a.records.commit({ records: [old, testRecord({ id: 'mem_far', embedding: unitVector(77) })], creates: ['mem_old', 'mem_far'], expected: new Map() });
      expect((await search(a, 9, 1))[0]!.id).toBe('mem_old');
      const versions = await b.vectors.ensure([key]);
      const near = testRecord({ id: 'mem_near', embedding: unitVector(9), importance: 0.9 });
      await b.records.commit({ records: [{ ...old, invalidatedAt: 5, supersededBy: 'mem_near' }, near], creates: ['mem_near'], expected: versions });
      expect(await a.vectors.ensure([key])).toEqual(new Map([[key, versions.get(key)! + 1]]));
      expect((await search(a, 9, 3)).map((hit) => hit.id)).toEqual(['mem_near', 'mem_far']);
      const [fromA] = await a.records.getMany(['mem_old'], owner);
      expect(fromA?.supersededBy).toBe('mem_near');
      expect((await a.records.workingSet(owner, { ids: ['mem_near'], topics: ['diet'], scope: 'user', sourceId: 's1' })).map((record) => record.id).sort()).toEqual(['mem_far', 'mem_near']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('finishes a decided commit whose plan spans many parts when the writer failed while applying it', async () => {
    const prefix = freshPrefix('parts');
    const faults = { failAt: 0, count: 0 };
    const writer = await openTestStorage(prefix, { dim: 64, internals: { faults } });
    const records = Array.from({ length: 400 }, (_, i) => testRecord({ id: `mem_${i}`, embedding: unitVector(i + 1, 64), embedderId: 'test-64' }, 64));
    faults.count = 0;
    faults.failAt = 4; // the claim, the plan (in the plans collection: it is large), the decision, then the memories upsert fails
    await expect(writer.records.commit({ records, creates: records.map((record) => record.id), expected: new Map() })).rejects.toThrow(/injected/);
    await writer.close();
    const control = await chromaClient().getCollection({ name: `${prefix}control` } as never);
    const plans = await chromaClient().getCollection({ name: `${prefix}plans` } as never);
    expect((await control.get({ where: { kind: 'plan' } })).ids).toEqual([]);
    const parts = await plans.get({ where: { kind: 'plan' } });
    expect(parts.ids.length).toBeGreaterThan(INLINE_PARTS);
    expect(parts.metadatas.every((metadata) => String(metadata!.text).length <= PART_CHARS)).toBe(true);

    const reopened = await openTestStorage(prefix, { dim: 64, internals: { leaseMs: 0 } });
    const reference = await openTestStorage(freshPrefix('parts_ref'), { dim: 64 });
    try {
      await reference.records.commit({ records, creates: records.map((record) => record.id), expected: new Map() });
      // Equal to the store that took the commit without a failure, vectors to the bit (Chroma's own float32s).
      const listed = await reopened.records.list(owner, { scopes: ['user'], includeInvalid: true });
      const byId = (list: readonly MemoryRecord[]) => list.map((record) => ({ ...record, embedding: [...record.embedding] }));
      expect(listed.length).toBe(records.length);
      expect(byId(listed)).toEqual(byId(await reference.records.list(owner, { scopes: ['user'], includeInvalid: true })));
      expect(await reopened.records.versions([key])).toEqual(new Map([[key, 1]]));
      expect((await control.get({ where: { kind: { $in: ['plan', 'intent'] } } })).ids).toEqual([]);
      expect((await plans.get()).ids).toEqual([]);
    } finally {
      await reopened.close();
      await reference.close();
    }
  });

  it('finishes an intent an earlier engram left with its plan in its document when the store is opened', async () => {
    const prefix = freshPrefix('legacy');
    await (await openTestStorage(prefix)).close();
    const record = testRecord({ id: 'mem_legacy' });
    const { wv: _unused, ...metadata } = memoryRow(record, 1).metadata;
    const plan = { writes: [{ table: 'memories', upsert: [{ ...memoryRow(record, 1), metadata }] }], versions: [[key, 1]] };
    const control = await chromaClient().getCollection({ name: `${prefix}control` } as never);
    await control.upsert({ ids: ['i:legacy'], embeddings: [[1]], documents: [JSON.stringify(plan)], metadatas: [{ kind: 'intent', state: 'apply', at: 0, [`p:${key}`]: true }] });
    const reopened = await openTestStorage(prefix);
    try {
      expect((await reopened.records.getMany(['mem_legacy'], owner)).map((stored) => stored.content)).toEqual([record.content]);
      expect(await reopened.records.versions([key])).toEqual(new Map([[key, 1]]));
      expect((await control.get({ where: { kind: 'intent' } })).ids).toEqual([]);
    } finally {
      await reopened.close();
    }
  });
});
