/**
 * `memory.subscribe`: a listener called after any commit that changes what an owner sees (their
 * memories, or their app's app-scope ones), made by this instance or another one on the same
 * database: another tab, a worker, a second instance in one process. Every commit bumps the
 * versions of the partitions it touched (store.ts). Dexie announces each committed transaction's
 * changed tables in its `storagemutated` event (to other tabs and workers over a
 * BroadcastChannel); a change to the `partitions` table makes each subscription read its
 * owner's two version rows again and call its listener when they moved.
 * (Not liveQuery: it only runs where a global `indexedDB` exists, so not under Node.)
 */
import { Dexie, type ObservabilitySet } from 'dexie';
import type { EngramDatabase } from '../store/database';
import { appPartition, userPartition, type Owner } from '../store/owner';

/** What a subscriber is told: whose memories changed (read them again with `list` or `retrieve`). */
export interface ChangeEvent {
  userId: string;
  appName: string;
}

export type ChangeListener = (event: ChangeEvent) => void;

export interface Subscriptions {
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

export function createSubscriptions(db: EngramDatabase): Subscriptions {
  const active = new Set<() => void>();
  const table = `idb://${db.name}/partitions/`;

  return {
    add(owner, listener) {
      const keys = [userPartition(owner), appPartition(owner.appName)];
      const read = async () => JSON.stringify((await db.partitions.bulkGet(keys)).map((row) => row?.version ?? 0));
      // Reads run one after another, so versions are compared in the order they were read.
      let seen = read();
      const onMutated = (parts: ObservabilitySet) => {
        if (!Object.keys(parts).some((part) => part.startsWith(table))) return;
        const previous = seen;
        seen = previous.then(async (before) => {
          const now = await read();
          if (now !== before && active.has(stop)) {
            try {
              listener({ userId: owner.userId, appName: owner.appName });
            } catch (error) {
              report(error);
            }
          }
          return now;
        });
        // A failed read (the database closing) leaves the last good versions in place.
        seen = seen.catch(() => previous);
      };
      const stop = () => {
        Dexie.on.storagemutated.unsubscribe(onMutated);
        active.delete(stop);
      };
      active.add(stop);
      Dexie.on.storagemutated.subscribe(onMutated);
      return stop;
    },
    clear() {
      for (const stop of [...active]) stop();
    },
  };
}
