/**
 * `retrieve(query, { profile: true })`: the hits with the user's standing profile
 * (retrieve/profile.ts). In the occasional verbs' chunk, loaded on the first such call, so a
 * page that never asks for the profile does not load it.
 */
import { chooseProfile, PROFILE_TOPICS, withProfile } from '../retrieve/profile';
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

/** `hits` with the profile of the store (or of the past state `asOf` names). */
export async function addProfile(deps: MemoryDeps, { plan, asOf }: ParsedRetrieve, hits: readonly Retrieved[]): Promise<Retrieved[]> {
  const records = asOf === undefined ? await profileRecords(deps, plan.owner) : await listAsOf(deps, plan.owner, asOf, false);
  return withProfile(hits, chooseProfile(records), { now: asOf ?? deps.clock(), weights: plan.weights });
}
