/**
 * `retrieve(query, { profile: true })`: the hits with the user's standing profile
 * (retrieve/profile.ts). In the occasional verbs' chunk, loaded on the first such call, so a
 * page that never asks for the profile does not load it.
 */
import { isEpisode } from '../extract/topics';
import { chooseProfile, PROFILE_TOPICS, statedIn, withProfile } from '../retrieve/profile';
import type { Retrieved } from '../retrieve/retrieve';
import type { MemoryRecord } from '../schema';
import type { Owner } from '../storage/contract';
import { listAsOf } from './as-of';
import type { MemoryDeps } from './deps';
import type { ParsedRetrieve } from './run-retrieve';

/** The owner's active records on the profile topics, whole (the topic read may hand back working forms). */
async function profileRecords(deps: MemoryDeps, owner: Owner): Promise<MemoryRecord[]> {
  const { records } = deps.storage;
  const onTopics = await records.workingSet(owner, { ids: [], topics: PROFILE_TOPICS, scope: 'user', sourceId: '' });
  const ids = chooseProfile(onTopics).map((record) => record.id);
  return ids.length ? records.getMany(ids, owner) : [];
}

/**
 * The facts stated in the episode hits that stand for a profile memory (read from them or restated in them; withProfile asks whether
 * such an episode says anything else): of `records` when given (a past state's), else read by
 * the episode's sources (a fact lists the source of the turn it was read from).
 */
async function episodeFacts(deps: MemoryDeps, owner: Owner, hits: readonly Retrieved[], profile: readonly MemoryRecord[], records?: readonly MemoryRecord[]): Promise<MemoryRecord[]> {
  const episodes = hits.map((hit) => hit.memory).filter((memory) => isEpisode(memory) && profile.some((record) => statedIn(record, memory.id)));
  if (!episodes.length) return [];
  const ids = episodes.map((episode) => episode.id);
  const sourceIds = new Set(episodes.flatMap((episode) => episode.sources.map((source) => source.id)));
  const candidates = records ?? (await Promise.all([...sourceIds].map((sourceId) => deps.storage.records.bySource(owner, sourceId)))).flat();
  return candidates.filter((record) => ids.some((id) => statedIn(record, id)));
}

/** `hits` with the profile of the store (or of the past state `asOf` names). */
export async function addProfile(deps: MemoryDeps, { plan, asOf }: ParsedRetrieve, hits: readonly Retrieved[]): Promise<Retrieved[]> {
  const records = asOf === undefined ? undefined : await listAsOf(deps, plan.owner, asOf, false);
  const profile = chooseProfile(records ?? (await profileRecords(deps, plan.owner)));
  const facts = await episodeFacts(deps, plan.owner, hits, profile, records);
  return withProfile(hits, profile, facts, { now: asOf ?? deps.clock(), weights: plan.weights });
}
