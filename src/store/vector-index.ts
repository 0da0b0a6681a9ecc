/**
 * The IndexedDB backend's vector layer: the compute's per-partition matrices, kept coherent
 * with the store. Each write transaction bumps its partitions' versions and logs its vector
 * changes (vector-log.ts); this instance applies its own commits incrementally, and a version
 * it did not produce (another tab, another instance) is caught up from the log before the next
 * scan, or reloaded in bulk from the packed snapshot (vector-pack.ts). Only a partition without
 * usable packs is read record by record, and is then snapshotted so the next cold start is a
 * bulk load. The only store-side file that talks to compute.
 */
import { StorageError } from '../errors';
import { elapsedMs } from '../slices';
import type { CommitResult, VectorLayer } from '../storage/contract';
import type { IndexRows, ScanHit, ScanRequest } from '../worker/api';
import type { ComputeClient } from '../worker/client';
import { exactScan, finishScan, readOrder } from '../worker/exact';
import type { MemoryRecord, Scope } from '../schema';
import type { EngramDatabase, EventRow, MemoryRow } from './database';
import { partitionOf, partitionsFor, type Owner } from '../storage/owner';
import type { Store } from './store';
import { PACK_CHUNK_ROWS, emptyRows, readPacked, readRecordRows, readScanned, recordRowsInSlices, writeSnapshot, type PackedPartition, type ScannedRead } from './vector-pack';

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

/** Catch-ups one search may take when other writers keep moving the store on between its scan and its read. */
const MAX_CATCH_UPS = 16;

/** The version a partition holds while its snapshot streams in: compute's "stale", so nothing scans it as current. */
const STREAMING = -1;

/** The vector layer of the IndexedDB backend, plus what its benchmarks drive by hand. */
export interface VectorIndex extends VectorLayer {
  /** Rewrites the partition's packed snapshot from the loaded matrix (its f32 rows, or its 8-bit codes); resolves to whether it was written. */
  compact(key: string): Promise<boolean>;
}

/** What the vector layer works over: the database (packs), its records layer (quarantine), compute and the embedder. */
export interface VectorIndexDeps {
  db: EngramDatabase;
  store: Store;
  compute: ComputeClient;
  embedder: { id: string; dim: number };
}

