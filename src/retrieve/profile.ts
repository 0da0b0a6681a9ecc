/**
 * The standing profile: the few memories that say who the user is, which a prompt needs
 * whatever the question (what to call them, where they live, what they do, what they can eat).
 * `retrieve(query, { profile: true })` returns them beside the query's hits, marked `profile`,
 * scored as a question about the user as a whole scores every memory (no relevance); `inject`
 * and `assemble` write them in a part of the block of their own. They are not hits: `k` does
 * not count them and no relevance floor applies to them, so the hits stay unpadded.
 */
import { isEpisode } from '../extract/topics';
import { byCreation, recencyOf, type MemoryRecord, type Weights } from '../schema';
import type { Retrieved } from './retrieve';

/**
 * The topics of the profile, chosen by what they are, not tuned: the name and pronouns the user
 * goes by, where they live, their job, their diet and their allergies. Each is one value at a time
 * (exclusive) but allergies, and each is what an assistant must not get wrong on a question that
 * does not name it (booking a meal, addressing a letter). Health, family, beliefs and the like are
 * left to the query: many values, and more private than a prompt should carry unasked.
 */
export const PROFILE_TOPICS: readonly string[] = Object.freeze(['identity', 'pronouns', 'home', 'occupation', 'diet', 'allergy']);

/** At most this many profile memories: the most important (then the newest) when the user has more. */
export const PROFILE_LIMIT = 6;

/** Whether `record` can stand in the profile: an active fact of the user on a profile topic. */
export function isProfileRecord(record: MemoryRecord): boolean {
  return record.invalidatedAt === undefined && record.scope === 'user' && !isEpisode(record) && PROFILE_TOPICS.includes(record.topic);
}

/** The profile of `records` (any of the owner's records): at most {@link PROFILE_LIMIT}, in creation order. */
export function chooseProfile(records: readonly MemoryRecord[]): MemoryRecord[] {
  return records
    .filter(isProfileRecord)
    .sort((a, b) => b.importance - a.importance || b.updatedAt - a.updatedAt || byCreation(a, b))
    .slice(0, PROFILE_LIMIT)
    .sort(byCreation);
}

/** Whether `hit` is `record` or stands for it (`represents` it, or is the episode it was read from). */
function standsFor(hit: Retrieved, record: MemoryRecord): boolean {
  return hit.memory.id === record.id || hit.memory.id === record.episodeId || (hit.represents?.includes(record.id) ?? false);
}

/**
 * The hits with the profile: a hit that is a profile memory is marked `profile` where it ranks;
 * a hit that stands for one otherwise (its episode) gives its place to it, so the statement is
 * written once, as profile, with the hit's score; the other profile memories follow the hits in
 * creation order, scored with recency and importance alone (relevance 0).
 */
export function withProfile(hits: readonly Retrieved[], profile: readonly MemoryRecord[], scoring: { now: number; weights: Weights }): Retrieved[] {
  const placed = new Set<string>();
  const out = hits.map((hit): Retrieved => {
    const record = profile.find((candidate) => !placed.has(candidate.id) && standsFor(hit, candidate));
    if (!record) return hit;
    placed.add(record.id);
    if (record.id === hit.memory.id) return { ...hit, profile: true };
    const represents = [hit.memory.id, ...(hit.represents ?? [])].filter((id) => id !== record.id);
    return { ...hit, memory: record, represents, profile: true };
  });
  for (const record of profile) {
    if (placed.has(record.id)) continue;
    const recency = recencyOf(record, scoring.now);
    const { importance } = record;
    out.push({ memory: record, score: scoring.weights.recency * recency + scoring.weights.importance * importance, relevance: 0, recency, importance, profile: true });
  }
  return out;
}
