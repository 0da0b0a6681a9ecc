/**
 * The read side of packed vector storage, and the one place where stored rows become the
 * compute's columnar `IndexRows` (and back). A partition loads in bulk instead of record by
 * record from:
 *
 * - `vectorPacks`: a snapshot of a partition's active rows at one version, in chunks of up to
 *   {@link PACK_CHUNK_ROWS} rows, each chunk one row of `PackedColumns` (database.ts).
 * - `vectorLog`: one row per committed write after the snapshot (`[partition+version]`), with
 *   the upserted rows' vector inputs and the removed ids (written by vector-log.ts in the
 *   commit's own transaction, so snapshot + log always equals the records).
 *
 * Rules: a load is valid only if the log covers every version from the snapshot's (0 when
 * there is none) to the partition's current one; any gap (a database written before packs
 * existed, an erasure that dropped the packs) means "rebuild from the records".
 *
 * Rows also carry the lexical channel's term ids. Packs written before the lexical channel have
 * none: `lexical` is then false and the index rebuilds the partition from its records,
 * snapshotting it with terms at its next write (a read never writes for this: opening an older
 * database and only reading leaves it as it was).
 */
import { flattenTerms } from '../embed/terms';
import { toStorageError } from '../errors';
import type { MemoryRecord } from '../schema';
import { SCOPE_CODE, type IndexRows } from '../worker/api';
import { chunkRows, storedColumns } from './pack-columns';
import type { EngramDatabase, EventRow, MemoryRow, VectorLogRow, VectorPackRow } from './database';
import { eventsOf } from './lineage-read';
import { partitionOf } from '../storage/owner';
import { yieldToPage } from '../slices';
import { prepareSeals, snapshotRows } from './sealing';
import { partitionRange, readLog, toVectorInput, type LoggedRowInput } from './vector-log';

/**
 * Rows per snapshot chunk: each chunk is one `put`, structured-cloned in one task on the page's
 * thread, about 23 µs a row in Chromium (an 8-bit partition with its f32 copy, 256 dimensions):
 * at 8,192 rows that was one 180 ms stall when an import's snapshot was written, at 512 about
 * 12 ms. A load sends compute one call per chunk, all issued at once (vector-index.ts apply).
 */
export const PACK_CHUNK_ROWS = 512;

/** A partition as stored in packs: the snapshot's chunks, then the log to replay on top. */
export interface PackedPartition {
  /** The partition's current version (what the loaded state will reflect). */
  version: number;
  /** The snapshot's version (0 and no chunks when the partition has never been snapshotted). */
  base: number;
  chunks: IndexRows[];
  /** False when some chunk or logged row has no term ids (written before the lexical channel). */
  lexical: boolean;
  /** False when some snapshot chunk holds f32 vectors, not 8-bit codes (written before them, or by an f32 compute). */
  coded: boolean;
  /** The snapshot's active rows another embedder wrote (VectorPackRow `foreign`; none when there is no snapshot). */
  foreign: string[];
  /**
   * Log entries `base+1 … version`, in order; `foreign`: upserted ids another embedder wrote;
   * `chains`: as stored (VectorLogRow, for the record cache).
   */
  log: { version: number; upserts: IndexRows; removals: string[]; foreign: string[]; chains?: readonly string[] }[];
}

/** Columnar rows of `dim`-long vectors, term ids included (empty for a row without them). */
export function columnarRows(rows: readonly LoggedRowInput[], dim: number): IndexRows {
  const columns = emptyColumns(rows.length, dim);
  fillColumns(columns, rows, 0, rows.length, dim);
  return withTerms(columns);
}

/** {@link columnarRows} for many rows: PACK_CHUNK_ROWS at a time, with a yield to the page between. */
async function columnarRowsInSlices(rows: readonly LoggedRowInput[], dim: number): Promise<IndexRows> {
  const columns = emptyColumns(rows.length, dim);
  for (let start = 0; start < rows.length; start += PACK_CHUNK_ROWS) {
    if (start > 0) await yieldToPage();
    fillColumns(columns, rows, start, Math.min(rows.length, start + PACK_CHUNK_ROWS), dim);
  }
  return withTerms(columns);
}

type Columns = Omit<IndexRows, 'terms' | 'termOffsets'> & { termLists: (Uint32Array | readonly number[])[] };

