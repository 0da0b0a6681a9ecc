/**
 * The in-memory backend's vector layer: brute force over the records themselves, nothing
 * loaded, nothing cached. Its lexical channel is the BM25 reference the worker is tested
 * against (scripts/eval-metrics.ts), per partition like the worker's, fused by engram's rule
 * (src/worker/fusion.ts), so its top-k equals the IndexedDB backend's for the same data.
 */
import { lexicalTermStrings } from '../../src/embed/terms';
import { decayHalfLife, type MemoryRecord } from '../../src/schema';
import { partitionOf, partitionsFor, type VectorHit, type VectorLayer, type VectorSearch } from '../../src/storage/contract';
import { fusedRelevance } from '../../src/worker/fusion';
import { BM25_B, BM25_K1 } from '../../src/worker/lexical';
import { createBm25 } from '../../scripts/eval-metrics';
import type { MemoryState } from './memory-storage';

const DAY_MS = 86_400_000;

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

export function createMemoryVectors(state: MemoryState, embedder: { id: string; dim: number }): VectorLayer {
  /** What the worker's matrix would hold for a partition: its active rows of this embedder. */
  const rowsOf = (key: string) => [...state.records.values()].filter((record) => record.invalidatedAt === undefined && partitionOf(record) === key && record.embedderId === embedder.id && record.embedding.length === embedder.dim);

  function visibleIn(search: VectorSearch, record: MemoryRecord): boolean {
    if (!search.scopes.includes(record.scope)) return false;
    return record.scope !== 'session' || (search.sessionId !== undefined && record.sessionId === search.sessionId);
  }

  function search(request: VectorSearch): VectorHit[] {
    const candidates: { record: MemoryRecord; bm25: number }[] = [];
    for (const key of partitionsFor(request.owner, request.scopes)) {
      const rows = rowsOf(key);
      const bm25 =
        request.text === undefined
          ? rows.map(() => 0)
          : createBm25(
              rows.map((row) => row.content),
              { tokens: lexicalTermStrings, k1: BM25_K1, b: BM25_B },
            ).scores(request.text);
      rows.forEach((record, i) => visibleIn(request, record) && candidates.push({ record, bm25: bm25[i]! }));
    }
    const best = Math.max(0, ...candidates.map((candidate) => candidate.bm25));
    const { weights } = request;
    return candidates
      .map(({ record, bm25 }): VectorHit => {
        const { relevance, cosine, lexical } = fusedRelevance(dot(record.embedding, request.vector), bm25, best);
        const recency = 0.5 ** (Math.max(0, request.now - record.updatedAt) / DAY_MS / decayHalfLife(record));
        const score = weights.relevance * relevance + weights.recency * recency + weights.importance * record.importance;
        return { id: record.id, score, relevance, cosine, lexical, recency, importance: record.importance };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, request.k);
  }

  return {
    ensure: async (keys) => new Map(keys.map((key) => [key, state.versions.get(key) ?? 0])),
    async neighbours(key, vectors, { threshold, scope, sessionId, limit }) {
      const rows = rowsOf(key).filter((record) => record.scope === scope && (scope !== 'session' || sessionId === undefined || record.sessionId === sessionId));
      return vectors.map((vector) =>
        rows
          .map((record) => ({ id: record.id, cosine: dot(record.embedding, vector) }))
          .filter((row) => row.cosine >= threshold)
          .sort((a, b) => b.cosine - a.cosine)
          .slice(0, limit)
          .map((row) => row.id),
      );
    },
    search: async (request) => search(request),
    foreignRows: (key) => [...state.records.values()].filter((record) => record.invalidatedAt === undefined && partitionOf(record) === key && record.embedderId !== embedder.id).length,
    afterCommit: async () => {},
    settled: async () => {},
    reset: async () => {},
  };
}
