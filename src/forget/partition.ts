/**
 * Replaying only what an erased source could have influenced. Under engram's policy decider a
 * candidate's decision depends only on the memories that share one of its keys with it:
 * - its fact ({@link sameFactKey}, on any topic: the policy corroborates an identical fact);
 * - its topic, when the topic is exclusive (one memory per topic);
 * - its slot's words ({@link slotWords}, on any topic: a change of mind replaces the memory of a
 *   slot that meets its own, {@link slotsMeet});
 * - its topic and {@link factHash} (a write's `replaces` names a memory by them);
 * and an episode answers to the facts of its turn (a fact links to its turn, a superseded fact
 * retires the turns that state it). Joining keys that meet in one candidate, record or turn
 * gives partitions closed under every decision: a partition no revoked candidate and no record
 * listing the source belongs to evolves the same with or without the source, so its memories
 * stay as stored, ids and lineage untouched, and only the touched partitions are replayed
 * (their inputs in order, each with its candidates of those partitions).
 *
 * When it does not hold, {@link touchedPartitions} says so (null) and the caller replays
 * everything, as before:
 * - a decider other than the policy (an LLM may read any memory it is shown): the caller passes
 *   no rules;
 * - the same fact stated on two topics: the sweep keeps only the 32 most similar neighbours, and
 *   a same-fact memory on another topic is kept only among them, so memories of other
 *   partitions could push it out of a decision.
 */
import { EpisodeLinks } from '../consolidate/episodes';
import { anySlotKey, slotWords } from '../consolidate/slot';
import { isEpisode } from '../extract/topics';
import type { Candidate, MemoryRecord } from '../schema';
import type { InputRow } from '../storage/contract';
import { factHash, sameFactKey } from '../text';

/** What partitions are read by: the exclusive topics of the options and of the policy decider. */
export interface PartitionRules {
  exclusiveTopics: ReadonlySet<string>;
}

/** What the erasure touches: the revoked inputs' candidates and the stored records that list the source. */
export interface Seeds {
  candidates: readonly Pick<Candidate, 'topic' | 'content'>[];
  records: readonly MemoryRecord[];
}

/** Which candidates and records are in the partitions the erasure touched. */
export interface Touched {
  candidate: (input: InputRow, index: number) => boolean;
  record: (record: MemoryRecord) => boolean;
}

/** Union-find over string keys. */
class Keys {
  private readonly parent = new Map<string, string>();

  find(key: string): string {
    let root = key;
    for (let next = this.parent.get(root); next !== undefined && next !== root; next = this.parent.get(root)) root = next;
    if (!this.parent.has(key)) this.parent.set(key, key);
    // Path halving is enough: the chains are short.
    for (let at = key; at !== root; ) {
      const next = this.parent.get(at)!;
      this.parent.set(at, root);
      at = next;
    }
    return root;
  }

  join(keys: readonly string[]): void {
    if (keys.length === 0) return;
    const root = this.find(keys[0]!);
    for (const key of keys.slice(1)) {
      const other = this.find(key);
      if (other !== root) this.parent.set(other, root);
    }
  }
}

/** The keys a fact or episode (a candidate or a record) shares with whatever can decide it or be decided by it. */
function keysOf(fact: Pick<Candidate, 'topic' | 'content'>, rules: PartitionRules): string[] {
  const keys = [`fact:${sameFactKey(fact.content)}`, `hash:${fact.topic}\u0000${factHash(fact.topic, fact.content)}`];
  if (rules.exclusiveTopics.has(fact.topic)) keys.push(`topic:${fact.topic}`);
  for (const word of slotWords(anySlotKey(fact))) keys.push(`slot:${word}`);
  return keys;
}

/** A record's keys: its text's, its id, and the turns it links to (its episode, the turns that restated it). */
function recordKeys(record: MemoryRecord, rules: PartitionRules): string[] {
  return [...keysOf(record, rules), `id:${record.id}`, ...[record.episodeId, ...(record.restatedIn ?? [])].flatMap((id) => (id === undefined ? [] : [`id:${id}`]))];
}

/**
 * One input's candidates joined: each with its keys, a fact with the turn the plan links it to
 * (the first earlier episode of the input that holds its excerpt; when none does, every earlier
 * one, since then how many there are decides: plan.ts EpisodeLinks), and a write that names
 * the memory it replaces with that memory's key.
 */
function joinInput(keys: Keys, input: InputRow, candidates: readonly Candidate[], rules: PartitionRules): void {
  const links = new EpisodeLinks();
  const seen: string[] = [];
  const replaces = input.kind !== 'prune' && input.replaces !== undefined ? [`hash:${input.replaces.topic}\u0000${input.replaces.fact}`] : [];
  candidates.forEach((candidate, index) => {
    const own = `input:${input.seq}:${index}`;
    if (isEpisode(candidate)) {
      keys.join([own, ...keysOf(candidate, rules)]);
      links.add(candidate, own);
      seen.push(own);
      return;
    }
    const holder = links.of(candidate);
    const turns = holder !== undefined && seen.length > 1 ? [holder] : seen;
    keys.join([own, ...keysOf(candidate, rules), ...replaces, ...turns]);
  });
}

/**
 * The partitions an erasure touched, over the replay's `start` records and `inputs` (with their
 * candidates) and the owner's stored `records`; null when partitions do not decide alone (see
 * the module comment) and everything must be replayed.
 */
export function touchedPartitions(rules: PartitionRules, world: { start: readonly MemoryRecord[]; inputs: ReadonlyMap<InputRow, readonly Candidate[]>; records: readonly MemoryRecord[] }, seeds: Seeds): Touched | null {
  const topicOf = new Map<string, string>();
  // The same fact on two topics: a decision may depend on which neighbours made the sweep's 32.
  const oneTopic = (fact: Pick<Candidate, 'topic' | 'content'>) => {
    if (isEpisode(fact)) return true;
    const key = sameFactKey(fact.content);
    const topic = topicOf.get(key);
    if (topic === undefined) topicOf.set(key, fact.topic);
    return topic === undefined || topic === fact.topic;
  };
  const keys = new Keys();
  for (const record of [...world.start, ...world.records, ...seeds.records]) {
    if (!oneTopic(record)) return null;
    keys.join(recordKeys(record, rules));
  }
  for (const [input, candidates] of world.inputs) {
    if (!candidates.every(oneTopic)) return null;
    joinInput(keys, input, candidates, rules);
  }
  if (!seeds.candidates.every(oneTopic)) return null;
  const touched = new Set<string>();
  for (const candidate of seeds.candidates) for (const key of keysOf(candidate, rules)) touched.add(keys.find(key));
  for (const record of seeds.records) touched.add(keys.find(`id:${record.id}`));
  return {
    candidate: (input, index) => touched.has(keys.find(`input:${input.seq}:${index}`)),
    record: (record) => touched.has(keys.find(`id:${record.id}`)),
  };
}
