/**
 * How every writer of an owner's memories runs: holding the partition's write lock, one
 * decide-and-commit attempt at a time, again (after a random backoff) when the commit's version
 * check reports that a writer outside the lock got there first.
 */
import { ConflictError, IdCollisionError } from '../errors';

/**
 * Commit attempts of one write before a ConflictError from writers outside the lock is passed
 * on. Every writer (consolidate, forget, prune, reembed) uses this one bound: the lock makes a
 * conflict rare, so only the backstop for writers that do not hold it (another tab without Web
 * Locks, a test writing directly) ever spends them.
 */
export const MAX_ATTEMPTS = 8;

/** Re-decisions after the commit found a generated id taken, beyond `maxAttempts`: new ids cost no backoff. */
const MAX_ID_COLLISIONS = 16;

/** In-realm lock chains by name: two instances in one page (or one test) take turns. */
const chains = new Map<string, Promise<unknown>>();

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/**
 * Runs `body` holding the partition's write lock: the Web Locks API where it exists (it spans
 * tabs), else a promise chain shared by the instances of this realm. Optimistic versions alone
 * let a slower writer lose every retry to a faster one (two instances ingesting for one user
 * threw ConflictError after 5 attempts); with the lock, writers of one partition (ingest,
 * remember, summarize, forgetSource, prune) take turns, and the version check in each commit
 * stays as the backstop for anything that does not hold it.
 */
export function withWriteLock<T>(database: string, partition: string, body: () => Promise<T>): Promise<T> {
  const name = `engram:${database}:${partition}`;
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (locks && typeof locks.request === 'function') return locks.request(name, body);
  const previous = chains.get(name) ?? Promise.resolve();
  const run = previous.then(body, body);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  chains.set(name, tail);
  void tail.then(() => {
    if (chains.get(name) === tail) chains.delete(name);
  });
  return run;
}

/** Random backoff after a conflict, growing with the attempt, so colliding writers spread out. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(100, 5 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `attempt` under the partition's write lock until it commits; a ConflictError is retried
 * up to `maxAttempts` in all, then passed on. Any other error is passed on at once.
 */
export function writeUnderLock<T>(database: string, partition: string, maxAttempts: number, attempt: () => Promise<T>): Promise<T> {
  return withWriteLock(database, partition, async () => {
    let collisions = 0;
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (error instanceof IdCollisionError && collisions++ < MAX_ID_COLLISIONS) {
          tries--;
          continue;
        }
        if (!(error instanceof ConflictError) || tries >= maxAttempts) throw error;
        await backoff(tries);
      }
    }
  });
}
