/**
 * The compute engine: per-partition matrices of unit vectors plus the per-row inputs of the
 * blended score. Pure (no DOM, no Comlink), so the worker exposes it and Node runs it in-process.
 */
import { createHashEmbedder } from '../embed/hash-embedder';
import { DAY_MS, type Scope } from '../schema';
import { SCOPE_CODE, type ComputeApi, type ComputeStats, type IndexRows, type ScanHit, type ScanRequest } from './api';
import { TopK } from './top-k';
import { scoreRows } from './kernel';

interface Partition {
  version: number;
  dim: number;
  size: number;
  ids: string[];
  rowOf: Map<string, number>;
  vectors: Float32Array;
  updatedAt: Float64Array;
  halfLifeDays: Float32Array;
  importance: Float32Array;
  scopes: Uint8Array;
  sessionIds: string[];
}

function createPartition(dim: number, capacity: number, version: number): Partition {
  return {
    version,
    dim,
    size: 0,
    ids: [],
    rowOf: new Map(),
    vectors: new Float32Array(capacity * dim),
    updatedAt: new Float64Array(capacity),
    halfLifeDays: new Float32Array(capacity),
    importance: new Float32Array(capacity),
    scopes: new Uint8Array(capacity),
    sessionIds: [],
  };
}

function capacityOf(partition: Partition): number {
  return partition.updatedAt.length;
}

function grow(partition: Partition, needed: number): void {
  if (needed <= capacityOf(partition)) return;
  const capacity = Math.max(needed, capacityOf(partition) * 2, 64);
  const vectors = new Float32Array(capacity * partition.dim);
  vectors.set(partition.vectors.subarray(0, partition.size * partition.dim));
  partition.vectors = vectors;
  partition.updatedAt = copyInto(new Float64Array(capacity), partition.updatedAt, partition.size);
  partition.halfLifeDays = copyInto(new Float32Array(capacity), partition.halfLifeDays, partition.size);
  partition.importance = copyInto(new Float32Array(capacity), partition.importance, partition.size);
  partition.scopes = copyInto(new Uint8Array(capacity), partition.scopes, partition.size);
}

function copyInto<T extends Float64Array | Float32Array | Uint8Array>(target: T, source: T, count: number): T {
  target.set(source.subarray(0, count) as never);
  return target;
}

function writeRow(partition: Partition, row: number, rows: IndexRows, from: number): void {
  const dim = partition.dim;
  partition.vectors.set(rows.vectors.subarray(from * dim, (from + 1) * dim), row * dim);
  partition.updatedAt[row] = rows.updatedAt[from]!;
  partition.halfLifeDays[row] = rows.halfLifeDays[from]!;
  partition.importance[row] = rows.importance[from]!;
  partition.scopes[row] = rows.scopes[from]!;
  partition.sessionIds[row] = rows.sessionIds[from]!;
  partition.ids[row] = rows.ids[from]!;
  partition.rowOf.set(rows.ids[from]!, row);
}

function upsertRows(partition: Partition, rows: IndexRows): void {
  if (rows.vectors.length !== rows.ids.length * partition.dim) {
    throw new RangeError(`vectors hold ${rows.vectors.length} floats, expected ${rows.ids.length} × ${partition.dim}`);
  }
  grow(partition, partition.size + rows.ids.length);
  for (let i = 0; i < rows.ids.length; i++) {
    const existing = partition.rowOf.get(rows.ids[i]!);
    writeRow(partition, existing ?? partition.size++, rows, i);
  }
}

/** Swap-remove: the last row moves into the hole, so the matrix stays dense. */
function removeRow(partition: Partition, id: string): void {
  const row = partition.rowOf.get(id);
  if (row === undefined) return;
  const last = partition.size - 1;
  partition.rowOf.delete(id);
  if (row !== last) {
    const dim = partition.dim;
    partition.vectors.copyWithin(row * dim, last * dim, (last + 1) * dim);
    partition.updatedAt[row] = partition.updatedAt[last]!;
    partition.halfLifeDays[row] = partition.halfLifeDays[last]!;
    partition.importance[row] = partition.importance[last]!;
    partition.scopes[row] = partition.scopes[last]!;
    partition.sessionIds[row] = partition.sessionIds[last]!;
    partition.ids[row] = partition.ids[last]!;
    partition.rowOf.set(partition.ids[row]!, row);
  }
  partition.ids.length = last;
  partition.sessionIds.length = last;
  partition.size = last;
}

function scopeMask(scopes: readonly Scope[]): number {
  let mask = 0;
  for (const scope of scopes) mask |= SCOPE_CODE[scope];
  return mask;
}

/** Creates a compute engine; the worker exposes exactly this object. */
export function createCompute(): ComputeApi {
  const partitions = new Map<string, Partition>();
  const embedders = new Map<number, ReturnType<typeof createHashEmbedder>>();

  function embedderFor(dim: number) {
    let embedder = embedders.get(dim);
    if (!embedder) embedders.set(dim, (embedder = createHashEmbedder(dim)));
    return embedder;
  }

  return {
    embed(texts, dim) {
      const embedder = embedderFor(dim);
      return texts.map((text) => embedder.embedOne(text));
    },

    loadPartition(key, version, dim, rows) {
      const partition = createPartition(dim, rows.ids.length, version);
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
        const tag = found.push({ partition: key, data }) - 1;
        scoreRows(data, request, mask, sessionId, top, tag);
      }
      return top.drain().map(({ tag, row, score, relevance }) => {
        const { partition, data } = found[tag]!;
        const recency = 0.5 ** (Math.max(0, request.now - data.updatedAt[row]!) / DAY_MS / data.halfLifeDays[row]!);
        return { id: data.ids[row]!, partition, score, relevance, recency, importance: data.importance[row]! };
      });
    },

    neighbours(key, queries, threshold, scope) {
      const partition = partitions.get(key);
      if (!partition) return queries.map(() => []);
      const code = SCOPE_CODE[scope];
      const { dim, vectors, size, scopes, ids } = partition;
      return queries.map((query) => {
        const hits: string[] = [];
        for (let row = 0; row < size; row++) {
          if (scopes[row] !== code) continue;
          let sum = 0;
          const offset = row * dim;
          for (let j = 0; j < dim; j++) sum += vectors[offset + j]! * query[j]!;
          if (sum >= threshold) hits.push(ids[row]!);
        }
        return hits;
      });
    },

    clearCaches() {
      embedders.clear();
    },

    stats(): ComputeStats {
      let rows = 0;
      let bytes = 0;
      for (const partition of partitions.values()) {
        rows += partition.size;
        bytes +=
          partition.vectors.byteLength +
          partition.updatedAt.byteLength +
          partition.halfLifeDays.byteLength +
          partition.importance.byteLength +
          partition.scopes.byteLength;
      }
      return { partitions: partitions.size, rows, bytes };
    },
  };
}

export type { Partition };
