/**
 * The review queue on Chroma reads by the `held` mark of the stored inputs (rows.ts): a write
 * that holds decisions for review is marked, a rewrite that settles them clears the mark, the
 * queue's read takes the marked rows only (an unmarked damaged row does not break it, while
 * the whole history's read rejects on it), and a store of format 2 (no marks) gets them when
 * opened.
 */
import { describe, expect, it } from 'vitest';
import { StorageError } from '../../src/index';
import { userPartition, type InputRow, type Storage } from '../../src/storage/contract';
import { inputId } from '../../src/adapters/chroma/rows';
import { chromaClient, freshPrefix, openTestStorage } from './helpers';

const owner = { userId: 'u1', appName: 'default' };
const key = userPartition(owner);
const candidate = { content: 'the user is vegan', topic: 'diet', confidence: 0.9, excerpt: 'I am vegan', importance: 0.5, halfLifeDays: 180 };

const input = (id: string, at: number, held = false): InputRow => ({
  ...owner,
  scope: 'user',
  sessionId: id,
  source: { type: 'user_implicit', id },
  at,
  kind: 'ingest',
  messages: [{ role: 'user', content: `said in ${id}` }],
  candidates: [candidate],
  ...(held ? { pending: [{ id: `mem_${id}`, index: 0, action: 'CREATE' as const }] } : {}),
});

const session = (row: InputRow) => (row.kind === 'prune' ? 'prune' : row.sessionId);
const control = (prefix: string) => chromaClient().getCollection({ name: `${prefix}control` } as never);

/** The `held` metadata of the owner's stored input rows, by session. */
async function marks(prefix: string, storage: Storage): Promise<Record<string, unknown>> {
  const rows = await storage.records.inputs(owner);
  const got = await (await control(prefix)).get({ ids: rows.map((row) => inputId(key, row.seq!)) });
  return Object.fromEntries(rows.map((row) => [session(row), got.metadatas[got.ids.indexOf(inputId(key, row.seq!))]?.held]));
}

describe('createChromaStorage (the review mark)', () => {
  it('marks a held input, clears the mark when a rewrite settles it, and reads the queue by the mark alone', async () => {
    const prefix = freshPrefix('mark');
    const storage = await openTestStorage(prefix);
    try {
      await storage.records.commit({ records: [], inputs: [input('s1', 1), input('s2', 2, true)], inputsBaseVersion: 0, expected: new Map([[key, 0]]) });
      expect(await marks(prefix, storage)).toEqual({ s1: 0, s2: 1 });
      expect((await storage.records.heldInputs(owner)).map(session)).toEqual(['s2']);

      // An unmarked row the queue must not read: damaged, so reading every input rejects.
      await (await control(prefix)).upsert({ ids: [inputId(key, 999)], embeddings: [[1]], documents: ['not an input'], metadatas: [{ ok: key, seq: 999, src: 's9', kind: 'ingest', held: 0 }] });
      await expect(storage.records.inputs(owner)).rejects.toBeInstanceOf(StorageError);
      expect((await storage.records.heldInputs(owner)).map(session)).toEqual(['s2']);
      await (await control(prefix)).delete({ ids: [inputId(key, 999)] });

      // Approved or rejected: the input is rewritten without its pending entry.
      const [held] = await storage.records.heldInputs(owner);
      const { pending: _settled, ...settled } = held as InputRow & { pending?: unknown };
      await storage.records.commit({ records: [], rewriteInputs: [settled as InputRow], expected: new Map([[key, 1]]) });
      expect(await marks(prefix, storage)).toEqual({ s1: 0, s2: 0 });
      expect(await storage.records.heldInputs(owner)).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it('marks the held inputs of a format-2 store when opened', async () => {
    const prefix = freshPrefix('mark2');
    const first = await openTestStorage(prefix);
    await first.records.commit({ records: [], inputs: [input('s1', 1), input('s2', 2, true)], inputsBaseVersion: 0, expected: new Map([[key, 0]]) });
    const seqs = (await first.records.inputs(owner)).map((row) => row.seq!);
    await first.close();

    // Format 2 wrote no mark: the rows as it wrote them (a row is put anew, since an upsert keeps keys), and its format row.
    const rows = await control(prefix);
    const ids = seqs.map((seq) => inputId(key, seq));
    const stored = await rows.get({ ids, include: ['documents', 'metadatas'] as never });
    await rows.delete({ ids });
    const unmarked = stored.metadatas.map((metadata) => Object.fromEntries(Object.entries(metadata!).filter(([name]) => name !== 'held')));
    await rows.add({ ids: stored.ids, embeddings: stored.ids.map(() => [1]), documents: stored.documents as string[], metadatas: unmarked });
    await rows.upsert({ ids: ['format'], embeddings: [[1]], documents: [''], metadatas: [{ kind: 'format', format: 2 }] });
    expect((await rows.get({ where: { held: { $eq: 1 } } })).ids).toEqual([]);

    const opened = await openTestStorage(prefix);
    try {
      expect((await rows.get({ where: { held: { $eq: 1 } } })).ids).toEqual([ids[1]]);
      expect((await rows.get({ ids: ['format'] })).metadatas[0]).toMatchObject({ format: 3 });
      expect((await opened.records.heldInputs(owner)).map(session)).toEqual(['s2']);
    } finally {
      await opened.close();
    }
  });
});
