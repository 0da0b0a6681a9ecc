/**
 * Lineage in IndexedDB (schema v4): the chain/depth model of storage/lineage.ts kept in side
 * tables, so a memory's row stays the same size however often it is corroborated or updated.
 * The row carries the scalar fields, its place on its chain and a summary of its sources (the
 * first of each source type: what a trust gate needs); the full lists live beside it:
 *
 * - `lineage`: one row per chain entry (a source a memory gained), keyed [memoryId+n].
 * - `events`: one row per history entry, keyed [memoryId+n].
 *
 * Revoking a source blanks the excerpt of every row of it for that owner ({@link redactSources}).
 * The hot path reads records in working form (lineage-read.ts toWorking), and the commit
 * appends only what a plan added to them (the writer says which records those are:
 * storage/lineage.ts `withLineage`). Everything a caller reads (get, list, history, export,
 * retrieve) is hydrated to the full record (lineage-read.ts hydrate).
 */
import { Dexie } from 'dexie';
import type { MemoryRecord, Source } from '../schema';
import { chainsToRead, createChain, metaOf, placeAlone, placeEach, sourceKey, type Chain, type CommitLineage, type Placed, type RowMeta, type Stored } from '../storage/lineage';
import type { EngramDatabase } from './database';
import type { EventRow, LineageRow, MemoryRow } from './rows';
import { factHash } from '../text';
import { SLICE_MS, sliceAnew, sliceElapsed } from '../slices';

export { metaOf, sourceKey };

/** A row read back: the parsed record (summary sources, or full lists when inline) and its meta. */
export interface ParsedRow {
  record: MemoryRecord;
  meta: RowMeta | undefined;
}

/** The rows one record is stored as. */
export interface RecordRows {
  memory: MemoryRow;
  lineage: LineageRow[];
  events: EventRow[];
}

/**
 * The rows of a placed record: the one description of them. The commit writes these, and
 * sealing prepares what they hold from the same function ({@link widestRows}), so a field
 * added here is sealed or refused, never written in clear. Every tombstone written is
 * stamped `changed` (see MemoryRow).
 */
export function rowsOf(placed: Placed, changed: number): RecordRows {
  const { record, chain, depth, excluded, firstSource, fresh, summary, sourceTotal, firstEvent } = placed;
  const owner = { userId: record.userId, appName: record.appName };
  const memory: MemoryRow = {
    ...record,
    sources: summary,
    history: [],
    active: record.invalidatedAt === undefined ? 1 : 0,
    fact: factHash(record.topic, record.content),
    chain,
    depth,
    ...(excluded ? { excluded } : {}),
    sourceCount: firstSource + fresh.length,
    ...(sourceTotal !== undefined ? { sourceTotal } : {}),
    historyCount: firstEvent + record.history.length,
    // Tombstones only: an active row is rewritten at every corroboration, and each rewrite
    // would leave a stale entry in the index (see active-set.ts).
    ...(record.invalidatedAt !== undefined ? { changed } : {}),
  };
  return {
    memory,
    lineage: fresh.map((source, j) => ({ memoryId: record.id, n: firstSource + j, chain, depth, ...owner, sourceId: source.id, source })),
    events: record.history.map((entry, j) => ({ memoryId: record.id, n: firstEvent + j, ...owner, entry })),
  };
}

/**
 * Every row a commit of `record` can write, with every value it can hold: its rows as if
 * nothing of it were stored, and a summary of all its sources (a placed row's summary is
 * drawn from them). What sealing prepares before the commit's transaction.
 */
export function widestRows(record: MemoryRecord): RecordRows {
  return rowsOf({ ...placeAlone(record), fresh: [...record.sources], summary: [...record.sources] }, 0);
}

/** Past this many chains or memories, their rows are read in one pass over their owners' rows, not one query each. */
const FEW_CHAINS = 32;

/** The owners of `records`, as `[userId, appName]` keys. */
function ownersOf(records: readonly { userId: string; appName: string }[]): [string, string][] {
  return [...new Map(records.map((record) => [JSON.stringify([record.userId, record.appName]), [record.userId, record.appName] as [string, string]])).values()];
}

