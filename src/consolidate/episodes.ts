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
import type { Candidate, MemoryRecord, Source } from '../schema';
import { sourceKey } from '../storage/working-form';
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

/**
 * The episodes one write holds (their text and memory id), to link the facts it extracts to the
 * turn they came from; indexed by their words, so a write of N turns links its facts in O(N).
 */
export class EpisodeLinks {
  private readonly episodes: { text: string; id: string }[] = [];
  /** Each word (a run between single spaces: an episode's text is folded) → the episodes holding it, in order. */
  private readonly byWord = new Map<string, number[]>();

  add(candidate: Candidate, memoryId: string): void {
    if (memoryId === '') return;
    const index = this.episodes.push({ text: candidate.content, id: memoryId }) - 1;
    for (const word of new Set(candidate.content.split(' '))) {
      const holders = this.byWord.get(word);
      if (holders) holders.push(index);
      else this.byWord.set(word, [index]);
    }
  }

  /**
   * The episode a fact of this write came from: the first whose text holds the fact's excerpt,
   * else the write's only episode; undefined when neither tells (a turn kept as no episode).
   */
  of(fact: Candidate): string | undefined {
    const excerpt = fact.excerpt.replace(/…$/, '').replace(/\s+/g, ' ').trim();
    if (excerpt.length > 0) {
      const holder = this.holdersOf(excerpt).find((index) => this.episodes[index]!.text.includes(excerpt));
      if (holder !== undefined) return this.episodes[holder]!.id;
    }
    return this.episodes.length === 1 ? this.episodes[0]!.id : undefined;
  }

  /**
   * The episodes that may hold `excerpt`, in order: a text holding it holds each of its inner
   * words whole (only the first and the last may be part of a longer word), so the fewest
   * episodes holding one of those; every episode for an excerpt of one or two words.
   */
  private holdersOf(excerpt: string): readonly number[] {
    const inner = excerpt.split(' ').slice(1, -1);
    if (inner.length === 0) return this.episodes.map((_, index) => index);
    let fewest: readonly number[] | undefined;
    for (const word of inner) {
      const holders = this.byWord.get(word) ?? [];
      if (fewest === undefined || holders.length < fewest.length) fewest = holders;
    }
    return fewest!;
  }
}

/**
 * What the plan reads to find the episodes that state a memory it supersedes: a working set
 * shows a memory's sources only in part (working-form.ts) and holds only the episodes near the
 * write, so the live path reads the store and a replay its own state. Without one, the plan
 * looks at its working set alone.
 */
export interface StatementReader {
  /** `memory`'s sources, every one (the working set's included). */
  sourcesOf(memory: MemoryRecord): Promise<readonly Source[]> | readonly Source[];
  /** Active episodes that list one of `sourceIds` (more are allowed: the plan checks each). */
  episodesOf(sourceIds: readonly string[]): Promise<readonly MemoryRecord[]> | readonly MemoryRecord[];
}

/** Text compared for containment: an excerpt's trailing "…" cut, whitespace runs folded (an episode's text is folded so). */
function folded(text: string): string {
  return text.replace(/…$/, '').replace(/\s+/g, ' ').trim();
}

/**
 * Whether `episode` states `memory`: it is the turn the memory was read from (`episodeId`), or
 * a turn of one of the memory's sources (same type and id) whose text holds the excerpt that
 * source recorded (the turn that restated it, a corroboration). Pure, over the records: a
 * replay finds the same episodes as the live write did.
 */
export function statesMemory(episode: MemoryRecord, memory: MemoryRecord, sources: readonly Source[]): boolean {
  if (memory.episodeId === episode.id) return true;
  const text = folded(episode.content);
  return sources.some((source) => {
    const excerpt = folded(source.excerpt);
    return excerpt.length > 0 && episode.sources.some((own) => own.type === source.type && own.id === source.id) && text.includes(excerpt);
  });
}

/**
 * The statements of `sources` that stated this version of `memory`: those made when it was
 * created or after (its creating turn, the corroborations). An UPDATE's memory inherits its
 * predecessors' sources, whose statements were of the values it replaced; their episodes retired
 * with those. So a memory that changed N times reads its own few statements, not all N.
 */
export function ownStatements(memory: MemoryRecord, sources: readonly Source[]): Source[] {
  return sources.filter((source) => source.at >= memory.createdAt);
}

/** One statement of a source: a source (type and id) records one entry per statement it made. */
const statementKey = (source: Source) => JSON.stringify([sourceKey(source), source.excerpt, source.at]);

/** `sources` and then those of `more` not among them, each statement once. */
export function unionSources(sources: readonly Source[], more: readonly Source[]): Source[] {
  const seen = new Set(sources.map(statementKey));
  return [...sources, ...more.filter((source) => !seen.has(statementKey(source)) && Boolean(seen.add(statementKey(source))))];
}

/**
 * The active episodes among `pool` that state `memory` (see {@link statesMemory}), each once,
 * in the pool's order: what retires with it when it is superseded (plan.ts).
 */
export function episodesStating(memory: MemoryRecord, sources: readonly Source[], pool: Iterable<MemoryRecord>): MemoryRecord[] {
  const out = new Map<string, MemoryRecord>();
  for (const episode of pool) if (isEpisode(episode) && episode.invalidatedAt === undefined && !out.has(episode.id) && statesMemory(episode, memory, sources)) out.set(episode.id, episode);
  return [...out.values()];
}