function emptyColumns(n: number, dim: number): Columns {
  return {
    ids: new Array<string>(n),
    sessionIds: new Array<string>(n),
    termLists: new Array<Uint32Array | readonly number[]>(n),
    vectors: new Float32Array(n * dim),
    updatedAt: new Float64Array(n),
    halfLifeDays: new Float32Array(n),
    importance: new Float32Array(n),
    scopes: new Uint8Array(n),
  };
}

function fillColumns(columns: Columns, rows: readonly LoggedRowInput[], from: number, to: number, dim: number): void {
  // Plain loops over local arrays: this runs over every row of an import's commit (10,000) on the page's thread.
  const { ids, sessionIds, termLists, vectors, updatedAt, halfLifeDays, importance, scopes } = columns;
  for (let i = from; i < to; i++) {
    const row = rows[i]!;
    ids[i] = row.id;
    sessionIds[i] = row.sessionId;
    termLists[i] = row.terms ?? [];
    vectors.set(row.embedding, i * dim);
    updatedAt[i] = row.updatedAt;
    halfLifeDays[i] = row.halfLifeDays;
    importance[i] = row.importance;
    scopes[i] = SCOPE_CODE[row.scope];
  }
}

function withTerms({ termLists, ...columns }: Columns): IndexRows {
  return { ...columns, ...flattenTerms(termLists) };
}

/** Rows `[start, end)` of `rows` with their own buffers (a snapshot chunk). */
export function sliceRows(rows: IndexRows, start: number, end: number, dim: number): IndexRows {
  const { terms, termOffsets } = rows;
  const lexical = terms && termOffsets ? { terms: terms.slice(termOffsets[start]!, termOffsets[end]!), termOffsets: termOffsets.slice(start, end + 1).map((offset) => offset - termOffsets[start]!) } : {};
  return {
    ids: rows.ids.slice(start, end),
    vectors: rows.vectors.slice(start * dim, end * dim),
    updatedAt: rows.updatedAt.slice(start, end),
    halfLifeDays: rows.halfLifeDays.slice(start, end),
    importance: rows.importance.slice(start, end),
    scopes: rows.scopes.slice(start, end),
    sessionIds: rows.sessionIds.slice(start, end),
    ...lexical,
  };
}

/** What a scan read back from the store: its hits, and the records of those `owner` may see by id. */
export interface ScannedRead<Hit> {
  hits: Hit[];
  records: Map<string, MemoryRecord>;
}

/**
 * What a scan's answer needs from the store, in one read transaction whose first wave asks for
 * all of it at once: the scanned partitions' versions, the first `first` rows of `order` (the
 * hits; or an 8-bit scan's candidates, highest ceiling first: compute keeps no f32 copy) and
 * their event rows (history). `rank` gets the f32 vectors read so far and how many of `order`
 * were read; null asks for more (the next rows, doubling, in the same transaction). Then the
 * winners' full records through `hydrate`, in the same transaction, so a retrieve reads each
 * row once. 'stale' when a partition's version is not `versions`' (the scan ran on other rows
 * than the store now holds: catch up and scan again); null when `rank` could not prove it
 * from every row of `order` (scan again with more candidates). A row gone, tombstoned or
 * malformed since the scan is left out of the vectors.
 */
