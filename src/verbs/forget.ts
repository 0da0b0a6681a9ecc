/** `memory.forgetSource`: erase what only the source supported, regenerate the rest by replaying the owner's other inputs. */
import { policyTopicsOf } from '../consolidate/decider';
import { planConsolidation, targetOf } from '../consolidate/plan';
import { finishErasure as finishStoredErasure, forgetSource as eraseSource, type ForgetDeps, type ForgetReport } from '../forget/forget';
import type { Owner } from '../storage/owner';
import type { OwnerWrite } from '../storage/write-owner';
import { replay, type ReplayDeps } from '../forget/replay';
import { parseInput, parseOwner, type OwnerOptions } from '../options';
import { z } from 'zod/mini';
import { Id } from '../schema';
import { clearTextCaches, type MemoryDeps } from './deps';
import { candidatesOf } from './write-input';

/** Several source ids (forgotten in one replay): at least one, at most 100000. */
const SourceIds = z
  .array(Id)
  .check(z.minLength(1, { error: 'must name at least one source' }))
  .check(z.maxLength(100_000, { error: 'must name at most 100000 sources' }));

/** What a replay runs with: it extracts and plans exactly as the live writes did (the same candidates, embedder and policy). */
export function replayDepsOf(deps: MemoryDeps): ReplayDeps {
  // Engram's policy decides by partitions (forget/partition.ts): by its exclusive topics and the plan's.
  const policy = policyTopicsOf(deps.context.decider);
  return {
    candidatesOf: (input) => candidatesOf(deps, input),
    embedder: deps.embedder,
    plan: (working, items, input, at) => planConsolidation(working, items, targetOf(input), { ...deps.context, ...at }),
    ...(policy ? { partitions: { exclusiveTopics: new Set([...policy, ...deps.context.exclusiveTopics]) } } : {}),
  };
}

/** The erasure stage's deps: the replay as the live writes decide, the text caches to clear. */
function forgetDepsOf(deps: MemoryDeps): ForgetDeps {
  const replayDeps = replayDepsOf(deps);
  return {
    ...deps,
    // Engram's policy reads trust, never confidence or time: a source that only restated is erased without a replay (forget/restated.ts).
    ...(replayDeps.partitions ? { trust: deps.context.trust } : {}),
    replay: (inputs, start, options) => replay(replayDeps, inputs, start, options),
    clearCaches: () => clearTextCaches(deps),
  };
}

export async function forgetSource(deps: MemoryDeps, sourceId: string | readonly string[], options: OwnerOptions): Promise<ForgetReport> {
  const ids = new Set(Array.isArray(sourceId) ? parseInput(SourceIds, sourceId, 'sourceId') : [parseInput(Id, sourceId, 'sourceId')]);
  return eraseSource(forgetDepsOf(deps), ids, parseOwner(options));
}

/** The rebuild of an erasure made on a full disk, which the owner's next write runs first (storage/write-owner.ts finishErasuresWith). */
export function finishErasure(deps: MemoryDeps, owner: Owner, write: OwnerWrite): Promise<ForgetReport> {
  return finishStoredErasure(forgetDepsOf(deps), owner, write);
}
