/**
 * `memory.subscribe`: a listener called after any commit that changes what an owner sees (their
 * memories, or their app's app-scope ones), made by this instance or another one on the same
 * store: another tab, a worker, a second instance in one process. Every commit bumps the
 * versions of the partitions it touched, so a subscription is the storage's `watch` over the
 * owner's two partitions (store/watch.ts for IndexedDB).
 */
import { StorageError, ValidationError } from '../errors';
import { describeValue } from '../issues';
import { parseOwner } from '../options';
import { appPartition, userPartition, type Owner, type Storage } from '../storage/contract';

/** What a subscriber is told: whose memories changed (read them again with `list` or `retrieve`). */
export interface ChangeEvent {
  userId: string;
  appName: string;
}

export type ChangeListener = (event: ChangeEvent) => void;

export interface Subscriptions {
  /** @throws StorageError when the storage backend cannot watch for changes. */
  add(owner: Owner, listener: ChangeListener): () => void;
  /** Ends every subscription (close). */
  clear(): void;
}

/** A listener that throws is reported by the platform (uncaught), not swallowed, and stays subscribed. */
function report(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

export function createSubscriptions(storage: Pick<Storage, 'watch'>): Subscriptions {
  const active = new Set<() => void>();
  return {
    add(owner, listener) {
      if (!storage.watch) throw new StorageError('this storage backend cannot watch for changes, so memory.subscribe is not available with it; poll memory.list instead');
      const notify = () => {
        try {
          listener({ userId: owner.userId, appName: owner.appName });
        } catch (error) {
          report(error);
        }
      };
      const unwatch = storage.watch([userPartition(owner), appPartition(owner.appName)], notify);
      const stop = () => {
        unwatch();
        active.delete(stop);
      };
      active.add(stop);
      return stop;
    },
    clear() {
      for (const stop of [...active]) stop();
    },
  };
}

/** `memory.subscribe`: parses the owner and the listener at the edge, then subscribes. */
export function subscribe(subscriptions: Subscriptions, options: unknown, listener: unknown): () => void {
  const owner = parseOwner(options, 'owner');
  if (typeof listener !== 'function') throw new ValidationError('listener', `must be a function called with { userId, appName } (got ${describeValue(listener)})`);
  return subscriptions.add(owner, listener as ChangeListener);
}
