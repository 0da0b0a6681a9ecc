/**
 * The verbs an application calls now and then rather than every turn: erasure, the user's
 * control (forget one memory, correct, pin, why), undo, pruning,
 * re-embedding, export and import, and the `asOf` reads (which replay the
 * stored inputs). They load as one chunk on the first such call (./load.ts), so the code an
 * application loads to start and run a conversation stays small.
 */
import { recordsAsOf, type AsOfDeps } from '../asof/as-of';
import { rankRecords } from '../asof/rank';
import { replay } from '../forget/replay';
import type { Owner } from '../storage/contract';
import type { MemoryRecord } from '../schema';
import type { RetrievePlan, Retrieved } from '../retrieve/retrieve';
import type { MemoryDeps } from './deps';
import { replayDepsOf } from './forget';

export { forgetSource } from './forget';
export { forget } from './forget-memory';
export { correct, pin, why } from './control';
export { prune } from './prune';
export { reembed } from './reembed';
export { undo } from './undo';
export { exportOwner } from '../transfer/export';
export { importOwner } from '../transfer/import';

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
  const [vector] = await deps.embedder.embed([text]);
  return rankRecords(records, { vector: vector!, text }, plan, asOf);
}
