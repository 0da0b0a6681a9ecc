/**
 * An erasure without a replay: the sources only restated what the store already held. When
 * every candidate of the revoked sources was decided as a corroboration of a memory that was
 * there before (no memory created, updated or superseded on their statement), a store that
 * never saw them made every other decision the same way, and differs from this one only in
 * what the corroborations added: the sources' entries in the source lists (the memory they
 * corroborated and every later version of its line, which inherit them), the history entries
 * they wrote, +0.05 confidence and `updatedAt` on the memory they corroborated, and a link from
 * a fact to the turn that restated it. {@link restatedOnly} rebuilds those records without
 * them, and the erasure plan (erasure-plan.ts) takes that in place of a replay: the cost no
 * longer depends on how many inputs came after the sources or how many times the line was
 * updated since.
 *
 * It holds under engram's policy decider (decider.ts) only, whose decisions read a memory's
 * content, topic, slot and the trust of its source types, never its confidence or time; it says
 * null (the caller replays) unless each of these is true:
 * - every history entry the sources wrote is a corroboration (none created or superseded a memory);
 * - each record that lists them held, before their first entry, a source of at least their
 *   trust (its strongest trust, which a later contradiction must match, is the same without them);
 * - no prune was stored after their first input (a prune reads confidence and `updatedAt`);
 * - an active memory they corroborated has its confidence known without them: counted again from
 *   the confidence its creating input's candidate gave it ({@link corroboratedActive}, read by the caller);
 * - a fact they corroborated links a turn they corroborated too only when another source wrote
 *   both (its link is then not theirs alone: the turn retires with the fact either way).
 */
import type { HistoryEntry, MemoryRecord, SourceType } from '../schema';
import { isEpisode } from '../extract/topics';
import type { InputRow } from '../storage/contract';
import { corroboratedConfidence, createdConfidence as plannedConfidence } from '../consolidate/plan';

/** The trust of each source type (the policy's): what a contradiction must match. */
export type Trust = Readonly<Record<SourceType, number>>;

/** What the shortcut reads: the owner's records (the active ones and those listing the sources) and those listing the sources. */
export interface RestatedInput {
  sourceIds: ReadonlySet<string>;
  trust: Trust;
  all: readonly MemoryRecord[];
  touched: readonly MemoryRecord[];
  /** Whether a prune was stored after the sources' first input. */
  prunedSince: boolean;
  /** The confidence an active memory they corroborated was created with (its creating input's candidate), when known. */
  createdWith: ReadonlyMap<string, number>;
}

const bySources = (sourceIds: ReadonlySet<string>) => (entry: HistoryEntry) => entry.sourceId !== undefined && sourceIds.has(entry.sourceId);

/** Whether the record's strongest trust is the same without the sources: a source of at least theirs came before them. */
function trustKept(record: MemoryRecord, sourceIds: ReadonlySet<string>, trust: Trust): boolean {
  // One pass: a long line's memories hold thousands of sources.
  let before = -Infinity;
  let theirs = -Infinity;
  for (const source of record.sources) {
    if (sourceIds.has(source.id)) theirs = Math.max(theirs, trust[source.type]);
    else if (theirs === -Infinity) before = Math.max(before, trust[source.type]);
  }
  return theirs === -Infinity || before >= theirs;
}

/**
 * An active memory's confidence and `updatedAt` without the sources' corroborations, or null when
 * they cannot be known. plan.ts sets both only where it writes a `created` entry (the confidence
 * it was created with: `created`) or a `corroborated` one (+0.05, capped at 1), `updatedAt` to
 * that entry's time. The confidence is counted again from `created` through the entries, and
 * must come to the stored one with theirs.
 */
function withoutCorroborations(record: MemoryRecord, sourceIds: ReadonlySet<string>, created: number | undefined): Pick<MemoryRecord, 'confidence' | 'updatedAt'> | null {
  const setters = record.history.filter((entry) => entry.event === 'created' || entry.event === 'corroborated');
  const isTheirs = bySources(sourceIds);
  const lastOther = setters.filter((entry) => !isTheirs(entry)).at(-1);
  if (created === undefined || setters[0]?.event !== 'created' || lastOther === undefined || record.updatedAt !== setters.at(-1)!.at) return null;
  let confidence = created;
  let withTheirs = created;
  for (const entry of setters.slice(1)) {
    withTheirs = corroboratedConfidence(withTheirs);
    if (!isTheirs(entry)) confidence = corroboratedConfidence(confidence);
  }
  return withTheirs === record.confidence ? { confidence, updatedAt: lastOther.at } : null;
}

