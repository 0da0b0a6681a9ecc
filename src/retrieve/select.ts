/**
 * What retrieval returns of its ranking: only hits with some relevance to the query (k is a
 * maximum, not a quota), and one hit per statement (a fact and the episode it was read from are
 * one). The same rule for a live retrieve (retrieve.ts) and a past state's (verbs/as-of.ts).
 */
import { contentStems, heldShare } from '../episode/read';
import { statingEpisodeIds } from '../episode/stating';
import { isEpisode } from '../extract/topics';
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

/** What {@link oneHitPerStatement} reads of a hit: its links to turns, and (when given) its words and where they were read. */
export interface StatementHit {
  memory: Pick<MemoryRecord, 'id' | 'episodeId' | 'restatedIn'> & Partial<Pick<MemoryRecord, 'content' | 'topic' | 'sources' | 'scope' | 'sessionId'>>;
  /** Ids of the memories this hit stands for beside itself (a fact's episodes, an episode's facts, a fact of the same sentence, a hit it says all of). */
  represents?: string[];
}

/** Why a kept hit stands for a later one, in {@link sameStatement}'s order. */
export type Standing = 'turn' | 'sentence' | 'words';

/** Each hit's content words, read once however many hits it is compared with. */
const stems = new WeakMap<object, ReadonlySet<string>>();
function stemsOf(memory: StatementHit['memory']): ReadonlySet<string> {
  let words = stems.get(memory);
  if (!words) stems.set(memory, (words = contentStems(memory.content ?? '')));
  return words;
}

/** The (source, excerpt) pairs a fact was read with: two facts that share one were read from one sentence of one turn. */
function sentencesOf(memory: StatementHit['memory']): string[] {
  if (memory.topic === undefined || isEpisode({ topic: memory.topic })) return [];
  return (memory.sources ?? []).filter((source) => source.excerpt !== '').map((source) => `${source.id}\u0000${source.excerpt}`);
}

/**
 * Why `kept` (a better ranked hit) stands for `hit`, or undefined when they are two statements:
 * - 'turn': `kept` is a turn that states the fact `hit` (the episode it was read from, one that
 *   restated it), or a fact `hit`, an episode, states;
 * - 'sentence': both are facts read from the same sentence of the same turn ("I play bass in a
 *   band with guys from work, we do covers at bars": one thing said, split in two);
 * - 'words': both facts or both episodes, and every content word of `hit` is one of `kept`'s
 *   (episode/read.ts `contentStems`): `kept` says all `hit` says ("The user lives in Berlin."
 *   under "The user lives in Berlin with their sister Ana."; a fact and a turn are linked by the
 *   first rule, not by their words).
 * The last two hold only within one scope and session: a session's memory is not the user's.
 */
export function sameStatement(kept: StatementHit['memory'], hit: StatementHit['memory']): Standing | undefined {
  if (statingEpisodeIds(hit).includes(kept.id) || statingEpisodeIds(kept).includes(hit.id)) return 'turn';
  // A user-scope memory and a session's (or two sessions') live and expire apart: each is its own hit.
  if (kept.scope !== hit.scope || kept.sessionId !== hit.sessionId) return undefined;
  const sentences = sentencesOf(kept);
  if (sentencesOf(hit).some((sentence) => sentences.includes(sentence))) return 'sentence';
  const sameKind = kept.topic !== undefined && hit.topic !== undefined && isEpisode({ topic: kept.topic }) === isEpisode({ topic: hit.topic });
  if (sameKind && kept.content !== undefined && hit.content !== undefined && heldShare(stemsOf(hit), stemsOf(kept)) === 1) return 'words';
  return undefined;
}

/**
 * The hits, best first, one per statement: a hit that says what a better ranked hit already says
 * ({@link sameStatement}: a fact and the turns that state it, two facts of one sentence, a hit
 * whose words another holds) is left out, and the better ranked lists it in `represents`. Two
 * facts of one turn but of different sentences stay two hits; an episode that stands for one
 * of them stands for both.
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
