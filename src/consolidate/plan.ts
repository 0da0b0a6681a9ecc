/**
 * Consolidation as a pure plan over a working set: candidate sweep, decide, apply, all in
 * memory. The live path fills the working set from the index and the store and commits the
 * plan in one transaction; regeneration replays stored inputs through the very same code.
 */
import { callPlugin, PluginError } from '../errors';
import { freshId } from '../ids';
import type { Candidate, MemoryRecord, Operation, Scope, Source, SourceType } from '../schema';
import { recordUserId, type WriteInput } from '../storage/contract';
import { sameSource } from '../storage/working-form';
import { policyTopicsOf, trustRefusal, type Decider, type Decision } from './decider';
import { factHash, sameFactKey } from '../text';
import { isEpisode } from '../extract/topics';
import { decideEpisode, EpisodeLinks, sameKind, statingEpisodeIds, type StatementReader } from './episodes';
import { WorkingSet } from './working-set';
import { changesMind, describeSlot, slotKey } from './slot';

export { MAX_NEIGHBOURS } from './working-set';

export interface PlanTarget {
  userId: string;
  appName: string;
  scope: Scope;
  sessionId?: string;
  /** The caller's metadata (JSON text) for the memories this write creates. */
  metadata?: string;
  /** The active memory this write replaces (an UPDATE of it), by topic and {@link factHash}. */
  replaces?: { topic: string; fact: number };
}

/** Where an input's memories live: its owner and scope, and its session for session scope; its metadata and what it replaces. */
export function targetOf(input: WriteInput): PlanTarget {
  return {
    userId: input.userId,
    appName: input.appName,
    scope: input.scope,
    ...(input.scope === 'session' ? { sessionId: input.sessionId } : {}),
    ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
    ...(input.replaces !== undefined ? { replaces: input.replaces } : {}),
  };
}

/** The active memory of the target's scope that `target.replaces` names, if the working set holds it. */
function replacedIn(working: Map<string, MemoryRecord>, target: PlanTarget): MemoryRecord | undefined {
  const wanted = target.replaces;
  if (wanted === undefined) return undefined;
  for (const memory of working.values()) {
    if (memory.invalidatedAt !== undefined || memory.scope !== target.scope || memory.topic !== wanted.topic) continue;
    if (target.scope === 'session' && memory.sessionId !== target.sessionId) continue;
    if (factHash(memory.topic, memory.content) === wanted.fact) return memory;
  }
  return undefined;
}

export interface PlanContext {
  decider: Decider;
  trust: Readonly<Record<SourceType, number>>;
  /** Topics holding one active memory per owner and scope; enforced here whatever the decider says. */
  exclusiveTopics: ReadonlySet<string>;
  candidateThreshold: number;
  embedderId: string;
  now: number;
  newId: () => string;
  /** Where the plan finds the episodes that state a memory it supersedes (episodes.ts); without it, in its working set alone. */
  statements?: StatementReader;
}

export interface EmbeddedCandidate {
  candidate: Candidate;
  embedding: Float32Array;
  source: Source;
}

export interface Plan {
  operations: Operation[];
  /** Records created or changed, in their final state (each once). */
  changed: MemoryRecord[];
  /** Ids of the records this plan created: the commit refuses them if they exist already. */
  created: string[];
  /** Each UPDATE's new memory id → the id of the memory it superseded (whose sources it inherits). */
  supersedes: Map<string, string>;
}

/** Rounds away float noise so 0.65 + 0.05 is stored as 0.7, not 0.7000000000000001. */
function roundConfidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1e9) / 1e9;
}

/** A corroborated memory's confidence: +0.05, at most 1 (forget/restated.ts counts it again). */
export function corroboratedConfidence(confidence: number): number {
  return roundConfidence(confidence + 0.05);
}

/** A new memory's confidence: its candidate's, never more than its source type is trusted (forget/restated.ts counts it again). */
export function createdConfidence(candidateConfidence: number, sourceTrust: number): number {
  return roundConfidence(Math.min(candidateConfidence, sourceTrust));
}

/** The sweep (WorkingSet `sweep`) of `memories` for one candidate. */
export function sweep(memories: Iterable<MemoryRecord>, item: EmbeddedCandidate, target: PlanTarget, threshold: number, exclusiveTopics: ReadonlySet<string>): MemoryRecord[] {
  return new WorkingSet(new Map([...memories].map((memory) => [memory.id, memory])), target).sweep(item, threshold, exclusiveTopics);
}

