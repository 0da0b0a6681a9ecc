/**
 * Invariant 4 across processes: two storages on one server that share no lock (as two Node
 * processes would) each supersede the user's one diet memory again and again. The intents
 * let at most one commit per version through; afterwards exactly one diet memory is active,
 * every tombstone points at its successor, and the version counts the commits that won.
 */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/index';
import { userPartition, type Storage } from '../../src/storage/contract';
import { freshPrefix, openTestStorage, testRecord } from './helpers';

const owner = { userId: 'u1', appName: 'default' };
const key = userPartition(owner);

/** One writer: read the active diet memory, supersede it, commit; on a conflict read again. */
async function supersede(storage: Storage, writer: string, rounds: number): Promise<number> {
  let won = 0;
  let conflicts = 0;
  for (let round = 0; round < rounds; ) {
    const versions = await storage.vectors.ensure([key]);
    const [current] = await storage.records.workingSet(owner, { ids: [], topics: ['diet'], scope: 'user', sourceId: writer });
    const id = `mem_${writer}_${round}`;
    const next = testRecord({ id, content: `diet by ${writer} #${round}`, createdAt: 10 + round, updatedAt: 10 + round });
    const records = current ? [{ ...current, invalidatedAt: 10 + round, supersededBy: id }, next] : [next];
    try {
      await storage.records.commit({ records, creates: [id], expected: versions });
      won++;
      round++;
    } catch (error) {
      if (!(error instanceof ConflictError) || ++conflicts > 200) throw error;
      await new Promise((done) => setTimeout(done, Math.random() * 20));
    }
  }
  return won;
}

describe('createChromaStorage with two writers', () => {
  it('keeps one active memory per exclusive topic when two unlocked instances supersede it at once', async () => {
    const prefix = freshPrefix('two');
    const a = await openTestStorage(prefix, { internals: { lockName: 'process-a' } });
    const b = await openTestStorage(prefix, { internals: { lockName: 'process-b' } });
    try {
      const [wonA, wonB] = await Promise.all([supersede(a, 'a', 6), supersede(b, 'b', 6)]);
      const all = await a.records.list(owner, { scopes: ['user'], includeInvalid: true });
      const active = all.filter((record) => record.invalidatedAt === undefined && record.topic === 'diet');
      expect(active.length).toBe(1);
      expect(all.length).toBe(wonA + wonB);
      const ids = new Set(all.map((record) => record.id));
      for (const record of all.filter((record) => record.invalidatedAt !== undefined)) expect(ids.has(record.supersededBy!)).toBe(true);
      // Each successor is superseded at most once: no fork in the chain.
      const successors = all.flatMap((record) => (record.supersededBy ? [record.supersededBy] : []));
      expect(new Set(successors).size).toBe(successors.length);
      expect(await a.records.versions([key])).toEqual(new Map([[key, wonA + wonB]]));
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);
});
