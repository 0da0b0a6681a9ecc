/**
 * `why(id)`: what made a memory what it is. The memory's line (the memories it was updated or
 * rebuilt from, oldest first, followed through each `created` entry's link), every event of that
 * line with its reason, and the sources behind it: type, id, time, and the excerpt while it
 * exists (an erased or forgotten one reads `null`).
 */
import { NotFoundError } from '../errors';
import type { HistoryEvent, MemoryRecord, SourceType } from '../schema';
import type { Owner, RecordStore } from '../storage/contract';

/** One source behind the memory. */
export interface WhySource {
  type: SourceType;
  id: string;
  at: number;
  /** The span it was read from; null once erased (forgetSource, forget) or never kept. */
  excerpt: string | null;
}

/** One event of the memory's line. */
export interface WhyStep {
  at: number;
  event: HistoryEvent;
  /** The memory of the line the event is on. */
  memoryId: string;
  reason: string;
  related?: string;
  /** The source whose statement caused it, when one did (see `sources`). */
  source?: WhySource;
}

export interface WhyReport {
  memory: MemoryRecord;
  /** The memories of its line, oldest first, ending with this one. */
  line: string[];
  /** Every event of the line, oldest first. */
  steps: WhyStep[];
  sources: WhySource[];
}

/** Longest line followed back: a guard against a cycle in a damaged store. */
const MAX_LINE = 10_000;

function toSource(source: MemoryRecord['sources'][number]): WhySource {
  return { type: source.type, id: source.id, at: source.at, excerpt: source.excerpt === '' ? null : source.excerpt };
}

/** The memory and its line back through each `created` entry's link. Pure over `records` (the owner's, by id). */
export function explainMemory(memory: MemoryRecord, byId: ReadonlyMap<string, MemoryRecord>): WhyReport {
  const line: MemoryRecord[] = [memory];
  const seen = new Set([memory.id]);
  for (let current = memory; line.length < MAX_LINE; ) {
    const from = current.history.find((entry) => entry.event === 'created')?.related ?? current.history.find((entry) => entry.event === 'regenerated' && entry.related !== undefined && byId.get(entry.related)?.supersededBy === current.id)?.related;
    const previous = from === undefined ? undefined : byId.get(from);
    if (!previous || seen.has(previous.id)) break;
    seen.add(previous.id);
    line.unshift(previous);
    current = previous;
  }
  const sources = memory.sources.map(toSource);
  const bySource = new Map(memory.sources.map((source) => [source.id, toSource(source)]));
  const steps = line
    .flatMap((record) =>
      record.history.map((entry): WhyStep => {
        const source = entry.sourceId === undefined ? undefined : bySource.get(entry.sourceId);
        return { at: entry.at, event: entry.event, memoryId: record.id, reason: entry.reason, ...(entry.related !== undefined ? { related: entry.related } : {}), ...(source ? { source } : {}) };
      }),
    )
    .sort((a, b) => a.at - b.at);
  return { memory, line: line.map((record) => record.id), steps, sources };
}

/** Reads the owner's memories and explains `id`. @throws NotFoundError when the owner has no such memory. */
export async function why(store: RecordStore, id: string, owner: Owner): Promise<WhyReport> {
  const [memory] = await store.getMany([id], owner);
  if (!memory) throw new NotFoundError(`no memory '${id}' for user '${owner.userId}' in app '${owner.appName}'`);
  const all = await store.list(owner, { scopes: ['user', 'session', 'app'], includeInvalid: true });
  return explainMemory(memory, new Map(all.map((record) => [record.id, record])));
}
