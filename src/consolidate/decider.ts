/**
 * The decision contract and the seed's policy in code. An LLM decider replaces the policy
 * with `createMemory({ decider })`; its answer is checked before anything is applied.
 */
import type { Candidate, MemoryRecord, Source, SourceType } from '../schema';
import { sameFactKey } from '../text';
import { changesMind, describeSlot, slotKey } from './slot';

export interface DecideInput {
  candidate: Candidate;
  /**
   * Active memories this candidate might affect: similarity neighbours, then same-topic ones.
   * So a write stays O(1) on a long history, they come in working form: `sources` holds the
   * first source of each type plus every entry of the source being written, and `history` is
   * empty (`memory.get` returns the full record).
   */
  similar: readonly MemoryRecord[];
  source: Source;
}

export type Decision =
  | { action: 'CREATE'; reason: string }
  | { action: 'UPDATE'; targetId: string; reason: string }
  /** `corroborate`: the candidate restates the target, which gains the source and +0.05 confidence. */
  | { action: 'NOOP'; targetId?: string; reason: string; corroborate: boolean };

export interface Decider {
  decide(input: DecideInput): Decision | Promise<Decision>;
}

export interface PolicyOptions {
  trust: Readonly<Record<SourceType, number>>;
  exclusiveTopics: ReadonlySet<string>;
}

/**
 * The strongest trust among a memory's sources: what a contradicting source must at least match.
 * Corroboration never lowers the bar (invariant 10): once the user said it, a tool output that
 * later agreed with it cannot open the way for another tool output to overwrite it.
 */
export function strongestTrust(memory: MemoryRecord, trust: Readonly<Record<SourceType, number>>): number {
  return Math.max(...memory.sources.map((source) => trust[source.type]));
}

/**
 * The trust gate, the one rule both the policy decider and plan.ts's enforcement of every
 * decider's answer apply: undefined when `source` may replace `memory`, else why it may not.
 */
export function trustRefusal(memory: MemoryRecord, source: Pick<Source, 'type'>, trust: Readonly<Record<SourceType, number>>): string | undefined {
  const needed = strongestTrust(memory, trust);
  const given = trust[source.type];
  return given >= needed ? undefined : `lower-trust source than the existing memory (${source.type} ${given} < ${needed})`;
}

/**
 * The seed's `offline_decide`: identical text is corroboration; on an exclusive topic, or in
 * the same slot (slot.ts: "quit the choir" after "sings in a choir"), a source at least as
 * trusted as the strongest one behind the old memory replaces it, a weaker one is refused;
 * anything else is new.
 */
export function createPolicyDecider({ trust, exclusiveTopics }: PolicyOptions): Decider {
  const decider: Decider = {
    decide({ candidate, similar, source }) {
      const content = sameFactKey(candidate.content);
      const slot = slotKey(candidate, exclusiveTopics);
      for (const memory of similar) {
        if (sameFactKey(memory.content) === content) {
          return { action: 'NOOP', targetId: memory.id, reason: 'identical to an existing memory', corroborate: true };
        }
        if (memory.topic === candidate.topic && exclusiveTopics.has(memory.topic)) {
          const refusal = trustRefusal(memory, source, trust);
          if (refusal === undefined) {
            return {
              action: 'UPDATE',
              targetId: memory.id,
              reason: `contradicts ${memory.id} on exclusive topic '${memory.topic}'; newer information from a ${source.type} source wins`,
            };
          }
          return { action: 'NOOP', targetId: memory.id, reason: `${refusal}; contradiction refused`, corroborate: false };
        }
        if (slot !== '' && changesMind(candidate, memory, exclusiveTopics)) {
          const refusal = trustRefusal(memory, source, trust);
          if (refusal === undefined) return { action: 'UPDATE', targetId: memory.id, reason: `changes ${memory.id} on '${describeSlot(candidate)}'; newer information from a ${source.type} source wins` };
          return { action: 'NOOP', targetId: memory.id, reason: `${refusal}; change refused`, corroborate: false };
        }
      }
      return { action: 'CREATE', reason: 'novel topic for this user' };
    },
  };
  policies.set(decider, exclusiveTopics);
  return decider;
}

/** Each policy decider's exclusive topics. */
const policies = new WeakMap<Decider, ReadonlySet<string>>();

/**
 * The exclusive topics `decider` decides by when it is the policy ({@link createPolicyDecider}),
 * else undefined: a decider whose answer depends only on its rules and the memories that share a
 * fact, slot or exclusive topic with the candidate (forget/partition.ts relies on it).
 */
export function policyTopicsOf(decider: Decider): ReadonlySet<string> | undefined {
  return policies.get(decider);
}
