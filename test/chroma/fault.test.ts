/**
 * RELIABILITY 1 on Chroma: the server is SIGKILLed after the k-th request of an UPDATE's commit,
 * for every k; restarted on the same data dir; the storage reopened (which finishes or withdraws
 * what the dead commit left). The store is then exactly the pre-state or the post-state, never
 * between, and no intent is left. Prints how many k ended in each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChromaServer, type ChromaServer } from '../../scripts/chroma-server';
import { userPartition, type Commit, type Storage } from '../../src/storage/contract';
import { chromaClient, freshPrefix, openTestStorage, testRecord } from './helpers';
import { startCountingProxy, type CountingProxy } from './proxy';

const owner = { userId: 'u1', appName: 'default' };
const key = userPartition(owner);

/** The state a reader sees: every record (tombstones too), the stored inputs, the version. */
async function snapshot(storage: Storage): Promise<string> {
  const records = await storage.records.list(owner, { scopes: ['user', 'session', 'app'], includeInvalid: true });
  const inputs = await storage.records.inputs(owner);
  const versions = await storage.records.versions([key]);
  return JSON.stringify({ records: records.map((record) => ({ ...record, embedding: [...record.embedding] })), inputs, versions: [...versions] });
}

const input = (id: string, text: string, at: number) => ({
  ...owner,
  scope: 'user' as const,
  sessionId: id,
  source: { type: 'user_explicit' as const, id },
  at,
  kind: 'ingest' as const,
  messages: [{ role: 'user' as const, content: text }],
});

const vegetarian = testRecord({ id: 'mem_old', content: 'The user follows a vegetarian diet.', sources: [{ type: 'user_implicit', id: 's1', excerpt: "I'm vegetarian", at: 1 }] });

/** What consolidation commits for "I'm vegan now": the old memory tombstoned, the new one inheriting its source. */
function updateCommit(): Commit {
  const vegan = testRecord({
    id: 'mem_new',
    content: 'The user follows a vegan diet.',
    confidence: 0.9,
    createdAt: 2,
    updatedAt: 2,
    sources: [...vegetarian.sources, { type: 'user_explicit', id: 's2', excerpt: "I'm vegan now", at: 2 }],
    history: [{ at: 2, event: 'created', reason: 'contradicts mem_old (diet is exclusive)', related: 'mem_old', sourceId: 's2' }],
  });
  const tombstone = { ...vegetarian, invalidatedAt: 2, supersededBy: 'mem_new', history: [...vegetarian.history, { at: 2, event: 'superseded' as const, reason: 'the user is vegan now', related: 'mem_new', sourceId: 's2' }] };
  return { records: [tombstone, vegan], creates: ['mem_new'], inputs: [input('s2', "I'm vegan now", 2)], expected: new Map([[key, 1]]), inputsBaseVersion: 1 };
}

/** A reinforcement: the same memory with one more source (same vector and content: its metadata alone is written), and the input. */
function reinforceCommit(): Commit {
  const again = { ...vegetarian, confidence: 0.8, updatedAt: 2, sources: [...vegetarian.sources, { type: 'user_explicit' as const, id: 's2', excerpt: 'still vegetarian', at: 2 }] };
  return { records: [again], inputs: [input('s2', 'still vegetarian', 2)], expected: new Map([[key, 1]]), inputsBaseVersion: 1 };
}

describe('createChromaStorage commit under SIGKILL', () => {
  let server: ChromaServer;
  let proxy: CountingProxy;

  beforeAll(async () => {
    server = await startChromaServer();
    proxy = await startCountingProxy(server.url);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  /** A fresh store at the pre-state, opened through the proxy. */
  async function seeded(prefix: string): Promise<Storage> {
    const storage = await openTestStorage(prefix, { address: proxy });
    await storage.records.commit({ records: [vegetarian], creates: ['mem_old'], inputs: [input('s1', "I'm vegetarian", 1)], expected: new Map([[key, 0]]) });
    return storage;
  }

  /** SIGKILL after the k-th request of `commit()`, for every k: pre- or post-state, no intent left. */
  async function sweep(label: string, commit: () => Commit): Promise<void> {
    const reference = freshPrefix('fault_ref');
    const storage = await seeded(reference);
    const pre = await snapshot(storage);
    proxy.reset();
    await storage.records.commit(commit());
    const requests = proxy.count;
    const post = await snapshot(storage);
    expect(post).not.toBe(pre);

    const ended = { pre: 0, post: 0 };
    for (let k = 1; k <= requests; k++) {
      const prefix = freshPrefix(`fault_k${k}`);
      const store = await seeded(prefix);
      proxy.after(k, () => server.kill());
      const outcome = await store.records.commit(commit()).then(
        () => 'resolved',
        () => 'rejected',
      );
      await server.restart();
      const reopened = await openTestStorage(prefix, { address: proxy, internals: { leaseMs: 0 } });
      const state = await snapshot(reopened);
      expect([pre.replaceAll(reference, prefix), post.replaceAll(reference, prefix)], `k=${k} (${outcome})`).toContain(state);
      ended[state === post ? 'post' : 'pre']++;
      const control = await chromaClient(server).getCollection({ name: `${prefix}control` } as never);
      expect((await control.get({ where: { kind: 'intent' } })).ids, `k=${k}: intents left`).toEqual([]);
    }
    console.log(`chroma fault sweep: ${requests} requests per ${label} commit; ended pre-state ${ended.pre}, post-state ${ended.post}, between 0`);
    expect(ended.pre).toBeGreaterThan(0);
    expect(ended.post).toBeGreaterThan(0);
  }

  it('leaves the pre- or the post-state, never between, when the server dies after any request of an UPDATE', () => sweep('UPDATE', updateCommit), 240_000);

  it('leaves the pre- or the post-state, never between, when the server dies after any request of a reinforcement (metadata-only write)', () => sweep('reinforcement', reinforceCommit), 240_000);
});
