/**
 * Lineage as pure functions: the chain/depth model that the IndexedDB store keeps its side
 * tables by and that the replay keeps its working set by. No Dexie, no I/O, no module state.
 *
 * A *chain* is a line of memories: a memory, the UPDATE that superseded it, the one that
 * superseded that, and memories forgetSource rebuilt from one of them. Each sits one *depth*
 * below the one it descends from. Every source a memory gains is one entry of the chain at that
 * memory's depth, so a memory inherits its predecessor's sources by reference and an UPDATE
 * costs O(new sources), not O(sources).
 *
 * Rules this code keeps: a tombstone is never updated again, so a chain is a line and the
 * sources of its memory at depth d are exactly the chain's entries of depth ≤ d, in (depth, n)
 * order, less its exclusions, first of each key. A source (type and id) gets at most one entry
 * per chain at depths a memory does not exclude.
 * - Exclusions: a memory rebuilt from the one it replaces usually has that one's sources less
 *   the revoked one. It joins the old memory's chain one level deeper and lists the sources it
 *   does not have as `[key, depth]`: entries of that key at that depth or above are not its.
 *   Deeper memories of the chain inherit the list; a source gained again gets an entry of its
 *   own below the excluded depth.
 */
import type { MemoryRecord, Source } from '../schema';
import type { Commit } from './contract';
import { sourceKey, summarize } from './working-form';

export { sourceKey, summarize };

/** `[sourceKey, depth]` pairs, sorted by key. */
export type Exclusions = readonly (readonly [string, number])[];

/** Where a memory sits on its chain. */
export interface ChainPlace {
  depth: number;
  /** Sources of its chain it does not have: entries of `key` at depth ≤ the depth given. */
  excluded?: Exclusions | undefined;
}

/** The lineage fields of a stored memory (absent on one that holds its lists inline). */
export interface RowMeta extends ChainPlace {
  chain: string;
  /** Entries this memory itself added (its `n` runs 0 … sourceCount-1). */
  sourceCount: number;
  /** History entries stored for it (`n` runs 0 … historyCount-1). */
  historyCount: number;
  /** All of its sources, inherited ones included (absent on rows written before it was kept). */
  sourceTotal?: number;
}

/** Whether a chain entry of `key` at `depth` is excluded from the memory with these exclusions. */
export function isExcluded(excluded: Exclusions | undefined, key: string, depth: number): boolean {
  return excluded?.some(([k, upTo]) => k === key && depth <= upTo) === true;
}

/** `excluded` plus `keys` at `depth` (the deeper bound kept per key). */
function excludeMore(excluded: Exclusions | undefined, keys: readonly string[], depth: number): Exclusions | undefined {
  if (keys.length === 0) return excluded;
  const out = new Map(excluded ?? []);
  for (const key of keys) out.set(key, Math.max(out.get(key) ?? -1, depth));
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

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

/** The sources of one chain, gained entry by entry in (depth, n) order. */
export interface Chain {
  /** Appends `source`, gained by the memory at `depth` (never above an entry already there). */
  add(depth: number, source: Source): void;
  /** Appends those of `sources` the memory at `place` does not hold yet, at its depth. */
  gain(place: ChainPlace, sources: readonly Source[]): void;
  /** Whether the memory at `place` holds a source of `key`. */
  holds(place: ChainPlace, key: string): boolean;
  /** The memory's sources: entries of depth ≤ its depth that it does not exclude, first of each key, in order. */
  sourcesAt(place: ChainPlace): Source[];
  /** Its sources with id `id` (what the working form shows of the source being written). */
  sourcesWithId(place: ChainPlace, id: string): Source[];
}

/**
 * An empty chain. Lookups by key and by id are indexed, and a chain no memory excludes anything
 * from and that holds each key once is read as a prefix, so a replay stays O(inputs).
 */
export function createChain(): Chain {
  const depths: number[] = [];
  const sources: Source[] = [];
  const byKey = new Map<string, number[]>();
  const byId = new Map<string, number[]>();
  let repeats = false;
  const index = (map: Map<string, number[]>, key: string, i: number) => {
    const list = map.get(key);
    if (list) list.push(i);
    else map.set(key, [i]);
  };
  const visible = (place: ChainPlace, i: number) => depths[i]! <= place.depth && !isExcluded(place.excluded, sourceKey(sources[i]!), depths[i]!);
  const chain: Chain = {
    add(depth, source) {
      const key = sourceKey(source);
      repeats ||= byKey.has(key);
      index(byKey, key, sources.length);
      index(byId, source.id, sources.length);
      depths.push(depth);
      sources.push(source);
    },
    gain(place, gained) {
      for (const source of gained) if (!chain.holds(place, sourceKey(source))) chain.add(place.depth, source);
    },
    holds: (place, key) => (byKey.get(key) ?? []).some((i) => visible(place, i)),
    sourcesAt(place) {
      if (!repeats && !place.excluded?.length) {
        // Depths never decrease along a chain: the memory's entries are a prefix.
        let [low, high] = [0, depths.length];
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (depths[middle]! <= place.depth) low = middle + 1;
          else high = middle;
        }
        return sources.slice(0, low);
      }
      const seen = new Set<string>();
      const out: Source[] = [];
      for (let i = 0; i < sources.length && depths[i]! <= place.depth; i++) {
        const key = sourceKey(sources[i]!);
        if (!seen.has(key) && visible(place, i)) seen.add(key), out.push(sources[i]!);
      }
      return out;
    },
    sourcesWithId(place, id) {
      const seen = new Set<string>();
      const out: Source[] = [];
      for (const i of byId.get(id) ?? []) {
        const key = sourceKey(sources[i]!);
        if (!seen.has(key) && visible(place, i)) seen.add(key), out.push(sources[i]!);
      }
      return out;
    },
  };
  return chain;
}

