/**
 * The argument rules of mem0's `Memory`, with mem0's own messages where mem0 has one, turned
 * into engram owners. engram is stricter in one way: every call needs a user, because every
 * engram memory belongs to one (`agent_id` or `run_id` alone names no owner).
 */
import { ChatMessage, ValidationError } from 'engram';
import type { Message, SearchFilters } from './shapes';

/** engram's owner and session for one call. */
export interface Target {
  userId: string;
  appName: string;
  sessionId?: string;
}

const ENTITY_PARAMS = ['user_id', 'agent_id', 'run_id', 'userId', 'agentId', 'runId'];

/** mem0 rejects ids at the top level of `search`/`getAll` options: they belong in `filters`. */
export function rejectTopLevelIds(options: object, method: string): void {
  const invalid = Object.keys(options).filter((key) => ENTITY_PARAMS.includes(key));
  if (invalid.length > 0) {
    throw new ValidationError(`${method} options`, `Top-level entity parameters [${invalid.join(', ')}] are not supported in ${method}(). Use filters: { userId: "..." } instead.`);
  }
}

/** mem0's id rule (trimmed, no inner whitespace; numbers become strings); undefined when absent. */
export function entityId(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw new ValidationError(name, `must be a string (got ${typeof value})`);
  const trimmed = String(value).trim();
  if (trimmed === '') throw new ValidationError(name, `Invalid ${name}: cannot be empty or whitespace-only. Provide a valid identifier.`);
  if (/\s/.test(trimmed)) throw new ValidationError(name, `Invalid ${name}: cannot contain whitespace. Provide a valid identifier without spaces.`);
  return trimmed;
}

/** The first of two spellings of one id; both given and different is an error. */
function oneOf(snake: unknown, camel: unknown, name: string): string | undefined {
  const [a, b] = [entityId(snake, name), entityId(camel, name)];
  if (a !== undefined && b !== undefined && a !== b) throw new ValidationError(name, `given twice with different values ('${a}' and '${b}')`);
  return a ?? b;
}

/** A target from ids; `what` names the call in the message when there is no user. */
export function targetOf(ids: { userId?: string; agentId?: string; runId?: string }, what: string): Target {
  if (ids.userId === undefined) {
    const message =
      ids.agentId !== undefined || ids.runId !== undefined
        ? 'engram keeps every memory under one user, so a user id is required (agent and run ids alone name no owner)'
        : `${what} must contain at least one of: user_id, agent_id, run_id. Example: filters: { user_id: 'u1' }`;
    throw new ValidationError(what, message);
  }
  return { userId: ids.userId, appName: ids.agentId ?? 'default', ...(ids.runId !== undefined ? { sessionId: ids.runId } : {}) };
}

/** The target of `search`/`getAll` (`filters.user_id` or `userId`, `agent_id`, `run_id`) and the metadata filter (every other key). */
export function filterTarget(filters: SearchFilters | undefined): { target: Target; metadata: Record<string, unknown> } {
  const given = filters ?? {};
  if (typeof given !== 'object' || Array.isArray(given)) throw new ValidationError('filters', `must be an object (got ${JSON.stringify(given)})`);
  const metadata = Object.fromEntries(Object.entries(given).filter(([key]) => !ENTITY_PARAMS.includes(key)));
  const target = targetOf(
    {
      ...optional('userId', oneOf(given.user_id, given.userId, 'filters.user_id')),
      ...optional('agentId', oneOf(given.agent_id, given.agentId, 'filters.agent_id')),
      ...optional('runId', oneOf(given.run_id, given.runId, 'filters.run_id')),
    },
    'filters',
  );
  return { target, metadata };
}

/** mem0 rejects a search without a query. */
export function checkQuery(query: unknown): string {
  if (typeof query !== 'string') throw new ValidationError('query', `must be a string (got ${typeof query})`);
  if (query.trim() === '') throw new ValidationError('query', 'query cannot be empty. Provide a non-empty search query.');
  return query;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/** The ids of `add`/`deleteAll`: camelCase options first, then `filters` (add only). */
export function entityTarget(options: { userId?: string; agentId?: string; runId?: string; filters?: SearchFilters }, what: string): Target {
  const filters = options.filters ?? {};
  const ids = {
    ...optional('userId', entityId(options.userId, 'userId') ?? oneOf(filters.user_id, filters.userId, 'filters.user_id')),
    ...optional('agentId', entityId(options.agentId, 'agentId') ?? oneOf(filters.agent_id, filters.agentId, 'filters.agent_id')),
    ...optional('runId', entityId(options.runId, 'runId') ?? oneOf(filters.run_id, filters.runId, 'filters.run_id')),
  };
  if (ids.userId === undefined && ids.agentId === undefined && ids.runId === undefined) {
    throw new ValidationError(
      `${what} options`,
      what === 'add' ? 'One of the filters: userId, agentId or runId is required!' : 'At least one filter is required to delete all memories. If you want to delete all memories, use the `reset()` method.',
    );
  }
  return targetOf(ids, `${what} options`);
}

/** mem0's checks on `threshold` and `topK`, with its messages. */
export function checkSearchParams(threshold: unknown, topK: unknown): void {
  if (threshold !== undefined) {
    if (typeof threshold !== 'number' || Number.isNaN(threshold)) throw new ValidationError('threshold', 'threshold must be a valid number');
    if (threshold < 0 || threshold > 1) throw new ValidationError('threshold', `Invalid threshold: ${threshold}. Must be between 0 and 1 (inclusive).`);
  }
  if (topK !== undefined) {
    if (typeof topK !== 'number' || !Number.isInteger(topK)) throw new ValidationError('topK', 'topK must be a valid integer');
    if (topK < 0) throw new ValidationError('topK', `Invalid topK: ${topK}. Must be a non-negative integer.`);
  }
}

/** `add`'s messages as mem0 takes them (a string is one user message), with mem0's messages for empty input. */
export function messagesOf(messages: unknown): Message[] {
  if (messages === undefined || messages === null) {
    throw new ValidationError('messages', 'messages is required and cannot be undefined or null. Provide a string or array of messages.');
  }
  if (typeof messages === 'string') {
    if (messages.trim() === '') throw new ValidationError('messages', 'messages string cannot be empty. Provide non-empty content.');
    return [{ role: 'user', content: messages }];
  }
  if (!Array.isArray(messages)) throw new ValidationError('messages', `must be a string or an array of { role, content } (got ${typeof messages})`);
  if (messages.length === 0) throw new ValidationError('messages', 'messages array cannot be empty. Provide at least one message with non-empty content.');
  messages.forEach((message: unknown, i) => {
    const { role, content } = (message ?? {}) as Partial<Message>;
    if (typeof role !== 'string' || typeof content !== 'string') throw new ValidationError(`messages.${i}`, 'must be { role: string, content: string } (image parts are not supported)');
    // Checked before the first message is written: one message engram refuses must not leave the others half-stored.
    const parsed = content.trim() === '' ? undefined : ChatMessage.safeParse({ role: 'user', content });
    if (parsed && !parsed.success) throw new ValidationError(`messages.${i}.content`, parsed.error.issues[0]!.message, { cause: parsed.error });
  });
  const list = messages as Message[];
  if (list.every((message) => message.content.trim() === '')) {
    throw new ValidationError('messages', 'messages array cannot contain only blank content. Provide at least one message with non-empty content.');
  }
  return list;
}

/** mem0's expiration date: `YYYY-MM-DD`, a real day. */
export function expirationOf(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new ValidationError(name, `must be a date as YYYY-MM-DD (got ${JSON.stringify(value)})`);
  }
  return value;
}
