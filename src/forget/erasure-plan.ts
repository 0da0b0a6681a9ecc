/**
 * Planning an erasure, purely: given the owner's records and the replay of its remaining
 * inputs, the records to write so that the active set equals the replay's and no text that
 * only the revoked source produced is left anywhere (contents, excerpts, reasons, vectors).
 *
 * A pipeline of pure steps ({@link planErasure}): each takes what the steps before produced
 * (immutable) and returns what it adds. Text leaves a record one way only ({@link blankText}).
 */
import type { HistoryEntry, MemoryRecord } from '../schema';
import { sameClaimKey } from '../text';
import { freshId } from '../ids';
import { blankText, erase, generalize, isErased, redactSources, REDACTED, withoutMetadata, type Blanks } from './erasure-text';
import { pinKey, REPLAY_ID } from './replay';
import { createRedactor } from '../storage/redaction';

export { isErased, REDACTED };

/**
 * What the user forgot with `forget(id)` (take-out.ts): the memories whose text goes whatever
 * supports them, and the spans of the stored messages they were read from. Any record whose
 * content quotes a span goes too (an episode of the turn), any excerpt that quotes one is blanked.
 */
export interface Forgotten {
  ids: ReadonlySet<string>;
  spans: readonly string[];
}

/**
 * The memory as the user sees it: `memory` and every earlier version of it, newest first. An
 * earlier version is a tombstone its line moved on from: superseded by an UPDATE (a later
 * message, `correct`) or by the rebuild of an erasure (`supersededBy` names the later one), or
 * restored from by `undo` (the restored memory's `regenerated` entry names it). Only tombstones
 * are followed, so no other live memory is ever part of it. Pure over `records` (the owner's);
 * `forget(id)` erases the whole of it.
 */
export function lineageOf(memory: MemoryRecord, records: readonly MemoryRecord[]): MemoryRecord[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  const before = groupBy(
    records.filter((record) => record.invalidatedAt !== undefined && record.supersededBy !== undefined),
    (record) => record.supersededBy!,
  );
  const line = [memory];
  const seen = new Set([memory.id]);
  for (let i = 0; i < line.length; i++) {
    const later = line[i]!;
    // A stale record's own `regenerated` entry names what it was rebuilt as (its supersededBy): that link runs forward.
    const restoredFrom = later.history.filter((entry) => entry.event === 'regenerated' && entry.related !== undefined && entry.related !== later.supersededBy).map((entry) => byId.get(entry.related!));
    for (const earlier of [...(before.get(later.id) ?? []), ...restoredFrom]) {
      if (earlier === undefined || earlier.invalidatedAt === undefined || seen.has(earlier.id)) continue;
      seen.add(earlier.id);
      line.push(earlier);
    }
  }
  return line;
}

/** What forgetSource did: erased ids, and each other affected memory with its replacement. */
export interface ForgetReport {
  erased: string[];
  regenerated: { from: string; to: string | null }[];
}

/** What two memories must share to be the same active memory: scope, session, topic, text, source ids, confidence. */
export function identity(record: MemoryRecord): string {
  const sourceIds = [...new Set(record.sources.map((source) => source.id))].sort();
  return JSON.stringify([record.scope, record.sessionId ?? '', record.topic, record.content, sourceIds, record.confidence]);
}

/** A record's source ids, computed once per record and plan: a long line of memories has thousands. */
function createSourceIds(): (record: MemoryRecord) => ReadonlySet<string> {
  const cache = new Map<MemoryRecord, ReadonlySet<string>>();
  return (record) => {
    let ids = cache.get(record);
    if (!ids) cache.set(record, (ids = new Set(record.sources.map((source) => source.id))));
    return ids;
  };
}

/** What a fact says and about what: topic and content, as {@link isSupported} compares them. */
function claimOf(record: MemoryRecord): string {
  return sameClaimKey(record);
}

/** Which source ids are behind a claim: every source of the records holding it ({@link supportByClaim}). */
type Support = (claim: string) => ReadonlySet<string> | undefined;

/**
 * Every source id behind each claim among `records`, gathered for a claim when it is first
 * asked: a record is supported when one of its remaining sources is there. Only the claims of
 * the records an erasure retires or redacts are asked, and a long line's versions hold
 * thousands of sources each.
 */