/** The lineage rows of each chain in `needed` (chains of `records`' owners). */
async function lineageOfChains(db: EngramDatabase, needed: ReadonlySet<string>, records: readonly MemoryRecord[]): Promise<LineageRow[]> {
  if (needed.size <= FEW_CHAINS) {
    return (await Promise.all([...needed].map((chain) => db.lineage.where('[chain+depth]').between([chain, 0], [chain, Dexie.maxKey], true, true).toArray()))).flat();
  }
  const rows: LineageRow[] = [];
  for (const [userId, appName] of ownersOf(records)) {
    const own = await db.lineage.where('[userId+appName+sourceId]').between([userId, appName, Dexie.minKey], [userId, appName, Dexie.maxKey], true, true).toArray();
    rows.push(...own.filter((row) => needed.has(row.chain)));
  }
  return rows;
}

/**
 * The stored chain entries placing `records` needs (storage/lineage.ts `chainsToRead`): whole
 * chains for complete records, the rows of the sources being written for working-form ones.
 */
async function readChains(db: EngramDatabase, wanted: ReturnType<typeof chainsToRead>, records: readonly MemoryRecord[]): Promise<Map<string, Chain>> {
  const bySource = [...wanted.bySource].flatMap(([chain, ids]) => [...ids].map((id) => [chain, id] as const));
  const [whole, some] = await Promise.all([
    lineageOfChains(db, wanted.all, records),
    Promise.all(
      bySource.map((key) =>
        db.lineage
          .where('[chain+sourceId]')
          .equals([...key])
          .toArray(),
      ),
    ),
  ]);
  const rows = new Map([...whole, ...some.flat()].map((row) => [JSON.stringify([row.memoryId, row.n]), row]));
  const ordered = [...rows.values()].sort((a, b) => a.depth - b.depth || a.n - b.n);
  const chains = new Map<string, Chain>();
  for (const row of ordered) {
    const chain = chains.get(row.chain) ?? createChain();
    chains.set(row.chain, chain);
    // Keys only (type and id stay in clear): inside a read-write transaction excerpts may be sealed.
    chain.add(row.depth, row.source);
  }
  return chains;
}

/** Deletes the event rows of the memories `ids` (of `records`' owners). */
async function deleteEvents(db: EngramDatabase, ids: readonly string[], records: readonly MemoryRecord[]): Promise<void> {
  if (ids.length <= FEW_CHAINS) {
    for (const id of ids) await db.events.where('[memoryId+n]').between([id, 0], [id, Dexie.maxKey], true, true).delete();
    return;
  }
  const doomed = new Set(ids);
  for (const [userId, appName] of ownersOf(records)) {
    const keys = (await db.events.where('[userId+appName]').equals([userId, appName]).primaryKeys()) as unknown as [string, number][];
    const mine = keys.filter(([memoryId]) => doomed.has(memoryId));
    if (mine.length) await db.events.bulkDelete(mine);
  }
}

/** What the store holds of a record: its row's place and the keys of its summary (clear fields: they read the same sealed or not). */
function storedOf(row: MemoryRow | undefined): Stored {
  if (row === undefined) return { meta: undefined, summaryKeys: new Set() };
  return { meta: metaOf(row), summaryKeys: new Set(Array.isArray(row.sources) ? row.sources.map(sourceKey) : []) };
}

/** Records whose rows are built and put at a time (writeRecords). */
export const WRITE_BATCH = 512;

/** Records placed between two looks at the clock (performance.now is not free at this rate). */
const PLACE_CHECK = 32;

/**
 * Inside the commit transaction: writes `records` as rows plus their new lineage and event
 * rows, placed by storage/lineage.ts `placeRecords`: a record `lineage` names as working form
 * appends what the plan added; any other is taken as complete (its sources and history are the
 * full lists) and keeps its place in its chain. Resolves to the rows written.
 *
 * A commit of thousands of records (an import of 10,000 memories: ~150 ms of placing and row
 * building) does not hold the page in one task: placing pauses once the task's sliced work
 * (slices.ts `sliceElapsed`, shared with the request slices) reaches `sliceMs`, on a read of
 * its own (a task boundary; the transaction stays active, as it holds a request), and the rows
 * are built and put WRITE_BATCH records at a time, each batch's puts awaited before the next
 * is built. The rows written are the same, in the same transaction.
 */
