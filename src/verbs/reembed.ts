/** `memory.reembed`: migrate the vectors another embedder wrote to this memory's embedder. */
import { parseInput, ReembedOptions } from '../options';
import { reembed as reembedAll, type ReembedReport } from '../reembed/reembed';
import type { MemoryDeps } from './deps';

export async function reembed(deps: MemoryDeps, options?: ReembedOptions): Promise<ReembedReport> {
  return reembedAll(deps, parseInput(ReembedOptions, options, 'options'));
}
