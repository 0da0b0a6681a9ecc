/**
 * The plan's working set with the indexes its sweep reads, kept as the plan changes it: the
 * active memories of the plan's target in the working Map's order, each with its
 * {@link sameFactKey} computed once, and the active episodes by that key. Before it, every
 * candidate walked the whole Map, re-deriving each memory's target and fact key, so one write
 * of N candidates cost O(N²) of that; now a candidate costs one dot product per active memory
 * of the target (a fact's similarity neighbours, which only a full scan can find exactly) and,
 * for an episode, a look-up of its key. The results are the sweep's exactly (see `sweep`).
 */
import { dot } from '../embed/vector';
import { isEpisode } from '../extract/topics';
import type { Candidate, MemoryRecord, Scope } from '../schema';
import { recordUserId } from '../storage/contract';
import { sameFactKey } from '../text';
import { anySlotKey, slotKey, slotsMeet } from './slot';

/** Where the plan writes (plan.ts `PlanTarget`): its owner, app, scope and, for session scope, session. */
interface Target {
  userId: string;
  appName: string;
  scope: Scope;
  sessionId?: string;
}

/** A candidate and its embedding (plan.ts `EmbeddedCandidate`). */
interface Item {
  candidate: Candidate;
  embedding: Float32Array;
}

/** How many similarity neighbours (most similar first) the sweep keeps, besides same-topic memories. */
export const MAX_NEIGHBOURS = 32;

interface Entry {
  memory: MemoryRecord;
  /** memory.embedding, read here so the scan reads one shape of object, not records of many. */
  embedding: Float32Array;
  /** sameFactKey(memory.content): a memory's content never changes within a plan. */
  fact: string;
  /** anySlotKey(memory) ('' for none): a memory's content never changes within a plan. */
  slot: string;
  active: boolean;
}

/** Whether `memory` lives where the plan writes: the target's owner, app, scope and (for session scope) session. */
function inTarget(memory: MemoryRecord, target: Target): boolean {
  if (memory.scope !== target.scope || memory.appName !== target.appName) return false;
  if (memory.userId !== recordUserId(target, target.scope)) return false;
  return target.scope !== 'session' || memory.sessionId === target.sessionId;
}

interface Neighbour {
  entry: Entry;
  similarity: number;
}

/** Most similar first; of equal ones, the first found (the order a stable sort keeps). */
const bySimilarity = (a: Neighbour, b: Neighbour) => b.similarity - a.similarity;

/**
 * The neighbours (in scan order) the sweep keeps, most similar first: the MAX_NEIGHBOURS most
 * similar, then, past them, only those on the candidate's topic that `matches`: a store of many
 * near-alike memories must not hand every one of them to the decider (an LLM prompt) on every
 * write. The same list as sorting them all and filtering past MAX_NEIGHBOURS, without sorting
 * the many a batch of alike messages finds (that sort was a candidate's largest cost after the scan).
 */
function mostSimilar(neighbours: Neighbour[], matches: (entry: Entry) => boolean): MemoryRecord[] {
  let kept = neighbours;
  if (neighbours.length > MAX_NEIGHBOURS) {
    // The MAX_NEIGHBOURS-th highest similarity: above it all are kept, at it the first found.
    const cut = Float64Array.from(neighbours, (neighbour) => neighbour.similarity).sort()[neighbours.length - MAX_NEIGHBOURS]!;
    let atCut = MAX_NEIGHBOURS - neighbours.filter((neighbour) => neighbour.similarity > cut).length;
    kept = neighbours.filter((neighbour) => neighbour.similarity > cut || (neighbour.similarity === cut && atCut-- > 0) || matches(neighbour.entry));
  }
  kept.sort(bySimilarity);
  const top = kept.slice(0, MAX_NEIGHBOURS);
  // Past the top only those that match stay (a non-matching one here is one of them: the top is what the whole sort would begin with).
  return [...top, ...kept.slice(MAX_NEIGHBOURS).filter((neighbour) => matches(neighbour.entry))].map((neighbour) => neighbour.entry.memory);
}

export class WorkingSet {
  /** The active memories of the target, in the order the Map first held them (a superseded one stays, inactive). */
  private readonly order: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  /** Active episodes by fact key, in that order. */
  private readonly episodes = new Map<string, Entry[]>();
  private inactive = 0;

  /** Indexes `working` (the Map the plan mutates, only through {@link set}) for `target`. */
  constructor(
    readonly working: Map<string, MemoryRecord>,
    private readonly target: Target,
  ) {
    for (const memory of working.values()) this.index(memory);
  }