function supportByClaim(records: readonly MemoryRecord[]): Support {
  const byClaim = groupBy(records, claimOf);
  const support = new Map<string, Set<string>>();
  return (claim) => {
    let ids = support.get(claim);
    if (ids === undefined && byClaim.has(claim)) {
      ids = new Set();
      for (const record of byClaim.get(claim)!) for (const source of record.sources) ids.add(source.id);
      support.set(claim, ids);
    }
    return ids;
  };
}

/** Whether every one of a record's source ids is revoked (and it has any). */
function onlyRevoked({ sources }: MemoryRecord, revoked: ReadonlySet<string>): boolean {
  // Stops at the first remaining source, usually the first: a long line's tombstones hold thousands.
  return sources.length > 0 && sources.every((source) => revoked.has(source.id));
}

/** The revoked sources for a reason: the id, or the first few and how many more. */
function describeSources(revoked: ReadonlySet<string>): string {
  const ids = [...revoked];
  if (ids.length === 1) return `source ${ids[0]}`;
  const shown = ids.slice(0, 3).join(', ');
  return ids.length > 3 ? `sources ${shown} and ${ids.length - 3} more` : `sources ${shown}`;
}

/** The source whose write created the record: its metadata is that write's. */
function creatorOf(record: MemoryRecord): string | undefined {
  return record.history.find((entry) => entry.event === 'created')?.sourceId;
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

/** The replacement of an old memory: a rebuilt one on the same topic and scope that shares a remaining source. */
function replacementFor(old: MemoryRecord, rebuilt: readonly MemoryRecord[], { revoked, sourceIdsOf }: Pick<Context, 'revoked' | 'sourceIdsOf'>): MemoryRecord | undefined {
  const remaining = [...sourceIdsOf(old)].filter((id) => !revoked.has(id));
  return rebuilt.find((record) => record.topic === old.topic && record.scope === old.scope && (record.sessionId ?? '') === (old.sessionId ?? '') && remaining.some((id) => sourceIdsOf(record).has(id)));
}

/**
 * Whether a record's text can stay: some remaining source of it yields the same text when the
 * remaining inputs are replayed (`support`: {@link supportByClaim} of the replay). Otherwise the
 * text came only from the revoked source (an UPDATE from `s` inherits the older sources but not
 * their text) and must go. When unsure (a refused candidate, a rewriting decider) this says no:
 * redacting a tombstone loses nothing live.
 */
function isSupported(record: MemoryRecord, support: Support, revoked: ReadonlySet<string>): boolean {
  const ids = support(claimOf(record));
  // In order: the oldest source of a line of memories is usually behind the replayed ones too.
  return ids !== undefined && record.sources.some((source) => !revoked.has(source.id) && ids.has(source.id));
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

/** What every step reads, computed once from the input. */
interface Context extends Readonly<ErasureInput> {
  revoked: ReadonlySet<string>;
  /** The owner's active records. */
  current: readonly MemoryRecord[];
  /** The reason an erased record's last entry gives. */
  erasedReason: string;
  /** What happened, for the reasons: "source s1 revoked", "memory m forgotten by the user". */
  cause: string;
  /** Which excerpts go. */
  blanks: Blanks;
  /** Whether a record's text goes whatever supports it (a forget's memories and what quotes their spans). */
  forgottenText: (record: MemoryRecord) => boolean;
  /** Whether a reason quotes forgotten text (a forget's spans or contents). */
  quotesForgotten: (text: string) => boolean;
  /** {@link supportByClaim} of the replay. */
  support: Support;
  sourceIdsOf: (record: MemoryRecord) => ReadonlySet<string>;
}

/** The replay matched against the store ({@link matchReplay}). */
interface Matched {
  /** Current active memories the replay does not hold as they are. */
  stale: readonly MemoryRecord[];
  /** Replayed active memories the store does not hold, under their fresh stored ids. */
  rebuilt: readonly MemoryRecord[];
  /** Replay id → the stored id it became (matched, rebuilt, or a tombstone it stands for). */
  idOf: ReadonlyMap<string, string>;
  /** Ids of the rebuilt records: new, so the commit refuses them if they exist. */
  created: readonly string[];
  /** Current active memories the replay holds as they are: stored id → the replayed twin. */
  kept: ReadonlyMap<string, MemoryRecord>;
}

/** What the writing steps have decided so far. */
interface Written {
  writes: ReadonlyMap<string, MemoryRecord>;
  /** Records whose text was removed: other records' reasons about them are scrubbed. */
  redacted: ReadonlySet<string>;
  report: ForgetReport;
}

/** What {@link planErasure} hands the commit. */
export interface ErasurePlan {
  writes: Map<string, MemoryRecord>;
  created: string[];
  /** Rebuilt id → the stale memory it replaces (the first one that names it): a store may keep its lineage by reference. */
  rebuilds: Map<string, string>;
  /** Written records → how many of their first history entries are the stored ones, unchanged: a store may write only the rest. */
  keptHistory: Map<string, number>;
  report: ForgetReport;
}

function contextOf(input: ErasureInput): Context {
  return {
    ...input,
    revoked: input.sourceIds,
    current: input.all.filter((record) => record.invalidatedAt === undefined),
    ...reasonsOf(input),
    support: supportByClaim(input.replayed),
    sourceIdsOf: createSourceIds(),
    ...forgottenRules(input),
  };
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
function forgottenRules(input: ErasureInput): Pick<Context, 'blanks' | 'forgottenText' | 'quotesForgotten'> {
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

/** `written` with `writes` (in order, after its own) and the rest of `more` added. */
function extend(written: Written, more: { writes?: Iterable<[string, MemoryRecord]>; redacted?: Iterable<string>; erased?: readonly string[]; regenerated?: ForgetReport['regenerated'] }): Written {
  return {
    writes: new Map([...written.writes, ...(more.writes ?? [])]),
    redacted: new Set([...written.redacted, ...(more.redacted ?? [])]),
    report: { erased: [...written.report.erased, ...(more.erased ?? [])], regenerated: [...written.report.regenerated, ...(more.regenerated ?? [])] },
  };
}

/**
 * The records to write so the active set equals the replay's and no text of `s` is left, and
 * for each rebuilt memory the stale one it replaces (a store may keep its lineage by reference).
 */
export function planErasure(input: ErasureInput): ErasurePlan {
  const context = contextOf(input);
  const matched = matchReplay(context);
  const { written: retired, rebuilds } = retireStale(context, matched);
  const rebuilt = writeRebuilt(context, matched, rebuilds, retired);
  const redacted = redactTombstones(context, relinkKept(context, matched, rebuilt));
  const writes = dropRevokedMetadata(context, scrubQuotes(context, redacted));
  return { writes: new Map(writes), created: [...matched.created], rebuilds: new Map(rebuilds), keptHistory: keptHistoryOf(input.all, writes), report: redacted.report };
}

/**
 * For each write of a stored record, how many of its first history entries are the stored ones,
 * untouched (the same entries: a retired memory keeps its history, gains its `regenerated` entry,
 * and only the entries of the revoked source are generalized, which came last).
 */
function keptHistoryOf(all: readonly MemoryRecord[], writes: ReadonlyMap<string, MemoryRecord>): Map<string, number> {
  const kept = new Map<string, number>();
  for (const before of all) {
    const after = writes.get(before.id);
    if (!after) continue;
    let n = 0;
    while (n < before.history.length && after.history[n] === before.history[n]) n++;
    if (n > 0) kept.set(before.id, n);
  }
  return kept;
}

/**
 * Pairs current active memories with replayed ones by identity (matches stay exactly as they
 * are); what is left on each side is stale (current) or to be rebuilt (replay, fresh ids).
 */
function matchReplay({ replayed, all, current, revoked, newId, sourceIdsOf }: Context): Matched {
  const idOf = new Map<string, string>();
  const unmatchedReplay = groupBy(
    replayed.filter((candidate) => candidate.invalidatedAt === undefined),
    identity,
  );
  const stale: MemoryRecord[] = [];
  const kept = new Map<string, MemoryRecord>();
  for (const record of current) {
    const twin = unmatchedReplay.get(identity(record))?.shift();
    if (twin) {
      idOf.set(twin.id, record.id);
      kept.set(record.id, twin);
    } else stale.push(record);
  }
  const stored = new Set(all.map((record) => record.id));
  const taken = new Set(stored);
  const created: string[] = [];
  const rebuilt = [...unmatchedReplay.values()].flat().map((record) => {
    const id = freshId(newId, (candidate) => taken.has(candidate));
    taken.add(id);
    created.push(id);
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
    const stand = standIns.get(JSON.stringify([record.scope, claimOf(record)]))?.find((other) => record.sources.some((source) => !revoked.has(source.id) && sourceIdsOf(other).has(source.id)));
    if (stand) idOf.set(record.id, stand.id);
  }
  return { stale, rebuilt, idOf, created, kept };
}

/** Stale active memories: erased when `s` was their only source, else superseded by their rebuilt version. */
function retireStale(context: Context, { stale, rebuilt }: Matched): { written: Written; rebuilds: ReadonlyMap<string, string> } {
  const { revoked, now, support, blanks, cause } = context;
  const writes = new Map<string, MemoryRecord>();
  const redacted: string[] = [];
  const erased: string[] = [];
  const regenerated: ForgetReport['regenerated'] = [];
  const rebuilds = new Map<string, string>();
  for (const record of stale) {
    if (onlyRevoked(record, revoked) || context.forgotten?.ids.has(record.id)) {
      erased.push(record.id);
      writes.set(record.id, erase(record, blanks, context.now, context.erasedReason));
      redacted.push(record.id);
      continue;
    }
    const replacement = replacementFor(record, rebuilt, context);
    if (replacement && !rebuilds.has(replacement.id)) rebuilds.set(replacement.id, record.id);
    const keepText = !context.forgottenText(record) && (!record.sources.some((source) => revoked.has(source.id)) || isSupported(record, support, revoked));
    if (!keepText) redacted.push(record.id);
    regenerated.push({ from: record.id, to: replacement?.id ?? null });
    const base = keepText ? { ...record, sources: redactSources(record.sources, blanks) } : blankText(record, blanks);
    writes.set(record.id, {
      ...base,
      invalidatedAt: now,
      ...(replacement ? { supersededBy: replacement.id } : {}),
      history: [
        ...base.history,
        {
          at: now,
          event: 'regenerated',
          reason: replacement ? `${cause}; rebuilt from the remaining sources as ${replacement.id}` : `${cause}; the remaining sources no longer support it`,
          ...(replacement ? { related: replacement.id } : {}),
        },
      ],
    });
  }
  return { written: { writes, redacted: new Set(redacted), report: { erased, regenerated } }, rebuilds };
}

/** Rebuilt memories: their replay history with temporary ids mapped to stored ones, plus the regeneration. */
function writeRebuilt({ now, replayed, all, current, cause }: Context, { rebuilt, idOf }: Matched, rebuilds: ReadonlyMap<string, string>, written: Written): Written {
  const mapIds = createIdMapper(
    replayed.map((record) => record.id),
    idOf,
  );
  const stored = new Map(all.map((record) => [record.id, record]));
  const pinned = new Set(current.filter((record) => record.pinned).map(pinKey));
  const writes = rebuilt.map(({ episodeId, restatedIn, ...record }): [string, MemoryRecord] => {
    const from = rebuilds.get(record.id);
    // The user's pin goes with the memory rebuilt in place of the pinned one.
    const pin = (from !== undefined && stored.get(from)?.pinned) || pinned.has(pinKey(record));
    // The replay linked the fact to the episode under its temporary id: the stored id it became.
    const episode = episodeId === undefined ? undefined : idOf.get(episodeId);
    return [
      record.id,
      {
        ...record,
        ...(episode !== undefined ? { episodeId: episode } : {}),
        ...restatedOf(restatedIn, idOf),
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
      },
    ];
  });
  return extend(written, { writes });
}

/**
 * Kept memories whose episode links (`episodeId`, `restatedIn`) name an episode this erasure
 * retires (the turn's episode rebuilt without the forgotten clause, under a new id): they link
 * where the replay linked their twin, the episode that now holds their words, so the fact and
 * that episode are one hit and the episode retires with the fact. Same id, history unchanged.
 */
function relinkKept({ all }: Context, { stale, kept, idOf }: Matched, written: Written): Written {
  const retired = new Set(stale.map((record) => record.id));
  const writes: [string, MemoryRecord][] = [];
  for (const record of all) {
    const twin = kept.get(record.id);
    if (twin === undefined || ![record.episodeId, ...(record.restatedIn ?? [])].some((id) => id !== undefined && retired.has(id))) continue;
    const { episodeId: _episodeId, restatedIn: _restatedIn, ...base } = written.writes.get(record.id) ?? record;
    const episode = twin.episodeId === undefined ? undefined : idOf.get(twin.episodeId);
    writes.push([record.id, { ...base, ...(episode !== undefined ? { episodeId: episode } : {}), ...restatedOf(twin.restatedIn, idOf) }]);
  }
  return extend(written, { writes });
}

/**
 * Tombstones that still carry the revoked source: erase them, or drop its excerpt and any
 * text only it produced, and report where their lineage now ends.
 */
function redactTombstones(context: Context, written: Written): Written {
  const { revoked, support, touched, current, blanks } = context;
  const writes = new Map(written.writes);
  const redacted: string[] = [];
  const erased: string[] = [];
  const regenerated: ForgetReport['regenerated'] = [];
  for (const record of touched) {
    if (writes.has(record.id) || record.invalidatedAt === undefined) continue;
    if (onlyRevoked(record, revoked) || context.forgotten?.ids.has(record.id)) {
      redacted.push(record.id);
      // Forgotten before (forgetSource is idempotent): nothing to write, nothing to report.
      if (isErased(record, blanks)) continue;
      writes.set(record.id, erase(record, blanks, context.now, context.erasedReason));
      erased.push(record.id);
      continue;
    }
    if (!context.forgottenText(record) && (revoked.size === 0 || isSupported(record, support, revoked))) {
      // Text kept: only the excerpt changes, which the sources alone tell (comparing whole
      // records costs O(sources) per tombstone on a long history), and the commit's revocation
      // (or a forget's redaction) blanks every excerpt of the source: nothing to write.
      if (!record.sources.some((source) => source.excerpt !== '' && blanks(source))) continue;
    } else {
      redacted.push(record.id);
      const next = blankText(record, blanks);
      if (sameRecord(next, record)) continue;
      writes.set(record.id, next);
    }
    regenerated.push({ from: record.id, to: headOf(record.supersededBy, writes, current) });
  }
  return extend({ ...written, writes }, { redacted, erased, regenerated });
}

/**
 * Reasons that may quote or paraphrase the revoked source, on every record (tombstones and
 * records whose text stays included): a decision the source's statement caused (tagged with its
 * `sourceId`: an UPDATE's "created from"/"superseded by", a corroboration), a reason that
 * contains one of its excerpts word for word (entries written before tagging), and other
 * records' decisions about a redacted record. Each keeps its event, time and link; the reason goes.
 */
function scrubQuotes({ all, revoked, touched, quotesForgotten }: Context, { writes, redacted }: Written): ReadonlyMap<string, MemoryRecord> {
  // Once each: every memory of a line inherits the same entries of the source.
  const excerpts = [...new Set(touched.flatMap((record) => record.sources.filter((source) => revoked.has(source.id) && source.excerpt.length >= 8).map((source) => source.excerpt)))];
  const quotes = (entry: HistoryEntry) =>
    entry.event !== 'regenerated' &&
    entry.event !== 'erased' &&
    ((entry.sourceId !== undefined && revoked.has(entry.sourceId)) || (entry.related !== undefined && redacted.has(entry.related)) || excerpts.some((excerpt) => entry.reason.includes(excerpt)) || quotesForgotten(entry.reason)) &&
    entry.reason !== generalize(entry).reason;
  const out = new Map(writes);
  for (const record of all) {
    const base = out.get(record.id) ?? record;
    if (!base.history.some(quotes)) continue;
    out.set(record.id, { ...base, history: base.history.map((entry) => (quotes(entry) ? generalize(entry) : entry)) });
  }
  return out;
}

/**
 * Metadata of a revoked write, on records whose text stays (a corroborated memory created by
 * the revoked source, kept because another source said the same): it goes with the write.
 */
function dropRevokedMetadata({ touched, revoked }: Context, writes: ReadonlyMap<string, MemoryRecord>): ReadonlyMap<string, MemoryRecord> {
  const out = new Map(writes);
  for (const record of touched) {
    const base = out.get(record.id) ?? record;
    const creator = creatorOf(record);
    if (base.metadata === undefined || creator === undefined || !revoked.has(creator)) continue;
    out.set(record.id, withoutMetadata(base));
  }
  return out;
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

/** A rebuilt fact's `restatedIn`, its episodes' temporary ids mapped to stored ones (an episode the erasure left out goes). */
function restatedOf(restatedIn: readonly string[] | undefined, idOf: ReadonlyMap<string, string>): { restatedIn?: string[] } {
  const mapped = (restatedIn ?? []).flatMap((id) => idOf.get(id) ?? []);
  return mapped.length > 0 ? { restatedIn: mapped } : {};
}
