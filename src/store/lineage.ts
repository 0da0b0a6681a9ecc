/**
 * Lineage kept compactly (schema v4), so a memory's row stays the same size however often it
 * is corroborated or updated. The row carries the scalar fields and a summary of its sources
 * (the first of each source type: what a trust gate needs); the full lists live beside it:
 *
 * - `lineage`: one row per source a memory gained, keyed [memoryId+n]. An UPDATE's memory
 *   inherits its predecessor's sources by reference: it joins the predecessor's chain one
 *   level deeper and adds rows only for what is new, so an UPDATE costs O(1), not O(sources).
 * - `events`: one row per history entry, keyed [memoryId+n].
 *
 * Rules this code keeps: a tombstone is never updated again, so a chain is a line and the
 * sources of the chain's memory at depth d are exactly the chain's rows of depth ≤ d, in
 * (depth, n) order, less its exclusions. A source (type and id) gets at most one row per chain
 * at depths a memory does not exclude. Revoking a source blanks the excerpt of every row of it
 * for that owner ({@link redactSource}).
 * - Exclusions: a memory forgetSource rebuilds from the one it replaces usually has that one's
 *   sources less the revoked one. It joins the old memory's chain one level deeper (like an
 *   UPDATE) and lists the sources it does not have as `[key, depth]`: rows of that key at that
 *   depth or above are not its. So a rebuild writes O(new sources) rows, not all of them again.
 *   Deeper memories of the chain inherit the list; a source gained again gets a row of its own
 *   below the excluded depth.
 *
 * The hot path reads records in *working form* ({@link toWorking}): the summary plus the rows
 * of the source being written (so "already backed by this source" is answered exactly), and
 * no history. Commit appends only what a plan added to them. Everything a caller reads
 * (get, list, history, export, retrieve) is hydrated to the full record ({@link hydrate}).
 */
import { Dexie } from 'dexie';
import type { MemoryRecord, Source } from '../schema';
import { sourceKey, summarize } from '../storage/working-form';
import type { EngramDatabase, EventRow, LineageRow, MemoryRow } from './database';
import { factHash } from '../text';

/** Lineage fields of a stored row; absent on a row that holds its lists inline. */
export interface RowMeta {
  chain: string;
  depth: number;
  sourceCount: number;
  historyCount: number;
  /** All of its sources, inherited ones included (absent on rows written before it was kept). */
  sourceTotal?: number;
  /** Sources of its chain it does not have: rows of `key` at depth ≤ the depth given (see above). */
  excluded?: Exclusions;
}

/** `[sourceKey, depth]` pairs, sorted by key. */
export type Exclusions = readonly (readonly [string, number])[];

/** Whether a chain row of `key` at `depth` is excluded from the memory with these exclusions. */
export function isExcluded(excluded: Exclusions | undefined, key: string, depth: number): boolean {
  return excluded?.some(([k, upTo]) => k === key && depth <= upTo) ?? false;
}

