/**
 * Erasure on a full disk. At an exhausted quota Chromium fails every transaction that adds or
 * puts a row, however small, while one that only deletes commits. So an erasure that cannot
 * write runs a delete-only transaction ({@link eraseByDeleting}): the revoked inputs, every row of
 * the memories the erasure would have rewritten (whole UPDATE chains, with their lineage and
 * event rows), the owner's checkpoints, the partition's vector packs and log, and the
 * partition's version row. What it had to rebuild (memories other sources support too, their
 * history) waits for the owner's next write with room ({@link erasurePending}).
 *
 * The missing version row is the note that a rebuild is due: it needs no write, and a partition
 * without one that still holds rows of its owner is never anything else (every commit writes it).
 * No commit lands on such a partition before the rebuild ({@link refusePendingPartitions}), so
 * the note cannot be lost; the rebuild's commit writes the row again at a version past any the
 * partition had (a clock reading), so no instance's cache of the old versions is ever taken as
 * current.
 */
import { ConflictError, ErasurePendingError } from '../errors';
import type { Owner } from '../storage/owner';
import { userPartition } from '../storage/owner';
import type { EngramDatabase } from './database';
import { dropPacks } from './vector-log';
import { dropCheckpoints } from './checkpoints';

/** What a delete-only erasure removes: stored inputs by seq, and memories (with their chains) by id. */
export interface DeleteOnlyErasure {
  deleteInputs: readonly number[];
  memoryIds: readonly string[];
}

/** The owner's user- and session-scope memory rows. */
const ownRows = (db: EngramDatabase, owner: Owner) => db.memories.where('[userId+appName+scope]').anyOf([owner.userId, owner.appName, 'user'], [owner.userId, owner.appName, 'session']);

/** Inside a transaction over `memories`, `inputs`: whether the owner's user partition holds any row. */
async function holdsRows(db: EngramDatabase, owner: Owner): Promise<boolean> {
  const [memory, input] = await Promise.all([ownRows(db, owner).first(), db.inputs.where('[userId+appName]').equals([owner.userId, owner.appName]).first()]);
  return memory !== undefined || input !== undefined;
}

/** The owner of a user partition key (storage/owner.ts userPartition), or undefined for an app partition. */
function ownerOfPartition(key: string): Owner | undefined {
  const parsed: unknown = JSON.parse(key);
  if (!Array.isArray(parsed) || parsed[0] !== 'user') return undefined;
  return { appName: String(parsed[1]), userId: String(parsed[2]) };
}

/** Whether an erasure made on a full disk left the owner's partition waiting for its rebuild. */
export async function erasurePending(db: EngramDatabase, owner: Owner): Promise<boolean> {
  return db.transaction('r', db.partitions, db.memories, db.inputs, async () => (await db.partitions.get(userPartition(owner))) === undefined && holdsRows(db, owner));
}

/**
 * Inside a commit's transaction: refuses (ErasurePendingError) a commit to a user partition whose
 * version row is missing while it holds rows, unless the commit is the rebuild that finishes it.
 */
export async function refusePendingPartitions(db: EngramDatabase, keys: readonly string[], current: readonly (unknown | undefined)[], finishing: boolean): Promise<void> {
  if (finishing) return;
  for (const [i, key] of keys.entries()) {
    const owner = current[i] === undefined ? ownerOfPartition(key) : undefined;
    if (owner && (await holdsRows(db, owner))) {
      throw new ErasurePendingError(`the erasure made for ${JSON.stringify(owner)} while the disk was full is not finished: the memories it rebuilds are written before anything else of that user`);
    }
  }
}

/** Every memory id on the chains of `ids`, and every memory one of those superseded, transitively. */
async function chainsOf(db: EngramDatabase, owner: Owner, ids: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  const chains = new Set<string>();
  let next = [...new Set(ids)];
  while (next.length) {
    const rows = (await db.memories.bulkGet(next)).filter((row) => row !== undefined && row.userId === owner.userId && row.appName === owner.appName && row.scope !== 'app');
    for (const row of rows) found.add(row!.id);
    const fresh = [...new Set(rows.flatMap((row) => (row!.chain === undefined || chains.has(row!.chain) ? [] : [row!.chain])))];
    for (const chain of fresh) chains.add(chain);
    const onChains = await Promise.all(fresh.map((chain) => db.memories.where('[chain+depth]').between([chain, -Infinity], [chain, Infinity]).primaryKeys()));
    const superseded = await ownRows(db, owner)
      .filter((row) => row.supersededBy !== undefined && found.has(row.supersededBy) && !found.has(row.id))
      .primaryKeys();
    next = [...onChains.flat(), ...superseded].filter((id) => !found.has(id));
  }
  return [...found];
}

/**
 * The erasure as one transaction of deletes alone (see the file comment), against the version
 * the erasure was decided on (ConflictError when another write landed since). Returns the ids of
 * the memories it deleted.
 */
export async function eraseByDeleting(db: EngramDatabase, owner: Owner, expected: number, erasure: DeleteOnlyErasure): Promise<string[]> {
  const key = userPartition(owner);
  return db.transaction('rw', [db.memories, db.lineage, db.events, db.checkpoints, db.inputs, db.partitions, db.vectorLog, db.vectorPacks], async () => {
    const version = (await db.partitions.get(key))?.version ?? 0;
    if (version !== expected) throw new ConflictError(`partition ${key} changed (version ${expected} → ${version}) while this erasure was being decided`);
    const ids = await chainsOf(db, owner, erasure.memoryIds);
    const rows = await db.memories.bulkGet(ids);
    const chains = [...new Set(rows.map((row) => row?.chain).filter((chain): chain is string => chain !== undefined))];
    for (const chain of chains) await db.lineage.where('[chain+depth]').between([chain, -Infinity], [chain, Infinity]).delete();
    // Rows written before v4 hold their lists inline; the side tables are keyed by memory too.
    for (const id of ids) {
      await db.lineage.where('[memoryId+n]').between([id, -Infinity], [id, Infinity]).delete();
      await db.events.where('[memoryId+n]').between([id, -Infinity], [id, Infinity]).delete();
    }
    await db.memories.bulkDelete(ids);
    await db.inputs.bulkDelete([...erasure.deleteInputs]);
    await dropCheckpoints(db, owner, 0);
    await dropPacks(db, key);
    await db.partitions.delete(key);
    return ids;
  });
}
