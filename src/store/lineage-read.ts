/**
 * Reading lineage back (see lineage.ts for the layout and its rules): working form for the hot
 * path, full records for everything a caller sees, and records as they were at a checkpoint.
 */
import { Dexie } from 'dexie';
import { HistoryEntry, Source, type MemoryRecord } from '../schema';
import { createChain, sourceKey, type Chain } from '../storage/lineage';
import type { EngramDatabase } from './database';
import type { ParsedRow } from './lineage';
import type { EventRow, LineageRow } from './rows';

function byDepthThenN(a: LineageRow, b: LineageRow): number {
  return a.depth - b.depth || a.n - b.n;
}

/** A row's source, parsed; null when it is corrupt (or filed under another id). */
function sourceOf(row: LineageRow): Source | null {
  const source = Source.safeParse(row.source);
  return source.success && row.sourceId === source.data.id ? source.data : null;
}

/** The chain of `rows` (one chain's, any order), their valid sources only. */
function chainOf(rows: readonly LineageRow[]): Chain {
  return readChain(rows).chain;
}

/** The chain of `rows` and the depth of its first corrupt row (Infinity when none): every memory from there down is unreadable. */
function readChain(rows: readonly LineageRow[]): { chain: Chain; brokenFrom: number } {
  const chain = createChain();
  let brokenFrom = Infinity;
  for (const row of [...rows].sort(byDepthThenN)) {
    const source = sourceOf(row);
    if (source) chain.add(row.depth, source);
    else brokenFrom = Math.min(brokenFrom, row.depth);
  }
  return { chain, brokenFrom };
}

/**
 * Working form for the hot path: chained records get their summary plus every stored row of
 * `sourceId` in their chain (at their depth or above), and an empty history. Inline rows are
 * returned as they are. Reads O(records), never O(sources).
 */
export async function toWorking(db: EngramDatabase, parsed: readonly ParsedRow[], sourceId: string | undefined): Promise<MemoryRecord[]> {
  const chainIds = [...new Set(parsed.flatMap((row) => (row.meta ? [row.meta.chain] : [])))];
  const rowsOf = new Map<string, LineageRow[]>();
  if (sourceId !== undefined && chainIds.length) {
    // One equality query per owner on the source (its rows are the ones wanted, however many
    // chains the sweep read): a write's source is new or small, while a sweep reads up to
    // MAX_NEIGHBOURS chains, and one query per chain cost a round trip each.
    const owners = [...new Map(parsed.map(({ record }) => [JSON.stringify([record.userId, record.appName]), [record.userId, record.appName, sourceId] as const])).values()];
    const found = await Promise.all(
      owners.map((key) =>
        db.lineage
          .where('[userId+appName+sourceId]')
          .equals([...key])
          .toArray(),
      ),
    );
    const wanted = new Set(chainIds);
    for (const row of found.flat()) if (wanted.has(row.chain)) rowsOf.set(row.chain, [...(rowsOf.get(row.chain) ?? []), row]);
  }
  const chains = new Map([...rowsOf].map(([chain, rows]) => [chain, chainOf(rows)]));
  return parsed.map(({ record, meta }) => {
    if (!meta) return record;
    const known = new Set(record.sources.map(sourceKey));
    const ofSource = sourceId === undefined ? [] : (chains.get(meta.chain)?.sourcesWithId(meta, sourceId) ?? []);
    const extra = ofSource.filter((source) => !known.has(sourceKey(source)));
    return { ...record, sources: [...record.sources, ...extra], history: [] };
  });
}

/**
 * Whether a chained row's stored summary already is its full source list, so its chain's
 * lineage rows need no read: it has as many sources as it carries in the summary (which keeps
 * the first source of each type, in order: all of them when no two share a type) and no
 * exclusions. Not at a checkpoint's cutoff, where only some of its own rows count.
 */
function summaryIsComplete({ record, meta }: ParsedRow, cutoffs: ReadonlyMap<string, Cutoff> | undefined): boolean {
  return meta !== undefined && cutoffs === undefined && meta.sourceTotal === record.sources.length && !meta.excluded?.length;
}

/** One memory's event rows (its history), in `n` order. */
export function eventsOf(db: EngramDatabase, memoryId: string): Promise<EventRow[]> {
  return db.events.where('[memoryId+n]').between([memoryId, 0], [memoryId, Dexie.maxKey], true, true).toArray();
}

