/** `retrieve`'s arguments parsed at the edge, and the one ranking that `retrieve` and `explain` both run. */
import { EmbedderMismatchError } from '../errors';
import { parseInput, Query, RetrieveOptions } from '../options';
import { embedPending } from '../reembed/reembed';
import { retrieveMemories, type RetrievePlan, type Retrieved } from '../retrieve/retrieve';
import { chooseProfile, PROFILE_TOPICS, withProfile } from '../retrieve/profile';
import { asksAboutTheUser, RELEVANCE_FLOOR } from '../retrieve/select';
import { DEFAULT_WEIGHTS, type MemoryRecord, type Scope } from '../schema';
import type { Owner } from '../storage/contract';
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

/** What a past state held (verbs/as-of.ts `listAsOf`, active records only): passed in for the same reason. */
export type ListAsOf = (deps: MemoryDeps, owner: Owner, asOf: number, includeInvalid: boolean) => Promise<MemoryRecord[]>;

/** The owner's active records on the profile topics, whole (the topic read may hand back working forms). */
async function profileRecords(deps: MemoryDeps, owner: Owner): Promise<MemoryRecord[]> {
  const { records } = deps.storage;
  const onTopics = await records.workingSet(owner, { ids: [], topics: PROFILE_TOPICS, scope: 'user', sourceId: '' });
  const ids = chooseProfile(onTopics).map((record) => record.id);
  return ids.length ? records.getMany(ids, owner) : [];
}

/**
 * The one ranking retrieve and explain run: the store's search, or a past state's. Vectors the
 * search refuses as foreign may be the caller's own memories an erasure left without a vector
 * while the embedder was offline (embed/embedder.ts `NEEDS_VECTOR`): the embedder answered the
 * query, so they are embedded now and the search runs again.
 */
export async function runRetrieve(deps: MemoryDeps, parsed: ParsedRetrieve, rankAsOf: RankAsOf, listAsOf: ListAsOf): Promise<Retrieved[]> {
  const hits = await rankHits(deps, parsed, rankAsOf);
  const { plan, asOf } = parsed;
  if (!parsed.profile || !plan.scopes.includes('user')) return hits;
  const records = asOf === undefined ? await profileRecords(deps, plan.owner) : await listAsOf(deps, plan.owner, asOf, false);
  return withProfile(hits, chooseProfile(records), { now: asOf ?? deps.clock(), weights: plan.weights });
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
