/**
 * The IndexedDB backend's vector layer: the compute's per-partition matrices, kept coherent
 * with the store. Each write transaction bumps its partitions' versions and logs its vector
 * changes (vector-log.ts); this instance applies its own commits incrementally, and a version
 * it did not produce (another tab, another instance) is caught up from the log before the next
 * scan, or reloaded in bulk from the packed snapshot (vector-pack.ts). Only a partition without
 * usable packs is read record by record, and is then snapshotted so the next cold start is a
 * bulk load. The only store-side file that talks to compute.
 */
import type { MemoryRecord } from '../schema';
import type { VectorLayer } from '../storage/contract';
import type { IndexRows, ScanHit, ScanRequest } from '../worker/api';
import type { ComputeClient } from '../worker/client';
import { finishScan, readOrder } from '../worker/exact';
import type { EngramDatabase } from './database';
import { partitionOf, partitionsFor, type Owner } from './owner';
import type { Store } from './store';
import { PACK_CHUNK_ROWS, emptyRows, readPacked, readRecordRows, recordRows, rerankCandidates, sliceRows, writeSnapshot, type PackedPartition } from './vector-pack';

/**
 * Log entries a load may replay before the snapshot is rewritten: at least LOG_LIMIT, and an
 * eighth of the snapshot's rows up to MAX_LOG, so rewriting a big partition (with 8-bit codes,
 * a read of every active record) costs a write a bounded share, not O(rows / 64) rows each.
 */
const LOG_LIMIT = 64;
const MAX_LOG = 2048;

function logLimit(rows: number): number {
  return Math.max(LOG_LIMIT, Math.min(MAX_LOG, Math.floor(rows / 8)));
}

const rowCount = (chunks: readonly IndexRows[]) => chunks.reduce((sum, chunk) => sum + chunk.ids.length, 0);

/** The vector layer of the IndexedDB backend, plus what its benchmarks drive by hand. */
export interface VectorIndex extends VectorLayer {
  /** Rewrites the partition's packed snapshot (from the loaded matrix, or with 8-bit codes from the records); resolves to whether it was written. */
  compact(key: string): Promise<boolean>;
}

/** What the vector layer works over: the database (packs), its records layer (quarantine), compute and the embedder. */
export interface VectorIndexDeps {
  db: EngramDatabase;
  store: Store;
  compute: ComputeClient;
  embedder: { id: string; dim: number };
}