/** Whether every turn a corroborated fact links to, among those the sources corroborated, was linked by another source too. */
function linksKept(fact: MemoryRecord, corroboratedTurns: ReadonlyMap<string, MemoryRecord>, sourceIds: ReadonlySet<string>): boolean {
  for (const id of fact.restatedIn ?? []) {
    const turn = corroboratedTurns.get(id);
    if (turn === undefined) continue;
    const turnSources = new Set(turn.sources.filter((source) => !sourceIds.has(source.id)).map((source) => source.id));
    const linkedByOther = fact.history.some((entry) => (entry.event === 'created' || entry.event === 'corroborated') && entry.sourceId !== undefined && !sourceIds.has(entry.sourceId) && turnSources.has(entry.sourceId));
    if (!linkedByOther) return false;
  }
  return true;
}

/**
 * The owner's records as a store that never saw the sources holds them, when the sources only
 * restated (see the module comment): what the erasure plan compares the store with, in place of
 * a replay. Null when that cannot be shown: the caller replays.
 */
export function restatedOnly({ sourceIds, trust, all, touched, prunedSince, createdWith }: RestatedInput): MemoryRecord[] | null {
  if (prunedSince || touched.length === 0) return null;
  const theirs = bySources(sourceIds);
  const corroborated = new Map<string, MemoryRecord>();
  for (const record of touched) {
    const entries = record.history.filter(theirs);
    if (entries.some((entry) => entry.event !== 'corroborated')) return null;
    if (!trustKept(record, sourceIds, trust)) return null;
    if (entries.length > 0) corroborated.set(record.id, record);
  }
  // Every record they touched without an entry of theirs inherited them from one they corroborated.
  if (corroborated.size === 0) return null;
  const turns = new Map([...corroborated].filter(([, record]) => isEpisode(record)));
  const rebuilt = new Map<string, MemoryRecord>();
  for (const record of touched) {
    const entries = record.history.filter(theirs);
    if (!isEpisode(record) && entries.length > 0 && !linksKept(record, turns, sourceIds)) return null;
    let values: Pick<MemoryRecord, 'confidence' | 'updatedAt'> = { confidence: record.confidence, updatedAt: record.updatedAt };
    if (entries.length > 0 && record.invalidatedAt === undefined) {
      const without = withoutCorroborations(record, sourceIds, createdWith.get(record.id));
      if (without === null) return null;
      values = without;
    }
    rebuilt.set(record.id, {
      ...record,
      ...values,
      sources: record.sources.filter((source) => !sourceIds.has(source.id)),
      history: entries.length > 0 ? record.history.filter((entry) => !theirs(entry)) : record.history,
    });
  }
  return all.map((record) => rebuilt.get(record.id) ?? record);
}

/** The active memories among `touched` that the sources corroborated: the caller reads what each was created with ({@link RestatedInput.createdWith}). */
export function corroboratedActive(touched: readonly MemoryRecord[], sourceIds: ReadonlySet<string>): MemoryRecord[] {
  const theirs = bySources(sourceIds);
  return touched.filter((record) => record.invalidatedAt === undefined && record.history.some(theirs));
}

/** The entry that created `record` (its first), when a source's write did. */
export function creationOf(record: MemoryRecord): HistoryEntry | undefined {
  const first = record.history[0];
  return first?.event === 'created' && first.sourceId !== undefined ? first : undefined;
}

/** The confidence `record` was created with by `input` (the write its creation entry names), as plan.ts gives it; undefined when the input does not hold its candidate. */
export function createdConfidence(record: MemoryRecord, input: InputRow, trust: Trust): number | undefined {
  if (input.kind === 'prune') return undefined;
  const candidate = input.candidates?.find((candidate) => candidate.topic === record.topic && candidate.content === record.content);
  return candidate === undefined ? undefined : plannedConfidence(candidate.confidence, trust[input.source.type]);
}
