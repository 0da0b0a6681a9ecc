/** `memory.retrieve` and `memory.inject`: the caller's top-k memories, and the prompt block they render into. */
import { ValidationError } from '../errors';
import { renderContext } from '../inject/inject';
import { describeValue } from '../issues';
import { checkRetrieved, parseInput, Query, RetrieveOptions } from '../options';
import { retrieveMemories, type Retrieved } from '../retrieve/retrieve';
import { DEFAULT_WEIGHTS, type Scope } from '../schema';
import type { MemoryDeps } from './deps';

export async function retrieve(deps: MemoryDeps, query: string, options: RetrieveOptions): Promise<Retrieved[]> {
  const text = parseInput(Query, query, 'query');
  const parsed = parseInput(RetrieveOptions, options, 'options');
  // A session's own memories join the default scopes only when the caller names the session.
  const scopes: Scope[] = parsed.scopes ?? (parsed.sessionId !== undefined ? ['user', 'session', 'app'] : ['user', 'app']);
  return retrieveMemories(deps, text, {
    owner: { userId: parsed.userId, appName: parsed.appName },
    scopes: [...new Set(scopes)],
    k: parsed.k,
    weights: parsed.weights ?? DEFAULT_WEIGHTS,
    ...(parsed.sessionId !== undefined ? { sessionId: parsed.sessionId } : {}),
  });
}

export function inject(deps: Pick<MemoryDeps, 'clock'>, system: string, retrieved: readonly Retrieved[]): string {
  if (typeof system !== 'string') throw new ValidationError('system', `must be the system prompt, a string (got ${describeValue(system)})`);
  checkRetrieved(retrieved);
  return renderContext(system, retrieved, deps.clock());
}
