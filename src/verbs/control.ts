/**
 * The user's verbs over one memory (a chat app's memory settings): `correct`, `pin`, `unpin`,
 * `why`. `forget` has its own page (forget-memory.ts). Each parses its arguments at the edge and
 * runs its stage (control/).
 */
import { readOwnMemory, setPinned } from '../control/pin';
import { why as explain, type WhyReport } from '../control/why';
import { EPISODE_TOPIC } from '../episode/episode';
import { ConflictError } from '../errors';
import { parseInput, parseOwner, type OwnerOptions } from '../options';
import { Id, Text, type MemoryRecord, type Operation } from '../schema';
import { isAlreadySaid } from '../consolidate/correction';
import type { MemoryDeps } from './deps';
import { remember } from './remember';

/** The source a correction is written under: the user's own word, named after the memory it corrects (forgetSource of it reverts the correction). */
export function correctionSource(id: string): { type: 'user_explicit'; id: string } {
  return { type: 'user_explicit', id: `correction:${id}` };
}

export async function correct(deps: MemoryDeps, id: string, content: string, owner: OwnerOptions): Promise<Operation> {
  const memoryId = parseInput(Id, id, 'id');
  const text = parseInput(Text, content, 'content');
  const parsed = parseOwner(owner, 'owner');
  const memory = await readOwnMemory(deps.storage, memoryId, parsed, 'correct');
  if (memory.topic === EPISODE_TOPIC) throw new ConflictError(`memory '${memoryId}' was not corrected: it is an episode (what a turn of the conversation said), not a fact a correction replaces; forget it instead`);
  // The same write as remember({ replaces }): an UPDATE of that memory, stored as an input, so
  // a replay (forgetSource of another source, asOf, import) makes the same correction. Whether
  // the memory already says it (a NOOP, nothing written) is decided there, under the write lock
  // (consolidate/correction.ts): a correction started together with the same one finds it made.
  const operation = await remember(
    deps,
    { content: text, topic: memory.topic, importance: memory.importance, halfLifeDays: memory.halfLifeDays },
    {
      userId: parsed.userId,
      appName: parsed.appName,
      scope: memory.scope,
      ...(memory.sessionId !== undefined ? { sessionId: memory.sessionId } : {}),
      source: correctionSource(memoryId),
      replaces: memoryId,
    },
    true,
  );
  // The memory was forgotten or corrected by a write that landed first: nothing was written.
  if (!operation) {
    await readOwnMemory(deps.storage, memoryId, parsed, 'correct');
    throw new ConflictError(`memory '${memoryId}' was not corrected: it changed while the correction was written`);
  }
  if (operation.action === 'UPDATE' || isAlreadySaid(operation)) return operation;
  // Refused (the trust gate): consolidate committed nothing of it.
  throw new ConflictError(`memory '${memoryId}' was not corrected: ${operation.reason}`);
}

export async function pin(deps: MemoryDeps, id: string, owner: OwnerOptions, pinned: boolean): Promise<MemoryRecord> {
  return setPinned(deps.storage, parseInput(Id, id, 'id'), parseOwner(owner, 'owner'), pinned);
}

export async function why(deps: MemoryDeps, id: string, owner: OwnerOptions): Promise<WhyReport> {
  return explain(deps.storage.records, parseInput(Id, id, 'id'), parseOwner(owner, 'owner'));
}
