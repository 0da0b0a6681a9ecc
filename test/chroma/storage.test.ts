/**
 * The Chroma backend's records and vector layers on the real server: what a commit writes
 * comes back parsed and owner-scoped, the refusals of the contract hold, the search ranks by
 * engram's blend over the vectors the instance holds, and metadata holds only scalars.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError, createMemory, PermissionError, StorageError, ValidationError } from '../../src/index';
import { createChromaStorage } from '../../src/adapters/chroma/index';
import { freePort } from '../../scripts/chroma-server';
import { userPartition, appPartition, type Storage } from '../../src/storage/contract';
import { chromaClient, freshPrefix, openTestStorage, testRecord, unitVector } from './helpers';

const ada = { userId: 'u1', appName: 'default' };
const bob = { userId: 'u2', appName: 'default' };

describe('createChromaStorage (records)', () => {
  let storage: Storage | undefined;
  afterEach(async () => storage?.close());

  it('returns only what the owner may see when records of two users and the app are stored', async () => {
    const prefix = freshPrefix('iso');
    storage = await openTestStorage(prefix);
    const mine = testRecord({ id: 'mem_a' });
    const theirs = testRecord({ id: 'mem_b', userId: 'u2' });
    const app = testRecord({ id: 'mem_c', userId: '', scope: 'app', sources: [{ type: 'bootstrapped', id: 'crm', excerpt: '', at: 1 }] });
    await storage.records.commit({ records: [mine, theirs, app], creates: ['mem_a', 'mem_b', 'mem_c'], expected: new Map() });
    const listed = await storage.records.list(ada, { scopes: ['user', 'session', 'app'], includeInvalid: false });
    expect(listed.map((record) => record.id)).toEqual(['mem_a', 'mem_c']);
    expect(listed[0]).toEqual(mine);
    expect((await storage.records.getMany(['mem_b', 'mem_a', 'mem_c'], ada)).map((record) => record.id)).toEqual(['mem_a', 'mem_c']);
    expect((await storage.records.getMany(['mem_a'], bob)).length).toBe(0);
    const versions = await storage.records.versions([userPartition(ada), userPartition(bob), appPartition('default')]);
    expect([...versions.values()]).toEqual([1, 1, 1]);
  });

  it('refuses a stale version, a taken id and a revoked source, writing nothing, when committing', async () => {
    storage = await openTestStorage(freshPrefix('refuse'));
    const key = userPartition(ada);
    await storage.records.commit({ records: [testRecord({ id: 'mem_a' })], creates: ['mem_a'], expected: new Map([[key, 0]]) });
    await expect(storage.records.commit({ records: [testRecord({ id: 'mem_x' })], creates: ['mem_x'], expected: new Map([[key, 0]]) })).rejects.toThrow(ConflictError);
    await expect(storage.records.commit({ records: [testRecord({ id: 'mem_a', content: 'other' })], creates: ['mem_a'], expected: new Map([[key, 1]]) })).rejects.toThrow(ConflictError);
    await storage.records.commit({ records: [], revoke: { ...ada, sourceIds: ['s9'], at: 2 }, expected: new Map([[key, 1]]) });
    const input = { ...ada, scope: 'user' as const, sessionId: 's9', source: { type: 'user_implicit' as const, id: 's9' }, at: 3, kind: 'ingest' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
    await expect(storage.records.commit({ records: [testRecord({ id: 'mem_y' })], creates: ['mem_y'], inputs: [input], inputsBaseVersion: 1, expected: new Map([[key, 2]]) })).rejects.toThrow(PermissionError);
    // Decided against an expected version the revocation had already moved past: the claim read refuses it (the revocation read is skipped when expected = base).
    await expect(storage.records.commit({ records: [testRecord({ id: 'mem_y' })], creates: ['mem_y'], inputs: [input], inputsBaseVersion: 1, expected: new Map([[key, 1]]) })).rejects.toThrow(ConflictError);
    expect((await storage.records.list(ada, { scopes: ['user'], includeInvalid: true })).map((record) => [record.id, record.content])).toEqual([['mem_a', 'content of mem_a']]);
    expect(await storage.records.isRevoked(ada, 's9')).toBe(true);
    expect(await storage.records.versions([key])).toEqual(new Map([[key, 2]]));
    // A write that began after the revocation (base 2, expected 2) stores its input.
    await storage.records.commit({ records: [testRecord({ id: 'mem_y' })], creates: ['mem_y'], inputs: [input], inputsBaseVersion: 2, expected: new Map([[key, 2]]) });
    expect((await storage.records.inputs(ada)).map((stored) => stored.kind)).toEqual(['ingest']);
  });

  it('stores inputs in write order with their seq, and finds them by source, when inputs are appended', async () => {
    storage = await openTestStorage(freshPrefix('inputs'));
    const key = userPartition(ada);
    const input = (id: string, at: number) => ({ ...ada, scope: 'user' as const, sessionId: id, source: { type: 'user_implicit' as const, id }, at, kind: 'ingest' as const, messages: [{ role: 'user' as const, content: `said in ${id}` }] });
    for (const [i, [id, at]] of (
      [
        ['s1', 30],
        ['s2', 10],
        ['s1', 20],
      ] as const
    ).entries()) {
      await storage.records.commit({ records: [], inputs: [input(id, at)], expected: new Map([[key, i]]) });
    }
    const all = await storage.records.inputs(ada);
    expect(all.map((row) => row.at)).toEqual([30, 10, 20]);
    expect((await storage.records.inputsOf(ada, 's1')).map((row) => row.at)).toEqual([30, 20]);
    expect((await storage.records.inputsAfter(ada, all[0]!.seq!)).map((row) => row.at)).toEqual([10, 20]);
    expect(await storage.records.inputs(bob)).toEqual([]);
    await storage.records.commit({ records: [], deleteInputs: [all[0]!.seq!, all[2]!.seq!], revoke: { ...ada, sourceIds: ['s1'], at: 40 }, expected: new Map([[key, 3]]) });
    expect((await storage.records.inputs(ada)).map((row) => (row.kind === 'prune' ? null : row.source))).toEqual([{ type: 'user_implicit', id: 's2' }]);
  });

  it('quarantines a damaged memory row and rejects a damaged input row with StorageError when they are read', async () => {
    const prefix = freshPrefix('damaged');
    storage = await openTestStorage(prefix);
    await storage.records.commit({ records: [testRecord({ id: 'mem_a' }), testRecord({ id: 'mem_b' })], creates: ['mem_a', 'mem_b'], expected: new Map() });
    const client = chromaClient();
    const memories = await client.getCollection({ name: `${prefix}memories` } as never);
    await memories.update({ ids: ['mem_b'], metadatas: [{ record: '{"id":"mem_b","userId":"u1"' }] });
    expect((await storage.records.list(ada, { scopes: ['user'], includeInvalid: true })).map((record) => record.id)).toEqual(['mem_a']);
    expect([...storage.records.quarantined]).toEqual(['mem_b']);
    const inputs = await client.getCollection({ name: `${prefix}inputs` } as never);
    await inputs.upsert({ ids: [`${userPartition(ada)}#2048`], embeddings: [[1]], documents: ['not json'], metadatas: [{ ok: userPartition(ada), seq: 2048, src: 's1' }] });
    await expect(storage.records.inputs(ada)).rejects.toThrow(StorageError);
  });

  it('blanks the revoked source excerpts and drops its flag from metadata when a revocation commits', async () => {
    const prefix = freshPrefix('revoke');
    storage = await openTestStorage(prefix);
    const key = userPartition(ada);
    const both = testRecord({
      id: 'mem_a',
      sources: [
        { type: 'user_implicit', id: 's1', excerpt: 'CANARY one', at: 1 },
        { type: 'user_explicit', id: 's2', excerpt: 'kept', at: 2 },
      ],
    });
    await storage.records.commit({ records: [both], creates: ['mem_a'], expected: new Map([[key, 0]]) });
    expect((await storage.records.bySource(ada, 's1')).map((record) => record.id)).toEqual(['mem_a']);
    const without = { ...both, sources: [both.sources[1]!] };
    await storage.records.commit({ records: [without], revoke: { ...ada, sourceIds: ['s1'], at: 3 }, expected: new Map([[key, 1]]) });
    expect(await storage.records.bySource(ada, 's1')).toEqual([]);
    const raw = await (await chromaClient().getCollection({ name: `${prefix}memories` } as never)).get({ include: ['documents', 'metadatas'] });
    expect(JSON.stringify(raw)).not.toContain('CANARY');
    expect(Object.keys(raw.metadatas[0]!)).not.toContain('src:s1');
    for (const value of Object.values(raw.metadatas[0]!)) expect(['string', 'number', 'boolean']).toContain(typeof value);
  });
});

describe('createChromaStorage (options)', () => {
  it('throws ValidationError naming the field when an option is one Chroma cannot take', () => {
    expect(() => createChromaStorage({ port: 0 })).toThrow(ValidationError);
    expect(() => createChromaStorage({ collectionPrefix: '_bad prefix' })).toThrow(/options\.collectionPrefix/);
    expect(() => createChromaStorage({ hots: 'x' } as never)).toThrow(ValidationError);
  });

  it('rejects with StorageError naming the server when nothing answers at the address', async () => {
    const port = await freePort();
    await expect(createMemory({ storage: createChromaStorage({ host: '127.0.0.1', port }), worker: 'off' })).rejects.toThrow(StorageError);
    await expect(createChromaStorage({ host: '127.0.0.1', port }).open({ name: 'x', embedder: { id: 'e', dim: 8 } })).rejects.toThrow(`127.0.0.1:${port}`);
  });
});

describe('createChromaStorage (vectors)', () => {
  it('ranks by the blend over the held vectors, within the owner', async () => {
    const storage = await openTestStorage(freshPrefix('search'));
    try {
      const now = 1_000 * 86_400_000;
      const records = Array.from({ length: 40 }, (_, i) =>
        testRecord({ id: `mem_${String(i).padStart(2, '0')}`, userId: i % 4 === 0 ? 'u2' : 'u1', embedding: unitVector(i + 1), importance: (i % 5) / 4, updatedAt: now - i * 86_400_000, topic: `t${i}` }),
      );
      await storage.records.commit({ records, creates: records.map((record) => record.id), expected: new Map() });
      const query = unitVector(7);
      const weights = { relevance: 0.6, recency: 0.25, importance: 0.15 };
      const hits = await storage.vectors.search({ owner: ada, scopes: ['user'], vector: query, k: 5, now, weights });
      const expected = records
        .filter((record) => record.userId === 'u1')
        .map((record) => {
          const cosine = record.embedding.reduce((sum, value, i) => sum + value * query[i]!, 0);
          const recency = 0.5 ** ((now - record.updatedAt) / 86_400_000 / record.halfLifeDays);
          return { id: record.id, cosine, score: 0.6 * cosine + 0.25 * recency + 0.15 * record.importance };
        })
        .sort((a, b) => b.score - a.score)
        .slice(0, 5);
      expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
      hits.forEach((hit, i) => expect(hit.cosine).toBeCloseTo(expected[i]!.cosine, 5));
      const [near] = await storage.vectors.neighbours(userPartition(ada), [records[1]!.embedding], { threshold: 0.999, scope: 'user', limit: 3 });
      expect(near).toEqual(['mem_01']);
    } finally {
      await storage.close();
    }
  });
});
