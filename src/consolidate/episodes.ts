/**
 * How episodes consolidate, apart from facts: an episode is only ever compared with episodes and
 * a fact only with facts, so no decider (an LLM's included) can make a turn's text UPDATE or
 * corroborate a fact, or a fact replace an episode. Between episodes the rule is fixed: the same
 * text (trimmed, case-folded) corroborates the earlier episode (+0.05 confidence, the source
 * appended once); anything else is a new episode. An episode never supersedes anything.
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

/** The episodes one write holds (their text and memory id), to link the facts it extracts to the turn they came from. */
export class EpisodeLinks {
  private readonly episodes: { text: string; id: string }[] = [];

  add(candidate: Candidate, memoryId: string): void {
    if (memoryId !== '') this.episodes.push({ text: candidate.content, id: memoryId });
  }

  /**
   * The episode a fact of this write came from: the one whose text holds the fact's excerpt,
   * else the write's only episode; undefined when neither tells (a turn kept as no episode).
   */
  of(fact: Candidate): string | undefined {
    const excerpt = fact.excerpt.replace(/…$/, '').replace(/\s+/g, ' ').trim();
    if (excerpt.length > 0) {
      const holder = this.episodes.find((episode) => episode.text.includes(excerpt));
      if (holder) return holder.id;
    }
    return this.episodes.length === 1 ? this.episodes[0]!.id : undefined;
  }
}
