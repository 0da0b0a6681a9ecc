/**
 * The check a correction (`correct`, consolidate's `replaceOnly`) makes under the partition's
 * write lock, where no other write can land between it and the decision: whether the memory it
 * corrects already says the new content. The memory itself, or the version that superseded it
 * while this correction waited for the lock (another correction started together): two
 * identical corrections make one UPDATE, and the other finds it made.
 */
import type { MemoryRecord, Operation } from '../schema';
import type { Owner, RecordStore } from '../storage/contract';
import { sameFactKey } from '../text';

/**
 * A NOOP of the active version of `memory` (itself, or the newest version of its line) when it
 * says `content` (the same text by {@link sameFactKey}); undefined otherwise, when the line ends
 * in a memory that is no longer active (forgotten), or when the correction carries metadata
 * (mem0's `update(id, { metadata })`: every such call is an UPDATE, with its history row).
 */
export async function alreadySaid(store: RecordStore, owner: Owner, memory: MemoryRecord | undefined, content: string, metadata?: string): Promise<Operation | undefined> {
  if (metadata !== undefined) return undefined;
  let current = memory;
  while (current?.invalidatedAt !== undefined && current.supersededBy !== undefined) [current] = await store.getMany([current.supersededBy], owner);
  if (current === undefined || current.invalidatedAt !== undefined || sameFactKey(current.content) !== sameFactKey(content)) return undefined;
  return { action: 'NOOP', memoryId: current.id, targetId: current.id, content: current.content, reason: saidReason(current.id) };
}

/** Whether `operation` is {@link alreadySaid}'s NOOP (and not a refusal of the correction). */
export function isAlreadySaid(operation: Operation): boolean {
  return operation.action === 'NOOP' && operation.reason === saidReason(operation.memoryId);
}

const saidReason = (id: string) => `${id} already says this: nothing to correct`;
