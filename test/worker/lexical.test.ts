import { describe, expect, it } from 'vitest';
import { createRandom } from '../helpers/random';
import { createBm25 } from '../../scripts/eval-metrics';
import { createHashEmbedder } from '../../src/embed/hash-embedder';
import { lexicalTermStrings, packTerms } from '../../src/embed/terms';
import { SCOPE_CODE, type IndexRows, type ScanHit, type ScanRequest } from '../../src/worker/api';
import { createCompute } from '../../src/worker/compute';
import { scanWithVectors } from '../../src/worker/exact';
import { BM25_B, BM25_K1 } from '../../src/worker/lexical';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);
const DIM = 64;
const WORDS = 'tea coffee hiking paris tokyo sister brother guitar painting garden dog cat marathon novel violin beach'.split(' ');
const embedder = createHashEmbedder(DIM);

function sentence(random: () => number): string {
  const length = 3 + Math.floor(random() * 6);
  return `Caroline ${Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}`;
}

interface Doc {
  id: string;
  text: string;
  updatedAt: number;
}

function rowsOf(docs: readonly Doc[]): IndexRows {
  const vectors = new Float32Array(docs.length * DIM);
  docs.forEach((doc, i) => vectors.set(embedder.embedOne(doc.text), i * DIM));
  return {
    ids: docs.map((doc) => doc.id),
    vectors,
    updatedAt: Float64Array.from(docs, (doc) => doc.updatedAt),
    halfLifeDays: new Float32Array(docs.length).fill(180),
    importance: new Float32Array(docs.length).fill(0.5),
    scopes: new Uint8Array(docs.length).fill(SCOPE_CODE.user),
    sessionIds: docs.map(() => ''),
    ...packTerms(docs.map((doc) => doc.text)),
  };
}

/** The scan with its exact re-rank (8-bit codes) from the docs' vectors, as the store would give them. */
function scanOf(compute: ReturnType<typeof createCompute>, scan: ScanRequest, docs: readonly Doc[]): ScanHit[] {
  return scanWithVectors(compute, scan, new Map(docs.map((doc) => [doc.id, embedder.embedOne(doc.text)])));
}

function request(queryText: string, partitions: string[], k = 10): ScanRequest {
  return { partitions, query: embedder.embedOne(queryText), queryText, now: NOW, weights: { relevance: 0.6, recency: 0.25, importance: 0.15 }, k, scopes: ['user'] };
}

/** The reference: BM25 over the texts with the channel's own terms and parameters, relative to the best. */
function referenceLexical(docs: readonly Doc[], query: string): Map<string, number> {
  const scores = createBm25(
    docs.map((doc) => doc.text),
    { tokens: lexicalTermStrings, k1: BM25_K1, b: BM25_B },
  ).scores(query);
  const best = Math.max(...scores);
  return new Map(docs.map((doc, i) => [doc.id, best > 0 ? scores[i]! / best : 0]));
}

