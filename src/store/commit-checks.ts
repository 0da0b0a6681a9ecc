/**
 * The checks and bookkeeping of one commit (store.ts), run inside its write transaction:
 * versions, refusals, and whether the commit leaves a checkpoint.
 */
import { ConflictError, IdCollisionError, PermissionError } from '../errors';
import { CHECKPOINT_EVERY } from './checkpoints';
import type { EngramDatabase, InputRow, MemoryRow, WriteInput } from './database';
import { userPartition } from '../storage/owner';
import { refusePendingPartitions } from './full-disk';

/** Inside the commit transaction: each touched partition's [current, next] version; ConflictError when one moved since `expected`. */
export async function nextVersions(db: EngramDatabase, keys: readonly string[], expected: ReadonlyMap<string, number>, finishesErasure = false): Promise<Map<string, [number, number]>> {
  const current = await db.partitions.bulkGet([...keys]);
  await refusePendingPartitions(db, keys, current, finishesErasure);
  const versions = new Map<string, [number, number]>();
  keys.forEach((key, i) => {
    const version = current[i]?.version ?? 0;
    const seen = expected.get(key);
    if (seen !== undefined && seen !== version) {
      throw new ConflictError(`partition ${key} changed (version ${seen} → ${version}) while this write was being decided`);
    }
    // The rebuild after an erasure on a full disk writes the row again past every version it
    // had (store/full-disk.ts): a cache of the old versions must never match a new one.
    versions.set(key, [version, finishesErasure && current[i] === undefined ? Math.max(version + 1, Date.now()) : version + 1]);
  });
  return versions;
}

/**
 * The write input whose owner gets a checkpoint in this commit (checkpoints.ts): the commit's
 * last input, when it is a user's write input that brings its owner's partition (`next`: the
 * version a partition key reaches) to a multiple of CHECKPOINT_EVERY.
 */
export function checkpointDue(inputs: readonly InputRow[], next: (key: string) => number | undefined): WriteInput | undefined {
  const input = inputs.at(-1);
  if (!input || input.kind === 'prune' || input.scope === 'app') return undefined;
  const version = next(userPartition(input));
  return version !== undefined && version % CHECKPOINT_EVERY === 0 ? input : undefined;
}

/**
 * Inside the commit transaction: throws IdCollisionError when an id this commit creates is
 * already taken (`read`: the rows already read for this commit's records, by id).
 */
export async function refuseExistingIds(db: EngramDatabase, creates: readonly string[], read: ReadonlyMap<string, MemoryRow | undefined>): Promise<void> {
  if (creates.length === 0) return;
  const unread = creates.filter((id) => !read.has(id));
  const more = unread.length ? await db.memories.bulkGet(unread) : [];
  const stored = new Map([...read, ...unread.map((id, i) => [id, more[i]] as const)]);
  const taken = creates.filter((id) => stored.get(id) !== undefined);
  if (taken.length || new Set(creates).size !== creates.length) {
    throw new IdCollisionError(`memory id ${taken[0] ?? 'generated twice'} already exists; a new memory never replaces another record, so the write is decided again with new ids`);
  }
}

/** Inside the commit transaction: throws PermissionError for an input whose source was revoked after the write began. */
export async function refuseRevokedInputs(db: EngramDatabase, inputs: readonly InputRow[], baseVersion: number | undefined): Promise<void> {
  const owned = inputs.filter((input) => input.kind !== 'prune' && input.scope !== 'app') as WriteInput[];
  if (owned.length === 0) return;
  const revocations = await db.revocations.bulkGet(owned.map((input) => [input.userId, input.appName, input.source.id] as [string, string, string]));
  revocations.forEach((revocation, i) => {
    if (revocation && (baseVersion === undefined || revocation.version > baseVersion)) {
      throw new PermissionError(`source '${owned[i]!.source.id}' was revoked with forgetSource while this write was in flight; nothing from it was stored. Ingest it again if the user shares it anew.`);
    }
  });
}
