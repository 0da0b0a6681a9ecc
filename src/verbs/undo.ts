/** `memory.undo`: revert the latest consolidation of one memory, when nothing was built on it since. */
import { parseInput, parseOwner, type OwnerOptions } from '../options';
import { replay } from '../forget/replay';
import { Operation } from '../schema';
import { undoOperation, type UndoReport } from '../undo/undo';
import { clearTextCaches, type MemoryDeps } from './deps';
import { replayDepsOf } from './forget';
import { candidatesOf } from './write-input';

export async function undo(deps: MemoryDeps, operation: Operation, owner: OwnerOptions): Promise<UndoReport> {
  const parsed = parseInput(Operation, operation, 'operation');
  const replayDeps = replayDepsOf(deps);
  const report = await undoOperation({ storage: deps.storage, clock: deps.clock, newId: deps.newId, candidatesOf: (input) => candidatesOf(deps, input), replay: (inputs) => replay(replayDeps, inputs) }, parsed, parseOwner(owner, 'owner'));
  // The undone fact left the store (its memory and its place in the stored input): it leaves the caches of user text too.
  await clearTextCaches(deps);
  return report;
}
