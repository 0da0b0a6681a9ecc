/**
 * Reading lineage back (see lineage.ts for the layout and its rules): working form for the hot
 * path, full records for everything a caller sees, and records as they were at a checkpoint.
 */
import { Dexie } from 'dexie';
import { HistoryEntry, Source, type MemoryRecord } from '../schema';
import type { EngramDatabase, EventRow, LineageRow } from './database';
import { isExcluded, rememberBase, rememberPlace, sourceKey, type ParsedRow } from './lineage';

function byDepthThenN(a: LineageRow, b: LineageRow): number {
  return a.depth - b.depth || a.n - b.n;
}

/**
 * Working form for the hot path: chained records get their summary plus every stored row of
 * `sourceId` in their chain (at their depth or above), and an empty history. Inline rows are
 * returned as they are. Reads O(records), never O(sources).
 */
export async function toWorking(db: EngramDatabase, parsed: readonly ParsedRow[], sourceId: string | undefined): Promise<MemoryRecord[]> {
  const chains = [...new Set(parsed.flatMap((row) => (row.meta ? [row.meta.chain] : [])))];
  const rowsOf = new Map<string, LineageRow[]>();
  if (sourceId !== undefined && chains.length) {
    // One equality query per owner on the source (its rows are the ones wanted, however many
    // chains the sweep read): a write's source is new or small, while a sweep reads up to
    // MAX_NEIGHBOURS chains, and one query per chain cost a round trip each.
    const owners = [...new Map(parsed.map(({ record }) => [JSON.stringify([record.userId, record.appName]), [record.userId, record.appName, sourceId] as const])).values()];
    const found = await Promise.all(owners.map((key) => db.lineage.where('[userId+appName+sourceId]').equals([...key]).toArray()));
    const wanted = new Set(chains);
    for (const row of found.flat()) if (wanted.has(row.chain)) rowsOf.set(row.chain, [...(rowsOf.get(row.chain) ?? []), row]);
  }
  return parsed.map(({ record, meta }) => {
    if (!meta) return record;
    const sources = [...record.sources];
    const known = new Set(sources.map(sourceKey));
    const mine = (row: LineageRow) => row.depth <= meta.depth && !isExcluded(meta.excluded, sourceKey(row.source), row.depth);
    for (const row of (rowsOf.get(meta.chain) ?? []).filter(mine).sort(byDepthThenN)) {
      const source = Source.safeParse(row.source);
      if (source.success && !known.has(sourceKey(source.data))) {
        known.add(sourceKey(source.data));
        sources.push(source.data);
      }
    }
    const working: MemoryRecord = { ...record, sources, history: [] };
    rememberBase(working, { ...meta, known, summary: record.sources });
    return working;
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
 * Lineage and event rows of `parsed`: per chain and per record when few (a record's events
 * taken from `prefetched` when the caller read them already, in the same transaction), the
 * owners' whole tables when many.
 */
async function readLists(
  db: EngramDatabase,
  parsed: readonly ParsedRow[],
  cutoffs: ReadonlyMap<string, Cutoff> | undefined,
  prefetched: ReadonlyMap<string, readonly EventRow[]> | undefined,
): Promise<{ lineage: LineageRow[]; events: EventRow[] }> {
  const chained = parsed.filter((row) => row.meta);
  if (chained.length > 64) {
    const owners = [...new Map(chained.map(({ record }) => [JSON.stringify([record.userId, record.appName]), [record.userId, record.appName]])).values()];
    const lineage = await Promise.all(
      owners.map(([userId, appName]) => db.lineage.where('[userId+appName+sourceId]').between([userId, appName, Dexie.minKey], [userId, appName, Dexie.maxKey]).toArray()),
    );
    const events = await Promise.all(owners.map((owner) => db.events.where('[userId+appName]').equals(owner as [string, string]).toArray()));
    return { lineage: lineage.flat(), events: events.flat() };
  }
  const deepest = new Map<string, number>();
  for (const row of chained) if (!summaryIsComplete(row, cutoffs)) deepest.set(row.meta!.chain, Math.max(deepest.get(row.meta!.chain) ?? 0, row.meta!.depth));
  const [lineage, events] = await Promise.all([
    Promise.all([...deepest].map(([chain, depth]) => db.lineage.where('[chain+depth]').between([chain, 0], [chain, depth], true, true).toArray())),
    Promise.all(chained.map(({ record }) => prefetched?.get(record.id) ?? eventsOf(db, record.id))),
  ]);
  return { lineage: lineage.flat(), events: events.flat() };
}

/**
 * Each chained record's full sources: its chain's rows down to its depth, in (depth, n) order,
 * once each, less its exclusions; null for a record behind a corrupt lineage row. Walks each
 * chain once, again from its start where a member's exclusions differ from the member above
 * (they change only where forgetSource rebuilt a memory).
 */
function assembleSources(
  parsed: readonly ParsedRow[],
  chainRows: ReadonlyMap<string, LineageRow[]>,
  cutoffs: ReadonlyMap<string, Cutoff> | undefined,
): Map<string, Source[] | null> {
  const sourcesOf = new Map<string, Source[] | null>();
  for (const row of parsed) if (summaryIsComplete(row, cutoffs)) sourcesOf.set(row.record.id, row.record.sources.slice());
  const byChain = groupBy(
    parsed.filter((row) => row.meta && !sourcesOf.has(row.record.id)),
    (row) => row.meta!.chain,
  );
  for (const [chain, members] of byChain) {
    const rows = (chainRows.get(chain) ?? []).sort(byDepthThenN);
    let acc: Source[] = [];
    let seen = new Set<string>();
    let next = 0;
    let broken = false;
    let walking: string | undefined;
    for (const { record, meta } of [...members].sort((a, b) => a.meta!.depth - b.meta!.depth)) {
      const { excluded, depth } = meta!;
      const signature = JSON.stringify(excluded ?? []);
      if (signature !== walking) [acc, seen, next, broken, walking] = [[], new Set(), 0, false, signature];
      const cutoff = cutoffs?.get(record.id);
      for (; next < rows.length && rows[next]!.depth <= depth; next++) {
        const row = rows[next]!;
        if (cutoff && row.memoryId === record.id && row.n >= cutoff.sourceCount) continue;
        const source = Source.safeParse(row.source);
        if (!source.success || row.sourceId !== source.data.id) broken = true;
        else if (!seen.has(sourceKey(source.data)) && !isExcluded(excluded, sourceKey(source.data), row.depth)) (seen.add(sourceKey(source.data)), acc.push(source.data));
      }
      sourcesOf.set(record.id, broken ? null : acc.slice());
    }
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
 * `prefetched`: event rows by memory id that the caller read in the same transaction ({@link eventsOf}).
 */
export async function hydrate(
  db: EngramDatabase,
  parsed: readonly ParsedRow[],
  onBad: (id: string) => void,
  cutoffs?: ReadonlyMap<string, Cutoff>,
  prefetched?: ReadonlyMap<string, readonly EventRow[]>,
): Promise<MemoryRecord[]> {
  const { lineage, events } = await readLists(db, parsed, cutoffs, prefetched);
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
    rememberPlace(full, meta);
    out.push(full);
  }
  return out;
}