  /** Whether `memory` lives where the plan writes (its target's owner, app, scope and session). */
  holds(memory: MemoryRecord): boolean {
    return inTarget(memory, this.target);
  }

  get(id: string): MemoryRecord | undefined {
    return this.working.get(id);
  }

  has(id: string): boolean {
    return this.working.has(id);
  }

  /** Writes `memory` to the Map (a known id keeps its place there, as in the sweep's order) and to the indexes. */
  set(memory: MemoryRecord): void {
    const known = this.working.has(memory.id);
    this.working.set(memory.id, memory);
    const entry = this.byId.get(memory.id);
    if (entry === undefined) {
      if (!known) this.index(memory);
      return;
    }
    entry.memory = memory;
    entry.embedding = memory.embedding;
    if (memory.invalidatedAt !== undefined && entry.active) this.deactivate(entry);
  }

  private index(memory: MemoryRecord): void {
    if (memory.invalidatedAt !== undefined || !inTarget(memory, this.target)) return;
    const entry: Entry = { memory, embedding: memory.embedding, fact: sameFactKey(memory.content), slot: anySlotKey(memory), active: true };
    this.order.push(entry);
    this.byId.set(memory.id, entry);
    if (isEpisode(memory)) {
      const same = this.episodes.get(entry.fact);
      if (same) same.push(entry);
      else this.episodes.set(entry.fact, [entry]);
    }
  }

  private deactivate(entry: Entry): void {
    entry.active = false;
    this.byId.delete(entry.memory.id);
    if (isEpisode(entry.memory)) {
      const same = this.episodes.get(entry.fact)!;
      same.splice(same.indexOf(entry), 1);
      if (same.length === 0) this.episodes.delete(entry.fact);
    }
    // Superseded entries are dropped from the scan order once they are as many as the active ones.
    if (++this.inactive * 2 > this.order.length) {
      const active = this.order.filter((kept) => kept.active);
      this.order.length = 0;
      this.order.push(...active);
      this.inactive = 0;
    }
  }

  /**
   * The sweep: the closest neighbours by cosine ≥ threshold (most similar first), UNION the
   * memories on the same topic that can matter. Similarity alone cannot find contradictions:
   * "follows a vegetarian diet" and "eats fish again" share no words, and only the topic pairs
   * them. Contradictions only matter on an exclusive topic, so there every same-topic memory
   * joins; on any other topic only the same fact ({@link sameFactKey}) does, which the store
   * finds by its identical-fact index instead of reading the topic (consolidate.ts `sweepKeys`).
   * The live path and regeneration both sweep here, so a decider sees the same either way.
   */
  sweep(item: Item, threshold: number, exclusiveTopics: ReadonlySet<string>): MemoryRecord[] {
    const neighbours: Neighbour[] = [];
    const sameTopic: MemoryRecord[] = [];
    const { topic } = item.candidate;
    const fact = exclusiveTopics.has(topic) ? null : sameFactKey(item.candidate.content);
    // The memories of the candidate's slot join too, on whatever topic (slot.ts): those that say something else of it.
    const slot = slotKey(item.candidate, exclusiveTopics);
    const matches = (entry: Entry) => (entry.memory.topic === topic && (fact === null || entry.fact === fact)) || (slotsMeet(entry.slot, slot) && entry.fact !== fact && !exclusiveTopics.has(entry.memory.topic));
    for (const entry of this.order) {
      if (!entry.active) continue;
      const similarity = dot(entry.embedding, item.embedding);
      if (similarity >= threshold) neighbours.push({ entry, similarity });
      else if (matches(entry)) sameTopic.push(entry.memory);
    }
    return [...mostSimilar(neighbours, matches), ...sameTopic];
  }

  /**
   * The first episode in the sweep's order whose text is the episode candidate's
   * ({@link sameFactKey}): what the episode rule corroborates (episodes.ts `decideEpisode`).
   * Every active episode stating it is in the sweep (same topic, same fact), those at or above
   * the threshold first, most similar first, then the rest in order; so only they are read.
   */
  sameEpisode(item: Item, threshold: number): MemoryRecord | undefined {
    let best: { memory: MemoryRecord; similarity: number } | undefined;
    let below: MemoryRecord | undefined;
    for (const { memory } of this.episodes.get(sameFactKey(item.candidate.content)) ?? []) {
      const similarity = dot(memory.embedding, item.embedding);
      if (similarity < threshold) below ??= memory;
      else if (best === undefined || similarity > best.similarity) best = { memory, similarity };
    }
    return best?.memory ?? below;
  }
}
