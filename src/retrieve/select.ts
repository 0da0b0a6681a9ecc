/**
 * What retrieval returns of its ranking: only hits with some relevance to the query (k is a
 * maximum, not a quota), and one hit per statement (a fact and the episode it was read from are
 * one). The same rule for a live retrieve (retrieve.ts) and a past state's (verbs/as-of.ts).
 */
import type { MemoryRecord } from '../schema';

/**
 * The least fused relevance (`Retrieved.relevance`, every channel counted: cosine, lexical, and
 * any other the layer fuses) a hit needs to be returned. Below it a memory shares nothing with
 * the query: when some memory shares a term with it, one that shares none has at most 0.05 of its
 * cosine (src/worker/fusion.ts), 0.000–0.015 for unrelated text.
 */
export const RELEVANCE_FLOOR = 0.02;

/**
 * A question about the user as a whole ("what do you know about me?", "tell me about myself",
 * "what do you remember about me", "who am I"): relevant to every memory alike.
 */
const ABOUT_THE_USER =
  /\b(?:know|remember|recall|tell|told|say|said|describe|summari[sz]e|learned|learnt|have|stored|saved|kept|noted)\b[^.?!\n]{0,40}?\b(?:about|of|on)[ \t]+(?:me|myself)\b(?![ \t]*(?:and|or)\b)|^[ \t]*who[ \t]+am[ \t]+i\b|\bwhat[ \t]+have[ \t]+i[ \t]+(?:told|said to)[ \t]+you\b/i;

/** Whether `query` asks about the user as a whole rather than about something in particular. */
export function asksAboutTheUser(query: string): boolean {
  return ABOUT_THE_USER.test(query.replace(/[\u2018\u2019\u02BC]/g, "'"));
}

/** What {@link oneHitPerStatement} reads of a hit. */
export interface StatementHit {
  memory: Pick<MemoryRecord, 'id' | 'episodeId' | 'restatedIn'>;
  /** Ids of the memories this hit stands for beside itself (a fact's episodes, an episode's facts). */
  represents?: string[];
}

/**
 * The hits, best first, with a fact and the turns that state it (the episode it was read from,
 * `episodeId`, and those that restated it, `restatedIn`) as one hit: the better ranked stays and
 * lists the others in `represents`. Two facts read from one turn are two statements and stay two
 * hits; an episode that stands for one of them stands for both.
 */
export function oneHitPerStatement<T extends StatementHit>(ranked: readonly T[]): T[] {
  /** Episode id → the kept hit that stands for it: the episode itself, or the first fact that states it. */
  const standsFor = new Map<string, T>();
  const out: T[] = [];
  for (const hit of ranked) {
    const { id, episodeId, restatedIn } = hit.memory;
    const turns = [...(episodeId !== undefined ? [episodeId] : []), ...(restatedIn ?? [])];
    // A fact is an episode's when that episode itself is a hit above it; an episode is any earlier hit's that claimed it.
    const standing = turns.length === 0 ? standsFor.get(id) : turns.map((turn) => standsFor.get(turn)).find((kept) => kept !== undefined && turns.includes(kept.memory.id));
    if (standing) {
      standing.represents = [...(standing.represents ?? []), id];
      continue;
    }
    const { represents: _represents, ...rest } = hit;
    const copy = rest as T;
    for (const claims of turns.length === 0 ? [id] : turns) if (!standsFor.has(claims)) standsFor.set(claims, copy);
    out.push(copy);
  }
  return out;
}