/** Quiet time after a search before the record cache's fill reads its next slice (record-fill.ts). */
const FILL_QUIET_MS = 50;

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
  /** Every partition key {@link ensure} compared with compute at least once since the last reset. */
  const compared = new Set<string>();
  /** Per partition: ids of active rows written by another embedder (see foreignRows). */
  const foreign = new Map<string, Set<string>>();

  function trackForeign(key: string, added: readonly string[], removed: readonly string[], reset: boolean): void {
    const ids = reset ? new Set<string>() : (foreign.get(key) ?? new Set<string>());
    for (const id of removed) ids.delete(id);
    for (const id of added) ids.add(id);
    foreign.set(key, ids);
  }

  async function compact(key: string): Promise<boolean> {
    // An 8-bit compute exports its codes: the snapshot is a copy of what it holds, no record read.
    const exported = await compute.exportPartition(key, PACK_CHUNK_ROWS);
    if (!exported) return false;
    const written = await writeSnapshot(db, key, embedder, exported.version, exported.chunks, [...(foreign.get(key) ?? [])]);
    if (written) {
      snapshotOf.set(key, exported.version);
      snapshotRows.set(key, rowCount(exported.chunks));
    }
    return written;
  }

  /**
   * A scan's hits with their records, read in one transaction that also checks the scan saw the
   * store's current versions ({@link readScanned}): hits (f32 rows, or 8-bit codes re-ranked in
   * compute from its f32 copy), only the winners; 8-bit codes without the copy, the candidates
   * re-ranked exactly from their stored f32 vectors. 'stale' when the store moved on.
   *
   * Warm: while the scan runs, the partitions' versions are read beside it; when they are the
   * ones the scan saw, winners the record cache holds at those versions are not read again, and
   * a retrieve whose winners are all cached reads nothing after its scan.
   */
  async function scanAndRead(request: ScanRequest, owner: Owner, wanted: number): Promise<ScannedRead<ScanHit> | 'stale'> {
    const scanned = (versions: readonly number[]) => ({ keys: request.partitions, versions });
    /** The lineage chain of each row read, for the record cache (an own commit on a chain drops what the cache holds of it). */
    const chains = new Map<string, string>();
    const hydrate = (rows: readonly MemoryRow[], events: ReadonlyMap<string, readonly EventRow[]>) => {
      for (const row of rows) if (row.chain !== undefined) chains.set(row.id, row.chain);
      return store.visibleRecords(rows, owner, events);
    };
    const generation = store.recent.generation;
    // Issued before the scan so that its wait overlaps the compute call; only worth a read when
    // there is something cached to validate.
    const current = store.recent.size > 0 ? store.versions(request.partitions) : null;
    // A failed versions read costs the warm path only: the read below reports the error itself.
    current?.catch(() => {});
    const answer = await compute.scan(request);
    const versionsOf = (versions: readonly number[]) => new Map(request.partitions.map((key, i) => [key, versions[i]!]));
    // What a read returns is cached at the versions it checked (the scan's).
    const keep = (versions: readonly number[], read: ScannedRead<ScanHit> | 'stale' | null, cached?: ReadonlyMap<string, MemoryRecord>) => {
      if (read === null || read === 'stale') return read;
      store.recent.put(read.records.values(), versionsOf(versions), generation, chains);
      if (cached) for (const [id, record] of cached) read.records.set(id, record);
      return read;
    };
    return await exactScan(
      (scan) => (scan === request ? answer : compute.scan(scan)),
      request,
      async (result) => {
        if ('hits' in result) {
          const { hits } = result;
          // The records read: the first `wanted` hits' (VectorSearch.records).
          const winners = hits.slice(0, wanted);
          // Cached at the versions the scan saw: the read below checks those are the store's, for
          // the rows it reads and the cached ones alike, so it need not wait for the versions read.
          const cached =
            store.recent.size > 0
              ? store.recent.take(
                  winners.map((hit) => hit.id),
                  versionsOf(result.versions),
                  owner,
                )
              : new Map<string, MemoryRecord>();
          if (cached.size === winners.length && result === answer && current) {
            // Every winner cached: the versions read beside the scan is the only check left.
            const versions = await current.catch(() => null);
            if (versions && request.partitions.every((key, i) => versions.get(key) === result.versions[i])) return { hits, records: cached };
            // The store moved past the scan (another instance wrote): a read now would find it
            // stale after reading the winners, so compute (and the cache) catch up first.
            if (versions && request.partitions.some((key, i) => (versions.get(key) ?? 0) > result.versions[i]!)) return 'stale';
            cached.clear();
          }
          const missing = winners.filter((hit) => !cached.has(hit.id));
          return keep(result.versions, await readScanned(db, scanned(result.versions), { order: missing, first: missing.length }, embedder, () => hits, hydrate), cached);
        }
        const { candidates } = result;
        const reading = readOrder(candidates, request.k);
        return keep(result.versions, await readScanned(db, scanned(result.versions), reading, embedder, (vectors, read) => finishScan(request, candidates, vectors, reading.order.slice(read)), hydrate));
      },
    );
  }

  /** Searches in flight, and what waits for there to be none (the fill's slices). */
  let searching = 0;
  const waiting: (() => void)[] = [];
  /** When the last search ended (elapsedMs). */
  let lastSearch = Number.NEGATIVE_INFINITY;
  /**
   * Resolves once no search is in flight and none ended in the last {@link FILL_QUIET_MS}: a
   * caller retrieving again and again (a prompt and its explanation, a batch) keeps the fill's
   * slices (a read and some ms of parsing on the page) out of its way until it pauses.
   */
  const idle = async (): Promise<void> => {
    for (;;) {
      if (searching > 0) await new Promise<void>((resolve) => waiting.push(resolve));
      const left = lastSearch + FILL_QUIET_MS - elapsedMs();
      if (left <= 0 && searching === 0) return;
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    }
  };

  /**
   * After a search: the searched partitions' records the record cache lacks are read into it in
   * the background (record-fill.ts), so that the next retrieves find their winners in memory.
   */
  function fillLater(owner: Owner, scopes: readonly Scope[]): void {
    // User and session scope share one partition: one fill each.
    for (const [key, scope] of new Map(scopes.map((scope) => [partitionOf({ ...owner, scope }), scope]))) {
      // Only a partition known to fit (its rows as last loaded): a bigger one is not filled,
      // and finding its active ids would read every row of it.
      const rows = snapshotRows.get(key);
      if (rows === undefined || rows > store.recent.limit) continue;
      const task = store.fillRecent(owner, scope, idle);
      background.add(task);
      void task.finally(() => background.delete(task));
    }
  }

  /** {@link scanAndRead} until the scan saw the store's versions, catching the partitions up in between. */
  async function searchCurrent(request: ScanRequest, owner: Owner, wanted: number): Promise<ScannedRead<ScanHit>> {
    for (let attempt = 0; attempt < MAX_CATCH_UPS; attempt++) {
      const read = await scanAndRead(request, owner, wanted);
      if (read !== 'stale') return read;
      await ensure(request.partitions);
    }
    throw new StorageError(`the store changed under ${MAX_CATCH_UPS} searches in a row (another tab or instance writing without pause); retry the retrieve`);
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

  /**
   * Sends what the packs hold beyond the streamed snapshot chunks to compute: the version the
   * snapshot reflects (until then the partition reads as stale, -1), then the log. False when
   * compute refused a step (a concurrent change).
   */
  async function apply(key: string, packed: PackedPartition, snapshot: { calls: Promise<unknown>[]; rows: number } | null): Promise<boolean> {
    const calls = snapshot?.calls ?? [];
    if (snapshot) {
      const rows = snapshot.rows + rowCount(packed.log.map((entry) => entry.upserts));
      calls.push(calls.length ? compute.applyChanges(key, STREAMING, packed.base, emptyRows(), []) : compute.loadPartition(key, packed.base, embedder.dim, emptyRows(), rows));
    }
    for (const entry of packed.log) calls.push(compute.applyChanges(key, entry.version - 1, entry.version, entry.upserts, entry.removals));
    // Issued together: the worker runs them in order, and one round trip is paid, not one per chunk.
    const results = await Promise.all(calls);
    if (snapshot) trackForeign(key, packed.foreign, [], true);
    // A row upserted by this embedder (re-embedded) is no longer foreign, whatever an earlier entry said.
    for (const entry of packed.log)
      trackForeign(
        key,
        entry.foreign,
        [...entry.removals, ...entry.upserts.ids].filter((id) => !entry.foreign.includes(id)),
        false,
      );
    return results.every((result) => result !== false);
  }

  async function load(key: string): Promise<void> {
    const held = await compute.partitionVersion(key);
    // The snapshot's chunks go to compute as they are read, under the stale version: compute
    // builds one while the next is read, and the partition counts as loaded only once apply
    // has set the snapshot's version after the last of them.
    const streamed = { calls: [] as Promise<unknown>[], rows: 0 };
    const packed = await readPacked(db, key, embedder.id, embedder.dim, held >= 0 ? held : null, (chunk, part, rows) => {
      streamed.rows += chunk.ids.length;
      streamed.calls.push(part === 0 ? compute.loadPartition(key, STREAMING, embedder.dim, chunk, rows) : compute.applyChanges(key, STREAMING, STREAMING, chunk, []));
    });
    if (!packed?.lexical) {
      await Promise.all(streamed.calls);
      return packed ? loadFromRecords(key, 'next-write') : loadFromRecords(key);
    }
    const full = streamed.calls.length > 0 || !(held >= 0 && packed.base === held);
    if (!(await apply(key, packed, full ? streamed : null))) return loadFromRecords(key);
    // Another instance's commits: what they wrote leaves the record cache, the rest stays.
    store.recent.followLog(
      key,
      packed.log.map((entry) => ({ version: entry.version, ids: [...entry.removals, ...entry.upserts.ids], chains: entry.chains })),
    );
    if (full) {
      // f32 packs (an older version's, or an f32 compute's) loaded into 8-bit codes: quantised
      // on every cold start until rewritten, so the next commit rewrites them (a read does not).
      const upgrade = !packed.coded && streamed.calls.length > 0 && (await compute.stats()).codes === 'i8';
      snapshotOf.set(key, upgrade ? Number.NEGATIVE_INFINITY : packed.base);
      snapshotRows.set(key, streamed.rows);
      if (upgrade) return;
    }
    const base = snapshotOf.get(key) ?? -1;
    if (base < 0 || packed.version - base > logLimit(snapshotRows.get(key) ?? 0)) compactLater(key);
  }

  /** Compute follows one commit of this instance: each partition's rows and removals, from the version before it to the one after. */
  async function followCommit(result: CommitResult, records: readonly MemoryRecord[]): Promise<void> {
    for (const [key, [from, to]] of result.versions) {
      const mine = records.filter((record) => partitionOf(record) === key);
      const active = mine.filter((record) => record.invalidatedAt === undefined);
      const removed = mine.filter((record) => record.invalidatedAt !== undefined).map((record) => record.id);
      const applied = await compute.applyChanges(key, from, to, await recordRowsInSlices(active, key, embedder.id, embedder.dim), removed);
      const others = active.filter((row) => row.embedderId !== embedder.id).map((row) => row.id);
      trackForeign(key, others, [...removed, ...active.filter((row) => row.embedderId === embedder.id).map((row) => row.id)], false);
      const base = snapshotOf.get(key);
      const dropped = result.packsDropped?.includes(key) ?? false;
      if (applied && (dropped || (base !== undefined && to - base > logLimit(snapshotRows.get(key) ?? 0)))) compactLater(key);
    }
  }

  /** Per partition: this instance's commit compute is following now (afterCommit). */
  const inFlight = new Map<string, Promise<void>>();

  async function ensure(keys: readonly string[]): Promise<Map<string, number>> {
    // A commit of this instance that compute is still following is not a foreign version: wait for it.
    const following = keys.map((key) => inFlight.get(key)).filter((pending) => pending !== undefined);
    if (following.length) await Promise.all(following.map((pending) => pending.catch(() => {})));
    // The store's versions and compute's are asked for at once: neither depends on the other.
    const [versions, held] = await Promise.all([store.versions(keys), Promise.all(keys.map((key) => compute.partitionVersion(key)))]);
    for (const key of keys) compared.add(key);
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
  }

  return {
    ensure,

    searchCatchesUp: true,

    async afterCommit(result, records) {
      // Compute follows a large commit a slice at a time (recordRowsInSlices yields to the page),
      // so a search may find it behind in between: ensure waits for this rather than reload.
      const following = followCommit(result, records);
      for (const key of result.versions.keys()) inFlight.set(key, following);
      try {
        await following;
      } finally {
        for (const key of result.versions.keys()) if (inFlight.get(key) === following) inFlight.delete(key);
      }
    },

    neighbours: (key, vectors, { threshold, scope, sessionId, limit }) => compute.neighbours(key, [...vectors], threshold, scope, limit, sessionId),

    async search({ owner, scopes, sessionId, vector, text, k, records: wanted = k, now, weights }) {
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
      searching++;
      let found: ScannedRead<ScanHit>;
      try {
        // A partition this index never compared with compute (the first search after a cold
        // start) is read before the scan: a scan first would wait for compute (its semantic
        // table) only to find it stale, and then read the packs, one after the other.
        if (request.partitions.some((key) => !compared.has(key))) await ensure(request.partitions);
        found = await searchCurrent(request, owner, wanted);
      } finally {
        lastSearch = elapsedMs();
        if (--searching === 0) for (const resolve of waiting.splice(0)) resolve();
      }
      const { hits, records } = found;
      fillLater(owner, scopes);
      // A hit past the ones whose records were asked for may come without one (undefined: not read).
      return hits.map(({ id, score, relevance, cosine, lexical, semantic, recency, importance }, i) => {
        const record = records.get(id);
        return { id, score, relevance, cosine, lexical, semantic, recency, importance, ...(record !== undefined || i < wanted ? { record: record ?? null } : {}) };
      });
    },

    compact,

    foreignRows: (key) => foreign.get(key)?.size ?? 0,

    async settled() {
      while (background.size) await Promise.all([...background]);
    },

    async reset() {
      const keys = [...known];
      known.clear();
      compared.clear();
      snapshotOf.clear();
      foreign.clear();
      await Promise.all(keys.map((key) => compute.dropPartition(key)));
    },
  };
}
