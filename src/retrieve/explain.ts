/**
 * `explain`'s assembly: retrieval's hits as they are, and the nearest misses, each with why it
 * stayed out. Nothing here scores: the hits and the below-k misses come from retrieval's own
 * ranking (the same search, asked for more), and the memories no search could return (pending,
 * another session's, pruned) are scored by the compute engine asOf ranks with (asof/rank.ts),
 * as if they were active user-scope memories, so their parts read on the same formula.
 */
import { rankRecords } from '../asof/rank';
import { isEpisode } from '../extract/topics';
import type { MemoryRecord } from '../schema';
import type { PendingMemory } from '../review/held';
import type { RetrievePlan, Retrieved } from './retrieve';
import { sameStatement } from './select';

/** At most this many misses are explained. */
export const MAX_MISSES = 10;

/** Why a memory is not among the hits. */
export type MissReason = 'below-k' | 'irrelevant' | 'represented' | 'pending' | 'other-session' | 'decayed';

/** One near miss: its score parts, what it is, and why it stayed out. */
export interface Miss extends Omit<Retrieved, 'memory'> {
  reason: MissReason;
  /** The same in words, with what would bring it in. */
  detail: string;
  /** The stored memory; for a pending one, what `memory.pending` lists. */
  memory: MemoryRecord | PendingMemory;
}

/** What `memory.explain` resolves to. */
export interface Explanation {
  /** Exactly what `retrieve` returns for the same query and options, with each score's parts. */
  hits: Retrieved[];
  /** The nearest memories that are not hits (up to {@link MAX_MISSES}), best score first. */
  misses: Miss[];
}

/** A memory no search could return, and why. */
export interface Outsider {
  record: MemoryRecord;
  memory: MemoryRecord | PendingMemory;
  reason: Exclude<MissReason, 'below-k'>;
  detail: string;
}

/**
 * The memories the hits stand for beside themselves (`Retrieved.represents`), as outsiders: a
 * fact and the turns that state it (read from, restated in) are one hit, and the others are
 * explained here.
 */
export function representedOutsiders(hits: readonly Retrieved[], records: readonly MemoryRecord[]): Outsider[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  return hits.flatMap((hit) =>
    (hit.represents ?? []).flatMap((id): Outsider[] => {
      const record = byId.get(id);
      if (!record) return [];
      const what = describeStanding(record, hit.memory);
      return [{ record, memory: record, reason: 'represented', detail: `one statement, one hit: ${what}, '${hit.memory.id}', ranks above it within k and stands for both` }];
    }),
  );
}

/**
 * What the hit `standing` is to the memory `record` it stands for (select.ts `sameStatement`): a
 * turn that states it or a fact it states, linked or read from the same turn.
 */
function describeStanding(record: MemoryRecord, standing: MemoryRecord): string {
  if (record.episodeId === standing.id) return 'the episode it was read from';
  if (record.restatedIn?.includes(standing.id)) return 'a turn that restated it';
  if (standing.episodeId === record.id) return 'a fact read from it';
  if (standing.restatedIn?.includes(record.id)) return 'a fact it restated';
  switch (sameStatement(standing, record)) {
    case 'turn':
      return isEpisode(standing) ? 'the episode of the turn it was read from' : 'a fact read from it';
    default:
      return 'a memory of the same statement';
  }
}

/** A pending memory as a record to score (it has no record of its own). */
export function pendingAsRecord(pending: PendingMemory, owner: { userId: string; appName: string }, embedding: Float32Array, embedderId: string): MemoryRecord {
  const at = pending.source.at;
  return {
    id: pending.id,
    userId: owner.userId,
    appName: owner.appName,
    scope: 'user',
    topic: pending.topic,
    content: pending.content,
    importance: pending.importance,
    halfLifeDays: pending.halfLifeDays,
    confidence: pending.confidence,
    sources: [],
    createdAt: at,
    updatedAt: at,
    history: [],
    embedding,
    embedderId,
  };
}

/** The outsiders' scores, each as an active user-scope memory of the caller. */
function scoreOutsiders(outsiders: readonly Outsider[], query: { vector: Float32Array; text: string }, plan: RetrievePlan, now: number): Miss[] {
  if (outsiders.length === 0) return [];
  const byId = new Map(outsiders.map((outsider) => [outsider.record.id, outsider]));
  const copies = outsiders.map(({ record }): MemoryRecord => {
    const { invalidatedAt: _invalidated, supersededBy: _superseded, sessionId: _session, ...rest } = record;
    return { ...rest, scope: 'user' };
  });
  const { sessionId: _sessionId, ...unsessioned } = plan;
  const ranked = rankRecords(copies, query, { ...unsessioned, scopes: ['user'], k: copies.length }, now);
  return ranked.map(({ memory: copy, ...parts }) => {
    const outsider = byId.get(copy.id)!;
    return { ...parts, reason: outsider.reason, detail: outsider.detail, memory: outsider.memory };
  });
}

/**
 * The explanation: `hits` as given; the misses are the ranking's next ones (`wider`: the same
 * ranking asked for k + {@link MAX_MISSES}) and the outsiders, best score first, at most
 * {@link MAX_MISSES}.
 */
export function explainRanking(hits: readonly Retrieved[], wider: readonly Retrieved[], outsiders: readonly Outsider[], scoring: { query: { vector: Float32Array; text: string }; plan: RetrievePlan; now: number }): Explanation {
  const hitIds = new Set(hits.map((hit) => hit.memory.id));
  const floor = scoring.plan.floor ?? Number.NEGATIVE_INFINITY;
  const outsiderIds = new Set(outsiders.map((outsider) => outsider.record.id));
  const below: Miss[] = wider
    .filter((entry) => !hitIds.has(entry.memory.id) && !outsiderIds.has(entry.memory.id))
    .map((entry) =>
      entry.relevance < floor
        ? { ...entry, reason: 'irrelevant', detail: `its relevance to the query (${entry.relevance.toFixed(3)}) is below the floor ${floor} (RELEVANCE_FLOOR): it shares nothing with the query, so no k returns it` }
        : { ...entry, reason: 'below-k', detail: `scored below the top ${scoring.plan.k} (k = ${scoring.plan.k}); a larger k would return it` },
    );
  const misses = [
    ...below,
    ...scoreOutsiders(
      outsiders.filter((outsider) => !hitIds.has(outsider.record.id)),
      scoring.query,
      scoring.plan,
      scoring.now,
    ),
  ];
  misses.sort((a, b) => b.score - a.score);
  return { hits: [...hits], misses: misses.slice(0, MAX_MISSES) };
}