export async function readScanned<Hit extends { id: string }>(
  db: EngramDatabase,
  scanned: { keys: readonly string[]; versions: readonly number[] },
  { order, first }: { order: readonly { id: string; partition: string }[]; first: number },
  embedder: { id: string; dim: number },
  rank: (vectors: ReadonlyMap<string, Float32Array>, read: number) => Hit[] | null,
  hydrate: (rows: readonly MemoryRow[], events: ReadonlyMap<string, readonly EventRow[]>) => Promise<MemoryRecord[]>,
): Promise<ScannedRead<Hit> | 'stale' | null> {
  try {
    return await db.transaction('r', [db.partitions, db.memories, db.lineage, db.events], async () => {
      const vectors = new Map<string, Float32Array>();
      const byId = new Map<string, MemoryRow>();
      const events = new Map<string, EventRow[]>();
      const firstBatch = order.slice(0, first);
      const [partitions, firstRows] = await Promise.all([
        db.partitions.bulkGet([...scanned.keys]),
        db.memories.bulkGet(firstBatch.map(({ id }) => id)),
        // History is read beside the rows (a winner needs it): one wave, not two.
        ...firstBatch.map(({ id }) => eventsOf(db, id).then((rows) => void events.set(id, rows))),
      ]);
      if (partitions.some((row, i) => (row?.version ?? 0) !== scanned.versions[i])) return 'stale';
      for (let read = 0, upTo = first, rows = firstRows; ; ) {
        rows.forEach((row, i) => {
          if (!row) return;
          byId.set(row.id, row);
          if (isIndexable(row, order[read + i]!.partition, embedder.id, embedder.dim, () => {})) vectors.set(row.id, row.embedding);
        });
        read = upTo;
        const hits = rank(vectors, read);
        if (hits) {
          const records = await hydrate(
            hits.flatMap((hit) => (byId.has(hit.id) ? [byId.get(hit.id)!] : [])),
            events,
          );
          return { hits, records: new Map(records.map((record) => [record.id, record])) };
        }
        if (read >= order.length) return null;
        upTo = Math.min(order.length, Math.max(1, upTo) * 2);
        rows = await db.memories.bulkGet(order.slice(read, upTo).map(({ id }) => id));
      }
    });
  } catch (error) {
    throw toStorageError(error, 'reading the scanned rows');
  }
}

export function emptyRows(): IndexRows {
  return columnarRows([], 0);
}

/** Whether a stored row can go into the partition's matrix; rows that claim to but are malformed are reported. */
function isIndexable(row: MemoryRecord, key: string, embedderId: string, dim: number, quarantine: (id: string) => void, partitionOfRow: (row: MemoryRecord) => string = partitionOf): boolean {
  if (row.invalidatedAt !== undefined || row.embedderId !== embedderId) return false;
  const ok =
    typeof row.id === 'string' &&
    row.embedding instanceof Float32Array &&
    row.embedding.length === dim &&
    (row.scope === 'user' || row.scope === 'session' || row.scope === 'app') &&
    Number.isFinite(row.updatedAt) &&
    Number.isFinite(row.importance) &&
    row.halfLifeDays > 0 &&
    partitionOfRow(row) === key;
  if (!ok) quarantine(String(row.id));
  return ok;
}

/** partitionOf, remembering the last owner's key: a commit's rows are mostly one owner's, and the key is a JSON string built anew each call. */
function lastPartitionOf(): (row: MemoryRecord) => string {
  let last: { userId: string; appName: string; app: boolean; key: string } | undefined;
  return (row) => {
    const app = row.scope === 'app';
    if (last?.userId === row.userId && last.appName === row.appName && last.app === app) return last.key;
    last = { userId: row.userId, appName: row.appName, app, key: partitionOf(row) };
    return last.key;
  };
}

/** Columnar index rows from records; rows that are inactive, foreign to the partition or malformed are left out. */
export function recordRows(records: readonly MemoryRecord[], key: string, embedderId: string, dim: number, quarantine: (id: string) => void = () => {}): IndexRows {
  const partitionOfRow = lastPartitionOf();
  return columnarRows(records.filter((row) => isIndexable(row, key, embedderId, dim, quarantine, partitionOfRow)).map(toVectorInput), dim);
}

/**
 * {@link recordRows} of a commit's records (an import's 10,000 at once), built PACK_CHUNK_ROWS
 * at a time with a yield to the page between, so the rows of a large commit do not hold the
 * page's thread in one task (some 45 ms at 10,000 in Chromium). Only after the commit: nothing
 * it yields to can see a half-written transaction.
 */
export async function recordRowsInSlices(records: readonly MemoryRecord[], key: string, embedderId: string, dim: number): Promise<IndexRows> {
  if (records.length <= PACK_CHUNK_ROWS) return recordRows(records, key, embedderId, dim);
  const partitionOfRow = lastPartitionOf();
  const inputs: LoggedRowInput[] = [];
  for (let start = 0; start < records.length; start += PACK_CHUNK_ROWS) {
    if (start > 0) await yieldToPage();
    const end = Math.min(records.length, start + PACK_CHUNK_ROWS);
    for (let i = start; i < end; i++) if (isIndexable(records[i]!, key, embedderId, dim, () => {}, partitionOfRow)) inputs.push(toVectorInput(records[i]!));
  }
  await yieldToPage();
  return columnarRowsInSlices(inputs, dim);
}

