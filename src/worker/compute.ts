/**
 * The compute engine: per-partition matrices of unit vectors plus the per-row inputs of the
 * blended score. Pure (no DOM, no Comlink), so the worker exposes it and Node runs it in-process.
 */
import { createHashEmbedder } from '../embed/hash-embedder';
import type { Scope } from '../schema';
import { SCOPE_CODE, type ComputeApi, type ComputeStats, type ScanHit, type ScanRequest } from './api';
import { fusedRelevance, relevanceTerm, scoreLexical } from './fusion';
import { filterFor, neighbourRows, rowDot, scanPartition } from './kernel';
import { bytesOf, createPartition, exportRows, removeRow, upsertRows, type Partition } from './partition';
import type { VectorCodes } from './matrix';
import { TopK } from './top-k';
import { loadKernelModule } from './wasm-kernel';

export interface ComputeOptions {
  /** `'auto'` (default): WASM SIMD where available, else JS. `'js'` forces the fallback (tests, bench). */
  kernel?: 'auto' | 'js';
  /**
   * How the scan holds the vectors: `'f32'` (default) the rows themselves; `'i8'` 8-bit codes in
   * the kernel's memory with the f32 rows beside it for an exact re-rank (same answers, a
   * quarter of the bytes scanned). Not the default yet: while the re-rank's f32 rows stay in the
   * worker, 8-bit mode holds more memory in all (codes + f32) than f32 alone. The JS kernel
   * always reads f32.
   */
  codes?: VectorCodes;
}

function scopeMask(scopes: readonly Scope[]): number {
  let mask = 0;
  for (const scope of scopes) mask |= SCOPE_CODE[scope];
  return mask;
}

/** Creates a compute engine; the worker exposes exactly this object. */
export function createCompute(options: ComputeOptions = {}): ComputeApi {
  const module = options.kernel === 'js' ? null : loadKernelModule();
  const codes = options.codes ?? 'f32';
  const partitions = new Map<string, Partition>();
  const embedders = new Map<number, ReturnType<typeof createHashEmbedder>>();

  function embedderFor(dim: number) {
    let embedder = embedders.get(dim);
    if (!embedder) embedders.set(dim, (embedder = createHashEmbedder(dim)));
    return embedder;
  }

  function toHits(request: ScanRequest, found: { partition: string; data: Partition }[], top: TopK, best: number): ScanHit[] {
    const { weights, now, query } = request;
    const hits = top.drain().map(({ tag, row }) => {
      const { partition, data } = found[tag]!;
      // Reported parts are recomputed in f64 for the k winners (the kernel ranks in f32).
      const { relevance, cosine, lexical } = fusedRelevance(rowDot(data, row, query), data.lexicalScores[row]!, best);
      const recency = Math.exp(-Math.max(0, now - data.matrix.updatedAt[row]!) * data.matrix.decay[row]!);
      const importance = data.matrix.importance[row]!;
      const score = weights.relevance * relevance + weights.recency * recency + weights.importance * importance;
      return { id: data.ids[row]!, partition, score, relevance, cosine, lexical, recency, importance };
    });
    // Stable: near-ties keep the kernel's order unless f64 separates them.
    return hits.sort((a, b) => b.score - a.score);
  }

  return {
    embed(texts, dim) {
      const embedder = embedderFor(dim);
      return texts.map((text) => embedder.embedOne(text));
    },

    loadPartition(key, version, dim, rows, capacity) {
      const partition = createPartition(dim, Math.max(rows.ids.length, capacity ?? 0), version, module, codes);
      upsertRows(partition, rows);
      partitions.set(key, partition);
    },

    applyChanges(key, fromVersion, toVersion, upserts, removals) {
      const partition = partitions.get(key);
      if (!partition || partition.version !== fromVersion) {
        if (partition) partition.version = -1;
        return false;
      }
      for (const id of removals) removeRow(partition, id);
      upsertRows(partition, upserts);
      partition.version = toVersion;
      return true;
    },

    partitionVersion(key) {
      return partitions.get(key)?.version ?? -1;
    },

    dropPartition(key) {
      partitions.delete(key);
    },

    exportPartition(key, chunkRows) {
      const partition = partitions.get(key);
      if (!partition || partition.version < 0) return null;
      const step = Math.max(1, Math.floor(chunkRows));
      const chunks = [];
      for (let start = 0; start < partition.size; start += step) chunks.push(exportRows(partition, start, Math.min(partition.size, start + step)));
      return { version: partition.version, dim: partition.dim, chunks };
    },

    scan(request: ScanRequest): ScanHit[] {
      const top = new TopK(request.k);
      const mask = scopeMask(request.scopes);
      const sessionId = request.sessionId ?? null;
      const found: { partition: string; data: Partition }[] = [];
      for (const key of request.partitions) {
        const data = partitions.get(key);
        if (!data || data.size === 0) continue;
        if (data.dim !== request.query.length) {
          throw new RangeError(`query has ${request.query.length} dimensions, partition holds ${data.dim}`);
        }
        found.push({ partition: key, data });
      }
      // Lexical first: the fused relevance is relative to the best match over every partition.
      const best = scoreLexical(found.map((entry) => entry.data), request, mask);
      const term = relevanceTerm(request.weights.relevance, best);
      found.forEach(({ data }, tag) => scanPartition(data, request, filterFor(data, mask, sessionId), top, tag, term));
      return toHits(request, found, top, best);
    },

    neighbours(key, queries, threshold, scope, limit = Number.POSITIVE_INFINITY) {
      const partition = partitions.get(key);
      if (!partition) return queries.map(() => []);
      return neighbourRows(partition, queries, threshold, SCOPE_CODE[scope]).map((rows, q) => {
        const ranked = rows.map((row) => ({ row, similarity: rowDot(partition, row, queries[q]!) })).sort((a, b) => b.similarity - a.similarity);
        return ranked.slice(0, limit).map(({ row }) => partition.ids[row]!);
      });
    },

    clearCaches() {
      embedders.clear();
    },

    stats(): ComputeStats {
      let rows = 0;
      let bytes = 0;
      let exactBytes = 0;
      for (const partition of partitions.values()) {
        rows += partition.size;
        bytes += bytesOf(partition);
        exactBytes += partition.matrix.exactByteLength;
      }
      return { partitions: partitions.size, rows, bytes, exactBytes, kernel: module ? 'wasm-simd' : 'js', codes: module ? codes : 'f32' };
    },
  };
}
