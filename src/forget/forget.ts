/**
 * Right to erasure, done completely. `forgetSource(s)` replays the owner's remaining stored
 * inputs (original order, original times) through extraction and consolidation, then makes
 * the store's active set equal the replay's: memories that only `s` supported are erased
 * (tombstones with ids, times and the reason, no text), memories that merely touched `s` are
 * superseded by their rebuilt versions, and every trace of `s`'s text (excerpts, stored
 * conversation, vectors) is removed, in one transaction.
 */
import type { MemoryRecord, Source } from '../schema';
import type { InputRow } from '../store/database';
import { userPartition, type Owner } from '../store/owner';
import type { Store } from '../store/store';
import type { VectorIndex } from '../store/vector-index';
import { ConflictError } from '../errors';

/** What forgetSource did: erased ids, and each other affected memory with its replacement. */
export interface ForgetReport {
  erased: string[];
  regenerated: { from: string; to: string | null }[];
}

export interface ForgetDeps {
  store: Store;
  index: VectorIndex;
  clock: () => number;
  newId: () => string;
  /** Replays inputs in order into a fresh working set; returns every record it produced. */
  replay: (inputs: readonly InputRow[]) => Promise<Map<string, MemoryRecord>>;
  /** Drops caches that may hold text (the embedder's token cache). */
  clearCaches: () => Promise<void>;
}

const REDACTED = '[redacted: source revoked]';

function identity(record: MemoryRecord): string {
  const sourceIds = [...new Set(record.sources.map((source) => source.id))].sort();
  return JSON.stringify([record.scope, record.sessionId ?? '', record.topic, record.content, sourceIds, record.confidence]);
}

function sourceIdsOf(record: MemoryRecord): Set<string> {
  return new Set(record.sources.map((source) => source.id));
}

function redactSources(sources: readonly Source[], sourceId: string): Source[] {
  return sources.map((source) => (source.id === sourceId ? { ...source, excerpt: '' } : source));
}

/** The replacement of an old memory: a rebuilt one on the same topic and scope that shares a remaining source. */
function replacementFor(old: MemoryRecord, rebuilt: readonly MemoryRecord[], sourceId: string): MemoryRecord | undefined {
  const remaining = [...sourceIdsOf(old)].filter((id) => id !== sourceId);
  return rebuilt.find(
    (record) =>
      record.topic === old.topic &&
      record.scope === old.scope &&
      (record.sessionId ?? '') === (old.sessionId ?? '') &&
      remaining.some((id) => sourceIdsOf(record).has(id)),
  );
}

export async function forgetSource(deps: ForgetDeps, sourceId: string, owner: Owner): Promise<ForgetReport> {
  const key = userPartition(owner);
  for (let attempt = 1; ; attempt++) {
    const versions = await deps.index.ensure([key]);
    const inputs = await deps.store.inputs(owner);
    const revoked = inputs.filter((input) => input.source.id === sourceId && input.scope !== 'app');
    const touched = (await deps.store.bySource(owner, sourceId)).filter((record) => record.scope !== 'app');
    if (revoked.length === 0 && touched.length === 0) return { erased: [], regenerated: [] };

    const kept = inputs.filter((input) => input.source.id !== sourceId && input.scope !== 'app');
    const replayed = [...(await deps.replay(kept)).values()].filter((record) => record.invalidatedAt === undefined);
    const current = await deps.store.list(owner, { scopes: ['user', 'session'], includeInvalid: false });

    // Match current active memories with replayed ones; matches stay exactly as they are.
    const unmatchedReplay = new Map<string, MemoryRecord[]>();
    for (const record of replayed) {
      const list = unmatchedReplay.get(identity(record)) ?? [];
      list.push(record);
      unmatchedReplay.set(identity(record), list);
    }
    const stale: MemoryRecord[] = [];
    for (const record of current) {
      const list = unmatchedReplay.get(identity(record));
      if (list?.length) list.shift();
      else stale.push(record);
    }
    const now = deps.clock();
    const idOf = new Map<string, string>();
    const rebuilt = [...unmatchedReplay.values()].flat().map((record) => {
      const id = deps.newId();
      idOf.set(record.id, id);
      return { ...record, id };
    });

    const report: ForgetReport = { erased: [], regenerated: [] };
    const writes = new Map<string, MemoryRecord>();
    for (const record of stale) {
      const ids = sourceIdsOf(record);
      if (ids.size === 1 && ids.has(sourceId)) {
        report.erased.push(record.id);
        writes.set(record.id, erase(record, sourceId, now));
        continue;
      }
      const replacement = replacementFor(record, rebuilt, sourceId);
      report.regenerated.push({ from: record.id, to: replacement?.id ?? null });
      writes.set(record.id, {
        ...record,
        sources: redactSources(record.sources, sourceId),
        invalidatedAt: now,
        ...(replacement ? { supersededBy: replacement.id } : {}),
        history: [
          ...record.history,
          {
            at: now,
            event: 'regenerated',
            reason: replacement
              ? `source ${sourceId} revoked; rebuilt from the remaining sources as ${replacement.id}`
              : `source ${sourceId} revoked; the remaining sources no longer support it`,
            ...(replacement ? { related: replacement.id } : {}),
          },
        ],
      });
    }
    for (const record of rebuilt) {
      const from = report.regenerated.find((entry) => entry.to === record.id)?.from;
      writes.set(record.id, {
        ...record,
        history: [
          // Replay ids are temporary: keep the events, drop links to records that were not kept.
          ...record.history.map(({ related, ...entry }) => {
            const mapped = related === undefined ? undefined : idOf.get(related);
            return mapped ? { ...entry, related: mapped } : entry;
          }),
          {
            at: now,
            event: 'regenerated',
            reason: `rebuilt after source ${sourceId} was revoked${from ? `, replacing ${from}` : ''}`,
            ...(from ? { related: from } : {}),
          },
        ],
      });
    }
    // Tombstones that still carry the revoked source's text: erase or redact it, and report
    // where their lineage now ends (following supersededBy through this call's writes).
    for (const record of touched) {
      if (writes.has(record.id) || record.invalidatedAt === undefined) continue;
      const ids = sourceIdsOf(record);
      if (ids.size === 1) {
        writes.set(record.id, erase(record, sourceId, now));
        report.erased.push(record.id);
        continue;
      }
      writes.set(record.id, { ...record, sources: redactSources(record.sources, sourceId) });
      report.regenerated.push({ from: record.id, to: headOf(record.supersededBy, writes, current) });
    }

    try {
      const records = [...writes.values()];
      const result = await deps.store.commit({ records, deleteInputs: revoked.map((input) => input.seq!), expected: versions });
      await deps.index.afterCommit(result, records);
      await deps.clearCaches();
      return report;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 5) throw error;
    }
  }
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

/** A tombstone that keeps id, times, topic and the reason; every piece of text is gone. */
function erase(record: MemoryRecord, sourceId: string, now: number): MemoryRecord {
  return {
    ...record,
    content: REDACTED,
    sources: redactSources(record.sources, sourceId),
    embedding: new Float32Array(0),
    invalidatedAt: record.invalidatedAt ?? now,
    history: [
      ...record.history.map((entry) => ({ ...entry, reason: entry.event === 'created' || entry.event === 'corroborated' ? entry.event : entry.reason })),
      { at: now, event: 'erased', reason: `erased: sole source ${sourceId} revoked` },
    ],
  };
}
