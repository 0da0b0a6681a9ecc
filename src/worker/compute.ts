/**
 * The compute engine: per-partition matrices of unit vectors plus the per-row inputs of the
 * blended score. Pure (no DOM, no Comlink), so the worker exposes it and Node runs it in-process.
 */
import { createHashEmbedder } from '../embed/hash-embedder';
import type { Scope } from '../schema';
import { SCOPE_CODE, type ComputeApi, type ComputeStats, type ModelEmbedderSpec, type ScanCandidate, type ScanCandidates, type ScanHit, type ScanRequest, type ScanResult } from './api';
import { relevanceTerm, scoreLexical } from './fusion';
import { loadedConcepts, type Concepts } from './concepts';
import { exactScan, finishScan, hitOf } from './exact';
import type { ModelRuntime } from './model-runtime';
import { filterFor, neighbourRows, passes, rowDot, scanPartition, type RelevanceTerm, type RowFilter } from './kernel';
import { FIRST_CANDIDATES, quantisedCandidates, quantisedNeighbours } from './quantised';
import { bytesOf, createPartition, exportRows, removeRow, takesRows, upsertRows, type Partition } from './partition';
import type { VectorCodes } from './matrix';
import { TopK } from './top-k';
import { loadKernelModule } from './wasm-kernel';

export interface ComputeOptions {
  /** `'auto'` (default): WASM SIMD where available, else JS. `'js'` forces the fallback (tests, bench). */
  kernel?: 'auto' | 'js';
  /**
   * How the scan holds the vectors: `'i8'` (default) 8-bit codes with one scale per row, a
   * quarter of the bytes to hold and to scan and no f32 copy: the scan hands back candidates
   * that are re-ranked exactly from f32 vectors read for just them (exact.ts); `'f32'` the rows
   * themselves, ranked in one pass. The JS kernel always holds f32.
   */
  codes?: VectorCodes;
  /**
   * 8-bit codes: keep an f32 copy of a partition's rows beside its codes while it fits the
   * copy's budget (matrix.ts EXACT_COPY_BYTES), so the scan call re-ranks its candidates itself
   * and hands back hits (default true). False: every re-rank reads the store (tests of that path).
   */
  exactCopy?: boolean;
  /**
   * 8-bit codes: a query with at most a quarter of its dimensions nonzero (the hash embedder's)
   * takes its code dots from a second copy of the codes held by dimension, built on first use
   * (matrix.ts `sparseDots`; the same scores). Default true; false: always the row-major scan
   * (tests and the bench compare the two).
   */
  sparseScan?: boolean;
}

function scopeMask(scopes: readonly Scope[]): number {
  let mask = 0;
  for (const scope of scopes) mask |= SCOPE_CODE[scope];
  return mask;
}

/** Owners whose token caches compute keeps at once (the least recently used goes first). */
const TOKEN_CACHE_KEYS = 16;

