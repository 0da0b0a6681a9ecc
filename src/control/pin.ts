/**
 * Pinning: the user marks a memory to keep. A pinned memory does not decay (schema.ts
 * `recencyOf`, `decayHalfLife`), is never pruned (prune.ts), comes first among memories of
 * equal score (retrieve.ts), and its pin passes to the memory an UPDATE or a regeneration makes
 * of it (plan.ts, erasure-plan.ts). A pin changes no content and no time: `updatedAt` stays.
 */
import { ConflictError, NotFoundError, PermissionError } from '../errors';
import type { MemoryRecord } from '../schema';
import type { Owner, Storage } from '../storage/contract';
import { writeOwner } from '../storage/write-owner';

/** The memory `id` as one of the user's verbs may change it: the owner's own, active, not app scope. */
export async function readOwnMemory(storage: Storage, id: string, owner: Owner, verb: string): Promise<MemoryRecord> {
  const [memory] = await storage.records.getMany([id], owner);
  if (!memory) throw new NotFoundError(`no memory '${id}' for user '${owner.userId}' in app '${owner.appName}'`);
  if (memory.scope === 'app') throw new PermissionError(`memory '${id}' is app scope: it belongs to every user of '${owner.appName}', so '${owner.userId}' cannot ${verb} it`);
  if (memory.invalidatedAt !== undefined) {
    const by = memory.supersededBy !== undefined ? `; its current version is '${memory.supersededBy}'` : '';
    throw new ConflictError(`memory '${id}' is no longer active (${memory.history.at(-1)?.event ?? 'invalidated'})${by}: only an active memory can be ${verb === 'pin' ? 'pinned' : verb === 'unpin' ? 'unpinned' : `${verb}ed`}`);
  }
  return memory;
}

/** The record as the pin leaves it, or null when it already is so (nothing to write). Pure. */
export function pinnedRecord(memory: MemoryRecord, pinned: boolean): MemoryRecord | null {
  if ((memory.pinned === true) === pinned) return null;
  if (pinned) return { ...memory, pinned: true };
  const { pinned: _pinned, ...unpinned } = memory;
  return unpinned;
}

/** Pins (or unpins) the memory `id` of `owner` in one commit; resolves to the record as it stands. */
export function setPinned(storage: Storage, id: string, owner: Owner, pinned: boolean): Promise<MemoryRecord> {
  return writeOwner(storage, owner, async (write) => {
    const memory = await readOwnMemory(storage, id, owner, pinned ? 'pin' : 'unpin');
    const next = pinnedRecord(memory, pinned);
    if (!next) return memory;
    await write.commit({ records: [next] });
    return next;
  });
}
