/**
 * Retrieval on Chroma equals retrieval on IndexedDB: random stores (owners, the app, sessions,
 * tombstones, random vectors, ages, half-lives and importances) are written to both backends
 * through the contract's commit, and random searches (owner, scopes, session, k, weights) must
 * return the same top k in the same order with the same scores.
 *
 * Both are compared on the cosine blend: the IndexedDB path also fuses a lexical channel (BM25)
 * when the query's text is given, which Chroma has no counterpart for, so the searches here
 * carry no text (the IndexedDB path then ranks by the cosine, as it does for any query that
 * shares no term with a memory).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { MemoryRecord, Scope } from '../../src/index';
import { indexedDbStorage } from '../../src/store/indexeddb';
import { createComputeClient } from '../../src/worker/client';
import { partitionOf, partitionsFor, type Storage, type VectorSearch } from '../../src/storage/contract';
import { createRandom } from '../../scripts/bench-data';
import { freshPrefix, openTestStorage, storageContext, testRecord } from './helpers';

const DIM = 16;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 6, 1);
const USERS = ['u1', 'u2', 'u3'];

function randomVector(random: () => number): Float32Array {
  const out = Float32Array.from({ length: DIM }, () => random() * 2 - 1);
  const norm = Math.hypot(...out);
  return out.map((value) => value / norm);
}

function randomStore(random: () => number, n: number): MemoryRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const kind = random();
    const scope: Scope = kind < 0.15 ? 'app' : kind < 0.35 ? 'session' : 'user';
    const updatedAt = NOW - Math.floor(random() * 400 * DAY);
    return testRecord(
      {
        id: `mem_${String(i).padStart(4, '0')}`,
        userId: scope === 'app' ? '' : USERS[Math.floor(random() * USERS.length)]!,
        scope,
        ...(scope === 'session' ? { sessionId: `s${Math.floor(random() * 3)}` } : {}),
        ...(scope === 'app' ? { sources: [{ type: 'bootstrapped' as const, id: 'crm', excerpt: '', at: 1 }] } : {}),
        topic: `t${i}`,
        importance: Math.round(random() * 100) / 100,
        halfLifeDays: 1 + Math.floor(random() * 365),
        createdAt: updatedAt,
        updatedAt,
        ...(random() < 0.1 ? { invalidatedAt: updatedAt + 1 } : {}),
        embedding: randomVector(random),
        embedderId: `test-${DIM}`,
      },
      DIM,
    );
  });
}

function randomSearch(random: () => number): VectorSearch {
  const scopes = (['user', 'session', 'app'] as const).filter(() => random() < 0.7);
  const weights = random() < 0.5 ? { relevance: 0.6, recency: 0.25, importance: 0.15 } : { relevance: random(), recency: random(), importance: random() };
  return {
    owner: { userId: USERS[Math.floor(random() * USERS.length)]!, appName: 'default' },
    scopes: scopes.length ? scopes : ['user'],
    ...(random() < 0.6 ? { sessionId: `s${Math.floor(random() * 3)}` } : {}),
    vector: randomVector(random),
    k: 1 + Math.floor(random() * 10),
    now: NOW,
    weights,
  };
}

async function searchBoth(chroma: Storage, indexed: Storage, search: VectorSearch) {
  const keys = partitionsFor(search.owner, search.scopes);
  await Promise.all([chroma.vectors.ensure(keys), indexed.vectors.ensure(keys)]);
  return Promise.all([chroma.vectors.search(search), indexed.vectors.search(search)]);
}

describe('createChromaStorage search (differential against IndexedDB)', () => {
  it('returns the IndexedDB top k, in order and with its scores, when both hold the same random store', async () => {
    const random = createRandom(2026);
    let compared = 0;
    for (const n of [25, 120, 400]) {
      const records = randomStore(random, n);
      const chroma = await openTestStorage(freshPrefix(`diff${n}`), { dim: DIM });
      const indexed = await indexedDbStorage({ compute: createComputeClient({ worker: 'off' }), indexedDB: new IDBFactory(), IDBKeyRange }).open(storageContext(DIM, `diff-${n}`));
      try {
        for (const storage of [chroma, indexed]) await storage.records.commit({ records, creates: records.map((record) => record.id), expected: new Map() });
        for (let q = 0; q < 25; q++) {
          const search = randomSearch(random);
          const [fromChroma, fromIndexed] = await searchBoth(chroma, indexed, search);
          const label = `n=${n} query ${q} ${JSON.stringify({ ...search, vector: undefined })}`;
          expect(
            fromChroma.map((hit) => hit.id),
            label,
          ).toEqual(fromIndexed.map((hit) => hit.id));
          fromChroma.forEach((hit, i) => {
            expect(hit.score, label).toBeCloseTo(fromIndexed[i]!.score, 5);
            expect(hit.cosine, label).toBeCloseTo(fromIndexed[i]!.cosine, 5);
          });
          compared++;
        }
        // A write through each storage, followed by its vector layer (tombstones leave, changed
        // scores move), then the same comparison again.
        const changed = records.filter(() => random() < 0.2).map((record, i) => (i % 2 ? { ...record, invalidatedAt: NOW } : { ...record, importance: 1, updatedAt: NOW }));
        for (const storage of [chroma, indexed]) {
          const keys = [...new Set(changed.map(partitionOf))];
          const result = await storage.records.commit({ records: changed, expected: await storage.vectors.ensure(keys) });
          await storage.vectors.afterCommit(result, changed);
        }
        for (let q = 0; q < 10; q++) {
          const search = randomSearch(random);
          const [fromChroma, fromIndexed] = await searchBoth(chroma, indexed, search);
          expect(
            fromChroma.map((hit) => [hit.id, hit.score.toFixed(5)]),
            `n=${n} after the write, query ${q}`,
          ).toEqual(fromIndexed.map((hit) => [hit.id, hit.score.toFixed(5)]));
          compared++;
        }
      } finally {
        await chroma.close();
        await indexed.close();
      }
    }
    console.log(`chroma differential: ${compared} searches over 3 random stores (25, 120, 400 memories, before and after a write), top-k equal to IndexedDB's in every one`);
  }, 180_000);
});
