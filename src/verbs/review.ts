/** `memory.pending`, `memory.approve` and `memory.reject`: the review queue (createMemory({ review })). */
import { parseInput, parseOwner, type OwnerOptions } from '../options';
import type { PendingMemory } from '../review/held';
import { approvePending, listPending, rejectPending, type RejectReport } from '../review/review';
import { Id, type Operation } from '../schema';
import { clearTextCaches, type MemoryDeps } from './deps';

export function pending(deps: MemoryDeps, owner: OwnerOptions): Promise<PendingMemory[]> {
  return listPending(deps.storage, parseOwner(owner, 'owner'));
}

export async function approve(deps: MemoryDeps, id: string, owner: OwnerOptions): Promise<Operation> {
  const memoryId = parseInput(Id, id, 'id');
  return approvePending(deps, memoryId, parseOwner(owner, 'owner'));
}

export async function reject(deps: MemoryDeps, id: string, owner: OwnerOptions): Promise<RejectReport> {
  const memoryId = parseInput(Id, id, 'id');
  const report = await rejectPending(deps, memoryId, parseOwner(owner, 'owner'));
  // The rejected fact's text is redacted from the store; it leaves the caches of user text too.
  await clearTextCaches(deps);
  return report;
}
