/**
 * An approved memory and the turn it came from: a held write's episode and facts are approved
 * one by one, each in an input of its own (held.ts `splitApproved`), so the plan that applies one
 * cannot link a fact to its episode as a write's plan does (consolidate/episodes.ts
 * `EpisodeLinks`). Here the link is made by the turn's words, whichever is approved first: a fact
 * links to the active episode of its source whose text holds its excerpt, and an approved
 * episode takes the active facts of its source that it holds and that link to no turn yet. Then
 * a fact and its episode are one statement (one hit in retrieve), as for a write never held.
 */
import { EpisodeLinks } from '../consolidate/episodes';
import { isEpisode } from '../extract/topics';
import type { MemoryRecord } from '../schema';

/** Whether `record` lives where `other` does (scope and session). */
function sameScope(record: MemoryRecord, other: MemoryRecord): boolean {
  return record.scope === other.scope && (record.sessionId ?? '') === (other.sessionId ?? '');
}

/** The excerpt `fact` was read with from `sourceId`; '' when it names none. */
function excerptFrom(fact: MemoryRecord, sourceId: string): string {
  return fact.sources.find((source) => source.id === sourceId)?.excerpt ?? '';
}

/**
 * The records to write for an approval of `approved` (the plan's record, read from `sourceId`)
 * beside the source's other records `ofSource`: `approved` itself linked to its turn (a fact),
 * and the facts an approved episode now links.
 */
export function linkTurn(approved: MemoryRecord, sourceId: string, ofSource: readonly MemoryRecord[]): { approved: MemoryRecord; linked: MemoryRecord[] } {
  const near = ofSource.filter((record) => record.id !== approved.id && record.invalidatedAt === undefined && sameScope(record, approved));
  if (isEpisode(approved)) {
    const turn = new EpisodeLinks();
    turn.add(approved, approved.id);
    const linked = near.filter((record) => !isEpisode(record) && record.episodeId === undefined && turn.holding(excerptFrom(record, sourceId)) !== undefined);
    return { approved, linked: linked.map((record) => ({ ...record, episodeId: approved.id })) };
  }
  if (approved.episodeId !== undefined) return { approved, linked: [] };
  const turns = new EpisodeLinks();
  for (const record of near) if (isEpisode(record)) turns.add(record, record.id);
  const episodeId = turns.holding(excerptFrom(approved, sourceId));
  return { approved: episodeId === undefined ? approved : { ...approved, episodeId }, linked: [] };
}

/** What a plan of an approved input did: the records it changed, and the memory it made (`created[0]`). */
export interface ApprovedPlan {
  created: readonly string[];
  changed: readonly MemoryRecord[];
}

/**
 * The records an approval writes: the plan's, with the memory it made linked to its turn and the
 * facts an approved episode links ({@link linkTurn}) after them. `ofSource`: the records that list
 * `sourceId`; the plan's form of a record it changed counts over the one given there. Approve and
 * every rebuild (forget/replay.ts, for an input marked `approved`) link by this one function, so
 * a rebuilt store holds the links approve made.
 */
export function withApprovedLinks(plan: ApprovedPlan, sourceId: string, ofSource: Iterable<MemoryRecord>): MemoryRecord[] {
  const made = plan.changed.find((record) => record.id === plan.created[0]);
  if (made === undefined) return [...plan.changed];
  const current = new Map<string, MemoryRecord>();
  for (const record of ofSource) current.set(record.id, record);
  for (const record of plan.changed) current.set(record.id, record);
  const { approved, linked } = linkTurn(made, sourceId, [...current.values()]);
  const rewritten = new Set([approved.id, ...linked.map((fact) => fact.id)]);
  return [...plan.changed.filter((record) => !rewritten.has(record.id)), approved, ...linked];
}