export async function writeRecords(
  db: EngramDatabase,
  records: readonly MemoryRecord[],
  changed: number,
  lineage: CommitLineage,
  /** The stored rows of `records`, by position, when the caller has read them already. */
  existing?: readonly (MemoryRow | undefined)[],
  /** The task's sliced work before a pause, and records a batch: tests pass 0 (a pause at every look at the clock) and Infinity (one go). */
  { sliceMs = SLICE_MS, batch: batchSize = WRITE_BATCH }: { sliceMs?: number; batch?: number } = {},
): Promise<MemoryRow[]> {
  if (records.length === 0) return [];
  const rows = existing ?? (await db.memories.bulkGet(records.map((record) => record.id)));
  const stored = rows.map(storedOf);
  const chains = await readChains(db, chainsToRead({ records, stored, lineage }), records);
  const placed: Placed[] = [];
  let count = 0;
  // Counted from here (the reads above ended in a task of their own) with the task's other sliced work.
  sliceElapsed();
  for (const [i, place] of placeEach({ records, stored, lineage, chains })) {
    placed[i] = place;
    if (++count % PLACE_CHECK === 0 && count < records.length && sliceElapsed() >= sliceMs) {
      // Any request in the transaction's scope is a pause that keeps it active; this key is never an id.
      await db.memories.get('');
      sliceAnew();
    }
  }
  await deleteEvents(
    db,
    placed.filter((place) => place.rewriteHistory).map((place) => place.record.id),
    records,
  );
  // A record that keeps its first stored entries: the ones after them go (its own are written below).
  for (const { record, dropEventsFrom } of placed) if (dropEventsFrom !== undefined) await db.events.where('[memoryId+n]').between([record.id, dropEventsFrom], [record.id, Dexie.maxKey], true, true).delete();
  const written: MemoryRow[] = [];
  for (let at = 0; at < placed.length; at += batchSize) {
    const batch = placed.slice(at, at + batchSize).map((place) => rowsOf(place, changed));
    const lineageRows = batch.flatMap((rows) => rows.lineage);
    const events = batch.flatMap((rows) => rows.events);
    await Promise.all([db.memories.bulkPut(batch.map(({ memory }) => memory)), lineageRows.length ? db.lineage.bulkPut(lineageRows) : null, events.length ? db.events.bulkPut(events) : null]);
    for (const { memory } of batch) written.push(memory);
  }
  return written;
}

/** Past this many sources, their lineage rows are found in one range read of the owner's rows, not one query each. */
const FEW_SOURCES = 8;

/** The owner's lineage rows of the sources `sourceIds`. */
async function lineageOf(db: EngramDatabase, owner: { userId: string; appName: string }, sourceIds: readonly string[]): Promise<LineageRow[]> {
  const index = db.lineage.where('[userId+appName+sourceId]');
  if (sourceIds.length <= FEW_SOURCES) return (await Promise.all(sourceIds.map((id) => index.equals([owner.userId, owner.appName, id]).toArray()))).flat();
  const wanted = new Set(sourceIds);
  const rows = await index.between([owner.userId, owner.appName, Dexie.minKey], [owner.userId, owner.appName, Dexie.maxKey], true, true).toArray();
  return rows.filter((row) => wanted.has(row.sourceId));
}

/**
 * Inside the commit transaction: blanks the excerpt of every lineage row of the sources for the
 * owner that `blanks` picks (all of them for a revocation, those quoting a forgotten span for a
 * forget), and in the summaries of every memory that carries one (later memories of a chain
 * inherit the summary).
 */
