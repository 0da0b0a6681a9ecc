/**
 * The plan's working set with the indexes its sweep reads, kept as the plan changes it: the
 * active memories of the plan's target in the working Map's order, each with its
 * {@link sameFactKey} and slot computed once; the active ones by topic, by fact key and by slot;
 * the active episodes by fact key; and every embedding as a sparse row (sparse-rows.ts). Before
 * it, every candidate walked the whole Map, re-deriving each memory's target and fact key, and
 * listed and sorted every neighbour at or above the threshold, so one write of N candidates cost
 * O(N²) of that. Now an episode costs a look-up of its key; a fact decided by the policy,
 * look-ups of the memories its rules can pick (`policySweep`); and a fact shown to a plugin
 * decider, one pass over the rows (its 32 closest, which only a full scan finds exactly: a few
 * dozen multiply-adds a memory with the hash embedder) and look-ups of the memories that join it
 * by topic or slot. The results are the sweep's exactly (see `sweep`;
 * test/consolidate/working-set.test.ts holds the walk as the spec, and the policy's decisions
 * over the whole sweep as `policySweep`'s).
 */
import { dot } from '../embed/vector';
import { isEpisode } from '../extract/topics';
import type { Candidate, MemoryRecord, Scope } from '../schema';
import { recordUserId } from '../storage/contract';
import { sameFactKey } from '../text';
import { anySlotKey, SLOT_TOPICS, sharedSlot, slotKey, slotOf, slotsMeet } from './slot';
import { SlotIndex } from './slot-index';
import { SparseRows } from './sparse-rows';

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
  /** memory.embedding: what its row holds. */
  embedding: Float32Array;
  /** Its row in the sweep's {@link SparseRows}: the rows are in the sweep's order (the working Map's). */
  row: number;
  /** sameFactKey(memory.content): a memory's content never changes within a plan. */
  fact: string;
  /** anySlotKey(memory) ('' for none): a memory's content never changes within a plan. */
  slot: string;
  /** Its slot's side (slotOf(memory).polarity; 1 for none). */
  polarity: 1 | -1;
  active: boolean;
}

function finite(vector: Float32Array): boolean {
  for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i]!)) return false;
  return true;
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

/** Most similar first; of equal ones, the first in the sweep's order. */
const bySimilarity = (a: Neighbour, b: Neighbour) => b.similarity - a.similarity || a.entry.row - b.entry.row;

/** Adds `entry` to the set under `key` (an emptied set stays: a later memory of the key takes it again). */
function add(index: Map<string, Set<Entry>>, key: string, entry: Entry): void {
  (index.get(key) ?? index.set(key, new Set()).get(key)!).add(entry);
}