function checkDecision(decision: Decision, similar: readonly MemoryRecord[]): Decision {
  const valid =
    decision &&
    typeof decision.reason === 'string' &&
    (decision.action === 'CREATE' || (decision.action === 'UPDATE' && similar.some((m) => m.id === decision.targetId)) || (decision.action === 'NOOP' && (decision.targetId === undefined || similar.some((m) => m.id === decision.targetId))));
  if (!valid) {
    throw new PluginError(`the decider returned ${describeDecision(decision)}; expected CREATE, or UPDATE/NOOP whose targetId is one of the candidate memories (${similar.map((m) => m.id).join(', ') || 'none'})`);
  }
  return decision;
}

/**
 * What is done with a fact: a write that names the memory it replaces is an UPDATE of it (no
 * decider is asked); otherwise the decider proposes. The policy's gates apply either way.
 */
async function decide(item: EmbeddedCandidate, similar: readonly MemoryRecord[], replaced: MemoryRecord | undefined, context: PlanContext): Promise<Decision> {
  const { candidate, source } = item;
  const proposed: Decision = replaced
    ? { action: 'UPDATE', targetId: replaced.id, reason: `replaces ${replaced.id}, as the write asked` }
    : checkDecision(await callPlugin('the decider', () => context.decider.decide({ candidate, similar, source })), similar);
  return enforcePolicy(proposed, item, similar, context);
}

/**
 * Models never override code: whatever a decider proposes (an LLM's answer included), the same
 * gates as the policy's hold, in this order. Its target is one of `similar` (checkDecision),
 * which the sweep fills only with active memories of the target's owner, app and scope. An
 * UPDATE, or a corroboration, reaches only a memory on the candidate's topic (a corroboration
 * also one that states the same fact): about any other memory the candidate is new, and becomes
 * a CREATE. A candidate on an exclusive topic that already has an active memory may only replace
 * that memory or change nothing (invariant 4); so may a candidate on any other topic whose slot
 * (slot.ts: what it is about, "the choir" as something the user does) a memory fills already,
 * on whatever topic that memory is (an UPDATE of it is not turned into a CREATE). An UPDATE must pass the trust gate against the
 * strongest source behind its target (invariant 10). A proposal that breaks a gate is turned
 * into what the rules allow, and the reason says so.
 */
export function enforcePolicy(proposed: Decision, item: EmbeddedCandidate, similar: readonly MemoryRecord[], context: Pick<PlanContext, 'trust' | 'exclusiveTopics'>): Decision {
  const { candidate, source } = item;
  const { exclusiveTopics } = context;
  const slot = slotKey(candidate, exclusiveTopics);
  const holder = exclusiveTopics.has(candidate.topic) ? similar.find((memory) => memory.topic === candidate.topic) : slot === '' ? undefined : similar.find((memory) => changesMind(candidate, memory, exclusiveTopics));
  const decision = sameTopicOrNew(proposed, candidate, similar, exclusiveTopics);
  if (decision.action === 'NOOP') return decision;
  if (holder && (decision.action === 'CREATE' || decision.targetId !== holder.id)) {
    const proposed = decision.action === 'CREATE' ? 'CREATE' : `UPDATE of ${decision.targetId}`;
    const holds = slot === '' ? `exclusive topic '${candidate.topic}'` : `the slot '${describeSlot(candidate)}'`;
    return gate({ action: 'UPDATE', targetId: holder.id, reason: `${decision.reason} (the decider proposed ${proposed}; ${holds} already holds ${holder.id}, which this replaces)` }, holder, source, context);
  }
  if (decision.action === 'UPDATE') return gate(decision, similar.find((memory) => memory.id === decision.targetId)!, source, context);
  return decision;
}

/** An UPDATE or a corroboration of a memory on another topic and slot (and, for a corroboration, another fact) becomes a CREATE. */
function sameTopicOrNew(decision: Decision, candidate: Candidate, similar: readonly MemoryRecord[], exclusiveTopics: ReadonlySet<string>): Decision {
  if (decision.action === 'CREATE' || (decision.action === 'NOOP' && !decision.corroborate)) return decision;
  const target = similar.find((memory) => memory.id === decision.targetId);
  if (target === undefined || target.topic === candidate.topic) return decision;
  if (decision.action === 'UPDATE' && changesMind(candidate, target, exclusiveTopics)) return decision;
  if (decision.action === 'NOOP' && sameFactKey(target.content) === sameFactKey(candidate.content)) return decision;
  const proposed = decision.action === 'UPDATE' ? 'UPDATE' : 'corroboration';
  return { action: 'CREATE', reason: `${decision.reason} (the decider proposed ${proposed} of ${target.id}, a memory on topic '${target.topic}', not '${candidate.topic}'; that memory stays, and this one is new)` };
}