/**
 * What a writer tells the commit about the form of its records, beside the published
 * {@link Commit} (a backend that keeps no lineage never sees a use for it, and ignores it).
 */
export interface CommitLineage {
  /**
   * Ids of records given in the working form a working-set read handed out: their sources are
   * the ones read plus those the write adds, and their history holds only the entries it adds.
   * Every other record is complete.
   */
  working: ReadonlySet<string>;
  /** New memory id → the id of the memory of this commit it supersedes (an UPDATE, or a rebuild): it inherits its sources. */
  inherits: ReadonlyMap<string, string>;
  /**
   * Complete records of which the first `n` history entries are the first `n` the store holds,
   * as read (an erasure's retired memory, which gains an entry and may have its last ones
   * generalized): the stored entries from `n` on are replaced by the record's, the rest stay.
   * Ignored for a record whose stored history is shorter than `n`.
   */
  keptHistory?: ReadonlyMap<string, number>;
}

/**
 * `commit` carrying `lineage` for a store that keeps lineage ({@link lineageOfCommit}); still
 * a plain commit of its own type to any other (a copy that spreads it keeps the field).
 */
export function withLineage<C extends Partial<Commit>>(commit: C, lineage: CommitLineage): C {
  return { ...commit, lineage };
}

/** The lineage a writer put on `commit` with {@link withLineage}; none when it is not one of engram's own. */
export function lineageOfCommit(commit: Commit): CommitLineage {
  const lineage = (commit as { lineage?: Partial<CommitLineage> }).lineage;
  return {
    working: lineage?.working instanceof Set ? lineage.working : new Set(),
    inherits: lineage?.inherits instanceof Map ? lineage.inherits : new Map(),
    ...(lineage?.keptHistory instanceof Map ? { keptHistory: lineage.keptHistory } : {}),
  };
}

/** What the store holds of one record a commit writes, read in the commit. */
export interface Stored {
  /** Its row's lineage fields: undefined for no row or an inline one, null when they are corrupt. */
  meta: RowMeta | undefined | null;
  /** The keys of its row's summary (the first source of each type). */
  summaryKeys: ReadonlySet<string>;
}

/** Where one record goes in the chains, and what of it is new there. */
export interface Placed extends ChainPlace {
  record: MemoryRecord;
  chain: string;
  /** The `n` of its first new entry (how many it had added before). */
  firstSource: number;
  /** Its sources not stored yet, in order: one new entry each. */
  fresh: Source[];
  /** The summary its row keeps. */
  summary: Source[];
  sourceTotal?: number;
  /** The `n` of its first history entry written now: 0 when its history replaces the stored one. */
  firstEvent: number;
  /** Complete form: its history replaces the stored one. Else its entries are appended. */
  rewriteHistory: boolean;
  /** Its stored entries from this `n` on are replaced (a complete record that keeps the ones before, {@link CommitLineage.keptHistory}). */
  dropEventsFrom?: number;
}

/** A record placed alone, on a chain of its own with every source and entry new (a record nothing is stored of). */
export function placeAlone(record: MemoryRecord): Placed {
  const seen = new Set<string>();
  const fresh = record.sources.filter((source) => !seen.has(sourceKey(source)) && seen.add(sourceKey(source)));
  return { record, chain: record.id, depth: 0, firstSource: 0, fresh, summary: summarize(record.sources), sourceTotal: fresh.length, firstEvent: 0, rewriteHistory: true };
}

/** How a record is placed, before its new sources are known. */
interface Placement extends RowMeta {
  /** Keys of the record's sources already stored; 'all' when every one of them is. */
  known: ReadonlySet<string> | 'all';
  /** The summary so far (working and inherited form); null when the record's sources are complete. */
  summary: readonly Source[] | null;
  rewriteHistory: boolean;
  /** A complete record whose first `keptEvents` entries are stored already ({@link CommitLineage.keptHistory}): the rest replaces what follows them. */
  keptEvents?: number;
}

