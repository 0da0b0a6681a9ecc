/**
 * Plain, JSON-safe snapshots of what each action produced. The page keeps the walkthrough's
 * results in localStorage so a reload shows the same steps; records carry Float32Arrays and
 * history the page does not need there, so only these views are stored.
 */
import type { ChatMessage, ForgetReport, Memory, Operation, Retrieved, SourceInput, Weights } from '../src/index';
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

export interface ForgetView {
  sourceId: string;
  userId: string;
  /** Erased ids with the topic their tombstone keeps (the text is gone, so none is shown). */
  erased: { id: string; topic: string }[];
  regenerated: ForgetReport['regenerated'];
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

export async function forgetView(memory: Memory, sourceId: string, owner: Owner): Promise<ForgetView> {
  const report = await memory.forgetSource(sourceId, owner);
  const records = await memory.list({ ...owner, includeInvalid: true });
  const topicOf = new Map(records.map((record) => [record.id, record.topic]));
  return {
    sourceId,
    userId: owner.userId,
    erased: report.erased.map((id) => ({ id, topic: topicOf.get(id) ?? '?' })),
    regenerated: report.regenerated,
  };
}
