/**
 * Which turns state a fact: the episode it was read from (`episodeId`) and the episodes of the
 * turns that restated it (`restatedIn`, added by each corroboration). One reading for every
 * stage that needs it: the plan that retires a superseded fact's turns
 * (consolidate/plan.ts), the one-hit rule of retrieval (retrieve/select.ts) and the standing
 * profile (retrieve/profile.ts).
 */
import type { MemoryRecord } from '../schema';

/** What {@link statingEpisodeIds} reads of a memory. */
export type StatedMemory = Pick<MemoryRecord, 'episodeId' | 'restatedIn'>;

/**
 * The ids of the episodes that state `memory` (this version of it), the turn it was read from
 * first. An UPDATE's memory starts with neither of its predecessor's, so the turns that stated
 * the values it replaced are not among them: they retired with those.
 */
export function statingEpisodeIds(memory: StatedMemory): string[] {
  return [...new Set([...(memory.episodeId !== undefined ? [memory.episodeId] : []), ...(memory.restatedIn ?? [])])];
}

/** Whether the episode `episodeId` states `fact`: it was read from it, or it restated it. */
export function statedIn(fact: StatedMemory, episodeId: string): boolean {
  return fact.episodeId === episodeId || (fact.restatedIn?.includes(episodeId) ?? false);
}