function gate(decision: Extract<Decision, { action: 'UPDATE' }>, target: MemoryRecord, source: Source, context: Pick<PlanContext, 'trust'>): Decision {
  const refusal = trustRefusal(target, source, context.trust);
  if (refusal === undefined) return decision;
  return { action: 'NOOP', targetId: target.id, reason: `update refused: ${refusal}; the decider said: ${decision.reason}`, corroborate: false };
}

/** JSON for the error message; a BigInt or a cycle in a plugin's answer must not turn a PluginError into a TypeError. */
function describeDecision(decision: unknown): string {
  try {
    return JSON.stringify(decision) ?? String(decision);
  } catch {
    return `an unserialisable ${typeof decision}`;
  }
}

function appendSource(sources: readonly Source[], source: Source): Source[] {
  return sources.some((existing) => sameSource(existing, source)) ? [...sources] : [...sources, source];
}

/** A fact's decision: over its sweep's facts (sameKind: episodes take their place among the 32 neighbours, but are not shown) and the memory its write replaces. */
async function decideFact(item: EmbeddedCandidate, working: WorkingSet, target: PlanTarget, context: PlanContext): Promise<Decision> {
  // The policy reads only the memories its rules can pick: the sweep without its scan of every memory, mostly.
  const policy = policyTopicsOf(context.decider);
  const { candidateThreshold: threshold, exclusiveTopics } = context;
  const swept = sameKind(item.candidate, policy ? working.policySweep(item, threshold, exclusiveTopics, policy) : working.sweep(item, threshold, exclusiveTopics));
  const replaced = replacedIn(working.working, target);
  const similar = replaced && !swept.includes(replaced) ? [replaced, ...swept] : swept;
  return decide(item, similar, replaced, context);
}

/**
 * Decides and applies each candidate in order against `working` (a Map by id, mutated:
 * later candidates see earlier ones' effects). Returns the operations and the changed records.
 */
