/**
 * Time travel: what the store held at a past time, and what retrieval would have ranked then.
 *
 * The past is rebuilt from the stored inputs, never read off today's records: the inputs
 * written up to that time are replayed in their order (the replay forgetSource runs), so the
 * memories come back active as they were then, with the confidence and sources they had then.
 * Erasure reaches the past for free: forgetSource deletes a revoked source's inputs, so no
 * replay can bring back what came from it, whatever the time (a record's own times could: a
 * memory superseded by an erasure was active before it, text and all). Rules this code keeps:
 *
 * - "Up to `asOf`" is every input made at or before `asOf`, replayed in write order. (Not the
 *   head of the log up to the first later input: undo may move the rest of a message's input
 *   behind later ones, keeping its time, and it still belongs to its time.)
 * - The owner's inputs (user and session scope) and its app's (app scope, stored with userId
 *   `''`) are replayed apart, as consolidation keeps the two apart.
 * - A replayed memory carries the id of the stored record it became (same scope, session, topic
 *   and text; the stored sources extend the replayed ones), so `get` and `history` find it.
 * - Pins carry no time, so a replayed memory shows the pin its stored record has now.
 */
import { byCreation, type MemoryRecord } from '../schema';
import type { InputRow, Owner, Storage } from '../storage/contract';

export interface AsOfDeps {
  storage: Storage;
  /** Replays inputs in order into a fresh working set; every record it holds at the end (forgetSource's replay). */
  replay: (inputs: readonly InputRow[]) => Promise<Map<string, MemoryRecord>>;
}

/** The inputs made at or before `asOf`, in write order. */
function madeBy(inputs: readonly InputRow[], asOf: number): InputRow[] {
  return inputs.filter((input) => input.at <= asOf);
}

function claimOf(record: MemoryRecord): string {
  return JSON.stringify([record.scope, record.sessionId ?? '', record.topic, record.content]);
}

function sourceIds(record: MemoryRecord): string[] {
  return record.sources.map((source) => source.id);
}

/** Whether `stored` can be what `replayed` became: its sources are the replayed ones, or those followed by more. */
function continues(stored: MemoryRecord, replayed: MemoryRecord, exact: boolean): boolean {
  const [mine, theirs] = [sourceIds(replayed), sourceIds(stored)];
  if (exact ? theirs.length !== mine.length : theirs.length < mine.length) return false;
  return mine.every((id, i) => theirs[i] === id);
}

/**
 * The stored id of each replayed record (replay id → stored id): the stored record with the
 * same sources first, else one that gained sources since. One nothing matches keeps a replay id
 * of its own (`prefix` keeps the two replays' apart).
 */
function storedIds(replayed: readonly MemoryRecord[], stored: readonly MemoryRecord[], prefix: string): Map<string, string> {
  const byClaim = new Map<string, MemoryRecord[]>();
  for (const record of stored) byClaim.set(claimOf(record), [...(byClaim.get(claimOf(record)) ?? []), record]);
  const used = new Set<string>();
  const ids = new Map<string, string>();
  for (const record of replayed) {
    const candidates = (byClaim.get(claimOf(record)) ?? []).filter((candidate) => !used.has(candidate.id));
    const match = candidates.find((candidate) => continues(candidate, record, true)) ?? candidates.find((candidate) => continues(candidate, record, false));
    if (match) used.add(match.id);
    ids.set(record.id, match?.id ?? `${prefix}${record.id}`);
  }
  return ids;
}

/** `record` with every replay id in it (its own, `supersededBy`, its episode links, history links) renamed by `ids`. */
function renamed(record: MemoryRecord, ids: ReadonlyMap<string, string>): MemoryRecord {
  const rename = (id: string) => ids.get(id) ?? id;
  return {
    ...record,
    id: rename(record.id),
    ...(record.supersededBy !== undefined ? { supersededBy: rename(record.supersededBy) } : {}),
    ...(record.episodeId !== undefined ? { episodeId: rename(record.episodeId) } : {}),
    ...(record.restatedIn !== undefined ? { restatedIn: record.restatedIn.map(rename) } : {}),
    history: record.history.map((entry) => (entry.related !== undefined ? { ...entry, related: rename(entry.related) } : entry)),
  };
}

/**
 * One replay of the inputs up to `asOf`, its records under their stored ids. A pin is stored
 * with no time (no input, no history event), so the past cannot know when it was set: a
 * replayed record carries the pin its stored record has now.
 */
async function replayUntil(deps: AsOfDeps, inputs: readonly InputRow[], asOf: number, stored: readonly MemoryRecord[], prefix: string): Promise<MemoryRecord[]> {
  const replayed = [...(await deps.replay(madeBy(inputs, asOf))).values()];
  const ids = storedIds(replayed, stored, prefix);
  const pinned = new Set(stored.filter((record) => record.pinned).map((record) => record.id));
  return replayed.map((record) => {
    const { pinned: _replayedPin, ...rest } = renamed(record, ids);
    return pinned.has(rest.id) ? { ...rest, pinned: true as const } : rest;
  });
}

/**
 * The owner's records (user, session and its app's app scope) as they stood at `asOf`: the
 * active ones, and with `includeInvalid` those already tombstoned then; oldest first.
 */
export async function recordsAsOf(deps: AsOfDeps, owner: Owner, asOf: number, includeInvalid: boolean): Promise<MemoryRecord[]> {
  const { records } = deps.storage;
  const [own, app, stored] = await Promise.all([records.inputs(owner), records.inputs({ userId: '', appName: owner.appName }), records.list(owner, { scopes: ['user', 'session', 'app'], includeInvalid: true })]);
  const replayed = [...(await replayUntil(deps, own, asOf, stored, 'asof_user_')), ...(await replayUntil(deps, app, asOf, stored, 'asof_app_'))];
  return replayed.filter((record) => includeInvalid || record.invalidatedAt === undefined).sort(byCreation);
}
