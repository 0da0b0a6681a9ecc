/**
 * How mem0's writes become engram's. Each message a caller adds is its own engram source, so
 * that deleting one memory later (which forgets the sources behind it) forgets that message and
 * not the whole call. Erasure is engram's `forgetSource`: no text of a forgotten source remains.
 */
import { DEFAULT_TRUST, type Memory as EngramMemory, type MemoryRecord, type Operation, type OwnerOptions, type SourceType } from 'engram';
import type { Target } from './arguments';
import type { MemoryItem, Message } from './shapes';

/** Topic of a message stored verbatim (`infer: false`): engram consolidates per topic. */
export const VERBATIM_TOPIC = 'general';

/** A fresh id for one `add` call; its messages become `<call>:<index>` sources. */
export function newCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `mem0_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** mem0's add result for the operations that wrote something (a NOOP stored nothing new). */
export function addedItems(operations: readonly Operation[]): MemoryItem[] {
  return operations
    .filter((operation) => operation.action !== 'NOOP')
    .map((operation) => ({ id: operation.memoryId, memory: operation.content, metadata: { event: operation.action === 'CREATE' ? 'ADD' : 'UPDATE' } }));
}

/** `infer: true`: each user message through engram's extraction and consolidation. */
export async function ingestMessages(engram: EngramMemory, messages: readonly Message[], target: Target): Promise<Operation[]> {
  const call = newCallId();
  const operations: Operation[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' || message.content.trim() === '') continue;
    operations.push(
      ...(await engram.ingest([{ role: 'user', content: message.content }], {
        userId: target.userId,
        appName: target.appName,
        sessionId: target.sessionId ?? call,
        source: { type: 'user_implicit', id: `${call}:${index}` },
      })),
    );
  }
  return operations;
}

/** `infer: false`: each non-system message stored as it is (session scope when a run is named). */
export async function storeVerbatim(engram: EngramMemory, messages: readonly Message[], target: Target): Promise<Operation[]> {
  const call = newCallId();
  const operations: Operation[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system' || message.content.trim() === '') continue;
    // The app states a user's own words; anything another role said is weaker evidence.
    const type: SourceType = message.role === 'user' ? 'user_explicit' : 'tool_output';
    operations.push(await engram.remember({ content: message.content, topic: VERBATIM_TOPIC }, rememberOptions(target, { type, id: `${call}:${index}` })));
  }
  return operations;
}

/** Where a direct write of `target` goes: the run's session scope when one is named, else the user's. */
export function rememberOptions(target: Target, source: { type: SourceType; id: string }) {
  const { userId, appName, sessionId } = target;
  return sessionId !== undefined ? { userId, appName, scope: 'session' as const, sessionId, source } : { userId, appName, scope: 'user' as const, source };
}

/** Forgets every source in `sourceIds` for `owner`: what only they supported is erased, the rest rebuilt. */
export async function forgetSources(engram: EngramMemory, owner: OwnerOptions, sourceIds: Iterable<string>): Promise<void> {
  for (const sourceId of new Set(sourceIds)) await engram.forgetSource(sourceId, owner);
}

/** What makes two active memories the same fact for {@link eraseMemory}. */
function factKey(record: MemoryRecord): string {
  return JSON.stringify([record.scope, record.sessionId ?? '', record.topic, record.content]);
}

/** The most trusted type among a memory's sources: a memory put back keeps the bar it had (the trust gate). */
function strongestType(record: MemoryRecord): SourceType {
  return record.sources.map((source) => source.type).reduce((best, type) => (DEFAULT_TRUST[type] > DEFAULT_TRUST[best] ? type : best), 'tool_output');
}

/**
 * Deletes one memory as engram erases: forgets every source (message) behind it, so nothing of
 * its text stays, then puts back, as direct facts with a new source, the owner's other active
 * memories that went only because they came from one of the same messages. Their text never
 * held the deleted memory's; the excerpt that did is gone with the message.
 */
export async function eraseMemory(engram: EngramMemory, owner: { userId: string; appName: string }, record: MemoryRecord): Promise<void> {
  const before = await engram.list(owner);
  await forgetSources(engram, owner, record.sources.map((source) => source.id));
  const kept = new Set((await engram.list(owner)).map(factKey));
  for (const lost of before) {
    if (lost.id === record.id || lost.scope === 'app' || kept.has(factKey(lost))) continue;
    const target: Target = { ...owner, ...(lost.scope === 'session' && lost.sessionId !== undefined ? { sessionId: lost.sessionId } : {}) };
    const fact = { content: lost.content, topic: lost.topic, importance: lost.importance, halfLifeDays: lost.halfLifeDays, confidence: lost.confidence };
    await engram.remember(fact, rememberOptions(target, { type: strongestType(lost), id: `${newCallId()}:0` }));
  }
}

/** Source ids behind the owner's memories and stored inputs; with `runId`, only that run's. */
export async function sourcesOfOwner(engram: EngramMemory, owner: OwnerOptions, runId?: string): Promise<Set<string>> {
  const data = await engram.export(owner);
  const ids = new Set<string>();
  for (const record of data.memories) {
    if (runId !== undefined && !(record.scope === 'session' && record.sessionId === runId)) continue;
    for (const source of record.sources) ids.add(source.id);
  }
  for (const input of data.inputs) {
    if (input.kind === 'prune' || (runId !== undefined && !(input.kind !== 'remember' && input.sessionId === runId))) continue;
    ids.add(input.source.id);
  }
  return ids;
}