/** A working-form or inherited placement as this commit leaves it: what a successor in the same commit inherits. */
interface Base extends RowMeta {
  known: ReadonlySet<string>;
  summary: readonly Source[];
}

/**
 * A complete record whose stored row has as many sources as it carries: sources are only ever
 * appended (and a read hands them out once each), so they are the same ones.
 */
export function sameSourcesAsStored(record: MemoryRecord, meta: RowMeta): boolean {
  return meta.sourceTotal === record.sources.length;
}

const sameSource = (a: Source, b: Source) => a.type === b.type && a.id === b.id && a.excerpt === b.excerpt && a.at === b.at;

/**
 * A complete record rebuilt from `parent` (a complete record of the same commit) joins its
 * chain one level deeper when its sources are the parent's, in order, less some, then new
 * ones: it excludes what it lacks and stores only the new ones. Null when they are not.
 */
function joinChain(record: MemoryRecord, parent: MemoryRecord, meta: RowMeta): Placement | null {
  const own = new Set(record.sources.map(sourceKey));
  const kept = parent.sources.filter((source) => own.has(sourceKey(source)));
  if (!kept.every((source, i) => sameSource(source, record.sources[i]!))) return null;
  const inherited = new Set(parent.sources.map(sourceKey));
  if (record.sources.slice(kept.length).some((source) => inherited.has(sourceKey(source)))) return null;
  const lacking = parent.sources.map(sourceKey).filter((key) => !own.has(key));
  const excluded = excludeMore(meta.excluded, lacking, meta.depth);
  return { chain: meta.chain, depth: meta.depth + 1, sourceCount: 0, historyCount: 0, ...(excluded ? { excluded } : {}), known: new Set(kept.map(sourceKey)), summary: null, rewriteHistory: true };
}

/** What placing a commit's records needs: the records, what is stored of each, its lineage and the chains read. */
export interface PlacementInput {
  records: readonly MemoryRecord[];
  /** By position in `records`. */
  stored: readonly Stored[];
  lineage: CommitLineage;
  /**
   * The stored entries of the chains {@link chainsToRead} names: every entry of a chain a
   * complete record is compared with, the entries of the named sources for a working one.
   */
  chains: ReadonlyMap<string, Chain>;
}

/** A record's stored place when it is given in working form over a chained row (an inline row is complete). */
function workingMeta(record: MemoryRecord, stored: Stored, lineage: CommitLineage): RowMeta | undefined {
  return stored.meta && lineage.working.has(record.id) ? stored.meta : undefined;
}

/**
 * The chain entries a commit must read to place its records: for a complete record whose row
 * may hold other sources than it carries, its whole chain (`all`); for one in working form,
 * only the entries of the ids it carries beyond its row's summary (the source being written).
 */
export function chainsToRead(input: Omit<PlacementInput, 'chains'>): { all: Set<string>; bySource: Map<string, Set<string>> } {
  const all = new Set<string>();
  const bySource = new Map<string, Set<string>>();
  input.records.forEach((record, i) => {
    const working = workingMeta(record, input.stored[i]!, input.lineage);
    if (working) {
      const ids = record.sources.filter((source) => !input.stored[i]!.summaryKeys.has(sourceKey(source))).map((source) => source.id);
      if (ids.length) bySource.set(working.chain, new Set([...(bySource.get(working.chain) ?? []), ...ids]));
      return;
    }
    const meta = input.stored[i]!.meta;
    if (meta && !sameSourcesAsStored(record, meta)) all.add(meta.chain);
  });
  return { all, bySource };
}

/**
 * Positions of `records` with every record after the one it inherits from when both are in
 * this commit, so a successor is placed from where its parent now sits.
 */
function parentsFirst(records: readonly MemoryRecord[], inherits: ReadonlyMap<string, string>): number[] {
  const index = new Map(records.map((record, i) => [record.id, i]));
  const order: number[] = [];
  const seen = new Set<number>();
  const visit = (i: number): void => {
    if (seen.has(i)) return;
    seen.add(i);
    const parent = index.get(inherits.get(records[i]!.id) ?? '');
    if (parent !== undefined) visit(parent);
    order.push(i);
  };
  records.forEach((_, i) => visit(i));
  return order;
}

/**
 * Where one record goes. A working-form record appends to its stored row; a record inheriting
 * from one placed in working form joins that chain one level deeper by reference; a complete
 * one rebuilt from a complete parent of the commit joins the parent's chain when it can
 * ({@link joinChain}); any other complete record keeps its place, or starts a chain.
 */
