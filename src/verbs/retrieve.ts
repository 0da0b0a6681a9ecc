/** `memory.retrieve`, `memory.inject` and `memory.assemble`: the caller's top-k memories, and the prompt block they render into. */
import { ValidationError } from '../errors';
import { assembleContext, type Assembled } from '../inject/assemble';
import { renderContext } from '../inject/inject';
import { estimateTokens } from '../inject/tokens';
import { describeValue } from '../issues';
import { AssembleOptions, checkRetrieved, parseInput, Query, RetrieveOptions } from '../options';
import { retrieveMemories, type RetrievePlan, type Retrieved } from '../retrieve/retrieve';
import { occasionalVerbs } from './load';
import { DEFAULT_WEIGHTS, type Scope } from '../schema';
import type { MemoryDeps } from './deps';

export async function retrieve(deps: MemoryDeps, query: string, options: RetrieveOptions): Promise<Retrieved[]> {
  const text = parseInput(Query, query, 'query');
  const parsed = parseInput(RetrieveOptions, options, 'options');
  // A session's own memories join the default scopes only when the caller names the session.
  const scopes: Scope[] = parsed.scopes ?? (parsed.sessionId !== undefined ? ['user', 'session', 'app'] : ['user', 'app']);
  const plan: RetrievePlan = {
    owner: { userId: parsed.userId, appName: parsed.appName },
    scopes: [...new Set(scopes)],
    k: parsed.k,
    weights: parsed.weights ?? DEFAULT_WEIGHTS,
    ...(parsed.sessionId !== undefined ? { sessionId: parsed.sessionId } : {}),
  };
  if (parsed.asOf !== undefined) return (await occasionalVerbs()).retrieveAsOf(deps, text, plan, parsed.asOf);
  return retrieveMemories(deps, text, plan);
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
