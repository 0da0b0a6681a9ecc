/**
 * The standing profile: the few memories that say who the user is, which a prompt needs
 * whatever the question (what to call them, where they live, what they do, what they can eat).
 * `retrieve(query, { profile: true })` returns them beside the query's hits, marked `profile`,
 * scored as a question about the user as a whole scores every memory (no relevance); `inject`
 * and `assemble` write them in a part of the block of their own. They are not hits: `k` does
 * not count them and no relevance floor applies to them, so the hits stay unpadded.
 */
import { statingEpisodeIds } from '../consolidate/episodes';
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

/** Whether `hit` is `record` or stands for it (`represents` it, or is a turn that states it: the one it was read from, one that restated it). */
function standsFor(hit: Retrieved, record: MemoryRecord): boolean {
  return hit.memory.id === record.id || statedIn(record, hit.memory.id) || (hit.represents?.includes(record.id) ?? false);
}

/** Whether the episode `episodeId` states `fact`: it was read from it, or it restated it. */
export function statedIn(fact: MemoryRecord, episodeId: string): boolean {
  return statingEpisodeIds(fact).includes(episodeId);
}

/**
 * Whether the episode `hit` says nothing but profile statements: every fact it represents, and
 * every active fact it states (`facts` holds them), is in the profile.
 */
function onlyProfile(hit: Retrieved, profileIds: ReadonlySet<string>, facts: readonly MemoryRecord[]): boolean {
  const read = facts.filter((fact) => statedIn(fact, hit.memory.id) && fact.invalidatedAt === undefined).map((fact) => fact.id);
  return [...(hit.represents ?? []), ...read].every((id) => profileIds.has(id));
}

/**
 * The hits with the profile: a hit that is a profile memory is marked `profile` where it ranks;
 * an episode hit that stands for one gives its place to it only when all it says is profile
 * (`facts`: the facts read from the hits' episodes), so the statement is written once, as
 * profile, with the hit's score; an episode that also says something else stays the hit, as the
 * query matched it. A hit's `represents` never lists a profile memory: the profile memories not
 * placed follow the hits in creation order, scored with recency and importance alone (relevance 0).
 */
export function withProfile(hits: readonly Retrieved[], profile: readonly MemoryRecord[], facts: readonly MemoryRecord[], scoring: { now: number; weights: Weights }): Retrieved[] {
  const profileIds = new Set(profile.map((record) => record.id));
  const placed = new Set<string>();
  const out = hits.map((hit): Retrieved => {
    const record = profile.find((candidate) => !placed.has(candidate.id) && standsFor(hit, candidate));
    if (record && (record.id === hit.memory.id || onlyProfile(hit, profileIds, facts))) {
      placed.add(record.id);
      const represents = [...(record.id === hit.memory.id ? [] : [hit.memory.id]), ...(hit.represents ?? [])].filter((id) => !profileIds.has(id));
      return { ...hit, memory: record, ...(represents.length ? { represents } : {}), profile: true };
    }
    if (!hit.represents?.some((id) => profileIds.has(id))) return hit;
    const { represents: all, ...rest } = hit;
    const represents = all.filter((id) => !profileIds.has(id));
    return represents.length ? { ...rest, represents } : rest;
  });
  for (const record of profile) {
    if (placed.has(record.id)) continue;
    const recency = recencyOf(record, scoring.now);
    const { importance } = record;
    out.push({ memory: record, score: scoring.weights.recency * recency + scoring.weights.importance * importance, relevance: 0, recency, importance, profile: true });
  }
  return out;
}
