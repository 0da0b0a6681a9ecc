/**
 * mem0 OSS v3's public shapes (`mem0ai/oss`), written out so a mem0 caller type-checks
 * unchanged, and the conversions from engram's records into them. Names and casing are
 * mem0's: camelCase options on `add`/`deleteAll`, snake_case ids in `filters` and in results,
 * snake_case history rows.
 */
import { EPISODE_TOPIC, REDACTED, type MemoryKind, type MemoryRecord } from 'engram';
import { md5Hex } from './md5';

/** A chat message as mem0 takes it. Only text content is supported (no image parts). */
export interface Message {
  role: string;
  content: string;
}

/** mem0's entity ids on `add` and `deleteAll`. */
export interface Entity {
  userId?: string;
  /** engram's `appName`. */
  agentId?: string;
  /** engram's `sessionId` (session scope). */
  runId?: string;
}

export interface AddMemoryOptions extends Entity {
  /** Stored with the memories this call creates (JSON values), returned as their `metadata` and filterable in `search`/`getAll`. */
  metadata?: Record<string, unknown>;
  /** mem0 also takes the ids here, snake_case. */
  filters?: SearchFilters;
  /** `false`: store each non-system message verbatim, no extraction. Default `true`. */
  infer?: boolean;
  /** `YYYY-MM-DD`: after that day `search` and `getAll` leave the memory out (`get` still returns it); kept as `metadata.expiration_date`. */
  expirationDate?: string;
}

/**
 * Filters for `search` and `getAll`: the entity ids (`user_id` is required by engram; camelCase
 * `userId` also accepted) and any metadata conditions in mem0's grammar (`category: 'food'`,
 * `priority: { gte: 5 }`, `eq ne gt gte lt lte in nin contains icontains`, `'*'`, `AND`/`OR`/`NOT`).
 */
export interface SearchFilters {
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  userId?: string;
  agentId?: string;
  runId?: string;
  [key: string]: unknown;
}

export interface SearchMemoryOptions {
  filters?: SearchFilters;
  /** Include memories past their expiration date. Default false. */
  showExpired?: boolean;
  /** Most results. Default 20. */
  topK?: number;
  /** Minimum cosine similarity between query and memory, in [0, 1]. Default: none. */
  threshold?: number;
  /**
   * engram's prompt budget (not in mem0): only the best-ranked results whose `<MEMORIES>` block
   * fits this many tokens are returned, as `Memory.assemble` chooses them.
   */
  maxTokens?: number;
  /** The app's tokenizer for `maxTokens` (default engram's `estimateTokens`, which never undercounts). */
  countTokens?: (text: string) => number;
  /**
   * engram's result order (not in mem0): `'score'` (default) best first; `'stable'` by creation,
   * then id, so a prompt built from an unchanged result set is byte-identical turn after turn.
   */
  order?: 'score' | 'stable';
}

export interface GetAllMemoryOptions {
  filters?: SearchFilters;
  /** Include memories past their expiration date. Default false. */
  showExpired?: boolean;
  /** Most results. Default 20. */
  topK?: number;
}

export type DeleteAllMemoryOptions = Entity;

export interface UpdateMemoryOptions {
  text?: string;
  /** @deprecated mem0's old name for `text`. */
  data?: string;
  /** Replaces the memory's metadata (kept as it was when left out). */
  metadata?: Record<string, unknown>;
  /** `YYYY-MM-DD` sets the expiration date, `null` clears it; kept as it was when left out. */
  expirationDate?: string | null;
}

/** One memory as mem0 returns it. */
export interface MemoryItem {
  id: string;
  memory: string;
  /** MD5 hex of `memory`, as mem0 computes it. */
  hash?: string;
  /** ISO 8601. */
  createdAt?: string;
  updatedAt?: string;
  /** engram's blended score (relevance, recency, importance); `search` only. */
  score?: number;
  /** The metadata given to `add` (or `update`); `{}` when none was. */
  metadata?: Record<string, unknown>;
  /**
   * engram's addition (not in mem0): `'fact'`, a statement about the user, or `'episode'`, a
   * turn kept in the user's words (only with `episodes: true`). Beside `metadata`, which stays the caller's.
   */
  kind?: MemoryKind;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
}

export interface SearchResult {
  results: MemoryItem[];
}