/** `excluded` plus `keys` at `depth` (the deeper bound kept per key). */
function excludeMore(excluded: Exclusions | undefined, keys: readonly string[], depth: number): Exclusions | undefined {
  if (keys.length === 0) return excluded;
  const out = new Map(excluded ?? []);
  for (const key of keys) out.set(key, Math.max(out.get(key) ?? -1, depth));
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A row read back: the parsed record (summary sources, or full lists when inline) and its meta. */
export interface ParsedRow {
  record: MemoryRecord;
  meta: RowMeta | undefined;
}

/** Where a record handed out in working form sits, and which of its sources are stored. */
export interface Base extends RowMeta {
  known: ReadonlySet<string>;
  summary: readonly Source[];
}

/**
 * What the writer tells the commit about the records it planned over: consolidation hands back
 * the working-form records the store gave it, and forgetSource the complete records it read
 * (erasureSet), so a memory it rebuilt can join the chain of the one it replaces.
 */
export interface WorkingHints {
  /** The records as the store handed them out (working form, or complete), by id. */
  loaded: ReadonlyMap<string, MemoryRecord>;
  /** New memory id → the id of the loaded memory it supersedes (an UPDATE, or a rebuild): it inherits its sources. */
  inherits: ReadonlyMap<string, string>;
}

const bases = new WeakMap<MemoryRecord, Base>();
/** Where each complete record the store handed out (lineage-read.ts hydrate) sits. */
const places = new WeakMap<MemoryRecord, RowMeta>();

/** Records where a complete record the store handed out sits, so a rebuild of it can join its chain. */
export function rememberPlace(record: MemoryRecord, meta: RowMeta): void {
  places.set(record, meta);
}

/** Records `working` (handed out in working form, lineage-read.ts) with where it sits and what of it is stored. */
export function rememberBase(working: MemoryRecord, base: Base): void {
  bases.set(working, base);
}

// The working form's rules live with the contract; the store keeps its rows by them.
export { sourceKey, summarize };

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The lineage fields of a raw row: undefined for an inline row, null when they are corrupt. */
export function metaOf(row: unknown): RowMeta | undefined | null {
  const raw = row as Partial<Record<keyof RowMeta, unknown>>;
  if (raw.chain === undefined) return undefined;
  if (typeof raw.chain !== 'string' || !isCount(raw.depth) || !isCount(raw.sourceCount) || !isCount(raw.historyCount)) return null;
  const meta: RowMeta = { chain: raw.chain, depth: raw.depth, sourceCount: raw.sourceCount, historyCount: raw.historyCount };
  if (isCount(raw.sourceTotal)) meta.sourceTotal = raw.sourceTotal;
  if (raw.excluded !== undefined) {
    const valid = Array.isArray(raw.excluded) && raw.excluded.every((entry: unknown) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && isCount(entry[1]));
    if (!valid) return null;
    meta.excluded = raw.excluded as Exclusions;
  }
  return meta;
}

/** Where a record goes in the side tables, and what of it is already there. */
interface Placement extends RowMeta {
  /** Keys of the record's sources already stored; 'all' when every one of them is. */
  known: ReadonlySet<string> | 'all';
  /** The summary so far (working and inherited form); empty when the full sources are given. */
  summary: readonly Source[] | null;
  /** Full form: the record's history replaces the stored one. Else its entries are appended. */
  rewriteHistory: boolean;
}

/**
 * A complete record whose stored row has as many sources as it carries: sources are only ever
 * appended (and a read hands them out once each), so they are the same ones.
 */
function sameSourcesAsStored(record: MemoryRecord, meta: RowMeta): boolean {
  return meta.sourceTotal === record.sources.length;
}

/** Synchronous on purpose: inside the commit transaction, awaiting anything but IndexedDB could let it commit early. */
function placementOf(
  record: MemoryRecord,
  existing: MemoryRow | undefined,
  hints: WorkingHints | undefined,
  chainKeys: (meta: RowMeta) => Set<string>,
  /** Where the working-form records this commit placed before it now sit, by id. */
  written: ReadonlyMap<string, Base>,
): Placement {
  const loaded = hints?.loaded.get(record.id);
  const base = loaded && bases.get(loaded);
  if (base) return { ...base, rewriteHistory: false };
  const parentId = hints?.inherits.get(record.id);
  const parent = parentId === undefined ? undefined : hints?.loaded.get(parentId);
  // The parent as this commit leaves it: it may have been created in this very commit (one
  // message that updates a topic twice), or have gained a source before it was superseded.
  const parentBase = (parentId === undefined ? undefined : written.get(parentId)) ?? (parent && bases.get(parent));
  if (parentBase) {
    const inherited = { chain: parentBase.chain, depth: parentBase.depth + 1, sourceCount: 0, historyCount: 0, ...(parentBase.excluded ? { excluded: parentBase.excluded } : {}) };
    return { ...inherited, ...(parentBase.sourceTotal !== undefined ? { sourceTotal: parentBase.sourceTotal } : {}), known: parentBase.known, summary: parentBase.summary, rewriteHistory: false };
  }
  const parentPlace = parent && places.get(parent);
  const joined = parentPlace && joinChain(record, parent, parentPlace);
  if (joined) return joined;
  const meta = existing ? metaOf(existing) : undefined;
  // Sources are only ever appended: a complete record with as many as are stored has exactly
  // the stored ones, and the chain need not be read to find what is new.
  if (meta) return { ...meta, known: sameSourcesAsStored(record, meta) ? 'all' : chainKeys(meta), summary: null, rewriteHistory: true };
  return { chain: record.id, depth: 0, sourceCount: 0, historyCount: 0, sourceTotal: 0, known: new Set(), summary: null, rewriteHistory: true };
}

const sameSource = (a: Source, b: Source) => a.type === b.type && a.id === b.id && a.excerpt === b.excerpt && a.at === b.at;

/**
 * A complete record rebuilt from `parent` (a complete record the store handed out) joins its
 * chain one level deeper when its sources are the parent's, in order, less some, then new ones:
 * it excludes what it lacks and stores only the new ones. Null when they are not.
 */
function joinChain(record: MemoryRecord, parent: MemoryRecord, meta: RowMeta): Placement | null {
  const own = new Set(record.sources.map(sourceKey));
  const kept = parent.sources.filter((source) => own.has(sourceKey(source)));
  if (!kept.every((source, i) => sameSource(source, record.sources[i]!))) return null;
  const inherited = new Set(parent.sources.map(sourceKey));
  if (record.sources.slice(kept.length).some((source) => inherited.has(sourceKey(source)))) return null;
  const lacking = parent.sources.map(sourceKey).filter((key) => !own.has(key));
  const excluded = excludeMore(meta.excluded, lacking, meta.depth);
  return {
    chain: meta.chain,
    depth: meta.depth + 1,
    sourceCount: 0,
    historyCount: 0,
    ...(excluded ? { excluded } : {}),
    known: new Set(kept.map(sourceKey)),
    summary: null,
    rewriteHistory: true,
  };
}

/** Past this many chains or memories, their rows are read in one pass over their owners' rows, not one query each. */
const FEW_CHAINS = 32;

/** The owners of `records`, as `[userId, appName]` keys. */
function ownersOf(records: readonly { userId: string; appName: string }[]): [string, string][] {
  return [...new Map(records.map((record) => [JSON.stringify([record.userId, record.appName]), [record.userId, record.appName] as [string, string]])).values()];
}

/** The lineage rows of each chain in `needed` (chains of `records`' owners). */
async function lineageOfChains(db: EngramDatabase, needed: ReadonlySet<string>, records: readonly MemoryRecord[]): Promise<Map<string, LineageRow[]>> {
  if (needed.size <= FEW_CHAINS) {
    const read = await Promise.all([...needed].map((chain) => db.lineage.where('[chain+depth]').between([chain, 0], [chain, Dexie.maxKey], true, true).toArray()));
    return new Map([...needed].map((chain, i) => [chain, read[i]!]));
  }
  const chains = new Map([...needed].map((chain) => [chain, [] as LineageRow[]]));
  for (const [userId, appName] of ownersOf(records)) {
    const rows = await db.lineage.where('[userId+appName+sourceId]').between([userId, appName, Dexie.minKey], [userId, appName, Dexie.maxKey], true, true).toArray();
    for (const row of rows) chains.get(row.chain)?.push(row);
  }
  // The index order is by source: put each chain's rows in the order its own index gives them.
  for (const list of chains.values()) list.sort((a, b) => a.depth - b.depth || (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : a.n - b.n));
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

/**
 * Positions of `records` with every record after the one it inherits from (`hints.inherits`)
 * when both are in this commit, so a successor is placed from where its parent now sits.
 */
function parentsFirst(records: readonly MemoryRecord[], hints: WorkingHints | undefined): number[] {
  const index = new Map(records.map((record, i) => [record.id, i]));
  const order: number[] = [];
  const seen = new Set<number>();
  const visit = (i: number): void => {
    if (seen.has(i)) return;
    seen.add(i);
    const parent = index.get(hints?.inherits.get(records[i]!.id) ?? '');
    if (parent !== undefined) visit(parent);
    order.push(i);
  };
  records.forEach((_, i) => visit(i));
  return order;
}

/**
 * Inside the commit transaction: writes `records` as rows plus their new lineage and event
 * rows. A record the store handed out in working form (or an UPDATE of one, see `hints`)
 * appends what the plan added; any other record is taken as complete (its sources and
 * history are the full lists) and stored as such, keeping its place in its chain. Every
 * tombstone written is stamped `changed` (see MemoryRow). Resolves to the rows written.
 */
export async function writeRecords(
  db: EngramDatabase,
  records: readonly MemoryRecord[],
  changed: number,
  hints?: WorkingHints,
  /** The stored rows of `records`, by position, when the caller has read them already. */
  stored?: readonly (MemoryRow | undefined)[],
): Promise<MemoryRow[]> {
  if (records.length === 0) return [];
  const existing = stored ?? (await db.memories.bulkGet(records.map((record) => record.id)));
  // The chains whose stored sources a complete record must be compared with, read up front.
  const needed = new Set<string>();
  records.forEach((record, i) => {
    const meta = existing[i] ? metaOf(existing[i]) : undefined;
    // A working-form record knows what of it is stored; a complete one (even one in `hints`,
    // as an erasure's are) is compared with its chain.
    const loaded = hints?.loaded.get(record.id);
    if (meta && !(loaded && bases.has(loaded)) && !sameSourcesAsStored(record, meta)) needed.add(meta.chain);
  });
  const chains = await lineageOfChains(db, needed, records);
  const chainKeys = ({ chain, depth, excluded }: RowMeta) =>
    new Set((chains.get(chain) ?? []).filter((row) => row.depth <= depth && !isExcluded(excluded, sourceKey(row.source), row.depth)).map((row) => sourceKey(row.source)));
  const rows: MemoryRow[] = [];
  const lineage: LineageRow[] = [];
  const events: EventRow[] = [];
  const rewritten: string[] = [];
  const written = new Map<string, Base>();
  for (const i of parentsFirst(records, hints)) {
    const record = records[i]!;
    const place = placementOf(record, existing[i], hints, chainKeys, written);
    const fresh: Source[] = [];
    let total = record.sources.length;
    // What is stored of it after this commit (a working-form record's `known` is never 'all').
    const keys = new Set(place.known === 'all' ? [] : place.known);
    if (place.known !== 'all') {
      for (const source of record.sources) if (!keys.has(sourceKey(source))) (keys.add(sourceKey(source)), fresh.push(source));
      total = keys.size;
    }
    const owner = { userId: record.userId, appName: record.appName };
    fresh.forEach((source, j) =>
      lineage.push({ memoryId: record.id, n: place.sourceCount + j, chain: place.chain, depth: place.depth, ...owner, sourceId: source.id, source }),
    );
    if (place.rewriteHistory) rewritten.push(record.id);
    const firstEvent = place.rewriteHistory ? 0 : place.historyCount;
    record.history.forEach((entry, j) => events.push({ memoryId: record.id, n: firstEvent + j, ...owner, entry }));
    const row: MemoryRow = {
      ...record,
      sources: place.summary ? summarize([...place.summary, ...fresh]) : summarize(record.sources),
      history: [],
      active: record.invalidatedAt === undefined ? 1 : 0,
      fact: factHash(record.topic, record.content),
      chain: place.chain,
      depth: place.depth,
      ...(place.excluded ? { excluded: place.excluded } : {}),
      sourceCount: place.sourceCount + fresh.length,
      // Complete form: `known` held every stored source. Working form: what was stored, plus the new ones.
      ...(place.summary === null ? { sourceTotal: total } : place.sourceTotal !== undefined ? { sourceTotal: place.sourceTotal + fresh.length } : {}),
      historyCount: firstEvent + record.history.length,
      // Tombstones only: an active row is rewritten at every corroboration, and each rewrite
      // would leave a stale entry in the index (see active-set.ts).
      ...(record.invalidatedAt !== undefined ? { changed } : {}),
    };
    rows[i] = row;
    // A working-form record's successor in this commit inherits from it by reference, as from a loaded one.
    if (place.summary !== null) written.set(record.id, { ...metaOf(row)!, known: keys, summary: row.sources });
  }
  await deleteEvents(db, rewritten, records);
  await db.memories.bulkPut(rows);
  if (lineage.length) await db.lineage.bulkPut(lineage);
  if (events.length) await db.events.bulkPut(events);
  return rows;
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
 * owner, and in the summaries of every memory that carries one (later memories of a chain
 * inherit the summary).
 */
export async function redactSources(db: EngramDatabase, owner: { userId: string; appName: string }, sourceIds: readonly string[]): Promise<void> {
  const revoked = new Set(sourceIds);
  const rows = await lineageOf(db, owner, sourceIds);
  const blanked = rows.filter((row) => row.source.excerpt !== '').map((row) => ({ ...row, source: { ...row.source, excerpt: '' } }));
  if (blanked.length) await db.lineage.bulkPut(blanked);
  const quoting = (await memoriesOfLineage(db, rows)).filter((row) => row.sources.some((source) => revoked.has(source.id) && source.excerpt !== ''));
  const redacted = quoting.map((row) => ({ ...row, sources: row.sources.map((source) => (revoked.has(source.id) ? { ...source, excerpt: '' } : source)) }));
  if (redacted.length) await db.memories.bulkPut(redacted);
}

/** The owner's memories whose sources include one of `sourceIds`: rows that added it and every later memory of their chains. */
export async function memoriesWithSource(db: EngramDatabase, owner: { userId: string; appName: string }, sourceIds: readonly string[]): Promise<MemoryRow[]> {
  return memoriesOfLineage(db, await lineageOf(db, owner, sourceIds));
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
