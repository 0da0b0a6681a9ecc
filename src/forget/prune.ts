/**
 * Decay pruning: memories whose decayed confidence fell below a floor are invalidated
 * (history event `pruned`) and no longer retrieved. Tombstones keep their text: pruning is
 * forgetting by age, not erasure; use forgetSource to erase.
 */
import { decayedConfidence } from '../schema';
import type { Owner } from '../store/owner';
import { userPartition } from '../store/owner';
import type { Store } from '../store/store';
import type { VectorIndex } from '../store/vector-index';
import { ConflictError } from '../errors';

export interface PruneReport {
  /** Each pruned memory with the decayed confidence it had. */
  pruned: { id: string; content: string; decayedConfidence: number }[];
  /** How many active memories remain. */
  remaining: number;
}

export interface PruneDeps {
  store: Store;
  index: VectorIndex;
  clock: () => number;
}

export async function pruneMemories(deps: PruneDeps, owner: Owner, floor: number): Promise<PruneReport> {
  const key = userPartition(owner);
  for (let attempt = 1; ; attempt++) {
    const versions = await deps.index.ensure([key]);
    const now = deps.clock();
    const active = await deps.store.list(owner, { scopes: ['user', 'session'], includeInvalid: false });
    const scored = active.map((memory) => ({ memory, decayed: decayedConfidence(memory, now) }));
    const doomed = scored.filter((entry) => entry.decayed < floor);
    if (doomed.length === 0) return { pruned: [], remaining: active.length };
    const records = doomed.map(({ memory, decayed }) => ({
      ...memory,
      invalidatedAt: now,
      history: [
        ...memory.history,
        { at: now, event: 'pruned' as const, reason: `decayed confidence ${decayed.toFixed(3)} fell below the floor ${floor}` },
      ],
    }));
    try {
      const result = await deps.store.commit({ records, expected: versions });
      await deps.index.afterCommit(result, records);
      return {
        pruned: doomed.map(({ memory, decayed }) => ({ id: memory.id, content: memory.content, decayedConfidence: decayed })),
        remaining: active.length - doomed.length,
      };
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 5) throw error;
    }
  }
}
