/** `retrieve`'s arguments parsed at the edge, and the one ranking that `retrieve` and `explain` both run. */
import { EmbedderMismatchError } from '../errors';
import { parseInput, Query, RetrieveOptions } from '../options';
import { embedPending } from '../reembed/reembed';
import { retrieveMemories, type RetrievePlan, type Retrieved } from '../retrieve/retrieve';
import { asksAboutTheUser, RELEVANCE_FLOOR } from '../retrieve/select';
import { DEFAULT_WEIGHTS, type Scope } from '../schema';
import type { MemoryDeps } from './deps';

/** A retrieve call parsed at the edge: the query text, the plan, and `asOf` when it ranks a past state. */
export interface ParsedRetrieve {
  text: string;
  plan: RetrievePlan;
  asOf?: number;
  /** Whether the user's standing profile goes beside the hits (retrieve/profile.ts). */
  profile: boolean;
}

/** Parses `retrieve`'s arguments (and `explain`'s, which are the same). */
export function parseRetrieve(query: string, options: RetrieveOptions): ParsedRetrieve {
  const text = parseInput(Query, query, 'query');
  const parsed = parseInput(RetrieveOptions, options, 'options');
  // A session's own memories join the default scopes only when the caller names the session.
  const scopes: Scope[] = parsed.scopes ?? (parsed.sessionId !== undefined ? ['user', 'session', 'app'] : ['user', 'app']);
  // A question about the user as a whole is relevant to every memory alike: ranked by recency
  // and importance alone. Whenever relevance counts, only memories relevant to the query are hits.
  const weights = asksAboutTheUser(text) ? { ...(parsed.weights ?? DEFAULT_WEIGHTS), relevance: 0 } : (parsed.weights ?? DEFAULT_WEIGHTS);
  const plan: RetrievePlan = {
    owner: { userId: parsed.userId, appName: parsed.appName },
    scopes: [...new Set(scopes)],
    k: parsed.k,
    weights,
    ...(weights.relevance > 0 ? { floor: RELEVANCE_FLOOR } : {}),
    ...(parsed.sessionId !== undefined ? { sessionId: parsed.sessionId } : {}),
  };
  return { text, plan, profile: parsed.profile === true, ...(parsed.asOf !== undefined ? { asOf: parsed.asOf } : {}) };
}

/** How a past state is ranked (verbs/as-of.ts `retrieveAsOf`): passed in, so this module does not load the chunk that holds it. */
export type RankAsOf = (deps: MemoryDeps, text: string, plan: RetrievePlan, asOf: number) => Promise<Retrieved[]>;

/** The hits with the user's standing profile (verbs/profile.ts `addProfile`): passed in for the same reason. */
export type AddProfile = (deps: MemoryDeps, parsed: ParsedRetrieve, hits: readonly Retrieved[]) => Promise<Retrieved[]>;

/**
 * The one ranking retrieve and explain run: the store's search, or a past state's. Vectors the
 * search refuses as foreign may be the caller's own memories an erasure left without a vector
 * while the embedder was offline (embed/embedder.ts `NEEDS_VECTOR`): the embedder answered the
 * query, so they are embedded now and the search runs again.
 */
export async function runRetrieve(deps: MemoryDeps, parsed: ParsedRetrieve, rankAsOf: RankAsOf, addProfile: AddProfile): Promise<Retrieved[]> {
  const hits = await rankHits(deps, parsed, rankAsOf);
  return parsed.profile && parsed.plan.scopes.includes('user') ? addProfile(deps, parsed, hits) : hits;
}

/** The hits alone: the store's search, or a past state's. */
async function rankHits(deps: MemoryDeps, { text, plan, asOf }: ParsedRetrieve, rankAsOf: RankAsOf): Promise<Retrieved[]> {
  if (asOf !== undefined) return rankAsOf(deps, text, plan, asOf);
  try {
    return await retrieveMemories(deps, text, plan);
  } catch (error) {
    if (!(error instanceof EmbedderMismatchError) || (await embedPending(deps, plan.owner)) === 0) throw error;
    return retrieveMemories(deps, text, plan);
  }
}