/** One row of `history(id)`, as mem0's history store returns it. */
export interface HistoryRow {
  id: string;
  memory_id: string;
  previous_value: string | null;
  new_value: string | null;
  action: 'ADD' | 'UPDATE' | 'DELETE';
  /** When the memory was first added (ISO 8601). */
  created_at: string;
  updated_at: string | null;
  is_deleted: 0 | 1;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What the facade keeps in engram's metadata of a memory: the caller's metadata and the run
 * (`runId`) of the call that wrote it. Runs are a filter here, as in mem0, not an engram session.
 */
export interface Envelope {
  metadata?: Record<string, unknown>;
  run_id?: string;
  /** `YYYY-MM-DD`. */
  expiration_date?: string;
}

/** The envelope engram stores for a write (undefined: nothing to keep). */
export function envelopeFor(metadata: Record<string, unknown> | undefined, runId: string | undefined, expiration?: string): Envelope | undefined {
  if (metadata === undefined && runId === undefined && expiration === undefined) return undefined;
  return { ...(metadata !== undefined ? { metadata } : {}), ...(runId !== undefined ? { run_id: runId } : {}), ...(expiration !== undefined ? { expiration_date: expiration } : {}) };
}

/** Whether a memory's expiration date is before `today` (`YYYY-MM-DD`, UTC). */
export function isExpired(record: MemoryRecord, today: string): boolean {
  const expiration = envelopeOf(record).expiration_date;
  return expiration !== undefined && expiration < today;
}

/** A record's envelope; a record written without one (or by engram directly) has an empty one. */
export function envelopeOf(record: MemoryRecord): Envelope {
  if (record.metadata === undefined) return {};
  const value = JSON.parse(record.metadata) as Envelope;
  return typeof value === 'object' && value !== null ? value : {};
}

/** The run of a record: its envelope's, or its session for a session-scope record written before runs were kept there. */
export function runOf(record: MemoryRecord): string | undefined {
  return envelopeOf(record).run_id ?? (record.scope === 'session' ? record.sessionId : undefined);
}

/** What mem0's filters see of a memory: its metadata and its entity ids. */
export function filterDocument(record: MemoryRecord): Record<string, unknown> {
  const run = runOf(record);
  return { ...envelopeOf(record).metadata, user_id: record.userId, agent_id: record.appName, ...(run !== undefined ? { run_id: run } : {}) };
}

/** A record's text, or null once erasure removed it (only its id, times and reasons remain). */
export function textOf(record: MemoryRecord): string | null {
  return record.content === REDACTED || record.history.some((entry) => entry.event === 'erased') ? null : record.content;
}

/** The metadata mem0 returns: the caller's, with the expiration date as `expiration_date` (where mem0's TypeScript SDK puts it). */
function metadataOf(record: MemoryRecord): Record<string, unknown> {
  const { metadata = {}, expiration_date: expiration } = envelopeOf(record);
  return expiration === undefined ? metadata : { ...metadata, expiration_date: expiration };
}

/** A stored memory (its chain's last record) in mem0's result shape, under its mem0 id and added time (the chain's first record). */
export function toItem(record: MemoryRecord, root: MemoryRecord, score?: number): MemoryItem {
  const run = runOf(record);
  return {
    id: root.id,
    memory: record.content,
    hash: md5Hex(record.content),
    createdAt: iso(root.createdAt),
    updatedAt: iso(record.updatedAt),
    ...(score !== undefined ? { score } : {}),
    metadata: metadataOf(record),
    kind: record.topic === EPISODE_TOPIC ? 'episode' : 'fact',
    ...(record.userId !== '' ? { user_id: record.userId } : {}),
    ...(record.appName !== 'default' ? { agent_id: record.appName } : {}),
    ...(run !== undefined ? { run_id: run } : {}),
  };
}

/**
 * mem0 history rows of one chain (its records from the ADD on), newest first: ADD for the
 * first, UPDATE for each later record whose text differs from the one before, DELETE when the
 * chain ends in a tombstone. Text an erasure removed is null.
 */
export function toHistoryRows(chain: readonly MemoryRecord[]): HistoryRow[] {
  const first = chain[0]!;
  const added = iso(first.createdAt);
  const row = (n: number, action: HistoryRow['action'], previous: string | null, next: string | null, at: number | null): HistoryRow => ({
    id: `${first.id}#${n}`,
    memory_id: first.id,
    previous_value: previous,
    new_value: next,
    action,
    created_at: added,
    updated_at: at === null ? null : iso(at),
    is_deleted: action === 'DELETE' ? 1 : 0,
  });
  const rows = [row(0, 'ADD', null, textOf(first), null)];
  chain.slice(1).forEach((record, i) => {
    const before = chain[i]!;
    // A record an erasure rebuilt with the same text is no change a mem0 caller made.
    const rebuilt = record.history.some((entry) => entry.event === 'regenerated' && entry.related === before.id);
    if (rebuilt && textOf(record) === textOf(before)) return;
    rows.push(row(rows.length, 'UPDATE', textOf(before), textOf(record), record.createdAt));
  });
  const last = chain.at(-1)!;
  if (last.invalidatedAt !== undefined) rows.push(row(rows.length, 'DELETE', textOf(last), null, last.invalidatedAt));
  return rows.reverse();
}
