/**
 * The one write loop every writer of an owner's memories runs (consolidate, forgetSource,
 * prune, reembed, import, undo): take the partition's write lock, read the partition's
 * versions, let the writer read and decide, commit against those versions, let the vector
 * layer follow, and decide again from the top when the commit reports a writer outside the
 * lock got there first. Rules it keeps:
 *
 * - Versions are read before anything the decision reads: a write landing in between makes the
 *   commit fail with ConflictError and the whole decision is made again on the new state.
 * - Once the commit landed the write resolves: a vector layer that fails to follow it catches
 *   up on the next ensure (VectorLayer.afterCommit), so no caller retries a write that is stored.
 * - A ConflictError is retried (after a random backoff) up to `attempts` in all, then passed
 *   on; an IdCollisionError is decided again with new ids, without a backoff (write-lock.ts);
 *   any other error is passed on at once.
 */
import type { Scope } from '../schema';
import type { Commit, CommitResult, Owner, Storage } from './contract';
import { partitionOf, recordUserId } from './owner';
import { MAX_ATTEMPTS, writeUnderLock } from './write-lock';
import { ErasurePendingError } from '../errors';

/** One attempt of a write, as its `decide` sees it. */
export interface OwnerWrite {
  /** The partition key whose lock this write holds. */
  readonly partition: string;
  /** The partition's version as this attempt read it: what {@link OwnerWrite.commit} commits against. */
  readonly versions: ReadonlyMap<string, number>;
  /** Commits against {@link OwnerWrite.versions} (`expected`), then lets the vector layer follow what it wrote. */
  commit(commit: Omit<Commit, 'expected'>): Promise<CommitResult>;
}

export interface WriteOwnerOptions {
  /** Which of the owner's partitions: `'app'` for its app's app-scope memories; default `'user'` (user and session scope). */
  scope?: Scope;
  /** Commit attempts before a ConflictError is passed on; default {@link MAX_ATTEMPTS}, 1 for none again. */
  attempts?: number;
  /**
   * How the versions are read: `'vectors'` (default) with `vectors.ensure`, which brings the
   * vector layer up to them first (a decision that searches it); `'records'` with
   * `records.versions` alone (a write that never searches, over many partitions: reembed).
   */
  versions?: 'vectors' | 'records';
}

/**
 * Runs `decide` as one write of the owner's partition (see the file comment): `decide` reads
 * what it needs, commits at most once with `write.commit`, and resolves to the write's result.
 * @throws ConflictError after `attempts` conflicting commits; whatever `decide` throws otherwise.
 */
export function writeOwner<T>(storage: Storage, owner: Owner, decide: (write: OwnerWrite) => Promise<T>, options: WriteOwnerOptions = {}): Promise<T> {
  const scope = options.scope ?? 'user';
  const partition = partitionOf({ appName: owner.appName, userId: recordUserId(owner, scope), scope });
  const { records, vectors } = storage;
  const attempt = async <R>(body: (write: OwnerWrite) => Promise<R>): Promise<R> => {
    const versions = options.versions === 'records' ? await records.versions([partition]) : await vectors.ensure([partition]);
    return body({
      partition,
      versions,
      async commit(commit) {
        const result = await records.commit({ ...commit, expected: versions });
        // The commit landed: the write succeeded, whatever the vector layer does now. One that
        // fails to follow it (compute timed out and restarted) is behind as after another
        // instance's commit, and the next ensure catches it up; rejecting would invite a retry
        // that writes the same thing twice.
        await vectors.afterCommit(result, commit.records).catch(() => {});
        return result;
      },
    });
  };
  return writeUnderLock(storage.lockName, partition, options.attempts ?? MAX_ATTEMPTS, async () => {
    try {
      return await attempt(decide);
    } catch (error) {
      // An erasure made on a full disk waits for its rebuild: made first, under this lock, then this write.
      const finish = finishers.get(storage);
      if (!(error instanceof ErasurePendingError) || !finish || scope === 'app') throw error;
      await attempt((write) => finish(owner, write));
      return attempt(decide);
    }
  });
}

/** Per storage: what finishes an erasure made on a full disk (memory.ts gives the replay; storage/ imports no stage). */
const finishers = new WeakMap<Storage, (owner: Owner, write: OwnerWrite) => Promise<unknown>>();

/**
 * Has {@link writeOwner} run `finish` when a commit finds the owner's partition waiting for the
 * rebuild of an erasure made on a full disk (RecordStore.eraseByDeleting), then decide again.
 */
export function finishErasuresWith(storage: Storage, finish: (owner: Owner, write: OwnerWrite) => Promise<unknown>): void {
  finishers.set(storage, finish);
}
