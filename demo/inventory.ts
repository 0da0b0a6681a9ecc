/**
 * What the store holds, as the page tells a person about it: which sources were revoked (for
 * the store panel's chips), and what Reset would delete. Read through the public API only.
 */
import type { Memory, MemoryRecord } from '../src/index';
import type { Owner } from './views';

/**
 * Source ids of `records` that were revoked. A revoked source has no stored input any more,
 * yet stays in the source lists of the tombstones it was taken from; no active memory lists
 * one (forgetSource rebuilds those without it), so with no tombstone there is nothing to ask.
 */
export async function revokedSources(memory: Memory, owner: Owner, records: readonly MemoryRecord[]): Promise<Set<string>> {
  const tombstones = records.filter((record) => record.invalidatedAt !== undefined && record.userId === owner.userId);
  if (tombstones.length === 0) return new Set();
  const { inputs } = await memory.export(owner);
  const stored = new Set(inputs.flatMap((input) => ('source' in input && input.source ? [input.source.id] : [])));
  return new Set(tombstones.flatMap((record) => record.sources.map((source) => source.id)).filter((id) => !stored.has(id)));
}

export interface StoreSummary {
  /** Users of `users` with anything stored: how many of their facts are active, and how many turns are kept in their words (active episodes). */
  owners: { userId: string; facts: number; turns: number }[];
  /** Every record of those users, tombstones included. */
  records: number;
}

/** What the database holds for each of `users` in `appName` (their own memories; app-scope ones are nobody's). */
export async function summarizeStore(memory: Memory, users: readonly string[], appName: string): Promise<StoreSummary> {
  const owners: StoreSummary['owners'] = [];
  let records = 0;
  for (const userId of users) {
    const own = (await memory.list({ userId, appName, includeInvalid: true })).filter((record) => record.userId === userId);
    if (own.length === 0) continue;
    records += own.length;
    const active = own.filter((record) => record.invalidatedAt === undefined);
    owners.push({ userId, facts: active.filter((record) => record.kind === 'fact').length, turns: active.filter((record) => record.kind === 'episode').length });
  }
  return { owners, records };
}