/**
 * Where {@link hydrate} reads lineage and event rows from. {@link directReads}: the tables, as
 * asked. {@link sharedReads}: the same, each chain, memory and owner read once however many
 * hydrations ask in one transaction (an erasure's set and its checkpoint hold the same
 * long-lived memories, whose lineage grows with every restatement).
 */
export interface ListReads {
  /** The chain's rows down to `depth` (a shared reader may give deeper ones: a record's depth picks its own). */
  chain(chain: string, depth: number): Promise<LineageRow[]>;
  events(memoryId: string): Promise<EventRow[]>;
  ownerLineage(userId: string, appName: string): Promise<LineageRow[]>;
  ownerEvents(userId: string, appName: string): Promise<EventRow[]>;
}

export function directReads(db: EngramDatabase): ListReads {
  return {
    chain: (chain, depth) => db.lineage.where('[chain+depth]').between([chain, 0], [chain, depth], true, true).toArray(),
    events: (memoryId) => eventsOf(db, memoryId),
    ownerLineage: (userId, appName) => db.lineage.where('[userId+appName+sourceId]').between([userId, appName, Dexie.minKey], [userId, appName, Dexie.maxKey]).toArray(),
    ownerEvents: (userId, appName) => db.events.where('[userId+appName]').equals([userId, appName]).toArray(),
  };
}

/**
 * {@link directReads} read once per key, for one transaction: a chain whole, whatever depth is
 * asked, and a chain's or a memory's rows taken from an owner's whole table when that was read.
 */
export function sharedReads(db: EngramDatabase): ListReads {
  const direct = directReads(db);
  const lineage = new Map<string, Promise<LineageRow[]>>();
  const events = new Map<string, Promise<EventRow[]>>();
  // An owner's whole table, read once, and grouped once by chain or memory: a hydration after it asks for each of its chains.
  const owners = { lineage: new Map<string, Promise<Map<string, LineageRow[]>>>(), events: new Map<string, Promise<Map<string, EventRow[]>>>() };
  const once = <T>(memo: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => memo.get(key) ?? memo.set(key, read()).get(key)!;
  /** The rows of `key` in the owners' tables read so far; undefined when none of them holds one. */
  const fromOwners = async <T>(read: ReadonlyMap<string, Promise<ReadonlyMap<string, T[]>>>, key: string): Promise<T[] | undefined> => {
    const rows = (await Promise.all(read.values())).flatMap((groups) => groups.get(key) ?? []);
    return rows.length ? rows : undefined;
  };
  const ownerKey = (userId: string, appName: string) => JSON.stringify([userId, appName]);
  return {
    chain: (chain) => once(lineage, chain, async () => (await fromOwners(owners.lineage, chain)) ?? direct.chain(chain, Number.MAX_SAFE_INTEGER)),
    events: (memoryId) => once(events, memoryId, async () => (await fromOwners(owners.events, memoryId)) ?? direct.events(memoryId)),
    ownerLineage: async (userId, appName) => [...(await once(owners.lineage, ownerKey(userId, appName), async () => groupBy(await direct.ownerLineage(userId, appName), (row) => row.chain))).values()].flat(),
    ownerEvents: async (userId, appName) => [...(await once(owners.events, ownerKey(userId, appName), async () => groupBy(await direct.ownerEvents(userId, appName), (row) => row.memoryId))).values()].flat(),
  };
}

/** Past this many chains (or memories), their lineage (or event) rows are read in one pass over their owners' rows, not one query each. */
const FEW_LISTS = 64;

/**
 * Lineage and event rows of `parsed`: per chain and per record when few (a record's events
 * taken from `prefetched` when the caller read them already, in the same transaction, or needs
 * none), the owners' whole tables when many. Chains and memories are counted apart: a long line
 * of memories is one chain.
 */
async function readLists(
  reads: ListReads,
  parsed: readonly ParsedRow[],
  cutoffs: ReadonlyMap<string, Cutoff> | undefined,
  prefetched: ReadonlyMap<string, readonly EventRow[]> | undefined,
): Promise<{ lineage: LineageRow[]; events: EventRow[] }> {
  const chained = parsed.filter((row) => row.meta);
  const ownersOf = (rows: readonly ParsedRow[]) => [...new Map(rows.map(({ record }) => [JSON.stringify([record.userId, record.appName]), [record.userId, record.appName] as const])).values()];
  const deepest = new Map<string, number>();
  for (const row of chained) if (!summaryIsComplete(row, cutoffs)) deepest.set(row.meta!.chain, Math.max(deepest.get(row.meta!.chain) ?? 0, row.meta!.depth));
  const unread = chained.filter(({ record }) => !prefetched?.has(record.id));
  const readIds = new Set(unread.map(({ record }) => record.id));
  const [lineage, events] = await Promise.all([
    deepest.size > FEW_LISTS ? Promise.all(ownersOf(chained).map(([userId, appName]) => reads.ownerLineage(userId, appName))) : Promise.all([...deepest].map(([chain, depth]) => reads.chain(chain, depth))),
    unread.length > FEW_LISTS
      ? Promise.all(ownersOf(unread).map(async ([userId, appName]) => (await reads.ownerEvents(userId, appName)).filter((row) => readIds.has(row.memoryId))))
      : Promise.all(unread.map(({ record }) => reads.events(record.id))),
  ]);
  const given = chained.flatMap(({ record }) => prefetched?.get(record.id) ?? []);
  return { lineage: lineage.flat(), events: [...given, ...events.flat()] };
}

/**
 * Each chained record's full sources: its chain's entries down to its depth, less its
 * exclusions (storage/lineage.ts); null for a record behind a corrupt lineage row. At a
 * checkpoint's cutoff a record counts only its own rows below the count.
 */
function assembleSources(parsed: readonly ParsedRow[], chainRows: ReadonlyMap<string, LineageRow[]>, cutoffs: ReadonlyMap<string, Cutoff> | undefined): Map<string, Source[] | null> {
  const sourcesOf = new Map<string, Source[] | null>();
  const chains = new Map<string, ReturnType<typeof readChain>>();
  for (const row of parsed) {
    const { record, meta } = row;
    if (!meta) continue;
    if (summaryIsComplete(row, cutoffs)) {
      sourcesOf.set(record.id, record.sources.slice());
      continue;
    }
    const cutoff = cutoffs?.get(record.id);
    const rows = chainRows.get(meta.chain) ?? [];
    // One chain per chain id, read once, except where a cutoff leaves some of its rows out.
    const read = cutoff ? readChain(rows.filter((lineage) => !(lineage.memoryId === record.id && lineage.n >= cutoff.sourceCount))) : (chains.get(meta.chain) ?? chains.set(meta.chain, readChain(rows)).get(meta.chain)!);
    sourcesOf.set(record.id, read.brokenFrom <= meta.depth ? null : read.chain.sourcesAt(meta));
  }
  return sourcesOf;
}

/** Rows grouped by a key, in their order (push, not spread: groups can hold thousands). */
function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(keyOf(row));
    if (group) group.push(row);
    else groups.set(keyOf(row), [row]);
  }
  return groups;
}

