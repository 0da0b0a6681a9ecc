/** The `asOf` reads: list and retrieve over the store as it stood at a time, rebuilt by replaying the stored inputs. */
import { recordsAsOf, type AsOfDeps } from '../asof/as-of';
import { rankRecords } from '../asof/rank';
import { replay } from '../forget/replay';
import { userPartition, type Owner } from '../storage/contract';
import type { MemoryRecord } from '../schema';
import type { RetrievePlan, Retrieved } from '../retrieve/retrieve';
import { oneHitPerStatement } from '../retrieve/select';
import type { MemoryDeps } from './deps';
import { replayDepsOf } from './forget';

/** The deps of an as-of read: the storage, and forgetSource's replay from a fresh working set. */
function asOfDeps(deps: MemoryDeps): AsOfDeps {
  const replayDeps = replayDepsOf(deps);
  return { storage: deps.storage, replay: (inputs) => replay(replayDeps, inputs) };
}

/** `list({ asOf })`: the owner's memories as they stood at `asOf`. */
export function listAsOf(deps: MemoryDeps, owner: Owner, asOf: number, includeInvalid: boolean): Promise<MemoryRecord[]> {
  return recordsAsOf(asOfDeps(deps), owner, asOf, includeInvalid);
}

/** `retrieve({ asOf })`: the top k of what the store held at `asOf`, ranked as retrieval ranked then (recency as of `asOf`). */
export async function retrieveAsOf(deps: MemoryDeps, text: string, plan: RetrievePlan, asOf: number): Promise<Retrieved[]> {
  if (plan.k === 0 || plan.scopes.length === 0) return [];
  const records = await recordsAsOf(asOfDeps(deps), plan.owner, asOf, false);
  const [vector] = await deps.embedder.embed([text], userPartition(plan.owner));
  const ranked = rankRecords(records, { vector: vector!, text }, { ...plan, k: records.length }, asOf);
  return oneHitPerStatement(ranked.filter((hit) => hit.relevance >= (plan.floor ?? Number.NEGATIVE_INFINITY))).slice(0, plan.k);
}
