/**
 * Plain, JSON-safe snapshots of what each action produced. The page keeps the walkthrough's
 * results in localStorage so a reload shows the same steps; records carry Float32Arrays and
 * history the page does not need there, so only these views are stored.
 */
import type { ChatMessage, ForgetReport, Memory, MemoryKind, MemoryRecord, Operation, Retrieved, SourceInput, Weights } from '../src/index';
import { DEFAULT_WEIGHTS, EPISODE_TOPIC } from '../src/index';
import { DENSE_SHARE } from '../src/worker/fusion';

export interface Owner {
  userId: string;
  appName: string;
}

export interface OperationView {
  action: Operation['action'];
  /** What the operation wrote: a fact, or the user's turn kept in their words (an episode). Absent in results an earlier page saved: facts. */
  kind?: MemoryKind;
  memoryId: string;
  targetId?: string;
  content: string;
  reason: string;
  /** The write waits for review (`pending`): nothing was applied yet. */
  pending?: true;
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
  /** The facts that were active (retrievable) and the source supported, and what became of each. */
  active: ForgetOutcome[];
  /** Facts already superseded before the erasure (never retrieved, kept for lineage) whose sources lost it. */
  superseded: ForgetOutcome[];
  /** Active facts the source did not support: still active, unchanged. */
  untouched: number;
  /** Turns kept in the user's words (episodes) that were active and went with the source. Absent in results an earlier page saved. */
  turnsErased?: number;
}

export type StepResult =
  | { kind: 'ingest'; title: string; note: string; at: number; userId: string; sessionId: string; source: SourceInput; messages: ChatMessage[]; operations: OperationView[] }
  | { kind: 'retrieve'; title: string; note: string; at: number; retrieval: RetrievalView }
  | { kind: 'context'; title: string; note: string; at: number; retrieval: RetrievalView }
  | { kind: 'forget'; title: string; note: string; at: number; forget: ForgetView };

function viewOperation(operation: Operation, kind: MemoryKind = 'fact'): OperationView {
  const { action, memoryId, targetId, content, reason, pending } = operation;
  return { action, kind, memoryId, content, reason, ...(targetId !== undefined ? { targetId } : {}), ...(pending ? { pending } : {}) };
}

/**
 * The operations of one write, each with the kind of memory it wrote. An Operation does not say
 * it, so it is read back: from `list` (tombstones included: a later statement of the same write
 * may have superseded it already) or, for a held write, from `pending`.
 */
export async function viewOperations(memory: Memory, owner: Owner, operations: readonly Operation[]): Promise<OperationView[]> {
  if (operations.length === 0) return [];
  const [records, pending] = await Promise.all([memory.list({ ...owner, includeInvalid: true }), memory.pending(owner)]);
  const kinds = new Map<string, MemoryKind>([...records.map((record) => [record.id, record.kind] as const), ...pending.map((item) => [item.id, item.topic === EPISODE_TOPIC ? 'episode' : 'fact'] as const)]);
  return operations.map((operation) => viewOperation(operation, kinds.get(operation.memoryId) ?? 'fact'));
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

/** Revokes `sourceId` and says, for the facts that were active before, what became of each; the turns kept in the user's words are counted apart. */
export async function forgetView(memory: Memory, sourceId: string, owner: Owner): Promise<ForgetView> {
  const listed = await memory.list(owner);
  const before = new Set(listed.filter((record) => record.kind === 'fact').map((record) => record.id));
  const turnsBefore = new Set(listed.filter((record) => record.kind === 'episode').map((record) => record.id));
  const report = await memory.forgetSource(sourceId, owner);
  const after = new Map((await memory.list({ ...owner, includeInvalid: true })).map((record) => [record.id, record]));
  const topicOf = (id: string) => after.get(id)?.topic ?? '?';
  const outcomes: ForgetOutcome[] = [
    ...report.erased.map((id) => ({ outcome: 'erased' as const, id, topic: topicOf(id) })),
    ...report.regenerated.map(({ from, to }) => rebuiltOutcome(after.get(from), from, to === null ? undefined : after.get(to))),
  ];
  const facts = outcomes.filter((outcome) => outcome.topic !== EPISODE_TOPIC);
  const touched = new Set(facts.map((outcome) => outcome.id));
  return {
    sourceId,
    userId: owner.userId,
    active: facts.filter((outcome) => before.has(outcome.id)),
    superseded: facts.filter((outcome) => !before.has(outcome.id)),
    untouched: [...before].filter((id) => !touched.has(id)).length,
    turnsErased: [...turnsBefore].filter((id) => after.get(id)?.invalidatedAt !== undefined).length,
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