/** How much of a memory existed at a checkpoint: its own lineage and event rows below these counts. */
export interface Cutoff {
  sourceCount: number;
  historyCount: number;
}

/**
 * Full records: each chained record's sources (its chain's rows down to its depth) and
 * history. A lineage or event row that fails validation quarantines the records it belongs
 * to (`onBad`), as a corrupt record row would. With `cutoffs`, a record is read as it was at
 * a checkpoint: only its own rows below the counts (at most one record per chain, its head).
 * `prefetched`: event rows by memory id that the caller read in the same transaction ({@link eventsOf});
 * `reads`: where the rest is read ({@link sharedReads} for several hydrations in one transaction).
 */
export async function hydrate(
  db: EngramDatabase,
  parsed: readonly ParsedRow[],
  onBad: (id: string) => void,
  cutoffs?: ReadonlyMap<string, Cutoff>,
  prefetched?: ReadonlyMap<string, readonly EventRow[]>,
  reads: ListReads = directReads(db),
): Promise<MemoryRecord[]> {
  const { lineage, events } = await readLists(reads, parsed, cutoffs, prefetched);
  const chainRows = groupBy(lineage, (row) => row.chain);
  const history = groupBy(events, (row) => row.memoryId);

  const sourcesOf = assembleSources(parsed, chainRows, cutoffs);

  const out: MemoryRecord[] = [];
  for (const { record, meta } of parsed) {
    if (!meta) {
      out.push(record);
      continue;
    }
    const sources = sourcesOf.get(record.id);
    const cutoff = cutoffs?.get(record.id)?.historyCount ?? Infinity;
    const entries = (history.get(record.id) ?? [])
      .filter((row) => row.n < cutoff)
      .sort((a, b) => a.n - b.n)
      .map((row) => HistoryEntry.safeParse(row.entry));
    if (!sources || entries.some((entry) => !entry.success)) {
      onBad(record.id);
      continue;
    }
    const full: MemoryRecord = { ...record, sources, history: entries.map((entry) => entry.data!) };
    out.push(full);
  }
  return out;
}
