/**
 * Decay pruning: memories whose decayed confidence fell below a floor are invalidated
 * (history event `pruned`) and no longer retrieved. Tombstones keep their text: pruning is
 * forgetting by age, not erasure; use forgetSource to erase. On a full disk the pruned memories
 * are deleted instead, and the prune's record waits for the rebuild (full-disk-erasure.ts).
 */
import { decayedConfidence, type MemoryRecord } from '../schema';
import type { Owner, PruneInput, Storage } from '../storage/contract';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { defer, deletesInstead } from './full-disk-erasure';

export interface PruneReport {
  /** Each pruned memory with the decayed confidence it had. */
  pruned: { id: string; content: string; decayedConfidence: number }[];
  /** How many active memories remain. */
  remaining: number;
}

export interface PruneDeps {
  storage: Storage;
  clock: () => number;
}

/**
 * The memories `prune` retires at `now`: active user- and session-scope ones whose decayed
 * confidence is below `floor`, as tombstones with a `pruned` history entry. Pure, so the live
 * call and regeneration's replay prune identically.
 */
export function pruneRecords(active: readonly MemoryRecord[], now: number, floor: number): { record: MemoryRecord; decayed: number }[] {
  return (
    active
      // A pinned memory is never pruned: the user asked to keep it.
      .filter((memory) => memory.invalidatedAt === undefined && memory.scope !== 'app' && !memory.pinned)
      .map((memory) => ({ memory, decayed: decayedConfidence(memory, now) }))
      .filter((entry) => entry.decayed < floor)
      .map(({ memory, decayed }) => ({
        decayed,
        record: {
          ...memory,
          invalidatedAt: now,
          history: [...memory.history, { at: now, event: 'pruned' as const, reason: `decayed confidence ${decayed.toFixed(3)} fell below the floor ${floor}` }],
        },
      }))
  );
}

export function pruneMemories(deps: PruneDeps, owner: Owner, floor: number): Promise<PruneReport> {
  return writeOwner(deps.storage, owner, (write) => pruneOnce(deps, owner, floor, write));
}

async function pruneOnce(deps: PruneDeps, owner: Owner, floor: number, write: OwnerWrite): Promise<PruneReport> {
  const store = deps.storage.records;
  const now = deps.clock();
  const active = await store.list(owner, { scopes: ['user', 'session'], includeInvalid: false });
  const doomed = pruneRecords(active, now, floor);
  const records = doomed.map((entry) => entry.record);
  // Recorded even when nothing goes now: replayed without a revoked source, the same call
  // may prune what that source had kept fresh.
  const input: PruneInput = { userId: owner.userId, appName: owner.appName, at: now, kind: 'prune', floor };
  const report = {
    pruned: doomed.map(({ record, decayed }) => ({ id: record.id, content: record.content, decayedConfidence: decayed })),
    remaining: active.length - doomed.length,
  };
  // On a full disk (or with an erasure made there waiting for its rebuild) the pruned memories
  // are deleted, and the prune's record waits for the rebuild, which replays it (full-disk-erasure.ts).
  const pending = await store.erasurePending?.(owner);
  if (!pending) {
    try {
      await write.commit({ records, inputs: [input] });
      return report;
    } catch (error) {
      if (!deletesInstead(store, error)) throw error;
      // A full disk and nothing to prune: the store stays as it is (deleting would drop its
      // checkpoints and vectors and make a rebuild due for nothing). Only the call's record is
      // not kept, so a later erasure's replay will not repeat this empty prune.
      if (records.length === 0) return report;
    }
  }
  if (records.length > 0) await store.eraseByDeleting!(owner, write.versions, { deleteInputs: [], memoryIds: records.map((record) => record.id) });
  await defer(deps.storage, owner, new Map(), input);
  return report;
}