/** Log inputs as index rows for `embedderId`; rows of another embedder or dimension become removals. */
export function logRows(entry: VectorLogRow, embedderId: string, dim: number): { upserts: IndexRows; removals: string[]; foreign: string[] } {
  const usable = (entry.upserts as LoggedRowInput[]).filter((row) => row.embedderId === embedderId && row.embedding.length === dim);
  const removals = [...entry.removals, ...entry.upserts.filter((row) => !usable.includes(row)).map((row) => row.id)];
  const foreign = entry.upserts.filter((row) => row.embedderId !== embedderId).map((row) => row.id);
  return { upserts: columnarRows(usable, dim), removals, foreign };
}

/** Whether `values` is a Float32Array of `n` finite values, none negative (a scale or a bound). */
function isBounds(values: unknown, n: number): boolean {
  if (!(values instanceof Float32Array) || values.length !== n) return false;
  for (let i = 0; i < n; i++) if (!(values[i]! >= 0 && values[i]! < Number.POSITIVE_INFINITY)) return false;
  return true;
}

/**
 * Whether the chunk's vectors are whole: f32 vectors, or 8-bit codes with their scales and
 * bounds (a bound damaged into NaN or a negative would make the scan's exactness proof lie, so
 * it is checked, not trusted), with or without the f32 vectors beside them (a partition small
 * enough for compute's f32 copy, matrix.ts, keeps it across a cold start). Whether compute takes codes of that layout and stride is its call.
 */
function vectorsFit(chunk: VectorPackRow, dim: number): boolean {
  const n = chunk.ids.length;
  if (!(chunk.vectors instanceof Float32Array)) return false;
  if (chunk.codes === undefined) return chunk.vectors.length === n * dim;
  const stride = chunk.codeStride;
  return (
    (chunk.vectors.length === 0 || chunk.vectors.length === n * dim) &&
    chunk.codes instanceof Int8Array &&
    typeof chunk.codeLayout === 'number' &&
    typeof stride === 'number' &&
    Number.isInteger(stride) &&
    stride >= dim &&
    stride % 16 === 0 &&
    chunk.codes.length === Math.ceil(n / 4) * 4 * stride &&
    isBounds(chunk.codeScales, n) &&
    isBounds(chunk.codeErrors, n) &&
    isBounds(chunk.codeNorms, n)
  );
}

/**
 * Whether the chunk's postings, if it has any, are the shape of its terms: ascending distinct
 * terms, entries of its own rows in order, and as many occurrences as `terms` holds (a damaged
 * posting would score rows differently from a rebuild, or leave the index out of step).
 */
function postingsFit(chunk: VectorPackRow): boolean {
  const { postingTerms: terms, postingStarts: starts, postingEntries: entries } = chunk;
  if (terms === undefined && starts === undefined && entries === undefined) return true;
  if (!(terms instanceof Uint32Array && starts instanceof Uint32Array && entries instanceof Uint32Array) || !chunk.terms) return false;
  const n = chunk.ids.length;
  if (n > 65_536 || starts.length !== terms.length + 1 || starts[0] !== 0 || starts[terms.length] !== entries.length) return false;
  let occurrences = 0;
  for (let t = 0; t < terms.length; t++) {
    if ((t > 0 && terms[t]! <= terms[t - 1]!) || starts[t + 1]! <= starts[t]!) return false;
    for (let j = starts[t]!, last = -1; j < starts[t + 1]!; j++) {
      const row = entries[j]! >>> 16;
      const count = entries[j]! & 0xffff;
      if (row >= n || row <= last || count === 0) return false;
      last = row;
      occurrences += count;
    }
  }
  return occurrences === chunk.terms.length;
}

/** Whether stored chunk `chunk` can be part `part` of `parts` beside `first` (the partition's part 0). */
function fits(chunk: VectorPackRow, part: number, parts: number, first: VectorPackRow, embedderId: string, dim: number): boolean {
  return (
    chunk.part === part &&
    chunk.parts === parts &&
    chunk.version === first.version &&
    chunk.embedderId === embedderId &&
    chunk.dim === dim &&
    vectorsFit(chunk, dim) &&
    postingsFit(chunk) &&
    chunk.updatedAt.length === chunk.ids.length &&
    ((chunk.terms === undefined && chunk.termOffsets === undefined) ||
      (chunk.terms instanceof Uint32Array && chunk.termOffsets instanceof Uint32Array && chunk.termOffsets.length === chunk.ids.length + 1 && chunk.termOffsets[chunk.ids.length] === chunk.terms.length))
  );
}

