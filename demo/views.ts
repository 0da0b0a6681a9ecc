/**
 * Plain, JSON-safe snapshots of what each action produced. The page keeps the walkthrough's
 * results in localStorage so a reload shows the same steps; records carry Float32Arrays and
 * history the page does not need there, so only these views are stored.
 */
import type { ChatMessage, ForgetReport, Memory, MemoryRecord, Operation, Retrieved, SourceInput, Weights } from '../src/index';
import { DEFAULT_WEIGHTS } from '../src/index';
import { DENSE_SHARE } from '../src/worker/fusion';

export interface Owner {
  userId: string;
  appName: string;
}

export interface OperationView {
  action: Operation['action'];
  memoryId: string;
  targetId?: string;
  content: string;
  reason: string;
}

export interface HitView {
  id: string;
  content: string;
  topic: string;
  score: number;
  relevance: number;
  /** The part of `relevance` the lexical channel gave (the rest came from the cosine). */
  lexicalPart: number;
  recency: number;
  importance: number;
}

export interface RetrievalView {
  userId: string;
  query: string;
  /** How many of the hits go to the model; the rest are shown for comparison. */
  k: number;
  weights: Weights;
  hits: HitView[];
  /** `memory.inject(system, top-k)`, exactly. */
  context: string;
}

/**
 * What became of one memory the revoked source supported: erased (only that source supported
 * it: the tombstone keeps id, times and topic, no text, so none is shown), rebuilt from the
 * remaining sources as `to` (its content and sources as they are now), or dropped (the
 * remaining sources no longer produce it).
 */
export type ForgetOutcome =
  | { outcome: 'erased'; id: string; topic: string }
  | { outcome: 'rebuilt'; id: string; topic: string; was: string; to: string; content: string; sources: string[]; toActive: boolean }
  | { outcome: 'dropped'; id: string; topic: string };

export interface ForgetView {
  sourceId: string;
  userId: string;
  /** The memories that were active (retrievable) and the source supported, and what became of each. */
  active: ForgetOutcome[];
  /** Memories already superseded before the erasure (never retrieved, kept for lineage) whose sources lost it. */
  superseded: ForgetOutcome[];
  /** Active memories the source did not support: still active, unchanged. */
  untouched: number;
}

export type StepResult =
  | { kind: 'ingest'; title: string; note: string; at: number; userId: string; sessionId: string; source: SourceInput; messages: ChatMessage[]; operations: OperationView[] }
  | { kind: 'retrieve'; title: string; note: string; at: number; retrieval: RetrievalView }
  | { kind: 'context'; title: string; note: string; at: number; retrieval: RetrievalView }
  | { kind: 'forget'; title: string; note: string; at: number; forget: ForgetView };

export function viewOperation(operation: Operation): OperationView {
  const { action, memoryId, targetId, content, reason } = operation;
  return { action, memoryId, content, reason, ...(targetId !== undefined ? { targetId } : {}) };
}

export function viewHit(hit: Retrieved): HitView {
  const { memory, score, relevance, recency, importance } = hit;
  const lexicalPart = (hit.lexical ?? 0) > 0 ? relevance - DENSE_SHARE * (hit.cosine ?? 0) : 0;
  return { id: memory.id, content: memory.content, topic: memory.topic, score, relevance, lexicalPart, recency, importance };
}

/** How many hits the page asks for: every candidate, so the cut at k is visible. */
const SHOW_ALL = 50;

/**
 * Retrieves every candidate for the picture, and injects the first `k` exactly as
 * `retrieve(query, { k })` would have returned them (retrieve ranks by score, so they are a prefix).
 */
export async function retrieveView(memory: Memory, query: string, owner: Owner, k: number, system: string): Promise<RetrievalView> {
  const weights = { ...DEFAULT_WEIGHTS };
  const all = await memory.retrieve(query, { ...owner, k: SHOW_ALL, weights });
  return {
    userId: owner.userId,
    query,
    k,
    weights,
    hits: all.map(viewHit),
    context: memory.inject(system, all.slice(0, k)),
  };
}

/** Revokes `sourceId` and says, for what was active before, what became of it. */
export async function forgetView(memory: Memory, sourceId: string, owner: Owner): Promise<ForgetView> {
  const before = new Set((await memory.list(owner)).map((record) => record.id));
  const report = await memory.forgetSource(sourceId, owner);
  const after = new Map((await memory.list({ ...owner, includeInvalid: true })).map((record) => [record.id, record]));
  const topicOf = (id: string) => after.get(id)?.topic ?? '?';
  const outcomes: ForgetOutcome[] = [
    ...report.erased.map((id) => ({ outcome: 'erased' as const, id, topic: topicOf(id) })),
    ...report.regenerated.map(({ from, to }) => rebuiltOutcome(after.get(from), from, to === null ? undefined : after.get(to))),
  ];
  const touched = new Set(outcomes.map((outcome) => outcome.id));
  return {
    sourceId,
    userId: owner.userId,
    active: outcomes.filter((outcome) => before.has(outcome.id)),
    superseded: outcomes.filter((outcome) => !before.has(outcome.id)),
    untouched: [...before].filter((id) => !touched.has(id)).length,
  };
}

/** `was`: the replaced memory's text as it is kept now (a placeholder where its text went with the source). */
function rebuiltOutcome(record: MemoryRecord | undefined, from: string, to: MemoryRecord | undefined): ForgetOutcome {
  const topic = record?.topic ?? '?';
  if (!to) return { outcome: 'dropped', id: from, topic };
  const sources = [...new Set(to.sources.map((source) => source.id))];
  return { outcome: 'rebuilt', id: from, topic, was: record?.content ?? '', to: to.id, content: to.content, sources, toActive: to.invalidatedAt === undefined };
}

/** A result an earlier version of the page saved (erased ids and from → to pairs, no outcomes): read as outcomes of active memories. */
export function upgradeForgetView(view: ForgetView): ForgetView {
  if (Array.isArray(view.active)) return view;
  const old = view as unknown as { erased?: { id: string; topic: string }[]; regenerated?: ForgetReport['regenerated'] };
  const active: ForgetOutcome[] = [
    ...(old.erased ?? []).map(({ id, topic }) => ({ outcome: 'erased' as const, id, topic })),
    ...(old.regenerated ?? []).map(({ from, to }): ForgetOutcome => (to ? { outcome: 'rebuilt', id: from, topic: '?', was: '', to, content: '', sources: [], toActive: true } : { outcome: 'dropped', id: from, topic: '?' })),
  ];
  return { sourceId: view.sourceId, userId: view.userId, active, superseded: [], untouched: 0 };
}
