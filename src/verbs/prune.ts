/** `memory.prune`: retire the owner's memories whose decayed confidence fell below a floor. */
import { pruneMemories, type PruneReport } from '../forget/prune';
import { parseInput, PruneOptions } from '../options';
import type { MemoryDeps } from './deps';

export async function prune(deps: MemoryDeps, options: PruneOptions): Promise<PruneReport> {
  const parsed = parseInput(PruneOptions, options, 'options');
  return pruneMemories(deps, { userId: parsed.userId, appName: parsed.appName }, parsed.floor);
}