export async function redactSources(db: EngramDatabase, owner: { userId: string; appName: string }, sourceIds: readonly string[], blanks: (source: Source, memoryId: string) => boolean = () => true): Promise<void> {
  const revoked = new Set(sourceIds);
  const goes = (source: Source, memoryId: string) => revoked.has(source.id) && source.excerpt !== '' && blanks(source, memoryId);
  const rows = await lineageOf(db, owner, sourceIds);
  const blanked = rows.filter((row) => goes(row.source, row.memoryId)).map((row) => ({ ...row, source: { ...row.source, excerpt: '' } }));
  if (blanked.length) await db.lineage.bulkPut(blanked);
  const quoting = (await memoriesOfLineage(db, rows)).filter((row) => row.sources.some((source) => goes(source, row.id)));
  const redacted = quoting.map((row) => ({ ...row, sources: row.sources.map((source) => (goes(source, row.id) ? { ...source, excerpt: '' } : source)) }));
  if (redacted.length) await db.memories.bulkPut(redacted);
}

/** The key of one source of one memory, as {@link quotingSources} names it: clear fields only, so it reads the same on a sealed row. */
export function sourceSlot(memoryId: string, source: Source): string {
  return JSON.stringify([memoryId, source.type, source.id, source.at]);
}

/**
 * Before a commit's transaction, with sealed values opened: the sources ({@link sourceSlot}) of
 * the owner's records with one of `sourceIds` whose excerpt is one of `excerpts`, as
 * {@link redactSources} reads them. Inside the transaction a sealed excerpt cannot be compared
 * with text (nothing can be decrypted there), its slot can; the commit's version check fails it
 * if any of these rows changed in between.
 */
export async function quotingSources(db: EngramDatabase, owner: { userId: string; appName: string }, sourceIds: readonly string[], excerpts: readonly string[]): Promise<Set<string>> {
  const wanted = new Set(excerpts);
  const revoked = new Set(sourceIds);
  const quotes = (source: Source) => revoked.has(source.id) && source.excerpt !== '' && wanted.has(source.excerpt);
  const rows = await lineageOf(db, owner, sourceIds);
  const slots = new Set(rows.filter((row) => quotes(row.source)).map((row) => sourceSlot(row.memoryId, row.source)));
  for (const row of await memoriesOfLineage(db, rows)) for (const source of row.sources) if (quotes(source)) slots.add(sourceSlot(row.id, source));
  return slots;
}

/** The owner's memories whose sources include one of `sourceIds`: rows that added it and every later memory of their chains. */
export async function memoriesWithSource(db: EngramDatabase, owner: { userId: string; appName: string }, sourceIds: readonly string[]): Promise<MemoryRow[]> {
  return memoriesOfLineage(db, await lineageOf(db, owner, sourceIds));
}

/**
 * Whether one of the sources is the first source a memory gained of its own (`n` 0: the write
 * that created it, or an UPDATE's new version, which inherits the rest), read by the sources'
 * lineage rows alone. A corroboration appends a source after the first (RecordStore.createdBy).
 */
export async function createdBySources(db: EngramDatabase, owner: { userId: string; appName: string }, sourceIds: readonly string[]): Promise<boolean> {
  return (await lineageOf(db, owner, sourceIds)).some((row) => row.n === 0);
}

/** The memories lineage `rows` reach: the memory each row belongs to and every later memory of its chain. */
async function memoriesOfLineage(db: EngramDatabase, rows: readonly LineageRow[]): Promise<MemoryRow[]> {
  const from = new Map<string, number>();
  for (const row of rows) from.set(row.chain, Math.min(from.get(row.chain) ?? Infinity, row.depth));
  if (from.size > FEW_CHAINS) {
    // A chain's memories all belong to the owner of its lineage rows (user and session scope).
    const owners = [...new Map(rows.map((row) => [JSON.stringify([row.userId, row.appName]), [row.userId, row.appName] as const])).values()];
    const keys = owners.flatMap(([userId, appName]) => (['user', 'session'] as const).map((scope) => [userId, appName, scope]));
    const all = (await Promise.all(keys.map((key) => db.memories.where('[userId+appName+scope]').equals(key).toArray()))).flat();
    return all.filter((row) => row.chain !== undefined && row.depth !== undefined && from.has(row.chain) && row.depth >= from.get(row.chain)!);
  }
  const found = await Promise.all([...from].map(([chain, depth]) => db.memories.where('[chain+depth]').between([chain, depth], [chain, Dexie.maxKey], true, true).toArray()));
  return found.flat();
}
