/**
 * Planning an erasure, purely: given the owner's records and the replay of its remaining
 * inputs, the records to write so that the active set equals the replay's and no text that
 * only the revoked source produced is left anywhere (contents, excerpts, reasons, vectors).
 */
import type { HistoryEntry, MemoryRecord, Source } from '../schema';
import { sameClaimKey } from '../text';
import { freshId } from '../ids';
import { pinKey, REPLAY_ID } from './replay';
import { createRedactor } from '../storage/redaction';

/** What forgetSource did: erased ids, and each other affected memory with its replacement. */
export interface ForgetReport {
  erased: string[];
  regenerated: { from: string; to: string | null }[];
}

export const REDACTED = '[redacted: source revoked]';

/** What two memories must share to be the same active memory: scope, session, topic, text, source ids, confidence. */
export function identity(record: MemoryRecord): string {
  const sourceIds = [...new Set(record.sources.map((source) => source.id))].sort();
  return JSON.stringify([record.scope, record.sessionId ?? '', record.topic, record.content, sourceIds, record.confidence]);
}

const sourceIds = new WeakMap<MemoryRecord, ReadonlySet<string>>();

/** A record's source ids, computed once per record: a long line of memories has thousands. */
function sourceIdsOf(record: MemoryRecord): ReadonlySet<string> {
  let ids = sourceIds.get(record);
  if (!ids) sourceIds.set(record, (ids = new Set(record.sources.map((source) => source.id))));
  return ids;
}

/** What a fact says and about what: topic and content, as {@link isSupported} compares them. */
function claimOf(record: MemoryRecord): string {
  return sameClaimKey(record);
}

/** Every source id behind each claim among `records`: a record is supported when one of its remaining sources is there. */
function supportByClaim(records: readonly MemoryRecord[]): Map<string, Set<string>> {
  const support = new Map<string, Set<string>>();
  for (const record of records) {
    const claim = claimOf(record);
    const ids = support.get(claim) ?? new Set<string>();
    for (const source of record.sources) ids.add(source.id);
    support.set(claim, ids);
  }
  return support;
}

/** Whether every one of a record's source ids is revoked (and it has any). */
function onlyRevoked(ids: ReadonlySet<string>, revoked: ReadonlySet<string>): boolean {
  return ids.size > 0 && [...ids].every((id) => revoked.has(id));
}

/** The revoked sources for a reason: the id, or the first few and how many more. */
function describeSources(revoked: ReadonlySet<string>): string {
  const ids = [...revoked];
  if (ids.length === 1) return `source ${ids[0]}`;
  const shown = ids.slice(0, 3).join(', ');
  return ids.length > 3 ? `sources ${shown} and ${ids.length - 3} more` : `sources ${shown}`;
}

/** The record without the caller's metadata: it is the erased write's, like the text. */
function withoutMetadata(record: MemoryRecord): MemoryRecord {
  const { metadata: _metadata, ...rest } = record;
  return rest;
}

/** The source whose write created the record: its metadata is that write's. */
function creatorOf(record: MemoryRecord): string | undefined {
  return record.history.find((entry) => entry.event === 'created')?.sourceId;
}

/**
 * Metadata of a revoked write, on records whose text stays (a corroborated memory created by
 * the revoked source, kept because another source said the same): it goes with the write.
 */
function dropRevokedMetadata(planning: Planning): void {
  const { touched, writes, sourceIds: revoked } = planning;
  for (const record of touched) {
    const base = writes.get(record.id) ?? record;
    const creator = creatorOf(record);
    if (base.metadata === undefined || creator === undefined || !revoked.has(creator)) continue;
    writes.set(record.id, withoutMetadata(base));
  }
}

