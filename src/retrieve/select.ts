/**
 * What retrieval returns of its ranking: only hits with some relevance to the query (k is a
 * maximum, not a quota), and one hit per statement (a fact and the episode it was read from are
 * one). The same rule for a live retrieve (retrieve.ts) and a past state's (verbs/as-of.ts).
 */
import { statingEpisodeIds } from '../consolidate/episodes';
import { isEpisode } from '../extract/topics';
import type { MemoryRecord, Source } from '../schema';

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

/** What {@link oneHitPerStatement} reads of a hit: its links to turns and, when given, where it was read. */
export interface StatementHit {
  memory: Pick<MemoryRecord, 'id' | 'episodeId' | 'restatedIn'> & Partial<Pick<MemoryRecord, 'topic' | 'scope' | 'sessionId'>> & { sources?: readonly Pick<Source, 'id' | 'excerpt'>[] };
  /** Ids of the memories this hit stands for beside itself (a fact's episodes, an episode's facts). */
  represents?: string[];
}

/** Why a kept hit stands for a later one, in {@link sameStatement}'s order. */
export type Standing = 'linked' | 'turn';

type Said = StatementHit['memory'];

const isEpisodeHit = (memory: Said) => memory.topic !== undefined && isEpisode({ topic: memory.topic });

/** Folded as an episode's text is (episode.ts `episodeText`), "…" off: so an excerpt and a turn's text compare. */
const folded = (text: string) => text.replace(/…$/, '').replace(/\s+/g, ' ').trim();

/** Whether `fact` was read from the turn the episode `episode` keeps: a source of the turn's id, read from words the turn's text holds. */
function readFromTurn(fact: Said, episode: Said): boolean {
  const turns = episode.sources ?? [];
  return (fact.sources ?? []).some((source) => {
    const said = folded(source.excerpt);
    return said !== '' && turns.some((turn) => turn.id === source.id && folded(turn.excerpt).includes(said));
  });
}

/**
 * Why `kept` (a better ranked hit) stands for `hit`, or undefined when they are two statements.
 * Provenance alone decides, never shared words ("The user likes dogs." and "The user's sister is
 * allergic to dogs." are two statements):
 * - 'linked': one is a turn that states the other (the episode a fact was read from, `episodeId`,
 *   or one that restated it, `restatedIn`: consolidate/episodes.ts `statingEpisodeIds`);
 * - 'turn': an episode and a fact nothing links, read from that turn: the fact has a source of the
 *   turn's id whose excerpt the turn's text holds (a write of several turns whose link was not told).
 * The last holds only within one scope and session: a session's memory is not the user's. Two
 * facts are always two statements, even of one sentence and one topic ("My sister lives in Oslo
 * and my brother lives in Rome.", "I love sushi and I hate olives."): a shared excerpt does not
 * say they state the same thing, and folding one into the other would hide a fact.
 */
export function sameStatement(kept: Said, hit: Said): Standing | undefined {
  if (statingEpisodeIds(hit).includes(kept.id) || statingEpisodeIds(kept).includes(hit.id)) return 'linked';
  if (kept.scope !== hit.scope || kept.sessionId !== hit.sessionId) return undefined;
  const keptEpisode = isEpisodeHit(kept);
  if (keptEpisode === isEpisodeHit(hit)) return undefined;
  return (keptEpisode ? readFromTurn(hit, kept) : readFromTurn(kept, hit)) ? 'turn' : undefined;
}

/**
 * The hits, best first, one per statement: a hit that says what a better ranked hit already says
 * ({@link sameStatement}: a fact and the turns that state it) is left out, and the better ranked
 * lists it in `represents`. Two facts stay two hits, of one turn or one sentence; an episode that
 * stands for one of them stands for both.
 */
export function oneHitPerStatement<T extends StatementHit>(ranked: readonly T[]): T[] {
  const out: T[] = [];
  for (const hit of ranked) {
    const standing = out.find((kept) => sameStatement(kept.memory, hit.memory) !== undefined);
    if (standing) {
      standing.represents = [...(standing.represents ?? []), hit.memory.id];
      continue;
    }
    const { represents: _represents, ...rest } = hit;
    out.push(rest as T);
  }
  return out;
}