describe('createCompute (lexical channel)', () => {
  it('reports the reference BM25 relative to the best match when a partition is loaded', () => {
    const random = createRandom(3);
    const docs = Array.from({ length: 200 }, (_, i) => ({ id: `m${i}`, text: sentence(random), updatedAt: NOW - i * DAY }));
    const compute = createCompute({ kernel: 'js' });
    compute.loadPartition('p', 1, DIM, rowsOf(docs));
    for (const query of ['Does Caroline play the violin?', 'paintings of gardens in Paris', 'tea']) {
      const expected = referenceLexical(docs, query);
      const hits = scanOf(compute, request(query, ['p'], 50), docs);
      expect(hits.length).toBe(50);
      for (const hit of hits) expect(hit.lexical).toBeCloseTo(expected.get(hit.id)!, 5);
      expect(Math.max(...hits.map((hit) => hit.lexical))).toBeCloseTo(1, 6);
    }
  });

  it('ranks the same when built by incremental writes and removals as when rebuilt from the final rows', () => {
    for (const kernel of ['js', 'auto'] as const) {
      const random = createRandom(11);
      const incremental = createCompute({ kernel });
      let live = new Map<string, Doc>();
      let version = 1;
      incremental.loadPartition('p', version, DIM, rowsOf([]));
      for (let step = 0; step < 60; step++) {
        const upserts = Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
          const id = `m${Math.floor(random() * 120)}`;
          return { id, text: sentence(random), updatedAt: NOW - Math.floor(random() * 300) * DAY };
        });
        const removals = [...live.keys()].filter(() => random() < 0.05);
        for (const id of removals) live.delete(id);
        for (const doc of upserts) live.set(doc.id, doc);
        live = new Map([...live]);
        expect(incremental.applyChanges('p', version, version + 1, rowsOf(upserts), removals)).toBe(true);
        version++;
      }
      const rebuilt = createCompute({ kernel });
      rebuilt.loadPartition('p', version, DIM, rowsOf([...live.values()]));
      const reference = referenceLexical([...live.values()], 'guitar and violin with my sister');
      for (const query of ['guitar and violin with my sister', 'Caroline hiking', 'marathons on the beach']) {
        const a = scanOf(incremental, request(query, ['p'], 15), [...live.values()]);
        const b = scanOf(rebuilt, request(query, ['p'], 15), [...live.values()]);
        expect(a.map((hit) => hit.id).sort()).toEqual(b.map((hit) => hit.id).sort());
        a.forEach((hit) => expect(hit.score).toBeCloseTo(b.find((other) => other.id === hit.id)!.score, 6));
      }
      for (const hit of scanOf(incremental, request('guitar and violin with my sister', ['p'], 15), [...live.values()])) expect(hit.lexical).toBeCloseTo(reference.get(hit.id)!, 5);
    }
  });

  it('keeps each partition’s IDF its own when another partition is written', () => {
    const random = createRandom(5);
    const mine = Array.from({ length: 50 }, (_, i) => ({ id: `a${i}`, text: sentence(random), updatedAt: NOW }));
    const compute = createCompute({ kernel: 'js' });
    compute.loadPartition('a', 1, DIM, rowsOf(mine));
    compute.loadPartition('b', 1, DIM, rowsOf([]));
    const before = scanOf(compute, request('violin garden', ['a'], 20), mine);
    // Another owner writes "violin" everywhere: in one shared index it would sink the term's IDF.
    const theirs = Array.from({ length: 500 }, (_, i) => ({ id: `b${i}`, text: 'violin violin lessons', updatedAt: NOW }));
    compute.applyChanges('b', 1, 2, rowsOf(theirs), []);
    expect(scanOf(compute, request('violin garden', ['a'], 20), mine)).toEqual(before);
    // A term only the other partition holds gives this one no lexical match at all.
    expect(scanOf(compute, request('lessons', ['a'], 5), mine).every((hit) => hit.lexical === 0 && hit.relevance === hit.cosine)).toBe(true);
  });

  it('lets a strong lexical match outrank fresher memories when recency favours them', () => {
    const docs: Doc[] = [
      { id: 'old', text: 'Caroline adopted a rescue greyhound named Bailey', updatedAt: NOW - 300 * DAY },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `new${i}`, text: `Caroline went to the beach with her family ${i}`, updatedAt: NOW })),
    ];
    const compute = createCompute();
    compute.loadPartition('p', 1, DIM, rowsOf(docs));
    const [first] = scanOf(compute, request('What is the name of Caroline’s greyhound?', ['p'], 5), docs);
    expect(first).toMatchObject({ id: 'old', lexical: 1 });
    expect(first!.score).toBeCloseTo(0.6 * first!.relevance + 0.25 * first!.recency + 0.15 * first!.importance, 6);
  });

  it('carries the terms through an export and a reload when a snapshot is taken', () => {
    const random = createRandom(8);
    const docs = Array.from({ length: 40 }, (_, i) => ({ id: `m${i}`, text: sentence(random), updatedAt: NOW - i * DAY }));
    const compute = createCompute({ codes: 'f32' });
    compute.loadPartition('p', 1, DIM, rowsOf(docs));
    compute.applyChanges('p', 1, 2, rowsOf([]), ['m3', 'm17']);
    const exported = compute.exportPartition('p', 16)!;
    const copy = createCompute();
    copy.loadPartition('p', exported.version, DIM, exported.chunks[0]!, 40);
    for (const chunk of exported.chunks.slice(1)) copy.applyChanges('p', exported.version, exported.version, chunk, []);
    const query = request('tokyo novel with my brother', ['p'], 10);
    expect(scanOf(copy, query, docs)).toEqual(scanOf(compute, query, docs));
  });

  it('loads a snapshot’s postings per term, then takes writes and removals exactly as the index built row by row', () => {
    const random = createRandom(21);
    let docs = Array.from({ length: 90 }, (_, i) => ({ id: `m${i}`, text: sentence(random), updatedAt: NOW - i * DAY }));
    const source = createCompute({ codes: 'f32' });
    source.loadPartition('p', 1, DIM, rowsOf(docs));
    const exported = source.exportPartition('p', 25)!;
    expect(exported.chunks.every((chunk) => chunk.postings !== undefined)).toBe(true);
    const withPostings = createCompute();
    const rowByRow = createCompute();
    for (const [compute, strip] of [
      [withPostings, false],
      [rowByRow, true],
    ] as const) {
      const chunks = exported.chunks.map(({ postings, ...chunk }) => (strip ? chunk : { ...chunk, postings: postings! }));
      compute.loadPartition('p', 1, DIM, chunks[0]!, 90);
      for (const chunk of chunks.slice(1)) expect(compute.applyChanges('p', 1, 1, chunk, [])).toBe(true);
    }
    let version = 1;
    for (let step = 0; step < 30; step++) {
      const upserts = Array.from({ length: 1 + Math.floor(random() * 5) }, () => ({ id: `m${Math.floor(random() * 120)}`, text: sentence(random), updatedAt: NOW - Math.floor(random() * 300) * DAY }));
      const removals = docs.filter(() => random() < 0.04).map((doc) => doc.id);
      const live = new Map(docs.filter((doc) => !removals.includes(doc.id)).map((doc) => [doc.id, doc]));
      for (const doc of upserts) live.set(doc.id, doc);
      docs = [...live.values()];
      for (const compute of [withPostings, rowByRow]) expect(compute.applyChanges('p', version, version + 1, rowsOf(upserts), removals)).toBe(true);
      version++;
    }
    const rebuilt = createCompute();
    rebuilt.loadPartition('p', version, DIM, rowsOf(docs));
    for (const query of ['tokyo novel with my brother', 'Caroline garden dog', 'violin violin beach']) {
      const got = scanOf(withPostings, request(query, ['p'], 12), docs);
      expect(got).toEqual(scanOf(rowByRow, request(query, ['p'], 12), docs));
      const want = scanOf(rebuilt, request(query, ['p'], 12), docs);
      expect(got.map((hit) => hit.id).sort()).toEqual(want.map((hit) => hit.id).sort());
      got.forEach((hit) => expect(hit.lexical).toBeCloseTo(want.find((other) => other.id === hit.id)!.lexical, 6));
    }
    // The export after those writes lists every row's terms as the row-by-row index does.
    const again = (compute: typeof withPostings) => compute.exportPartition('p', 1000)!.chunks[0]!;
    expect([again(withPostings).ids, again(withPostings).terms, again(withPostings).termOffsets]).toEqual([again(rowByRow).ids, again(rowByRow).terms, again(rowByRow).termOffsets]);
  });
});
