/**
 * Right to erasure, done completely. `forgetSource(s)` replays the owner's remaining stored
 * inputs (original order, original times) through extraction and consolidation, then makes
 * the store's active set equal the replay's: memories that only `s` supported are erased
 * (tombstones with ids, times and the reason, no text), memories that merely touched `s` are
 * superseded by their rebuilt versions, and every trace of `s`'s text (excerpts, stored
 * conversation, contents and decision reasons only `s` produced, vectors) is removed, in one
 * transaction that fails if any other write reached the owner's partition in the meantime.
 */
import type { MemoryRecord } from '../schema';
import type { InputRow, Owner, Storage } from '../storage/contract';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { planErasure, type ForgetReport } from './erasure-plan';

export { REDACTED, type ForgetReport } from './erasure-plan';

export interface ForgetDeps {
  storage: Storage;
  clock: () => number;
  newId: () => string;
  /** Replays inputs in order into a working set (fresh, or the active memories `start`); returns every record it holds at the end. */
  replay: (inputs: readonly InputRow[], start?: readonly MemoryRecord[]) => Promise<Map<string, MemoryRecord>>;
  /** Drops caches that may hold text (the embedder's token cache). */
  clearCaches: () => Promise<void>;
}

/** Forgets several sources at once: one replay, one commit, the same end state as forgetting them one by one. */
export function forgetSource(deps: ForgetDeps, sourceIds: ReadonlySet<string>, owner: Owner): Promise<ForgetReport> {
  return writeOwner(deps.storage, owner, (write) => eraseAndRegenerate(deps, sourceIds, owner, write));
}

/** Past this many sources their inputs are found in one read of the owner's log, not one query each. */
const FEW_SOURCES = 8;

/** The stored inputs of the revoked sources, in `seq` order (app-scope inputs are never a user's to revoke). */
async function revokedInputs(store: Storage['records'], owner: Owner, sourceIds: ReadonlySet<string>): Promise<InputRow[]> {
  const rows =
    sourceIds.size <= FEW_SOURCES
      ? (await Promise.all([...sourceIds].map((id) => store.inputsOf(owner, id)))).flat().sort((a, b) => a.seq! - b.seq!)
      : (await store.inputs(owner)).filter((input) => input.kind !== 'prune' && sourceIds.has(input.source.id));
  return rows.filter((input) => input.kind !== 'prune' && input.scope !== 'app');
}

/** Whether every one of the sources was revoked before. */
async function allRevoked(store: Storage['records'], owner: Owner, sourceIds: ReadonlySet<string>): Promise<boolean> {
  for (const id of sourceIds) if (!(await store.isRevoked(owner, id))) return false;
  return true;
}

/** Whether no active record lists one of the sources. */
async function noneActive(store: Storage['records'], owner: Owner, sourceIds: ReadonlySet<string>): Promise<boolean> {
  for (const id of sourceIds) if ((await store.bySource(owner, id)).some((record) => record.invalidatedAt === undefined)) return false;
  return true;
}

async function eraseAndRegenerate(deps: ForgetDeps, sourceIds: ReadonlySet<string>, owner: Owner, write: OwnerWrite): Promise<ForgetReport> {
  // Versions first (writeOwner), reads after: a write landing in between makes the commit
  // below fail with ConflictError, and the whole decision is made again on the new state.
  const store = deps.storage.records;
  const revoked = await revokedInputs(store, owner, sourceIds);
  // Idempotent (invariant 12): a source forgotten before leaves only tombstones that list it,
  // and nothing of it can be stored since (the commit refuses a revoked source's inputs). Then
  // the store already is one that never saw it: report nothing, write nothing.
  const alreadyRevoked = revoked.length === 0 && (await allRevoked(store, owner, sourceIds));
  if (alreadyRevoked && (await noneActive(store, owner, sourceIds))) return { erased: [], regenerated: [] };
  const first = revoked.length ? revoked[0]!.seq! : undefined;
  // What the sources can have reached: the active memories and the rows changed since the
  // first of their inputs (a long history before it is not read), plus any that list one. Read
  // beside where the replay starts, which only that first input decides.
  const [all, start] = await Promise.all([store.erasureSet(owner, { sourceIds: [...sourceIds], fromSeq: first }), first === undefined ? undefined : replayStart(deps, owner, first)]);
  // Every record a source touched is among them (app scope is never a user's to revoke).
  const touched = all.filter((record) => record.sources.some((source) => sourceIds.has(source.id)));
  const replayedAll = await regenerate(deps, owner, { revoked, touched, all, start }, sourceIds);
  const { writes, created, rebuilds, report } = planErasure({ sourceIds, now: deps.clock(), newId: deps.newId, replayed: replayedAll, all, touched });

  const records = [...writes.values()];
  // Nothing to change and the revocations already recorded: no commit either.
  if (records.length === 0 && alreadyRevoked) return report;
  // The revocation is recorded even when nothing of the source is stored yet: an ingest of
  // it that is still in flight must not land after the user asked to forget it.
  await write.commit({
    records,
    creates: created,
    deleteInputs: revoked.map((input) => input.seq!),
    revoke: { ...owner, sourceIds: [...sourceIds], at: deps.clock() },
    // A rebuilt memory inherits the lineage of the one it replaces, less what it lacks (lineage.ts).
    hints: { loaded: new Map(all.map((record) => [record.id, record])), inherits: rebuilds },
  });
  await deps.clearCaches();
  return report;
}

/** Where a replay starts: the last checkpoint before input `first` (or none), and the stored inputs after it. */
interface ReplayStart {
  records: readonly MemoryRecord[];
  inputs: readonly InputRow[];
}

async function replayStart(deps: ForgetDeps, owner: Owner, first: number | undefined): Promise<ReplayStart> {
  const checkpoint = first === undefined ? null : await deps.storage.records.checkpointBefore(owner, first);
  return { records: checkpoint?.records ?? [], inputs: await deps.storage.records.inputsAfter(owner, checkpoint?.seq ?? 0) };
}

/**
 * What a store that never saw the sources would hold: the remaining inputs replayed in order,
 * from the last checkpoint before the source's first input (store/checkpoints.ts) or from the
 * beginning. With nothing of them stored, the store already is that store.
 */
async function regenerate(
  deps: ForgetDeps,
  owner: Owner,
  state: { revoked: readonly InputRow[]; touched: readonly MemoryRecord[]; all: readonly MemoryRecord[]; start: ReplayStart | undefined },
  sourceIds: ReadonlySet<string>,
): Promise<MemoryRecord[]> {
  const { revoked, touched, all } = state;
  if (revoked.length === 0 && touched.length === 0) return [...all];
  // No stored input of the source, yet records list it: from the beginning.
  const start = state.start ?? (await replayStart(deps, owner, undefined));
  // Prunes stay in the replay, at their times: a pruned memory must not come back.
  const kept = start.inputs.filter((input) => input.kind === 'prune' || (!sourceIds.has(input.source.id) && input.scope !== 'app'));
  return [...(await deps.replay(kept, start.records)).values()];
}
