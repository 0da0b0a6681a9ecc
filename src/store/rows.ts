/**
 * The rows a memory is stored as (schema v4): its row, one lineage row per source it gained,
 * one event row per history entry (lineage.ts). Apart from database.ts so the upgrade that
 * builds them (lineage-migration.ts) needs nothing of the database.
 */
import type { HistoryEntry, MemoryRecord, Source } from '../schema';

/**
 * A stored memory (v4): the record's scalar fields, a bounded summary of its sources (the first
 * of each source type) and no history; the full lists are in `lineage` and `events`
 * (see lineage.ts). A row without `chain` (written before v4 and planted by a test) holds
 * its full lists inline.
 */
export type MemoryRow = MemoryRecord & {
  /** 1 while active, 0 once tombstoned: IndexedDB keys cannot be booleans or undefined. */
  active?: 0 | 1;
  /** The id of the first memory of its UPDATE chain; an UPDATE's memory joins its predecessor's. */
  chain?: string;
  /** Position in the chain: its sources are the chain's lineage rows of depth ≤ this. */
  depth?: number;
  /** Sources of its chain it does not have (lineage.ts, exclusions): `[sourceKey, up to depth]`. */
  excluded?: readonly (readonly [string, number])[];
  /** Lineage rows this memory itself added (its `n` runs 0 … sourceCount-1). */
  sourceCount?: number;
  /** All of its sources, inherited ones included. */
  sourceTotal?: number;
  /** Event rows of this memory (`n` runs 0 … historyCount-1). */
  historyCount?: number;
  /**
   * On a tombstone: the input `seq` of the last write that changed it (an erasure, which writes
   * no input, counts as after every input stored then). A source's text can only be in rows
   * active at or after its first input: the active ones, and tombstones changed since, which
   * an erasure reads by this index. Active rows carry none (ones written by earlier releases may):
   * they are rewritten at every corroboration, and an index entry that changes leaves a stale
   * one behind in IndexedDB (store/active-set.ts), so the range would grow with every write.
   */
  changed?: number;
  /**
   * `factHash` (text.ts) of the topic and content (v5): the identical-fact index, so a write on a
   * non-exclusive topic finds the same fact without reading the topic's other memories.
   */
  fact?: number;
};

/** One source a memory gained (and with it every later memory of its chain). */
export interface LineageRow {
  memoryId: string;
  n: number;
  chain: string;
  depth: number;
  userId: string;
  appName: string;
  sourceId: string;
  source: Source;
}

/** One history entry of one memory. */
export interface EventRow {
  memoryId: string;
  n: number;
  userId: string;
  appName: string;
  entry: HistoryEntry;
}
