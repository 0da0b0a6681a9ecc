/** `memory.retrieve`, `memory.inject` and `memory.assemble`: the caller's top-k memories, and the prompt block they render into. */
import { ValidationError } from '../errors';
import { assembleContext, type Assembled } from '../inject/assemble';
import { renderContext } from '../inject/inject';
import { estimateTokens } from '../inject/tokens';
import { describeValue } from '../issues';
import { AssembleOptions, checkRetrieved, parseInput, Query, RetrieveOptions } from '../options';
import { retrieveMemories, type RetrievePlan, type Retrieved } from '../retrieve/retrieve';
import { recordsAsOf } from '../asof/as-of';
import { rankRecords } from '../asof/rank';
import { asOfDeps } from './inspect';
import { DEFAULT_WEIGHTS, type Scope } from '../schema';
import type { MemoryDeps } from './deps';

/** A retrieve call parsed at the edge: the query text, the plan, and `asOf` when it ranks a past state. */
export interface ParsedRetrieve {
  text: string;
  plan: RetrievePlan;
  asOf?: number;
}

/** Parses `retrieve`'s arguments (and `explain`'s, which are the same). */
export function parseRetrieve(query: string, options: RetrieveOptions): ParsedRetrieve {
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
  return { text, plan, ...(parsed.asOf !== undefined ? { asOf: parsed.asOf } : {}) };
}

/** The one ranking retrieve and explain run: the store's search, or a past state's. */
export function runRetrieve(deps: MemoryDeps, { text, plan, asOf }: ParsedRetrieve): Promise<Retrieved[]> {
  if (asOf !== undefined) return retrieveAsOf(deps, text, plan, asOf);
  return retrieveMemories(deps, text, plan);
}

export async function retrieve(deps: MemoryDeps, query: string, options: RetrieveOptions): Promise<Retrieved[]> {
  return runRetrieve(deps, parseRetrieve(query, options));
}

/** The top k of what the store held at `asOf`, ranked as retrieval ranked then (recency as of `asOf`). */
async function retrieveAsOf(deps: MemoryDeps, text: string, plan: RetrievePlan, asOf: number): Promise<Retrieved[]> {
  if (plan.k === 0 || plan.scopes.length === 0) return [];
  const records = await recordsAsOf(asOfDeps(deps), plan.owner, asOf, false);
  const [vector] = await deps.embedder.embed([text]);
  return rankRecords(records, { vector: vector!, text }, plan, asOf);
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