/** Records grouped by a key, in their order. */
function groupBy(records: readonly MemoryRecord[], keyOf: (record: MemoryRecord) => string): Map<string, MemoryRecord[]> {
  const groups = new Map<string, MemoryRecord[]>();
  for (const record of records) {
    const key = keyOf(record);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return groups;
}

/** Whether a source's excerpt goes: its source is revoked, or it quotes a forgotten span. */
type Blanks = (source: Source) => boolean;

function redactSources(sources: readonly Source[], blanks: Blanks): Source[] {
  return sources.map((source) => (source.excerpt !== '' && blanks(source) ? { ...source, excerpt: '' } : source));
}

/**
 * A decision reason may quote the text it decided on (an LLM decider's does), so a record
 * whose text goes keeps its events, times and links but not their reasons.
 */
function generalize(entry: HistoryEntry): HistoryEntry {
  return { ...entry, reason: entry.related === undefined ? entry.event : `${entry.event} (${entry.related})` };
}

/** The replacement of an old memory: a rebuilt one on the same topic and scope that shares a remaining source. */
function replacementFor(old: MemoryRecord, rebuilt: readonly MemoryRecord[], revoked: ReadonlySet<string>): MemoryRecord | undefined {
  const remaining = [...sourceIdsOf(old)].filter((id) => !revoked.has(id));
  return rebuilt.find(
    (record) =>
      record.topic === old.topic &&
      record.scope === old.scope &&
      (record.sessionId ?? '') === (old.sessionId ?? '') &&
      remaining.some((id) => sourceIdsOf(record).has(id)),
  );
}

/**
 * Whether a record's text can stay: some remaining source of it yields the same text when the
 * remaining inputs are replayed (`support`: {@link supportByClaim} of the replay). Otherwise the
 * text came only from the revoked source (an UPDATE from `s` inherits the older sources but not
 * their text) and must go. When unsure (a refused candidate, a rewriting decider) this says no:
 * redacting a tombstone loses nothing live.
 */
function isSupported(record: MemoryRecord, support: ReadonlyMap<string, ReadonlySet<string>>, revoked: ReadonlySet<string>): boolean {
  const ids = support.get(claimOf(record));
  // In order: the oldest source of a line of memories is usually behind the replayed ones too.
  return ids !== undefined && record.sources.some((source) => !revoked.has(source.id) && ids.has(source.id));
}

/**
 * A vector with nothing of the text in it. Zeros of the same length, not an empty array: the
 * record schema requires a non-empty finite vector, and tombstones are never scanned anyway.
 */
function blank(embedding: Float32Array): Float32Array {
  return new Float32Array(Math.max(1, embedding.length));
}

/** Whether `record` is already the tombstone {@link erase} would make: erasing twice changes nothing. */
export function isErased(record: MemoryRecord, blanks: Blanks): boolean {
  return (
    record.content === REDACTED &&
    record.invalidatedAt !== undefined &&
    record.history.at(-1)?.event === 'erased' &&
    record.sources.every((source) => source.excerpt === '' || !blanks(source))
  );
}

/** A tombstone that keeps id, times, topic, links and the reason for erasure; every piece of text is gone. */
function erase(record: MemoryRecord, blanks: Blanks, now: number, reason: string): MemoryRecord {
  return {
    ...withoutMetadata(record),
    content: REDACTED,
    sources: redactSources(record.sources, blanks),
    embedding: blank(record.embedding),
    invalidatedAt: record.invalidatedAt ?? now,
    history: [...record.history.map(generalize), { at: now, event: 'erased', reason }],
  };
}

/**
 * What the user forgot with `forget(id)` (take-out.ts): the memories whose text goes whatever
 * supports them, and the spans of the stored messages they were read from. Any record whose
 * content quotes a span goes too (an episode of the turn), any excerpt that quotes one is blanked.
 */
export interface Forgotten {
  ids: ReadonlySet<string>;
  spans: readonly string[];
}

export interface ErasureInput {
  /** The revoked sources (one forgetSource call may revoke several: one replay for all); empty for a forget. */
  sourceIds: ReadonlySet<string>;
  /** A forget's memories and spans (absent for forgetSource). */
  forgotten?: Forgotten;
  now: number;
  newId: () => string;
  /** Every record the replay of the remaining inputs produced, tombstones included. */
  replayed: readonly MemoryRecord[];
  /** Every record of the owner (user and session scope), tombstones included. */
  all: readonly MemoryRecord[];
  /** The owner's records that list the revoked source. */
  touched: readonly MemoryRecord[];
}

/** What the steps below share while one erasure is planned. */
interface Planning extends ErasureInput {
  current: readonly MemoryRecord[];
  report: ForgetReport;
  writes: Map<string, MemoryRecord>;
  /** Records whose text was removed: other records' reasons about them are scrubbed. */
  redacted: Set<string>;
  /** Replay id → the stored id it became (matched, rebuilt, or a tombstone it stands for). */
  idOf: Map<string, string>;
  /** Ids of the rebuilt records: new, so the commit refuses them if they exist. */
  created: string[];
  /** Rebuilt id → the stale memory it replaces (the first one that names it): its lineage can be joined. */
  rebuilds: Map<string, string>;
  erasedReason: string;
  /** What happened, for the reasons: "source s1 revoked", "memory m forgotten". */
  cause: string;
  /** {@link supportByClaim} of the replay. */
  support: ReadonlyMap<string, ReadonlySet<string>>;
  blanks: Blanks;
  /** Whether a record's text goes whatever supports it (a forget's memories and what quotes their spans). */
  forgottenText: (record: MemoryRecord) => boolean;
  /** Whether a reason quotes forgotten text (a forget's spans or contents). */
  quotesForgotten: (text: string) => boolean;
}

/** The reasons an erasure writes: forgetSource names the revoked sources, forget the memory. */
function reasonsOf(input: ErasureInput): { erasedReason: string; cause: string } {
  const forgotten = input.forgotten ? [...input.forgotten.ids] : [];
  if (forgotten.length) {
    const what = forgotten.length === 1 ? `memory ${forgotten[0]}` : `memories ${forgotten.join(', ')}`;
    return { erasedReason: 'erased: forgotten by the user', cause: `${what} forgotten by the user` };
  }
  return { erasedReason: `erased: ${input.sourceIds.size === 1 ? 'sole ' : 'all its '}${describeSources(input.sourceIds)} revoked`, cause: `${describeSources(input.sourceIds)} revoked` };
}

/** The forget rules ({@link Forgotten}); for forgetSource, only the revoked sources' excerpts go. */
function forgottenRules(input: ErasureInput): Pick<Planning, 'blanks' | 'forgottenText' | 'quotesForgotten'> {
  const revoked = input.sourceIds;
  const forgotten = input.forgotten;
  if (!forgotten) return { blanks: (source) => revoked.has(source.id), forgottenText: () => false, quotesForgotten: () => false };
  const memories = input.all.filter((record) => forgotten.ids.has(record.id));
  const redactor = createRedactor(forgotten.spans);
  // A memory's own words are forgotten too where a reason quotes them (a decision's).
  const quoted = createRedactor([...forgotten.spans, ...memories.map((record) => record.content)]);
  const claims = new Set(memories.map(claimOf));
  return {
    blanks: (source) => revoked.has(source.id) || redactor.excerpt(source.excerpt) !== source.excerpt,
    forgottenText: (record) => forgotten.ids.has(record.id) || claims.has(claimOf(record)) || redactor.text(record.content) !== record.content,
    quotesForgotten: (text) => quoted.quotes(text),
  };
}

/**
 * The records to write so the active set equals the replay's and no text of `s` is left, and
 * for each rebuilt memory the stale one it replaces (a store may keep its lineage by reference).
 */
export function planErasure(input: ErasureInput): { writes: Map<string, MemoryRecord>; created: string[]; rebuilds: Map<string, string>; report: ForgetReport } {
  const planning: Planning = {
    ...input,
    current: input.all.filter((record) => record.invalidatedAt === undefined),
    report: { erased: [], regenerated: [] },
    writes: new Map(),
    redacted: new Set(),
    idOf: new Map(),
    created: [],
    rebuilds: new Map(),
    ...reasonsOf(input),
    support: supportByClaim(input.replayed),
    ...forgottenRules(input),
  };
  const { stale, rebuilt } = matchReplay(planning);
  retireStale(planning, stale, rebuilt);
  writeRebuilt(planning, rebuilt);
  redactTombstones(planning);
  scrubQuotes(planning);
  dropRevokedMetadata(planning);
  return { writes: planning.writes, created: planning.created, rebuilds: planning.rebuilds, report: planning.report };
}

/**
 * Pairs current active memories with replayed ones by identity (matches stay exactly as they
 * are); what is left on each side is stale (current) or to be rebuilt (replay, fresh ids).
 */
function matchReplay(planning: Planning): { stale: MemoryRecord[]; rebuilt: MemoryRecord[] } {
  const { replayed, all, current, idOf, sourceIds: revoked, newId } = planning;
  const unmatchedReplay = new Map<string, MemoryRecord[]>();
  for (const record of replayed.filter((candidate) => candidate.invalidatedAt === undefined)) {
    const list = unmatchedReplay.get(identity(record)) ?? [];
    list.push(record);
    unmatchedReplay.set(identity(record), list);
  }
  const stale: MemoryRecord[] = [];
  for (const record of current) {
    const twin = unmatchedReplay.get(identity(record))?.shift();
    if (twin) idOf.set(twin.id, record.id);
    else stale.push(record);
  }
  const stored = new Set(all.map((record) => record.id));
  const taken = new Set(stored);
  const rebuilt = [...unmatchedReplay.values()].flat().map((record) => {
    const id = freshId(newId, (candidate) => taken.has(candidate));
    taken.add(id);
    planning.created.push(id);
    idOf.set(record.id, id);
    return { ...record, id };
  });
  // Replay tombstones are not stored: point links to them at the stored record they stand for
  // (the first on the same topic, scope and content that shares a remaining source with it).
  // A replay that started from a checkpoint holds stored records too: each stands for itself.
  const standIns = groupBy(all, (record) => JSON.stringify([record.scope, claimOf(record)]));
  for (const record of replayed) {
    if (idOf.has(record.id)) continue;
    if (stored.has(record.id)) {
      idOf.set(record.id, record.id);
      continue;
    }
    const stand = standIns
      .get(JSON.stringify([record.scope, claimOf(record)]))
      ?.find((other) => record.sources.some((source) => !revoked.has(source.id) && sourceIdsOf(other).has(source.id)));
    if (stand) idOf.set(record.id, stand.id);
  }
  return { stale, rebuilt };
}

/** Stale active memories: erased when `s` was their only source, else superseded by their rebuilt version. */
function retireStale(planning: Planning, stale: readonly MemoryRecord[], rebuilt: readonly MemoryRecord[]): void {
  const { sourceIds: revoked, now, support, report, writes, redacted, erasedReason, cause, blanks } = planning;
  for (const record of stale) {
    const ids = sourceIdsOf(record);
    if (onlyRevoked(ids, revoked) || planning.forgotten?.ids.has(record.id)) {
      report.erased.push(record.id);
      writes.set(record.id, erase(record, blanks, now, erasedReason));
      redacted.add(record.id);
      continue;
    }
    const replacement = replacementFor(record, rebuilt, revoked);
    if (replacement && !planning.rebuilds.has(replacement.id)) planning.rebuilds.set(replacement.id, record.id);
    const keepText = !planning.forgottenText(record) && (![...ids].some((id) => revoked.has(id)) || isSupported(record, support, revoked));
    if (!keepText) redacted.add(record.id);
    report.regenerated.push({ from: record.id, to: replacement?.id ?? null });
    writes.set(record.id, {
      ...(keepText ? record : { ...withoutMetadata(record), content: REDACTED, embedding: blank(record.embedding) }),
      sources: redactSources(record.sources, blanks),
      invalidatedAt: now,
      ...(replacement ? { supersededBy: replacement.id } : {}),
      history: [
        ...(keepText ? record.history : record.history.map(generalize)),
        {
          at: now,
          event: 'regenerated',
          reason: replacement ? `${cause}; rebuilt from the remaining sources as ${replacement.id}` : `${cause}; the remaining sources no longer support it`,
          ...(replacement ? { related: replacement.id } : {}),
        },
      ],
    });
  }
}

/** Rebuilt memories: their replay history with temporary ids mapped to stored ones, plus the regeneration. */
function writeRebuilt(planning: Planning, rebuilt: readonly MemoryRecord[]): void {
  const { now, replayed, writes, idOf, cause } = planning;
  const mapIds = createIdMapper(replayed.map((record) => record.id), idOf);
  const stored = new Map(planning.all.map((record) => [record.id, record]));
  const pinned = new Set(planning.current.filter((record) => record.pinned).map(pinKey));
  for (const { episodeId, ...record } of rebuilt) {
    const from = planning.rebuilds.get(record.id);
    // The user's pin goes with the memory rebuilt in place of the pinned one.
    const pin = (from !== undefined && stored.get(from)?.pinned) || pinned.has(pinKey(record));
    // The replay linked the fact to the episode under its temporary id: the stored id it became.
    const episode = episodeId === undefined ? undefined : idOf.get(episodeId);
    writes.set(record.id, {
      ...record,
      ...(episode !== undefined ? { episodeId: episode } : {}),
      ...(pin ? { pinned: true as const } : {}),
      history: [
        ...record.history.map(({ related, reason, ...entry }) => {
          const mapped = related === undefined ? undefined : idOf.get(related);
          return { ...entry, reason: mapIds(reason), ...(mapped ? { related: mapped } : {}) };
        }),
        {
          at: now,
          event: 'regenerated',
          reason: `rebuilt after ${cause}${from ? `, replacing ${from}` : ''}`,
          ...(from ? { related: from } : {}),
        },
      ],
    });
  }
}

/**
 * Tombstones that still carry the revoked source: erase them, or drop its excerpt and any
 * text only it produced, and report where their lineage now ends.
 */
function redactTombstones(planning: Planning): void {
  const { sourceIds: revoked, now, support, touched, current, report, writes, redacted, erasedReason, blanks } = planning;
  for (const record of touched) {
    if (writes.has(record.id) || record.invalidatedAt === undefined) continue;
    const ids = sourceIdsOf(record);
    if (onlyRevoked(ids, revoked) || planning.forgotten?.ids.has(record.id)) {
      redacted.add(record.id);
      // Forgotten before (forgetSource is idempotent): nothing to write, nothing to report.
      if (isErased(record, blanks)) continue;
      writes.set(record.id, erase(record, blanks, now, erasedReason));
      report.erased.push(record.id);
      continue;
    }
    if (!planning.forgottenText(record) && (revoked.size === 0 || isSupported(record, support, revoked))) {
      // Text kept: only the excerpt changes, which the sources alone tell (comparing whole
      // records costs O(sources) per tombstone on a long history), and the commit's revocation
      // (or a forget's redaction) blanks every excerpt of the source: nothing to write.
      if (!record.sources.some((source) => source.excerpt !== '' && blanks(source))) continue;
    } else {
      redacted.add(record.id);
      const next: MemoryRecord = { ...withoutMetadata(record), content: REDACTED, embedding: blank(record.embedding), history: record.history.map(generalize), sources: redactSources(record.sources, blanks) };
      if (sameRecord(next, record)) continue;
      writes.set(record.id, next);
    }
    report.regenerated.push({ from: record.id, to: headOf(record.supersededBy, writes, current) });
  }
}

/**
 * Reasons that may quote or paraphrase the revoked source, on every record (tombstones and
 * records whose text stays included): a decision the source's statement caused (tagged with its
 * `sourceId`: an UPDATE's "created from"/"superseded by", a corroboration), a reason that
 * contains one of its excerpts word for word (entries written before tagging), and other
 * records' decisions about a redacted record. Each keeps its event, time and link; the reason goes.
 */
function scrubQuotes(planning: Planning): void {
  const { all, writes, redacted, sourceIds: revoked, touched } = planning;
  // Once each: every memory of a line inherits the same entries of the source.
  const excerpts = [...new Set(touched.flatMap((record) => record.sources.filter((source) => revoked.has(source.id) && source.excerpt.length >= 8).map((source) => source.excerpt)))];
  const quotes = (entry: HistoryEntry) =>
    entry.event !== 'regenerated' &&
    entry.event !== 'erased' &&
    ((entry.sourceId !== undefined && revoked.has(entry.sourceId)) ||
      (entry.related !== undefined && redacted.has(entry.related)) ||
      excerpts.some((excerpt) => entry.reason.includes(excerpt)) ||
      planning.quotesForgotten(entry.reason)) &&
    entry.reason !== generalize(entry).reason;
  for (const record of all) {
    const base = writes.get(record.id) ?? record;
    if (!base.history.some(quotes)) continue;
    writes.set(record.id, { ...base, history: base.history.map((entry) => (quotes(entry) ? generalize(entry) : entry)) });
  }
}

/** Field-by-field equality of two records, vectors included: a write that would change nothing is not made. */
function sameRecord(a: MemoryRecord, b: MemoryRecord): boolean {
  const { embedding: left, ...restA } = a;
  const { embedding: right, ...restB } = b;
  return left.length === right.length && left.every((value, i) => value === right[i]) && JSON.stringify(restA) === JSON.stringify(restB);
}

/**
 * Rewrites the replay's temporary ids inside reason text to the stored ids they became. The
 * ids the replay generated share one shape ({@link REPLAY_ID}), matched as one token instead
 * of one alternative each (a long replay makes thousands); only the few stored ids that map to
 * another id are spelled out.
 */
function createIdMapper(replayIds: readonly string[], idOf: ReadonlyMap<string, string>): (text: string) => string {
  if (replayIds.length === 0) return (text) => text;
  const known = new Set(replayIds);
  const spelled = replayIds.filter((id) => !REPLAY_ID.test(id) && idOf.get(id) !== id);
  const escaped = spelled.sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\w])(?:${[REPLAY_ID.source.slice(1, -1), ...escaped].join('|')})(?![\\w])`, 'g');
  return (text) => text.replace(pattern, (id) => (known.has(id) ? (idOf.get(id) ?? 'an earlier version') : id));
}

/** The active end of a supersededBy chain after this call's writes, or null if it ends in a tombstone. */
function headOf(start: string | undefined, writes: ReadonlyMap<string, MemoryRecord>, current: readonly MemoryRecord[]): string | null {
  const seen = new Set<string>();
  let id = start;
  while (id !== undefined && !seen.has(id)) {
    seen.add(id);
    const record = writes.get(id) ?? current.find((candidate) => candidate.id === id);
    if (!record) return null;
    if (record.invalidatedAt === undefined) return id;
    id = record.supersededBy;
  }
  return null;
}
