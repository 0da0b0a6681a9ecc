/**
 * mem0 OSS v3's public shapes (`mem0ai/oss`), written out so a mem0 caller type-checks
 * unchanged, and the conversions from engram's records into them. Names and casing are
 * mem0's: camelCase options on `add`/`deleteAll`, snake_case ids in `filters` and in results,
 * snake_case history rows.
 */
import type { HistoryEntry, MemoryRecord } from 'engram';
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
  /** Accepted for mem0 compatibility and not stored: engram keeps no caller metadata (see the README's mem0 section). */
  metadata?: Record<string, unknown>;
  /** mem0 also takes the ids here, snake_case. */
  filters?: SearchFilters;
  /** `false`: store each non-system message verbatim, no extraction. Default `true`. */
  infer?: boolean;
}

/** Entity filters for `search` and `getAll`. `user_id` is required by engram (camelCase `userId` also accepted). */
export interface SearchFilters {
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  userId?: string;
  agentId?: string;
  runId?: string;
}

export interface SearchMemoryOptions {
  filters?: SearchFilters;
  /** Most results. Default 20. */
  topK?: number;
  /** Minimum cosine similarity between query and memory, in [0, 1]. Default: none. */
  threshold?: number;
}

export interface GetAllMemoryOptions {
  filters?: SearchFilters;
  /** Most results. Default 20. */
  topK?: number;
}

export type DeleteAllMemoryOptions = Entity;

export interface UpdateMemoryOptions {
  text?: string;
  /** @deprecated mem0's old name for `text`. */
  data?: string;
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
  metadata?: Record<string, unknown>;
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
  created_at: string;
  updated_at: string | null;
  is_deleted: 0 | 1;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A record's text, or null once erasure removed it (only its id, times and reasons remain). */
function textOf(record: MemoryRecord | undefined): string | null {
  if (record === undefined || record.history.some((entry) => entry.event === 'erased')) return null;
  return record.content;
}

/** engram's view of a memory that mem0 has no field for: where it lives and why it is believed. */
function metadataOf(record: MemoryRecord): Record<string, unknown> {
  return {
    topic: record.topic,
    scope: record.scope,
    confidence: record.confidence,
    source_types: [...new Set(record.sources.map((source) => source.type))],
  };
}

/** A stored memory in mem0's result shape. */
export function toItem(record: MemoryRecord, score?: number): MemoryItem {
  return {
    id: record.id,
    memory: record.content,
    hash: md5Hex(record.content),
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    ...(score !== undefined ? { score } : {}),
    metadata: metadataOf(record),
    ...(record.userId !== '' ? { user_id: record.userId } : {}),
    ...(record.appName !== 'default' ? { agent_id: record.appName } : {}),
    ...(record.scope === 'session' && record.sessionId !== undefined ? { run_id: record.sessionId } : {}),
  };
}

/** What one history event means in mem0's vocabulary; `null`: mem0 records nothing for it. */
function actionOf(entry: HistoryEntry, predecessor: boolean): HistoryRow['action'] | null {
  switch (entry.event) {
    case 'created':
      return predecessor ? 'UPDATE' : 'ADD';
    case 'superseded':
    case 'regenerated':
      return 'UPDATE';
    case 'erased':
    case 'pruned':
      return 'DELETE';
    case 'corroborated':
      return null;
  }
}

/**
 * mem0 history rows for `record`, newest first. `related` names the records an event links to
 * (the one this replaced, or its replacement), looked up in `linked` for their text; an erased
 * record has no text left, so its values are null.
 */
export function toHistoryRows(record: MemoryRecord, linked: ReadonlyMap<string, MemoryRecord>): HistoryRow[] {
  const rows: HistoryRow[] = [];
  record.history.forEach((entry, index) => {
    const other = entry.related !== undefined ? linked.get(entry.related) : undefined;
    const action = actionOf(entry, entry.event === 'created' && other !== undefined);
    if (action === null) return;
    const own = textOf(record);
    const [previous, next] = entry.event === 'created' ? [textOf(other), own] : action === 'DELETE' ? [own, null] : [own, textOf(other)];
    rows.push({
      id: `${record.id}#${index}`,
      memory_id: record.id,
      previous_value: previous,
      new_value: next,
      action,
      created_at: iso(record.createdAt),
      updated_at: action === 'ADD' ? null : iso(entry.at),
      is_deleted: action === 'DELETE' ? 1 : 0,
    });
  });
  return rows.reverse();
}
