/** `memory.reembed`: migrate the vectors another embedder wrote to this memory's embedder. */
import { parseInput, ReembedOptions } from '../options';
import { reembed as reembedAll, type ReembedReport, type ReembedRequest } from '../reembed/reembed';
import type { MemoryDeps } from './deps';

/** `internal`: what createMemory's migration on open asks beside the caller's options. */
export async function reembed(deps: MemoryDeps, options?: ReembedOptions, internal: Pick<ReembedRequest, 'skipPending'> = {}): Promise<ReembedReport> {
  return reembedAll(deps, { ...parseInput(ReembedOptions, options, 'options'), ...internal });
}