function placementOf(input: PlacementInput, i: number, written: ReadonlyMap<string, Base>, index: ReadonlyMap<string, number>): Placement {
  const record = input.records[i]!;
  const chain = (id: string) => input.chains.get(id) ?? createChain();
  const working = workingMeta(record, input.stored[i]!, input.lineage);
  if (working) {
    const { summaryKeys } = input.stored[i]!;
    const known = new Set(record.sources.map(sourceKey).filter((key) => summaryKeys.has(key) || chain(working.chain).holds(working, key)));
    const summary = record.sources.filter((source) => summaryKeys.has(sourceKey(source)));
    return { ...working, known, summary, rewriteHistory: false };
  }
  const parentId = input.lineage.inherits.get(record.id);
  const parentBase = parentId === undefined ? undefined : written.get(parentId);
  if (parentBase) {
    const { chain: at, depth, excluded, sourceTotal, known, summary } = parentBase;
    return { chain: at, depth: depth + 1, sourceCount: 0, historyCount: 0, ...(excluded ? { excluded } : {}), ...(sourceTotal !== undefined ? { sourceTotal } : {}), known, summary, rewriteHistory: false };
  }
  const parentAt = parentId === undefined ? undefined : index.get(parentId);
  const parentMeta = parentAt === undefined ? undefined : input.stored[parentAt]!.meta;
  const joined = parentMeta ? joinChain(record, input.records[parentAt!]!, parentMeta) : null;
  if (joined) return joined;
  const meta = input.stored[i]!.meta;
  if (meta) {
    const known = sameSourcesAsStored(record, meta) ? 'all' : new Set(record.sources.map(sourceKey).filter((key) => chain(meta.chain).holds(meta, key)));
    const kept = input.lineage.keptHistory?.get(record.id);
    if (kept !== undefined && kept <= meta.historyCount && kept <= record.history.length) return { ...meta, known, summary: null, rewriteHistory: false, keptEvents: kept };
    return { ...meta, known, summary: null, rewriteHistory: true };
  }
  return { chain: record.id, depth: 0, sourceCount: 0, historyCount: 0, sourceTotal: 0, known: new Set(), summary: null, rewriteHistory: true };
}

/**
 * Places every record of a commit (by position): what each adds to the chains and what its row
 * keeps. Pure: everything read is in `input`.
 */
export function placeRecords(input: PlacementInput): Placed[] {
  const placed: Placed[] = [];
  for (const [i, place] of placeEach(input)) placed[i] = place;
  return placed;
}

/**
 * {@link placeRecords} one record at a time, each with its position, parents before the records
 * that inherit from them: a caller with thousands to place can let the page run in between.
 */
export function* placeEach(input: PlacementInput): Generator<[number, Placed]> {
  const { records } = input;
  const index = new Map(records.map((record, i) => [record.id, i]));
  const written = new Map<string, Base>();
  for (const i of parentsFirst(records, input.lineage.inherits)) {
    const place = placementOf(input, i, written, index);
    // Keeping the first stored entries: the ones after them are what this commit writes of its history.
    const record = place.keptEvents !== undefined ? { ...records[i]!, history: records[i]!.history.slice(place.keptEvents) } : records[i]!;
    const fresh: Source[] = [];
    // What is stored of it after this commit (a working-form record's `known` is never 'all').
    const keys = new Set(place.known === 'all' ? [] : place.known);
    if (place.known !== 'all') for (const source of record.sources) if (!keys.has(sourceKey(source))) keys.add(sourceKey(source)), fresh.push(source);
    const total = place.known === 'all' ? record.sources.length : keys.size;
    // Complete form: `known` held every stored source. Working form: what was stored, plus the new ones.
    const sourceTotal = place.summary === null ? total : place.sourceTotal !== undefined ? place.sourceTotal + fresh.length : undefined;
    const summary = place.summary ? summarize([...place.summary, ...fresh]) : summarize(record.sources);
    const firstEvent = place.keptEvents ?? (place.rewriteHistory ? 0 : place.historyCount);
    const dropEventsFrom = place.keptEvents !== undefined && place.keptEvents < place.historyCount ? { dropEventsFrom: place.keptEvents } : {};
    const { chain, depth, excluded } = place;
    // A working-form record's successor in this commit inherits from it by reference.
    if (place.summary !== null) {
      const after = { chain, depth, ...(excluded ? { excluded } : {}), sourceCount: place.sourceCount + fresh.length, historyCount: firstEvent + record.history.length };
      written.set(record.id, { ...after, ...(sourceTotal !== undefined ? { sourceTotal } : {}), known: keys, summary });
    }
    yield [
      i,
      { record, chain, depth, ...(excluded ? { excluded } : {}), firstSource: place.sourceCount, fresh, summary, ...(sourceTotal !== undefined ? { sourceTotal } : {}), firstEvent, rewriteHistory: place.rewriteHistory, ...dropEventsFrom },
    ];
  }
}