export async function planConsolidation(map: Map<string, MemoryRecord>, items: readonly EmbeddedCandidate[], target: PlanTarget, context: PlanContext): Promise<Plan> {
  const working = new WorkingSet(map, target);
  const operations: Operation[] = [];
  const changed = new Set<string>();
  const created: string[] = [];
  const supersedes = new Map<string, string>();
  const { now } = context;
  const episodes = new EpisodeLinks();
  const superseded: Superseded[] = [];

  for (const item of items) {
    const { candidate, source } = item;
    const decision = isEpisode(candidate) ? decideEpisode(working.sameEpisode(item, context.candidateThreshold)) : await decideFact(item, working, target, context);

    if (decision.action === 'NOOP') {
      const target = decision.targetId === undefined ? undefined : working.get(decision.targetId);
      let reason = decision.reason;
      if (target && decision.corroborate) {
        if (target.sources.some((existing) => sameSource(existing, source))) {
          reason = `${decision.reason}; already backed by ${source.type} source ${source.id}, not counted twice`;
        } else {
          working.set({
            ...target,
            confidence: corroboratedConfidence(target.confidence),
            sources: appendSource(target.sources, source),
            updatedAt: now,
            history: [...target.history, { at: now, event: 'corroborated', reason: `corroborated by ${source.type} source ${source.id}`, sourceId: source.id }],
            // The turn that restated it (its episode, when the write keeps one) retires with it (retiredEpisodes).
            ...restated(target, isEpisode(candidate) ? undefined : episodes.of(candidate)),
          });
          changed.add(target.id);
        }
      }
      operations.push({ action: 'NOOP', memoryId: target?.id ?? '', ...(target ? { targetId: target.id } : {}), content: candidate.content, reason });
      if (isEpisode(candidate)) episodes.add(candidate, target?.id ?? '');
      continue;
    }

    const id = freshId(context.newId, (taken) => working.has(taken));
    const old = decision.action === 'UPDATE' ? working.get(decision.targetId)! : undefined;
    const episodeId = isEpisode(candidate) ? undefined : episodes.of(candidate);
    if (isEpisode(candidate)) episodes.add(candidate, id);
    const record: MemoryRecord = {
      id,
      userId: recordUserId(target, target.scope),
      appName: target.appName,
      scope: target.scope,
      ...(target.scope === 'session' && target.sessionId !== undefined ? { sessionId: target.sessionId } : {}),
      topic: candidate.topic,
      content: candidate.content,
      importance: candidate.importance,
      halfLifeDays: candidate.halfLifeDays,
      // A memory is never more confident than its source is trusted.
      confidence: createdConfidence(candidate.confidence, context.trust[source.type]),
      sources: old ? appendSource(old.sources, source) : [source],
      createdAt: now,
      updatedAt: now,
      ...(target.metadata !== undefined ? { metadata: target.metadata } : {}),
      history: [old ? { at: now, event: 'created', reason: `created from ${old.id}: ${decision.reason}`, related: old.id, sourceId: source.id } : { at: now, event: 'created', reason: decision.reason, sourceId: source.id }],
      embedding: item.embedding,
      embedderId: context.embedderId,
      ...(episodeId !== undefined ? { episodeId } : {}),
      // The user's pin stays with the memory they pinned as it is updated.
      ...(old?.pinned ? { pinned: true as const } : {}),
    };
    if (old) {
      working.set({
        ...old,
        invalidatedAt: now,
        supersededBy: id,
        history: [...old.history, { at: now, event: 'superseded', reason: `superseded by ${id}: ${decision.reason}`, related: id, sourceId: source.id }],
      });
      changed.add(old.id);
      supersedes.set(id, old.id);
      superseded.push({ old, by: id, source });
    }
    working.set(record);
    changed.add(id);
    created.push(id);
    operations.push({ action: decision.action, memoryId: id, ...(old ? { targetId: old.id } : {}), content: candidate.content, reason: decision.reason });
  }
  for (const episode of await retiredEpisodes(working, superseded, context)) changed.add(episode);

  return { operations, changed: [...changed].map((id) => working.get(id)!), created, supersedes };
}

/** A memory this plan superseded: by which new memory, on whose statement. */
interface Superseded {
  old: MemoryRecord;
  by: string;
  source: Source;
}

/**
 * Episodes answer to consolidation: every active episode of the target that states a memory
 * this plan superseded (episodes.ts `statingEpisodeIds`: the turn it was read from, the turns
 * that restated it) is retired with it, so no turn presents the old value as current. It keeps its
 * text and sources for lineage (a tombstone like the memory it stated, never retrieved), and
 * its history says which memory replaced what it stated. A turn that also states the replacing
 * memory stays (it says the current value). Returns the ids it retired.
 */
async function retiredEpisodes(working: WorkingSet, superseded: readonly Superseded[], context: PlanContext): Promise<string[]> {
  const retired: string[] = [];
  const reader = context.statements;
  for (const { old, by, source } of superseded) {
    // A turn that also states what replaced the old value ("I'm vegetarian. I'm a vegan.") presents
    // the current value: it stays.
    const replacing = working.get(by);
    const current = new Set(replacing ? statingEpisodeIds(replacing) : []);
    const ids = statingEpisodeIds(old).filter((id) => !current.has(id));
    const unread = ids.filter((id) => !working.has(id));
    const read = new Map((reader && unread.length > 0 ? await reader.recordsOf(unread) : []).map((record) => [record.id, record]));
    for (const id of ids) {
      const episode = working.get(id) ?? read.get(id);
      if (episode === undefined || !isEpisode(episode) || episode.invalidatedAt !== undefined) continue;
      if (!working.holds(episode)) continue;
      working.set({
        ...episode,
        invalidatedAt: context.now,
        history: [...episode.history, { at: context.now, event: 'superseded', reason: `retired: it states ${old.id}, which ${by} superseded`, related: by, sourceId: source.id }],
      });
      retired.push(episode.id);
    }
  }
  return retired;
}

/** `memory.restatedIn` with the episode `id` of a turn that restated it, or nothing new (no id, or one it names already). */
function restated(memory: MemoryRecord, id: string | undefined): { restatedIn?: string[] } {
  if (id === undefined || id === memory.episodeId || memory.restatedIn?.includes(id)) return {};
  return { restatedIn: [...(memory.restatedIn ?? []), id] };
}
