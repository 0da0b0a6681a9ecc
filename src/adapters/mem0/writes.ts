/**
 * How mem0's writes become engram's. Each message a caller adds is its own engram source, so
 * that deleting one memory later (which forgets the sources behind it) forgets that message and
 * not the whole call. Erasure is engram's `forgetSource`: no text of a forgotten source remains.
 * Every write lands in user scope; the run (`runId`) and the caller's metadata go in its
 * envelope (shapes.ts), as mem0 keeps them: filters, not partitions.
 */
import { DEFAULT_TRUST, EPISODE_TOPIC, type Memory as EngramMemory, type MemoryRecord, type Metadata, type Operation, type OwnerOptions, type SourceType } from 'engram';
import type { Target } from './arguments';
import { headOf, rootOf, type ReadRecord } from './lineage';
import { envelopeFor, envelopeOf, type MemoryItem, type Message } from './shapes';

/** Topic of a message stored verbatim (`infer: false`): engram consolidates per topic. */
export const VERBATIM_TOPIC = 'general';

/** A fresh id for one `add` call; its messages become `<call>:<index>` sources. */
export function newCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `mem0_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** What one add call writes with each message: where, and the envelope. */
interface WriteContext {
  target: Target;
  metadata: Record<string, unknown> | undefined;
  expiration?: string | undefined;
}

function envelopeOption(context: WriteContext) {
  const envelope = envelopeFor(context.metadata, context.target.sessionId, context.expiration);
  return envelope === undefined ? {} : { metadata: envelope as Metadata };
}

/** `infer: true`: each user message through engram's extraction and consolidation. */
export async function ingestMessages(engram: EngramMemory, messages: readonly Message[], context: WriteContext): Promise<Operation[]> {
  const call = newCallId();
  const { userId, appName, sessionId } = context.target;
  const operations: Operation[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user' || message.content.trim() === '') continue;
    const options = { userId, appName, sessionId: sessionId ?? call, source: { type: 'user_implicit' as const, id: `${call}:${index}` }, ...envelopeOption(context) };
    operations.push(...(await engram.ingest([{ role: 'user', content: message.content }], options)));
  }
  return operations;
}

/** `infer: false`: each non-system message stored as it is. */
export async function storeVerbatim(engram: EngramMemory, messages: readonly Message[], context: WriteContext): Promise<Operation[]> {
  const call = newCallId();
  const operations: Operation[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system' || message.content.trim() === '') continue;
    // The app states a user's own words; anything another role said is weaker evidence.
    const type: SourceType = message.role === 'user' ? 'user_explicit' : 'tool_output';
    operations.push(await engram.remember({ content: message.content, topic: VERBATIM_TOPIC }, { ...rememberOptions(context.target, { type, id: `${call}:${index}` }), ...envelopeOption(context) }));
  }
  return operations;
}

/** A direct write for `target`: user scope; its run, when named, is the input's session (so deleteAll of the run finds it). */
export function rememberOptions(target: Target, source: { type: SourceType; id: string }) {
  const { userId, appName, sessionId } = target;
  return { userId, appName, scope: 'user' as const, ...(sessionId !== undefined ? { sessionId } : {}), source };
}

/**
 * mem0's add result: the final state of each memory the call wrote, once, under its mem0 id.
 * A memory created and then replaced within the same call is one ADD of its last text.
 */
export async function addedItems(operations: readonly Operation[], read: ReadRecord): Promise<MemoryItem[]> {
  const created = new Set(operations.filter((operation) => operation.action === 'CREATE').map((operation) => operation.memoryId));
  const items = new Map<string, MemoryItem>();
  for (const operation of operations) {
    if (operation.action === 'NOOP') continue;
    const record = await read(operation.memoryId);
    if (!record) continue;
    const head = await headOf(record, read);
    if (head.invalidatedAt !== undefined) continue;
    const root = await rootOf(head, read);
    items.set(root.id, { id: root.id, memory: head.content, metadata: { event: created.has(root.id) ? 'ADD' : 'UPDATE' } });
  }
  return [...items.values()];
}

/** The most trusted type among a memory's sources: a memory put back keeps the bar it had (the trust gate). */
function strongestType(record: MemoryRecord): SourceType {
  return record.sources.map((source) => source.type).reduce((best, type) => (DEFAULT_TRUST[type] > DEFAULT_TRUST[best] ? type : best), 'tool_output');
}

/**
 * Deletes one memory as engram erases: forgets every source (message) behind it in one
 * erasure, so nothing of its text stays. The owner's other active memories that came only from
 * those messages would go with them: each is first restated as an UPDATE of itself from a new
 * source, so it survives the erasure on the same chain (its mem0 id unchanged); the message's
 * episode is not restated, it goes with the message. Memories that
 * other messages also support are rebuilt by the erasure's replay, on their chains too.
 */
export async function eraseMemory(engram: EngramMemory, owner: { userId: string; appName: string }, record: MemoryRecord): Promise<void> {
  const revoked = new Set(record.sources.map((source) => source.id));
  for (const other of await engram.list(owner)) {
    // An episode is the message itself: it goes with the erasure (it quotes the deleted fact).
    if (other.id === record.id || other.scope === 'app' || other.topic === EPISODE_TOPIC || !other.sources.every((source) => revoked.has(source.id))) continue;
    const fact = { content: other.content, topic: other.topic, importance: other.importance, halfLifeDays: other.halfLifeDays, confidence: other.confidence };
    const target: Target = { ...owner, ...(envelopeOf(other).run_id !== undefined ? { sessionId: envelopeOf(other).run_id! } : {}) };
    const metadata = other.metadata === undefined ? {} : { metadata: JSON.parse(other.metadata) as Metadata };
    await engram.remember(fact, { ...rememberOptions(target, { type: strongestType(other), id: `${newCallId()}:0` }), ...metadata, replaces: other.id });
  }
  await engram.forgetSource([...revoked], owner);
}

/** Source ids behind the owner's memories and stored inputs; with `runId`, only that run's inputs. */
export async function sourcesOfOwner(engram: EngramMemory, owner: OwnerOptions, runId?: string): Promise<Set<string>> {
  const data = await engram.export(owner);
  const ids = new Set<string>();
  for (const input of data.inputs) {
    if (input.kind === 'prune' || (runId !== undefined && input.sessionId !== runId)) continue;
    ids.add(input.source.id);
  }
  if (runId === undefined) for (const record of data.memories) for (const source of record.sources) ids.add(source.id);
  return ids;
}
