/**
 * Each partition's records as of one version, held by one storage instance: what lets a search,
 * a consolidation's neighbours and working set, and a commit's reads of what it replaces answer
 * without carrying rows back from the server (docs/chroma-protocol.md).
 *
 * Why a held copy is the store: a commit bumps its partitions' versions in the same request
 * that decides it, and clears its intent only once every write has landed (intents.ts). So a
 * control read that shows a partition at the version held here and no decided intent on it
 * proves nothing was written there since: the copy is exact.
 *
 * How it stays exact: loaded once in full (a consistent read of the partition), then caught up
 * by the rows whose write version `wv` (the partition's version after the commit that wrote
 * the row, rows.ts) is above the held one, also read consistently; this instance's own commits
 * are followed as they land (`follow`). Memory rows are never deleted except to be written anew
 * in the same commit, so new and changed rows are all a catch-up needs. Rows written by hand
 * (no version bump) are not seen until the partition is loaded again (`clear`, a reopen).
 *
 * At most `maxRows` rows are held; beyond, the partitions used longest ago are dropped (and
 * loaded again in full when next used).
 *
 * A partition's held version never goes down (a load overtaken by a newer one is dropped, an
 * evicted partition comes back at the server's version): so a held copy read after an `ensure`
 * is at the version that ensure returned or later, and a commit checked against that version
 * fails (ConflictError) whenever it is later. A write's own reads can use it without a control
 * read of their own (records.ts `workingSet`).
 */
import { factHash, type MemoryRecord } from 'engram';
import type { Collections, ReadRow } from './collections';
import type { HeldVectors } from './held-vectors';
import { consistentRead, readControl, type Control, type IntentOptions } from './intents';
import { recordOf } from './rows';
import { and, eq } from './where';

/** One held row: the parsed record, its vector's norm and its identical-fact key. */
export interface HeldRow {
  record: MemoryRecord;
  norm: number;
  fact: number;
}

export interface Held {
  version: number;
  rows: Map<string, HeldRow>;
  /** Active rows another embedder wrote. */
  foreign: number;
  used: number;
  /**
   * The rows' vectors in one matrix for consolidation's neighbours (held-vectors.ts): built by
   * the vector layer when it first needs it (null: no SIMD kernel here), then kept in step by
   * every merge.
   */
  vectors?: HeldVectors | null;
}

export interface Snapshots {
  /** Brings `keys` up to their current versions (one control read when nothing moved) and resolves to those versions. */
  sync(keys: readonly string[]): Promise<Map<string, number>>;
  /** The held partitions of `keys` when `control` (just read) shows each at its held version with no decided intent; else undefined. */
  currentAt(control: Control, keys: readonly string[]): Held[] | undefined;
  held(key: string): Held | undefined;
  /** Follows this instance's commit once all its writes landed: `written` are the rows as stored. */
  follow(versions: ReadonlyMap<string, [number, number]>, written: readonly ReadRow[]): void;
  clear(): void;
}

export const DEFAULT_MAX_ROWS = 200_000;

export function heldRow(record: MemoryRecord): HeldRow {
  let norm = 0;
  for (const value of record.embedding) norm += value * value;
  return { record, norm: Math.sqrt(norm), fact: factHash(record.topic, record.content) };
}

export function createSnapshots(collections: Collections, options: IntentOptions, embedderId: string, quarantined: Set<string>, maxRows = DEFAULT_MAX_ROWS): Snapshots {
  const partitions = new Map<string, Held>();
  let clock = 0;

  /** Puts parsed rows into `held` (unparseable ones quarantined and dropped). */
  function merge(held: Held, rows: readonly ReadRow[]): void {
    for (const row of rows) {
      const previous = held.rows.get(row.id);
      if (previous && previous.record.invalidatedAt === undefined && previous.record.embedderId !== embedderId) held.foreign--;
      const record = recordOf(row);
      if (!record) {
        quarantined.add(row.id);
        held.rows.delete(row.id);
        held.vectors?.delete(row.id);
        continue;
      }
      if (record.invalidatedAt === undefined && record.embedderId !== embedderId) held.foreign++;
      const next = heldRow(record);
      held.rows.set(row.id, next);
      held.vectors?.set(next);
    }
  }

  async function load(key: string): Promise<void> {
    const previous = partitions.get(key);
    const where = previous ? and(eq('pk', key), { wv: { $gt: previous.version } }) : eq('pk', key);
    const { rows, version } = await consistentRead(collections, [key], async (before) => ({ rows: await collections.get('memories', { where, embeddings: true }), version: before.versions.get(key)! }), options);
    // A held version never goes down: a load that another one (a sync beside this one) overtook
    // while it read would put older rows over newer ones. Dropped: the newer copy stays.
    if ((partitions.get(key)?.version ?? -1) > version) return;
    const held = previous ?? { version, rows: new Map(), foreign: 0, used: 0 };
    merge(held, rows);
    held.version = version;
    partitions.set(key, held);
  }

  /** Drops the partitions used longest ago while more than `maxRows` rows are held (never those of `keep`). */
  function evict(keep: readonly string[]): void {
    let total = 0;
    for (const held of partitions.values()) total += held.rows.size;
    const byAge = [...partitions].filter(([key]) => !keep.includes(key)).sort((a, b) => a[1].used - b[1].used);
    for (const [key, held] of byAge) {
      if (total <= maxRows) return;
      partitions.delete(key);
      total -= held.rows.size;
    }
  }

  function currentAt(control: Control, keys: readonly string[]): Held[] | undefined {
    if (control.intents.some((intent) => intent.state === 'apply')) return undefined;
    const out: Held[] = [];
    for (const key of keys) {
      const held = partitions.get(key);
      if (!held || held.version !== control.versions.get(key)) return undefined;
      held.used = ++clock;
      out.push(held);
    }
    return out;
  }

  return {
    async sync(keys) {
      const control = await readControl(collections, keys);
      const moved = keys.filter((key) => partitions.get(key)?.version !== control.versions.get(key) || control.intents.some((intent) => intent.state === 'apply'));
      await Promise.all(moved.map(load));
      for (const key of keys) partitions.get(key)!.used = ++clock;
      evict(keys);
      return new Map(keys.map((key) => [key, partitions.get(key)!.version]));
    },
    currentAt,
    held: (key) => partitions.get(key),
    follow(versions, written) {
      for (const [key, [before, after]] of versions) {
        const held = partitions.get(key);
        if (!held || held.version !== before) continue; // behind: the next sync catches up from its own version
        merge(
          held,
          written.filter((row) => row.metadata.pk === key),
        );
        held.version = after;
      }
    },
    clear: () => partitions.clear(),
  };
}