/** Creates a compute engine; the worker exposes exactly this object. */
export function createCompute(options: ComputeOptions = {}): ComputeApi {
  const module = options.kernel === 'js' ? null : loadKernelModule();
  const codes = options.codes ?? 'i8';
  const partitions = new Map<string, Partition>();
  // Hash embedders by [dim, cache key], each with its token cache: per owner, most recently used last.
  const embedders = new Map<string, ReturnType<typeof createHashEmbedder>>();
  /** The semantic channel's table once `loadConcepts` has it. */
  let concepts: Concepts | undefined;

  /** Lets partition `key` go, with any work its matrix has queued. */
  function forget(key: string): void {
    partitions.get(key)?.matrix.retire();
    partitions.delete(key);
  }

  /** The hash embedder of `cacheKey`'s texts; without a key, one whose token cache lives for the call. */
  function embedderFor(dim: number, cacheKey: string | undefined) {
    if (cacheKey === undefined) return createHashEmbedder(dim);
    const key = JSON.stringify([dim, cacheKey]);
    const embedder = embedders.get(key) ?? createHashEmbedder(dim);
    embedders.delete(key);
    embedders.set(key, embedder);
    while (embedders.size > TOKEN_CACHE_KEYS) embedders.delete(embedders.keys().next().value!);
    return embedder;
  }

  /** Models by spec, loaded on first use; a failed load is forgotten so the next call retries it. */
  const models = new Map<string, Promise<ModelRuntime>>();
  function modelFor(spec: ModelEmbedderSpec): Promise<ModelRuntime> {
    const key = JSON.stringify(spec);
    let model = models.get(key);
    if (!model) {
      // Imported on first use: compute that never hosts a model never loads its runtime.
      model = import('./model-runtime').then(({ loadModelRuntime }) => loadModelRuntime(spec));
      model.catch(() => models.delete(key));
      models.set(key, model);
    }
    return model;
  }

  function toHits(request: ScanRequest, found: { partition: string; data: Partition }[], top: TopK, best: number): ScanHit[] {
    const { weights, now, query } = request;
    const hits = top.drain().map(({ tag, row }) => {
      const { partition, data } = found[tag]!;
      // Reported parts are recomputed in f64 for the k winners (the kernel ranks in f32).
      const recency = Math.exp(-Math.max(0, now - data.matrix.updatedAt[row]!) * data.matrix.decay[row]!);
      const parts = { cosine: rowDot(data, row, query), bm25: data.lexicalScores[row]!, semantic: data.semantic[row]!, best, recency, importance: data.matrix.importance[row]! };
      return hitOf(data.ids[row]!, partition, parts, weights);
    });
    // Stable: near-ties keep the kernel's order unless f64 separates them.
    return hits.sort((a, b) => b.score - a.score);
  }

  /** 8-bit partitions: every partition's candidates and ceiling, for the exact re-rank (exact.ts). */
  function toCandidates(request: ScanRequest, found: { partition: string; data: Partition }[], filters: RowFilter[], term: RelevanceTerm, best: number): ScanCandidates {
    const perPartition = Math.max(1, Math.floor(request.candidates ?? Math.max(FIRST_CANDIDATES, 2 * request.k)));
    const candidates: ScanCandidate[] = [];
    const ceilings = request.partitions.map(() => Number.NEGATIVE_INFINITY);
    found.forEach(({ partition, data }, i) => {
      const result = quantisedCandidates(data, partition, request, filters[i]!, term, perPartition);
      candidates.push(...result.candidates);
      ceilings[request.partitions.indexOf(partition)] = result.ceiling;
    });
    return { candidates, ceilings, perPartition, dense: term.dense, best };
  }

  /** One pass of the scan: f32 rows, the top k; 8-bit codes, the candidates of the exact re-rank. */
  function scanOnce(request: ScanRequest): ScanResult {
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
    const best = scoreLexical(
      found.map((entry) => entry.data),
      request,
      mask,
      concepts,
    );
    const term = relevanceTerm(request.weights.relevance, best);
    const filters = found.map(({ data }) => filterFor(data, mask, sessionId));
    const versions = request.partitions.map((key) => partitions.get(key)?.version ?? -1);
    if (found.some(({ data }) => data.matrix.codes === 'i8')) return { candidates: toCandidates(request, found, filters, term, best), versions };
    found.forEach(({ data }, tag) => scanPartition(data, request, filters[tag]!, top, tag, term));
    return { hits: toHits(request, found, top, best), versions };
  }

  /** The f32 copies (matrix.ts) of an 8-bit scan's candidates, for the re-rank in this call. */
  function exactVectors(pending: ScanCandidates): Map<string, Float32Array> {
    const vectors = new Map<string, Float32Array>();
    for (const { id, partition } of pending.candidates) {
      const data = partitions.get(partition);
      const row = data?.rowOf.get(id);
      if (data && row !== undefined) vectors.set(id, data.matrix.exactRow(row));
    }
    return vectors;
  }

  return {
    embed(texts, dim, cacheKey) {
      const embedder = embedderFor(dim, cacheKey);
      return texts.map((text) => embedder.embedOne(text));
    },

    loadPartition(key, version, dim, rows, capacity) {
      const partition = createPartition(dim, Math.max(rows.ids.length, capacity ?? 0), version, module, codes);
      if (options.exactCopy === false) partition.matrix.dropExactCopy();
      if (options.sparseScan === false) partition.matrix.sparseScan = false;
      if (!takesRows(partition, rows)) {
        forget(key);
        return false;
      }
      upsertRows(partition, rows);
      forget(key); // the partition this one replaces
      partitions.set(key, partition);
      return true;
    },

    applyChanges(key, fromVersion, toVersion, upserts, removals) {
      const partition = partitions.get(key);
      if (!partition || partition.version !== fromVersion || !takesRows(partition, upserts)) {
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
      forget(key);
    },

    exportPartition(key, chunkRows) {
      const partition = partitions.get(key);
      if (!partition || partition.version < 0) return null;
      const step = Math.max(1, Math.floor(chunkRows));
      const chunks = [];
      for (let start = 0; start < partition.size; start += step) chunks.push(exportRows(partition, start, Math.min(partition.size, start + step)));
      return { version: partition.version, dim: partition.dim, chunks };
    },

    scan(request: ScanRequest): ScanResult {
      const result = scanOnce(request);
      if (!('candidates' in result)) return result;
      // 8-bit codes with their f32 copy (small partitions, matrix.ts): the exact re-rank runs
      // here, in this call, and the caller reads only the winners from the store.
      const held = request.partitions.map((key) => partitions.get(key));
      if (!held.every((data) => !data || data.size === 0 || data.matrix.hasExactRows)) return result;
      const hits = exactScan(
        (scan) => (scan === request ? result : scanOnce(scan)),
        request,
        (answer) => ('hits' in answer ? answer.hits : finishScan(request, answer.candidates, exactVectors(answer.candidates))),
      );
      return { hits, versions: result.versions };
    },

    neighbours(key, queries, threshold, scope, limit = Number.POSITIVE_INFINITY, sessionId) {
      const partition = partitions.get(key);
      if (!partition || partition.size === 0) return queries.map(() => []);
      const keeps = rowsOf(partition, scope, sessionId);
      if (partition.matrix.codes === 'i8' && !partition.matrix.hasExactRows) {
        return quantisedNeighbours(partition, queries, threshold, keeps).map((found) => superset(found, limit).map((row) => partition.ids[row]!));
      }
      // The rows that may reach the threshold, then their exact (f32 rows) similarity.
      const near = partition.matrix.codes === 'i8' ? quantisedNeighbours(partition, queries, threshold, keeps).map((found) => found.map(({ row }) => row)) : neighbourRows(partition, queries, threshold, keeps);
      return near.map((rows, q) => exactNeighbours(partition, rows, queries[q]!, threshold, limit).map((row) => partition.ids[row]!));
    },

    async loadModel(spec) {
      const { id, dim } = await modelFor(spec);
      return { id, dim };
    },

    async embedModel(spec, texts) {
      return (await modelFor(spec)).embed(texts);
    },

    clearCaches() {
      embedders.clear();
    },

    loadConcepts(table) {
      concepts = loadedConcepts(table);
      return concepts[0].length;
    },

    stats(): ComputeStats {
      let rows = 0;
      let bytes = concepts?.reduce((sum, array) => sum + array.byteLength, 0) ?? 0;
      for (const partition of partitions.values()) {
        rows += partition.size;
        bytes += bytesOf(partition);
      }
      return { partitions: partitions.size, rows, bytes, kernel: module ? 'wasm-simd' : 'js', codes: module ? codes : 'f32', tokenCaches: embedders.size };
    },
  };
}

/**
 * The rows a neighbour search looks at: those of `scope`, and for session scope with a
 * `sessionId` only that session's, before any cut to the limit (a sweep writing into one session
 * decides over that session's memories: plan.ts `inTarget`).
 */
function rowsOf(partition: Partition, scope: Scope, sessionId: string | undefined): (row: number) => boolean {
  const { scopes } = partition;
  const code = SCOPE_CODE[scope];
  if (scope !== 'session' || sessionId === undefined) return (row) => scopes[row] === code;
  const filter = filterFor(partition, code, sessionId);
  const tags = partition.matrix.tags;
  return (row) => passes(tags[row]!, filter);
}

/**
 * Where compute holds the f32 rows: of `rows`, those whose exact similarity (f64, as the
 * sweep computes it) reaches `threshold`, most similar first, the best `limit` and every row
 * tied with the `limit`-th (so the sweep's own cut, whatever its order among ties, is within).
 */
function exactNeighbours(partition: Partition, rows: readonly number[], query: Float32Array, threshold: number, limit: number): number[] {
  const ranked = rows
    .map((row) => ({ row, similarity: rowDot(partition, row, query) }))
    .filter(({ similarity }) => similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity);
  if (ranked.length <= limit) return ranked.map(({ row }) => row);
  const cut = ranked[limit - 1]!.similarity;
  return ranked.filter(({ similarity }) => similarity >= cut).map(({ row }) => row);
}

/**
 * The 8-bit neighbours kept for the exact sweep where compute has no f32 rows: every row
 * within its error bound of the threshold (quantisedNeighbours), most similar first by code,
 * cut where a row's highest possible similarity falls below the `limit`-th best lowest one. A
 * row among the exact `limit` best cannot be cut: `limit` rows are exactly at least that.
 */
function superset(found: { row: number; similarity: number; error: number }[], limit: number): number[] {
  const ranked = found.sort((a, b) => b.similarity - a.similarity);
  if (ranked.length <= limit) return ranked.map(({ row }) => row);
  const lowest = ranked.map(({ similarity, error }) => similarity - error).sort((a, b) => b - a);
  const cut = lowest[limit - 1]!;
  return ranked.filter(({ similarity, error }) => similarity + error >= cut).map(({ row }) => row);
}
