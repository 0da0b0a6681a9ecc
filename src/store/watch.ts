/**
 * The IndexedDB backend's `watch` (storage/contract.ts): Dexie announces each committed
 * transaction's changed tables in its `storagemutated` event, in this realm and, over a
 * BroadcastChannel, in other tabs and workers. A change to the `partitions` table makes each
 * watcher read its partitions' versions again and call back when they moved. (Not liveQuery:
 * it only runs where a global `indexedDB` exists, so not under Node.)
 */
import { Dexie, type ObservabilitySet } from 'dexie';
import type { EngramDatabase } from './database';

export function watchPartitions(db: EngramDatabase, keys: readonly string[], onChange: () => void): () => void {
  const table = `idb://${db.name}/partitions/`;
  let stopped = false;
  const read = async () => JSON.stringify((await db.partitions.bulkGet([...keys])).map((row) => row?.version ?? 0));
  // Reads run one after another, so versions are compared in the order they were read.
  let seen = read().catch(() => '');
  const onMutated = (parts: ObservabilitySet) => {
    if (!Object.keys(parts).some((part) => part.startsWith(table))) return;
    const previous = seen;
    seen = previous
      .then(async (before) => {
        const now = await read();
        if (now !== before && !stopped) onChange();
        return now;
      })
      // A failed read (the database closing) keeps the last versions read.
      .catch(() => previous);
  };
  Dexie.on.storagemutated.subscribe(onMutated);
  return () => {
    stopped = true;
    Dexie.on.storagemutated.unsubscribe(onMutated);
  };
}
