/**
 * A full disk under Node, as Chromium shows one at an exhausted quota: every transaction that
 * adds or puts a row fails with QuotaExceededError (and with it every other step of that
 * transaction), while a transaction that only deletes commits. fake-indexeddb has no quota, so a
 * DBCore middleware (createMemory's `onDatabase` seam) refuses the writes while `disk.full`.
 */
import type { Dexie, DBCoreMutateRequest } from 'dexie';
import { wrapTables } from './idb-store';

export interface Disk {
  full: boolean;
  /** Writes (add, put) refused so far. */
  refused: number;
}

export function createDisk(): Disk {
  return { full: false, refused: 0 };
}

/** `onDatabase` for createTestMemory: refuses adds and puts while `disk.full`, lets deletes through. */
export function onFullDisk(disk: Disk) {
  return (db: Dexie) =>
    wrapTables(db, 'full-disk', (_name, table) => ({
      mutate: (request: DBCoreMutateRequest) => {
        if (!disk.full || request.type === 'delete' || request.type === 'deleteRange') return table.mutate(request);
        disk.refused += 1;
        return Promise.reject(new DOMException('The current transaction exceeded its quota limitations.', 'QuotaExceededError'));
      },
    }));
}