/** Whether every logged row carries term ids (false: written before the lexical channel). */
function logCarriesTerms(log: readonly VectorLogRow[]): boolean {
  return log.every((entry) => (entry.upserts as LoggedRowInput[]).every((row) => row.terms instanceof Uint32Array));
}

/**
 * A snapshot chunk as it is read, before the rest: part `part` of the snapshot, after which the
 * partition holds `rows` rows, its log's upserts included (exact when the chunks between the
 * first and the last are as long as the first, as the writer makes them; see {@link readPacked}).
 */
export type ChunkSink = (chunk: IndexRows, part: number, rows: number) => void;

/** Snapshot chunks asked for beyond the one being loaded: a few MB of rows at most in flight. */
const READ_AHEAD = 3;

/**
 * The snapshot's chunks after its last one (`last`, read first: it tells the snapshot's
 * version and the row count), each checked against part 0 and handed to `sink` as it is read
 * (kept in `chunks` without one), with `more` rows (the log's) counted in the reservation;
 * null when they are not one consistent snapshot.
 */

async function readChunks(
  db: EngramDatabase,
  key: string,
  { parts, last, more }: { parts: number; last: VectorPackRow | undefined; more: number },
  embedderId: string,
  dim: number,
  sink: ChunkSink | undefined,
): Promise<{ lexical: boolean; coded: boolean; chunks: IndexRows[] } | null> {
  const chunks: IndexRows[] = [];
  let first: VectorPackRow | undefined;
  let lexical = true;
  let coded = true;
  // Each chunk goes to compute as it arrives, with the next READ_AHEAD reads already asked for:
  // one read at a time left IndexedDB idle while a chunk was deserialised and sent, and paid
  // its round trip once per chunk (20 of them at 10,000 rows).
  const reads = new Map<number, Promise<VectorPackRow | undefined>>();
  const ask = (part: number) => {
    if (part >= parts - 1 || reads.has(part)) return;
    const read = db.vectorPacks.get([key, part]);
    // A read left behind by an early return must not surface as an unhandled rejection.
    read.catch(() => {});
    reads.set(part, read);
  };
  for (let part = 0; part < parts; part++) {
    for (let ahead = part; ahead <= part + READ_AHEAD; ahead++) ask(ahead);
    const chunk = part === parts - 1 ? last : await reads.get(part);
    reads.delete(part);
    if (!chunk || !fits(chunk, part, parts, (first ??= chunk), embedderId, dim)) return null;
    lexical &&= chunk.terms !== undefined;
    coded &&= chunk.codes !== undefined;
    const rows = (parts - 1) * first.ids.length + (last?.ids.length ?? 0) + more;
    if (sink) sink(chunkRows(chunk), part, rows);
    else chunks.push(chunkRows(chunk));
  }
  return { lexical, coded, chunks };
}

/** Inside a read transaction over partitions, vectorPacks, vectorLog: see {@link readPacked}. */
async function readPacks(db: EngramDatabase, key: string, embedderId: string, dim: number, from: number | null, sink: ChunkSink | undefined): Promise<PackedPartition | null> {
  const version = (await db.partitions.get(key))?.version ?? 0;
  const entriesOf = (log: readonly VectorLogRow[]) => log.map((entry) => ({ version: entry.version, ...logRows(entry, embedderId, dim), ...(Array.isArray(entry.chains) ? { chains: entry.chains } : {}) }));
  if (from !== null && from >= 0 && from <= version) {
    const log = await readLog(db, key, from, version);
    if (log) return { version, base: from, chunks: [], lexical: logCarriesTerms(log), coded: true, foreign: [], log: entriesOf(log) };
  }
  // The last chunk and the log before any chunk goes out: what the partition will hold is then
  // known (compute reserves it once), and a gap in the log sends nothing to compute at all.
  const [lower, upper] = partitionRange(key);
  const parts = (await db.vectorPacks.where('[partition+part]').between(lower, upper, true, true).primaryKeys()).length;
  const last = parts > 0 ? await db.vectorPacks.get([key, parts - 1]) : undefined;
  const base = last?.version ?? 0;
  if (base > version || (parts > 0 && !last)) return null;
  const log = await readLog(db, key, base, version);
  if (!log) return null;
  const entries = entriesOf(log);
  const more = entries.reduce((sum, entry) => sum + entry.upserts.ids.length, 0);
  const snapshot = await readChunks(db, key, { parts, last, more }, embedderId, dim, sink);
  if (!snapshot) return null;
  const foreign = Array.isArray(last?.foreign) ? last.foreign.filter((id) => typeof id === 'string') : [];
  return { version, base, lexical: snapshot.lexical && logCarriesTerms(log), coded: snapshot.coded, chunks: snapshot.chunks, foreign, log: entries };
}

