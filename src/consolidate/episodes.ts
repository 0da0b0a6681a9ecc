/**
 * How episodes consolidate, apart from facts: an episode is only ever compared with episodes and
 * a fact only with facts, so no decider (an LLM's included) can make a turn's text UPDATE or
 * corroborate a fact, or a fact replace an episode. Between episodes the rule is fixed: the same
 * text (trimmed, case-folded) corroborates the earlier episode (+0.05 confidence, the source
 * appended once); anything else is a new episode. An episode never supersedes anything.
 *
 * Episodes answer to consolidation all the same: when a fact is superseded (an UPDATE, a
 * correction, a change of mind), every active episode that states it (the turn it was read
 * from, and the turns that restated it) is retired with it, so no turn presents the old value
 * as what the user says now (plan.ts `planConsolidation`, {@link episodesStating}).
 */
import { isEpisode } from '../extract/topics';
import type { Candidate, MemoryRecord } from '../schema';
import type { Decision } from './decider';

/** The sweep's memories a candidate may be decided against: episodes for an episode, facts for a fact. */
export function sameKind(candidate: Candidate, similar: readonly MemoryRecord[]): MemoryRecord[] {
  const episode = isEpisode(candidate);
  return similar.filter((memory) => isEpisode(memory) === episode);
}

/** The episode rule: corroborate the identical episode (the sweep's first, WorkingSet `sameEpisode`), else create. */
export function decideEpisode(same: MemoryRecord | undefined): Decision {
  return same ? { action: 'NOOP', targetId: same.id, reason: 'identical to an earlier episode', corroborate: true } : { action: 'CREATE', reason: 'a new episode' };
}

/** How many leading characters of each word the prefix index keys: enough to tell "number 12." from "number 120.". */
const PREFIX_CHARS = 6;

/** Appends `index` to `key`'s list in `map` once (episodes are added in order, so a list stays in it). */
function append(map: Map<string, number[]>, key: string, index: number): void {
  const holders = map.get(key);
  if (!holders) map.set(key, [index]);
  else if (holders.at(-1) !== index) holders.push(index);
}

/**
 * The episodes one write holds (their text and memory id), to link the facts it extracts to the
 * turn they came from; indexed by their words and by the first characters of each word, so a
 * write of N turns links its facts in O(N) even when every turn shares the excerpt's inner words
 * ("I love my dog number 7."): the excerpt's last word then tells the turns apart.
 */
export class EpisodeLinks {
  private readonly episodes: { text: string; id: string }[] = [];
  /** Each word (a run between single spaces: an episode's text is folded) → the episodes holding it, in order. */
  private readonly byWord = new Map<string, number[]>();
  /** Each word's prefixes of up to PREFIX_CHARS characters → the episodes holding a word that starts so, in order. */
  private readonly byPrefix = new Map<string, number[]>();

  add(candidate: Candidate | MemoryRecord, memoryId: string): void {
    if (memoryId === '') return;
    const index = this.episodes.push({ text: candidate.content, id: memoryId }) - 1;
    for (const word of candidate.content.split(' ')) {
      append(this.byWord, word, index);
      for (let length = 1; length <= Math.min(word.length, PREFIX_CHARS); length++) append(this.byPrefix, word.slice(0, length), index);
    }
  }

  /**
   * The episode a fact of this write came from: the first whose text holds the fact's excerpt,
   * else the write's only episode; undefined when neither tells (a turn kept as no episode).
   */
  of(fact: Candidate): string | undefined {
    return this.holding(fact.excerpt) ?? (this.episodes.length === 1 ? this.episodes[0]!.id : undefined);
  }

  /** The first episode whose text holds `excerpt` (a fact's, its "…" off); undefined when none does. */
  holding(excerpt: string): string | undefined {
    const said = excerpt.replace(/…$/, '').replace(/\s+/g, ' ').trim();
    if (said.length === 0) return undefined;
    const holder = this.holdersOf(said).find((index) => this.episodes[index]!.text.includes(said));
    return holder === undefined ? undefined : this.episodes[holder]!.id;
  }

  /**
   * The episodes that may hold `excerpt`, in order: a text holding it holds each of its inner
   * words whole, and a word that starts with its last (which follows a space, but may be cut
   * short: "…", or a full stop the excerpt left off); only the first may be the end of a longer
   * word. So the fewest episodes holding one of those; every episode for an excerpt of one word.
   */
  private holdersOf(excerpt: string): readonly number[] {
    const words = excerpt.split(' ');
    if (words.length === 1) return this.episodes.map((_, index) => index);
    let fewest = this.byPrefix.get(words.at(-1)!.slice(0, PREFIX_CHARS)) ?? [];
    for (const word of words.slice(1, -1)) {
      const holders = this.byWord.get(word) ?? [];
      if (holders.length < fewest.length) fewest = holders;
    }
    return fewest;
  }
}

/**
 * What the plan reads to find the episodes that state a memory it supersedes, by id: a working
 * set holds only the records near the write, so the live path reads the store. Without one (a
 * replay, whose working set holds every active record), the plan looks at its working set alone.
 */
export interface StatementReader {
  /** The records of `ids` (missing ones left out). */
  recordsOf(ids: readonly string[]): Promise<readonly MemoryRecord[]>;
}

/**
 * The ids of the episodes that state `memory` (this version of it): the turn it was read from
 * (`episodeId`) and the turns that restated it (`restatedIn`, added by each corroboration). An
 * UPDATE's memory starts with neither of its predecessor's, so the turns that stated the values
 * it replaced are not among them: they retired with those.
 */
export function statingEpisodeIds(memory: Pick<MemoryRecord, 'episodeId' | 'restatedIn'>): string[] {
  return [...new Set([...(memory.episodeId !== undefined ? [memory.episodeId] : []), ...(memory.restatedIn ?? [])])];
}
