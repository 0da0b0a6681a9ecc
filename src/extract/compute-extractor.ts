/**
 * The default extractor: the offline speech reader (./speech) run by compute, so it runs in
 * the worker in a browser and in-process under Node or with `worker: 'off'`: the same module
 * either way, so both extract the same facts.
 */
import type { ExtractedFact } from '../worker/api';
import type { Extractor } from './extractor';

/** What the extractor needs of the compute client. */
export interface ExtractCompute {
  extract(texts: string[], at: number | undefined): Promise<ExtractedFact[]>;
}

/** An Extractor that hands the user's messages to compute's `extract`. */
export function createComputeExtractor(compute: ExtractCompute): Extractor {
  return { extract: (userMessages, context) => compute.extract(userMessages.map((message) => message.content), context.at) };
}