export function createVectorIndex({ db, store, compute, embedder }: VectorIndexDeps): VectorIndex {
  // One load at a time per partition: two concurrent retrieves must not both read 100k rows.
  const loading = new Map<string, Promise<void>>();
  /** Per partition: the snapshot version it was loaded from, to know when the log grew long. */
  const snapshotOf = new Map<string, number>();
  /** Per partition: rows in that snapshot (or in the records it was loaded from). */
  const snapshotRows = new Map<string, number>();
  const background = new Set<Promise<unknown>>();
  /** Every partition key this index has sent to compute. */
  const known = new Set<string>();
  /** Per partition: ids of active rows written by another embedder (see foreignRows). */
  const foreign = new Map<string, Set<string>>();

  function trackForeign(key: string, added: readonly string[], removed: readonly string[], reset: boolean): void {
    const ids = reset ? new Set<string>() : (foreign.get(key) ?? new Set<string>());
    for (const id of removed) ids.delete(id);
    for (const id of added) ids.add(id);
    foreign.set(key, ids);
  }

  async function compact(key: string): Promise<boolean> {
    const exported = (await compute.exportPartition(key, PACK_CHUNK_ROWS)) ?? (await snapshotFromRecords(key));
    if (!exported) return false;
    const written = await writeSnapshot(db, key, embedder, exported.version, exported.chunks);
    if (written) {
      snapshotOf.set(key, exported.version);
      snapshotRows.set(key, rowCount(exported.chunks));
    }
    return written;
  }

  /**
   * 8-bit codes keep no f32 rows in compute to export, so the snapshot is read from the
   * records (at the version they reflect: writeSnapshot refuses it if a write came in between).
   */
  async function snapshotFromRecords(key: string): Promise<{ version: number; chunks: IndexRows[] } | null> {
    if ((await compute.partitionVersion(key)) < 0) return null;
    const { version, rows } = await readRecordRows(db, key, embedder, store.quarantine);
    const chunks: IndexRows[] = [];
    for (let start = 0; start < rows.ids.length; start += PACK_CHUNK_ROWS) chunks.push(sliceRows(rows, start, Math.min(rows.ids.length, start + PACK_CHUNK_ROWS), embedder.dim));
    return { version, chunks };
  }

  /**
   * Compute's answer to a scan: its top k (f32 rows), or (8-bit codes) its candidates re-ranked
   * exactly from their stored f32 vectors, the winners' records read in the same transaction.
   */
  async function scanExact(request: ScanRequest, owner: Owner): Promise<(ScanHit & { record?: MemoryRecord | null })[]> {
    for (let more: number | undefined; ; ) {
      const result = await compute.scan(more === undefined ? request : { ...request, candidates: more });
      if ('hits' in result) return result.hits;
      const { candidates } = result;
      const reading = readOrder(candidates, request.k);
      const ranked = await rerankCandidates(
        db,
        reading,
        embedder,
        (vectors, read) => finishScan(request, candidates, vectors, reading.order.slice(read)),
        (rows) => store.visibleRecords(rows, owner),
      );
      if (ranked) return ranked.hits.map((hit) => ({ ...hit, record: ranked.records.get(hit.id) ?? null }));
      // Each pass keeps 4× the candidates; once they hold every row, every ceiling is −∞ and the re-rank is final.
      more = candidates.perPartition * 4;
    }
  }

  function compactLater(key: string): void {
    // A snapshot is an optimisation: if writing it fails (closed database, quota), the log
    // and the records still hold everything, and the next load rebuilds. So the failure is
    // recorded on the promise set only long enough to be awaited by settled().
    const task = compact(key).catch((error: unknown) => error);
    background.add(task);
    void task.finally(() => background.delete(task));
  }

  /**
   * `snapshot: 'now'` writes the packs right after (they were missing or unusable);
   * `'next-write'` leaves the database alone until the partition's next commit (the packs were
   * only older, without term ids: a read must not rewrite a database it could load).
   */
  async function loadFromRecords(key: string, snapshot: 'now' | 'next-write' = 'now'): Promise<void> {
    const { version, rows, foreign: others } = await readRecordRows(db, key, embedder, store.quarantine);
    await compute.loadPartition(key, version, embedder.dim, rows);
    trackForeign(key, others, [], true);
    snapshotRows.set(key, rows.ids.length);
    // -Infinity: any next commit is "past the log limit", so it snapshots.
    snapshotOf.set(key, snapshot === 'now' ? -1 : Number.NEGATIVE_INFINITY);
    if (snapshot === 'now') compactLater(key);
  }

  /** Sends the packed partition to compute; false when compute refused a step (a concurrent change). */
  async function apply(key: string, packed: PackedPartition, full: boolean): Promise<boolean> {
    const calls: Promise<unknown>[] = [];
    if (full) {
      const rows = rowCount(packed.chunks) + rowCount(packed.log.map((entry) => entry.upserts));
      const [first = emptyRows(), ...rest] = packed.chunks;
      calls.push(compute.loadPartition(key, packed.base, embedder.dim, first, rows));
      for (const chunk of rest) calls.push(compute.applyChanges(key, packed.base, packed.base, chunk, []));
    }
    for (const entry of packed.log) calls.push(compute.applyChanges(key, entry.version - 1, entry.version, entry.upserts, entry.removals));
    // Issued together: the worker runs them in order, and one round trip is paid, not one per chunk.
    const results = await Promise.all(calls);
    if (full) trackForeign(key, [], [], true);
    // A row upserted by this embedder (re-embedded) is no longer foreign, whatever an earlier entry said.
    for (const entry of packed.log) trackForeign(key, entry.foreign, [...entry.removals, ...entry.upserts.ids].filter((id) => !entry.foreign.includes(id)), false);
    return results.every((result) => result !== false);
  }

  async function load(key: string): Promise<void> {
    const held = await compute.partitionVersion(key);
    const packed = await readPacked(db, key, embedder.id, embedder.dim, held >= 0 ? held : null);
    if (!packed) return loadFromRecords(key);
    if (!packed.lexical) return loadFromRecords(key, 'next-write');
    const full = !(held >= 0 && packed.base === held && packed.chunks.length === 0);
    if (!(await apply(key, packed, full))) return loadFromRecords(key);
    if (full) {
      snapshotOf.set(key, packed.base);
      snapshotRows.set(key, rowCount(packed.chunks));
    }
    const base = snapshotOf.get(key) ?? -1;
    if (base < 0 || packed.version - base > logLimit(snapshotRows.get(key) ?? 0)) compactLater(key);
  }

  return {
    async ensure(keys) {
      // The store's versions and compute's are asked for at once: neither depends on the other.
      const [versions, held] = await Promise.all([store.versions(keys), Promise.all(keys.map((key) => compute.partitionVersion(key)))]);
      await Promise.all(
        keys.map(async (key, i) => {
          if (held[i] === versions.get(key)) return;
          known.add(key);
          let pending = loading.get(key);
          if (!pending) {
            pending = load(key).finally(() => loading.delete(key));
            loading.set(key, pending);
          }
          await pending;
        }),
      );
      return versions;
    },

    async afterCommit(result, records) {
      for (const [key, [from, to]] of result.versions) {
        const mine = records.filter((record) => partitionOf(record) === key);
        const active = mine.filter((record) => record.invalidatedAt === undefined);
        const removed = mine.filter((record) => record.invalidatedAt !== undefined).map((record) => record.id);
        const applied = await compute.applyChanges(key, from, to, recordRows(active, key, embedder.id, embedder.dim), removed);
        const others = active.filter((row) => row.embedderId !== embedder.id).map((row) => row.id);
        trackForeign(key, others, [...removed, ...active.filter((row) => row.embedderId === embedder.id).map((row) => row.id)], false);
        const base = snapshotOf.get(key);
        const dropped = result.packsDropped?.includes(key) ?? false;
        if (applied && (dropped || (base !== undefined && to - base > logLimit(snapshotRows.get(key) ?? 0)))) compactLater(key);
      }
    },

    neighbours: (key, vectors, { threshold, scope, limit }) => compute.neighbours(key, [...vectors], threshold, scope, limit),

    async search({ owner, scopes, sessionId, vector, text, k, now, weights }) {
      const request: ScanRequest = {
        partitions: partitionsFor(owner, scopes),
        query: vector,
        ...(text !== undefined ? { queryText: text } : {}),
        now,
        weights,
        k,
        scopes: [...scopes],
        ...(sessionId !== undefined ? { sessionId } : {}),
      };
      const hits = await scanExact(request, owner);
      return hits.map(({ id, score, relevance, cosine, lexical, recency, importance, record }) => ({
        id,
        score,
        relevance,
        cosine,
        lexical,
        recency,
        importance,
        ...(record !== undefined ? { record } : {}),
      }));
    },

    compact,

    foreignRows: (key) => foreign.get(key)?.size ?? 0,

    async settled() {
      while (background.size) await Promise.all([...background]);
    },

    async reset() {
      const keys = [...known];
      known.clear();
      snapshotOf.clear();
      foreign.clear();
      await Promise.all(keys.map((key) => compute.dropPartition(key)));
    },
  };
}
