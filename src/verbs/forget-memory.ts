/** `memory.forget`: the user deletes one memory; its fact leaves the stored conversations it came from. */
import type { ForgetReport } from '../forget/erasure-plan';
import { forgetMemory } from '../forget/forget-memory';
import { replay } from '../forget/replay';
import { parseInput, parseOwner, type OwnerOptions } from '../options';
import { Id } from '../schema';
import { clearTextCaches, type MemoryDeps } from './deps';
import { replayDepsOf } from './forget';
import { candidatesOf } from './write-input';

export async function forget(deps: MemoryDeps, id: string, owner: OwnerOptions): Promise<ForgetReport> {
  const memoryId = parseInput(Id, id, 'id');
  const parsed = parseOwner(owner, 'owner');
  const replayDeps = replayDepsOf(deps);
  return forgetMemory(
    {
      ...deps,
      replay: (inputs, start, options) => replay(replayDeps, inputs, start, options),
      clearCaches: () => clearTextCaches(deps),
      candidatesOf: (input) => candidatesOf(deps, input),
    },
    memoryId,
    parsed,
  );
}