/**
 * A partition from its packed vectors (snapshot chunks plus the log after them), or only the
 * log after `from` when compute already holds version `from` and that log is complete. Null
 * when the packs cannot produce the current version: load it from the records instead. With
 * `sink`, the snapshot's chunks go to it one by one as they are read (the result's `chunks`
 * stay empty), so compute loads one while the next is read; a null result may come after some
 * went, so what the sink built must not count as loaded until this resolves.
 */
export async function readPacked(db: EngramDatabase, key: string, embedderId: string, dim: number, from: number | null, sink?: ChunkSink): Promise<PackedPartition | null> {
  try {
    return await db.transaction('r', db.partitions, db.vectorPacks, db.vectorLog, () => readPacks(db, key, embedderId, dim, from, sink));
  } catch (error) {
    throw toStorageError(error, 'loading packed vectors');
  }
}

/**
 * The partition's active rows (by index: a long history's tombstones are never read) as compute
 * rows, the version they reflect, and the ids of active rows another embedder wrote (they
 * cannot be scanned with this one). Malformed rows are left out and passed to `quarantine`.
 */
export async function readRecordRows(db: EngramDatabase, key: string, embedder: { id: string; dim: number }, quarantine: (id: string) => void): Promise<{ version: number; rows: IndexRows; foreign: string[] }> {
  try {
    return await db.transaction('r', db.memories, db.partitions, async () => {
      const version = (await db.partitions.get(key))?.version ?? 0;
      const [kind, appName, userId] = JSON.parse(key) as [string, string, string?];
      // App-scope rows are the app's, under userId ''.
      const rows = await db.memories
        .where('[userId+appName+active]')
        .equals([kind === 'app' ? '' : userId!, appName, 1])
        .toArray();
      const foreign = rows.filter((row) => row.invalidatedAt === undefined && row.embedderId !== embedder.id).map((row) => row.id);
      return { version, rows: recordRows(rows, key, embedder.id, embedder.dim, quarantine), foreign };
    });
  } catch (error) {
    throw toStorageError(error, 'loading the vector index');
  }
}

/**
 * Replaces the partition's snapshot with `chunks` at `version` and drops the log up to it.
 * Skipped (false) when the partition has moved past `version`: the caller's copy is then not the latest.
 */
export async function writeSnapshot(db: EngramDatabase, key: string, embedder: { id: string; dim: number }, version: number, chunks: readonly IndexRows[], foreign: readonly string[] = []): Promise<boolean> {
  // Encrypted at rest: the chunks' vectors and terms are sealed before the transaction (sealing.ts).
  let release = () => {};
  try {
    release = await prepareSeals(db, () => snapshotRows(key, version, chunks));
    return await db.transaction('rw', db.partitions, db.vectorPacks, db.vectorLog, async () => {
      const current = (await db.partitions.get(key))?.version ?? 0;
      if (current !== version) return false;
      const [lower, upper] = partitionRange(key);
      await db.vectorPacks.where('[partition+part]').between(lower, upper, true, true).delete();
      // One put per chunk, awaited: each clone is serialised on the calling thread, so this keeps
      // every synchronous slice short (a 100k × 256 snapshot is ~100 MB).
      for (let part = 0; part < chunks.length; part++) {
        await db.vectorPacks.put({
          partition: key,
          part,
          parts: chunks.length,
          version,
          embedderId: embedder.id,
          dim: embedder.dim,
          ...storedColumns(chunks[part]!),
          ...(part === chunks.length - 1 && foreign.length > 0 ? { foreign: [...foreign] } : {}),
        });
      }
      await db.vectorLog.where('[partition+version]').between([key, -Infinity], [key, version], true, true).delete();
      return true;
    });
  } catch (error) {
    throw toStorageError(error, 'writing packed vectors');
  } finally {
    release();
  }
}
