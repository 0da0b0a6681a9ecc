/**
 * A store written by the previous format of the Chroma backend opens and keeps working: its
 * control rows carry boolean partition flags (re-flagged as integers once, on open), a decided
 * commit left behind has its plan in plain JSON parts (finished on open), and its stored inputs
 * are in the `inputs` collection (still read, and removed from there when a commit deletes
 * them), while new inputs go to the control collection with each commit's decision.
 */
import { describe, expect, it } from 'vitest';
import { userPartition } from '../../src/storage/contract';
import { inputRow, memoryRow } from '../../src/adapters/chroma/rows';
import { PART_CHARS } from '../../src/adapters/chroma/plan-rows';
import { chromaClient, freshPrefix, openTestStorage, testRecord } from './helpers';

const owner = { userId: 'u1', appName: 'default' };
const key = userPartition(owner);
const input = (id: string, at: number) => ({ ...owner, scope: 'user' as const, sessionId: id, source: { type: 'user_implicit' as const, id }, at, kind: 'ingest' as const, messages: [{ role: 'user' as const, content: `said in ${id}` }] });

/** The previous format, row by row: a version row with a boolean flag, one memory, one input in `inputs`, no format row. */
async function previousFormatStore(prefix: string): Promise<{ oldSeq: number }> {
  const client = chromaClient();
  const collection = (table: string, cosine = false) => client.getOrCreateCollection({ name: `${prefix}${table}`, embeddingFunction: null, ...(cosine ? { configuration: { hnsw: { space: 'cosine' as const } } } : {}) });
  const memories = await collection('memories', true);
  const control = await collection('control');
  const inputs = await collection('inputs');
  const row = memoryRow(testRecord({ id: 'mem_old' }), 1);
  await memories.upsert({ ids: [row.id], embeddings: [row.embedding!], documents: [row.document!], metadatas: [row.metadata] });
  await control.upsert({ ids: [`v:${key}`], embeddings: [[1]], documents: [''], metadatas: [{ kind: 'version', version: 1, [`p:${key}`]: true }] });
  const oldSeq = 2 ** 20;
  const stored = inputRow(input('s1', 1), oldSeq);
  const { held: _held, ...unmarked } = stored.metadata; // no review mark then
  await inputs.upsert({ ids: [stored.id], embeddings: [[1]], documents: [stored.document!], metadatas: [unmarked] });
  // A decided commit its writer left: plan parts as plain JSON (no `z`), boolean flag, lease over.
  const left = memoryRow(testRecord({ id: 'mem_left', content: 'x'.repeat(3 * PART_CHARS) }), 2);
  const text = JSON.stringify({
    writes: [{ table: 'memories', upsert: [{ id: left.id, document: left.document, metadata: left.metadata, e: Buffer.from(Float32Array.from(left.embedding!).buffer).toString('base64') }] }],
    versions: [[key, 2]],
  });
  const parts = Array.from({ length: Math.ceil(text.length / PART_CHARS) }, (_, n) => ({ id: `i:left/${n}`, metadata: { kind: 'plan', intent: 'i:left', n, text: text.slice(n * PART_CHARS, (n + 1) * PART_CHARS) } }));
  expect(parts.length).toBeGreaterThan(1);
  await control.upsert({
    ids: ['i:left', ...parts.map((part) => part.id)],
    embeddings: [[1], ...parts.map(() => [1])],
    documents: ['', ...parts.map(() => '')],
    metadatas: [{ kind: 'intent', state: 'apply', at: 0, [`p:${key}`]: true }, ...parts.map((part) => part.metadata)],
  });
  return { oldSeq };
}

describe('createChromaStorage (a store of the previous format)', () => {
  it('reads its versions, records and inputs, commits on them and deletes its old inputs when opened by this version', async () => {
    const prefix = freshPrefix('upgrade');
    const { oldSeq } = await previousFormatStore(prefix);
    const storage = await openTestStorage(prefix);
    try {
      // The left commit was finished on open (its version 2, its row), its intent and parts gone.
      expect(await storage.records.versions([key])).toEqual(new Map([[key, 2]]));
      expect((await storage.records.list(owner, { scopes: ['user'], includeInvalid: true })).map((record) => record.id).sort()).toEqual(['mem_left', 'mem_old']);
      expect((await storage.records.inputs(owner)).map((row) => [row.seq, row.at])).toEqual([[oldSeq, 1]]);

      // A commit against version 2 passes (the claim read found the re-flagged version row).
      await storage.records.commit({ records: [testRecord({ id: 'mem_new' })], creates: ['mem_new'], inputs: [input('s2', 2)], inputsBaseVersion: 2, expected: new Map([[key, 2]]) });
      expect((await storage.records.inputs(owner)).map((row) => row.at)).toEqual([1, 2]);
      const control = await chromaClient().getCollection({ name: `${prefix}control` } as never);
      const version = await control.get({ ids: [`v:${key}`] });
      expect(version.metadatas[0]).toMatchObject({ version: 3, [`p:${key}`]: 1 });
      expect((await control.get({ where: { kind: { $in: ['intent', 'plan'] } } })).ids).toEqual([]);
      expect((await control.get({ ids: ['format'] })).metadatas[0]).toMatchObject({ format: 3 });

      await storage.records.commit({ records: [], deleteInputs: [oldSeq], expected: new Map([[key, 3]]) });
      expect((await storage.records.inputs(owner)).map((row) => row.at)).toEqual([2]);
      const inputs = await chromaClient().getCollection({ name: `${prefix}inputs` } as never);
      expect((await inputs.get()).ids).toEqual([]);
    } finally {
      await storage.close();
    }
    // Opened again: nothing left to re-flag, the same state.
    const again = await openTestStorage(prefix);
    try {
      expect(await again.records.versions([key])).toEqual(new Map([[key, 4]]));
      expect((await again.records.inputs(owner)).map((row) => row.at)).toEqual([2]);
    } finally {
      await again.close();
    }
  });
});
