/** `memory.retrieve`, `memory.inject` and `memory.assemble`: the caller's top-k memories, and the prompt block they render into. */
import { ValidationError } from '../errors';
import { assembleContext, type Assembled } from '../inject/assemble';
import { renderContext } from '../inject/inject';
import { estimateTokens } from '../inject/tokens';
import { describeValue } from '../issues';
import { AssembleOptions, checkRetrieved, parseInput, type RetrieveOptions } from '../options';
import type { Retrieved } from '../retrieve/retrieve';
import { parseRetrieve, runRetrieve } from './run-retrieve';
import { occasionalVerbs } from './load';
import type { MemoryDeps } from './deps';

export async function retrieve(deps: MemoryDeps, query: string, options: RetrieveOptions, floored = true): Promise<Retrieved[]> {
  const parsed = parseRetrieve(query, options);
  const { floor: _floor, ...unfloored } = parsed.plan;
  // A past state (asOf) is ranked by the occasional verbs' chunk, loaded on the first such call.
  return runRetrieve(
    deps,
    floored ? parsed : { ...parsed, plan: unfloored },
    async (...args) => (await occasionalVerbs()).retrieveAsOf(...args),
    async (...args) => (await occasionalVerbs()).addProfile(...args),
  );
}

function checkSystem(system: unknown): asserts system is string {
  if (typeof system !== 'string') throw new ValidationError('system', `must be the system prompt, a string (got ${describeValue(system)})`);
}

export function inject(deps: Pick<MemoryDeps, 'clock'>, system: string, retrieved: readonly Retrieved[]): string {
  checkSystem(system);
  checkRetrieved(retrieved);
  return renderContext(system, retrieved, deps.clock());
}

export function assemble(deps: Pick<MemoryDeps, 'clock'>, system: string, retrieved: readonly Retrieved[], options: AssembleOptions): Assembled {
  checkSystem(system);
  checkRetrieved(retrieved, 'assemble');
  const parsed = parseInput(AssembleOptions, options, 'options');
  return assembleContext(system, retrieved, { maxTokens: parsed.maxTokens, countTokens: parsed.countTokens ?? estimateTokens, order: parsed.order, now: deps.clock() });
}