export class WorkingSet {
  /** The active memories of the target, in the order the Map first held them (a superseded one stays, inactive): entry r holds row r. */
  private readonly order: Entry[] = [];
  private rows = new SparseRows();
  private readonly byId = new Map<string, Entry>();
  /** Active episodes by fact key, in that order. */
  private readonly episodes = new Map<string, Entry[]>();
  /** Active memories by topic, by topic and fact key, and by slot (slot-index.ts): those the sweep adds by topic or slot. */
  private readonly byTopic = new Map<string, Set<Entry>>();
  private readonly byFact = new Map<string, Set<Entry>>();
  private readonly slots = new SlotIndex<Entry>();
  /** Active memories by fact key on any topic: those the policy corroborates across topics. */
  private readonly byContent = new Map<string, Set<Entry>>();
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
    if (memory.invalidatedAt !== undefined && entry.active) this.deactivate(entry);
    // A plan never changes an embedding; were one changed, its row is written again in its place.
    else if (entry.embedding !== memory.embedding) {
      entry.embedding = memory.embedding;
      this.compact();
    }
  }

  private index(memory: MemoryRecord): void {
    if (memory.invalidatedAt !== undefined || !inTarget(memory, this.target)) return;
    const entry: Entry = { memory, embedding: memory.embedding, row: this.rows.add(memory.embedding), fact: sameFactKey(memory.content), slot: anySlotKey(memory), polarity: slotOf(memory)?.polarity ?? 1, active: true };
    this.order.push(entry);
    this.byId.set(memory.id, entry);
    add(this.byTopic, memory.topic, entry);
    add(this.byFact, factKey(memory.topic, entry.fact), entry);
    this.slots.add(entry);
    add(this.byContent, entry.fact, entry);
    if (isEpisode(memory)) {
      const same = this.episodes.get(entry.fact);
      if (same) same.push(entry);
      else this.episodes.set(entry.fact, [entry]);
    }
  }

  private deactivate(entry: Entry): void {
    entry.active = false;
    this.byId.delete(entry.memory.id);
    this.byTopic.get(entry.memory.topic)?.delete(entry);
    this.byFact.get(factKey(entry.memory.topic, entry.fact))?.delete(entry);
    this.slots.remove(entry);
    this.byContent.get(entry.fact)?.delete(entry);
    if (isEpisode(entry.memory)) {
      const same = this.episodes.get(entry.fact)!;
      same.splice(same.indexOf(entry), 1);
      if (same.length === 0) this.episodes.delete(entry.fact);
    }
    this.rows.remove(entry.row);
    // Superseded entries are dropped from the scan order once they are as many as the active ones.
    if (++this.inactive * 2 > this.order.length) this.compact();
  }

  /** The scan order and its rows again, of the active entries alone. */
  private compact(): void {
    const active = this.order.filter((kept) => kept.active);
    this.order.length = 0;
    this.order.push(...active);
    this.rows = new SparseRows();
    for (const entry of active) entry.row = this.rows.add(entry.embedding);
    this.inactive = 0;
  }

  /**
   * The sweep: the closest neighbours by cosine ≥ threshold (most similar first), UNION the
   * memories on the same topic that can matter. Similarity alone cannot find contradictions:
   * "follows a vegetarian diet" and "eats fish again" share no words, and only the topic pairs
   * them. Contradictions only matter on an exclusive topic, so there every same-topic memory
   * joins; on any other topic only the same fact ({@link sameFactKey}) does, which the store
   * finds by its identical-fact index instead of reading the topic (consolidate.ts `sweepKeys`).
   * The live path and regeneration both sweep here, so a decider sees the same either way.
   *
   * Its list: the MAX_NEIGHBOURS most similar at or above the threshold, then the others of
   * those that join by topic or slot, most similar first, then those below the threshold, in
   * the sweep's order. Only the first part needs the scan of every active memory, and it keeps
   * 32 as it goes; the joining ones are read from their indexes.
   */
  sweep(item: Item, threshold: number, exclusiveTopics: ReadonlySet<string>): MemoryRecord[] {
    const query = item.embedding;
    // A query that is not finite (no embedder's) takes dot itself: a zero entry's product is then NaN, not 0.
    const sparse = finite(query);
    const measure = (entry: Entry) => (sparse ? this.rows.similarity(entry.row, query) : dot(entry.embedding, query));
    const closest = sparse ? this.rows.closest(query, threshold, MAX_NEIGHBOURS).rows.map((row) => this.order[row]!) : this.walk(measure, threshold);
    const kept = new Set(closest);
    const above: Neighbour[] = [];
    const below: Entry[] = [];
    for (const entry of this.joining(item.candidate, exclusiveTopics)) {
      if (kept.has(entry)) continue;
      const value = measure(entry);
      if (value >= threshold) above.push({ entry, similarity: value });
      else below.push(entry);
    }
    above.sort(bySimilarity);
    return [...closest, ...above.map((neighbour) => neighbour.entry), ...below].map((entry) => entry.memory);
  }

  /**
   * {@link sweep}'s list as the policy decider (decider.ts `createPolicyDecider`, with
   * `deciderTopics` its exclusive topics) and the plan's gates read it: only its memories that
   * one of their rules can pick, in the sweep's order. Those are the same fact on any topic, a
   * memory on the candidate's topic where that topic is exclusive, and one whose slot meets the
   * candidate's on the other side (what `changesMind` asks first: "quit chess" after "plays
   * chess"); each rule takes the first memory of the list it fits, so leaving out the memories
   * no rule fits leaves every decision as it was. All are read from indexes; the scan of every
   * memory for the 32 closest is made only when one of them is in the list by similarity alone
   * (a restated fact on another topic, a slot on a topic its write does not read), as whether it
   * is among the 32 needs every similarity. So a call of N facts that neither restate an earlier
   * one on another topic nor change its mind costs O(N) here, not O(N²); the sweep itself
   * lists every memory of a fact's slot (a batch of "loves their dog number 7" fills one).
   */
  policySweep(item: Item, threshold: number, exclusiveTopics: ReadonlySet<string>, deciderTopics: ReadonlySet<string>): MemoryRecord[] {
    const query = item.embedding;
    if (!finite(query)) return this.sweep(item, threshold, exclusiveTopics);
    const { candidate } = item;
    const rule = joinRule(candidate, exclusiveTopics);
    const slot = slotOf(candidate);
    const onTopic = exclusiveTopics.has(candidate.topic) || deciderTopics.has(candidate.topic) ? (this.byTopic.get(candidate.topic) ?? []) : [];
    // The other side of its slot only: a restatement of the same side changes no one's mind.
    const otherSide = slot === undefined ? [] : this.slots.meeting(anySlotKey(candidate), [slot.polarity > 0 ? -1 : 1]);
    const ruled = new Set([...(this.byContent.get(sameFactKey(candidate.content)) ?? []), ...onTopic, ...otherSide]);
    const above: Neighbour[] = [];
    const below: Entry[] = [];
    let closest: Set<number> | undefined;
    for (const entry of ruled) {
      const similarity = this.rows.similarity(entry.row, query);
      if (joins(entry, rule, exclusiveTopics)) {
        if (similarity >= threshold) above.push({ entry, similarity });
        else below.push(entry);
      } else if (similarity >= threshold) {
        // In the list by similarity alone: only if it is among the closest.
        closest ??= new Set(this.rows.closest(query, threshold, MAX_NEIGHBOURS).rows);
        if (closest.has(entry.row)) above.push({ entry, similarity });
      }
    }
    // The closest and the joining ones at or above the threshold, most similar first either way; then those below, in order.
    above.sort(bySimilarity);
    return [...above.map((neighbour) => neighbour.entry), ...below.sort(byRow)].map((entry) => entry.memory);
  }

  /** The MAX_NEIGHBOURS most similar active entries at or above the threshold, by a sort of every one (the path of a query that is not finite). */
  private walk(measure: (entry: Entry) => number, threshold: number): Entry[] {
    const neighbours: Neighbour[] = [];
    for (const entry of this.order) {
      if (!entry.active) continue;
      const similarity = measure(entry);
      if (similarity >= threshold) neighbours.push({ entry, similarity });
    }
    return neighbours
      .sort(bySimilarity)
      .slice(0, MAX_NEIGHBOURS)
      .map((neighbour) => neighbour.entry);
  }

  /**
   * The active memories that join a candidate's sweep whatever their similarity, in the sweep's
   * order: on its topic, every one where the topic is exclusive and the same fact elsewhere; and
   * (slot.ts) those of its slot that say something else of it, on any topic that is not exclusive.
   */
  private joining(candidate: Candidate, exclusiveTopics: ReadonlySet<string>): Entry[] {
    const rule = joinRule(candidate, exclusiveTopics);
    const found = new Set(rule.fact === null ? this.byTopic.get(rule.topic) : this.byFact.get(factKey(rule.topic, rule.fact)));
    for (const entry of this.slots.meeting(rule.slot)) if (joins(entry, rule, exclusiveTopics)) found.add(entry);
    return [...found].sort(byRow);
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

/** What makes a memory join a candidate's sweep whatever its similarity ({@link WorkingSet} `joining`). */
interface JoinRule {
  topic: string;
  /** The candidate's fact key; null on an exclusive topic, where every memory of the topic joins. */
  fact: string | null;
  /** slotKey of the candidate ('' on an exclusive topic). */
  slot: string;
  /** The topics the live write reads for that slot (consolidate.ts sweepKeys): a replay, which holds every memory, must not find what the live write could not. */
  readable: readonly string[];
}

function joinRule(candidate: Candidate, exclusiveTopics: ReadonlySet<string>): JoinRule {
  const kind = sharedSlot(candidate, exclusiveTopics)?.kind;
  return {
    topic: candidate.topic,
    fact: exclusiveTopics.has(candidate.topic) ? null : sameFactKey(candidate.content),
    slot: slotKey(candidate, exclusiveTopics),
    readable: kind === undefined ? [] : SLOT_TOPICS[kind],
  };
}

/** Whether `entry` joins the sweep of the candidate of `rule`: on its topic (the same fact, where the topic is not exclusive), or in its slot on a topic that slot is read on. */
function joins(entry: Entry, rule: JoinRule, exclusiveTopics: ReadonlySet<string>): boolean {
  const { topic } = entry.memory;
  if (topic === rule.topic && (rule.fact === null || entry.fact === rule.fact)) return true;
  return entry.fact !== rule.fact && rule.readable.includes(topic) && !exclusiveTopics.has(topic) && slotsMeet(entry.slot, rule.slot);
}

const byRow = (a: Entry, b: Entry) => a.row - b.row;

/** The {@link WorkingSet} index key of a fact key on a topic. */
function factKey(topic: string, fact: string): string {
  return `${topic}\u0000${fact}`;
}
