/**
 * The live write under review: planned like any other (the same sweep, decider and gates), then
 * held instead of applied (held.ts says how a held write is stored). What a held write changes:
 *
 * - each CREATE and UPDATE becomes a pending entry of the input, under the id the plan gave it;
 * - a fact already waiting for review (same topic and {@link pendingKey}) is not queued again: a
 *   NOOP naming the pending memory;
 * - nothing else: no record is written, so a corroboration of a stored memory is not counted
 *   (it would store the reviewed source's excerpt before anyone approved it).
 */
import { planConsolidation, type EmbeddedCandidate, type Plan, type PlanContext, type PlanTarget } from '../consolidate/plan';
import { freshId } from '../ids';
import type { Candidate, MemoryRecord, Operation } from '../schema';
import type { InputRow, PendingEntry } from '../storage/contract';
import { heldEntries, pendingKey } from './held';

/** A held plan: no record changes, the candidates and entries to store with the input. */
export interface HeldPlan extends Plan {
  held: { candidates: Candidate[]; pending: PendingEntry[] };
}

/** Pending memories of the target's scope (and session), by {@link pendingKey}: what the queue already holds. */
export function queuedFacts(inputs: readonly InputRow[], target: PlanTarget): Map<string, string> {
  const queued = new Map<string, string>();
  for (const { input, entry, candidate } of heldEntries(inputs)) {
    if (input.scope !== target.scope || (target.scope === 'session' && input.sessionId !== target.sessionId)) continue;
    queued.set(pendingKey(candidate), entry.id);
  }
  return queued;
}

/** Plans `items` over `working` and holds the result for review (see the file comment). */
export async function planHeld(working: Map<string, MemoryRecord>, items: readonly EmbeddedCandidate[], target: PlanTarget, context: PlanContext, queued: ReadonlyMap<string, string>): Promise<HeldPlan> {
  const fresh = items.filter((item) => !queued.has(pendingKey(item.candidate)));
  // One id per pending memory: never one the queue holds already.
  const queuedIds = new Set(queued.values());
  const plan = await planConsolidation(working, fresh, target, { ...context, newId: () => freshId(context.newId, (id) => queuedIds.has(id)) });
  const created = new Set(plan.created);
  const corroborated = new Set(plan.changed.map((record) => record.id).filter((id) => !created.has(id)));
  const candidates: Candidate[] = [];
  const pending: PendingEntry[] = [];
  const planned = new Map(fresh.map((item, i) => [item, plan.operations[i]!]));
  const operations = items.map((item): Operation => {
    const operation = planned.get(item);
    if (operation === undefined) {
      const id = queued.get(pendingKey(item.candidate))!;
      return { action: 'NOOP', memoryId: id, targetId: id, content: item.candidate.content, reason: `already waiting for review as ${id}`, pending: true };
    }
    if (operation.action === 'NOOP') {
      const waiting = operation.targetId !== undefined && created.has(operation.targetId);
      if (waiting) return { ...operation, reason: `${operation.reason}; already waiting for review as ${operation.targetId}`, pending: true };
      return corroborated.has(operation.memoryId) ? { ...operation, reason: `${operation.reason}; not counted: ${item.source.type} sources are under review, and a corroboration changes a memory` } : operation;
    }
    pending.push({ id: operation.memoryId, index: candidates.length, action: operation.action, ...(operation.targetId !== undefined ? { targetId: operation.targetId } : {}) });
    candidates.push(item.candidate);
    return { ...operation, reason: `waits for review: ${operation.reason}`, pending: true };
  });
  return { operations, changed: [], created: [], supersedes: new Map(), held: { candidates, pending } };
}
