/**
 * Checkpoints of an owner's derived state, so forgetSource regenerates from the revoked
 * source's first input instead of from the owner's first conversation.
 *
 * Rules this code keeps:
 * - A checkpoint is written in the commit of a write input, every {@link CHECKPOINT_EVERY}th
 *   version of the owner's partition (every {@link checkpointStride}-times that for an owner
 *   with many active memories), from the active rows that commit leaves: it is exactly
 *   the state the inputs up to its `seq` produced (invariant 6 makes that true after a
 *   forgetSource too). It holds ids and numbers only, never text.
 * - Records are referenced, not copied: content, vector and topic never change on an active
 *   memory; what does (confidence, updatedAt, appended sources and events) is recorded, and a
 *   restore reads each memory as it was then (lineage.ts hydrate with cutoffs).
 * - forgetSource(s) drops every checkpoint at or after s's first input: those states saw s.
 *   A checkpoint before it never saw s, and erasing a later source does not change what a
 *   memory was at the checkpoint, unless its text was redacted: such a checkpoint is not used.
 */
import { Dexie } from 'dexie';
import type { MemoryRecord } from '../schema';
import type { ActiveEntry } from './active-set';
import type { CheckpointRow, EngramDatabase } from './database';
import type { ParsedRow } from './lineage';
import { hydrate, type ListReads } from './lineage-read';
import type { Owner } from '../storage/owner';

/** Owner writes between checkpoints: a regeneration replays at most this many inputs more than it must. */
export const CHECKPOINT_EVERY = 32;

/** Active memories a checkpoint may list while it is written every CHECKPOINT_EVERY writes. */
const CHECKPOINT_ROWS = 1024;

/**
 * How many CHECKPOINT_EVERY intervals apart checkpoints are for an owner with `active` memories:
 * 1 up to CHECKPOINT_ROWS, then the power of two that keeps a checkpoint (O(active) to write and
 * to store) at about CHECKPOINT_ROWS / CHECKPOINT_EVERY entries per write. Powers of two keep
 * the checkpoints on the same versions as the count moves. The price: a regeneration replays up
 * to stride × CHECKPOINT_EVERY inputs more than it must.
 */
export function checkpointStride(active: number): number {
  return 2 ** Math.max(0, Math.ceil(Math.log2(active / CHECKPOINT_ROWS)));
}

/** Whether partition version `version` (a multiple of CHECKPOINT_EVERY) gets a checkpoint for an owner with `active` memories. */
export function onCheckpointStride(version: number, active: number): boolean {
  return (version / CHECKPOINT_EVERY) % checkpointStride(active) === 0;
}

/**
 * Inside a commit transaction: records `active` (the owner's active memories once this commit's
 * rows are in, active-set.ts) as the state after input `seq`.
 */
export async function writeCheckpoint(db: EngramDatabase, owner: Owner, seq: number, active: ReadonlyMap<string, ActiveEntry>): Promise<void> {
  const records: CheckpointRow['records'] = [];
  for (const [id, { confidence, updatedAt, sourceCount, historyCount }] of active) {
    // A row without lineage fields (inline) cannot be referenced: no checkpoint rather than a wrong one.
    if (sourceCount === undefined || historyCount === undefined) return;
    records.push({ id, confidence, updatedAt, sourceCount, historyCount });
  }
  await db.checkpoints.put({ userId: owner.userId, appName: owner.appName, seq, records });
}

/** Inside the erasure's commit transaction: drops the owner's checkpoints at or after `seq`. */
export async function dropCheckpoints(db: EngramDatabase, owner: Owner, seq: number): Promise<void> {
  await db.checkpoints.where('[userId+appName+seq]').between([owner.userId, owner.appName, seq], [owner.userId, owner.appName, Dexie.maxKey], true, true).delete();
}

/** The last checkpoint strictly before input `seq`, or undefined. */
export async function checkpointBefore(db: EngramDatabase, owner: Owner, seq: number): Promise<CheckpointRow | undefined> {
  return db.checkpoints.where('[userId+appName+seq]').between([owner.userId, owner.appName, Dexie.minKey], [owner.userId, owner.appName, seq], true, false).last();
}

/**
 * The checkpoint's memories as they were then, or null when one of them cannot be restored
 * (missing, quarantined, or its text redacted since, which blanks its vector): the caller
 * replays from the beginning. `reads`: lineage-read.ts `sharedReads` when the caller hydrates
 * the same memories in the same transaction.
 */
export async function restoreCheckpoint(db: EngramDatabase, checkpoint: CheckpointRow, parse: (row: unknown) => ParsedRow | null, reads?: ListReads): Promise<MemoryRecord[] | null> {
  const rows = await db.memories.bulkGet(checkpoint.records.map((entry) => entry.id));
  const parsed: ParsedRow[] = [];
  for (const row of rows) {
    const one = row === undefined ? null : parse(row);
    // Erasure blanks the vector of every memory whose text it redacts.
    if (!one?.meta || one.record.embedding.every((value) => value === 0)) return null;
    parsed.push(one);
  }
  const cutoffs = new Map(checkpoint.records.map((entry) => [entry.id, entry]));
  let broken = false;
  const records = await hydrate(db, parsed, () => (broken = true), cutoffs, undefined, reads);
  if (broken) return null;
  return records.map(({ invalidatedAt: _invalidated, supersededBy: _superseded, ...record }) => ({
    ...record,
    confidence: cutoffs.get(record.id)!.confidence,
    updatedAt: cutoffs.get(record.id)!.updatedAt,
  }));
}
