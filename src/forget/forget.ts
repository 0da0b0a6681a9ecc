/**
 * Right to erasure, done completely. `forgetSource(s)` replays the owner's remaining stored
 * inputs (original order, original times) through extraction and consolidation, then makes
 * the store's active set equal the replay's: memories that only `s` supported are erased
 * (tombstones with ids, times and the reason, no text), memories that merely touched `s` are
 * superseded by their rebuilt versions, and every trace of `s`'s text (excerpts, stored
 * conversation, contents and decision reasons only `s` produced, vectors) is removed, in one
 * transaction that fails if any other write reached the owner's partition in the meantime.
 * `forget(id)` (forget-memory.ts) runs the same erasure ({@link applyErasure}) with the inputs
 * its memory came from rewritten instead of deleted. On a full disk an erasure is made by deletes
 * alone, and what it must write waits for the owner's next write with room (full-disk-erasure.ts).
 */
import type { MemoryRecord } from '../schema';
import type { Commit, InputRow, Owner, PruneInput, Storage } from '../storage/contract';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { planErasure, type ForgetReport, type Forgotten } from './erasure-plan';
import { pinKey, type ReplayOptions } from './replay';
import { withLineage } from '../storage/lineage';
import { replayedCandidates } from '../review/held';
import { deferredInputs, deletesInstead, defer, settle, withDeferred } from './full-disk-erasure';
import { corroboratedActive, createdConfidence, creationOf, restatedOnly, type Trust } from './restated';

export { REDACTED, type ForgetReport } from './erasure-plan';

export interface ForgetDeps {
  storage: Storage;
  clock: () => number;
  newId: () => string;
  /** Replays inputs in order into a working set (fresh, or the active memories `start`); returns every record it holds at the end. */
  replay: (inputs: readonly InputRow[], start?: readonly MemoryRecord[], options?: ReplayOptions) => Promise<Map<string, MemoryRecord>>;
  /** Drops caches that may hold text (the embedder's token cache). */
  clearCaches: () => Promise<void>;
  /**
   * The trust of each source type, present when the decider is engram's policy: then a
   * forgetSource of sources that only restated is made without a replay (restated.ts).
   */
  trust?: Trust;
}

/** Forgets several sources at once: one replay, one commit, the same end state as forgetting them one by one. */
export function forgetSource(deps: ForgetDeps, sourceIds: ReadonlySet<string>, owner: Owner): Promise<ForgetReport> {
  return writeOwner(deps.storage, owner, (write) => eraseAndRegenerate(deps, sourceIds, owner, write));
}

/** Past this many sources their inputs are found in one read of the owner's log, not one query each. */
const FEW_SOURCES = 8;

/**
 * The stored inputs of the revoked sources, in `seq` order (app-scope inputs are never a user's
 * to revoke), with those an erasure on a full disk left waiting for the rebuild (full-disk-erasure.ts).
 */
async function revokedInputs(storage: Storage, owner: Owner, sourceIds: ReadonlySet<string>): Promise<InputRow[]> {
  const store = storage.records;
  const rows =
    sourceIds.size <= FEW_SOURCES
      ? (await Promise.all([...sourceIds].map((id) => store.inputsOf(owner, id)))).flat().sort((a, b) => a.seq! - b.seq!)
      : (await store.inputs(owner)).filter((input) => input.kind !== 'prune' && sourceIds.has(input.source.id));
  const revoked = (input: InputRow) => input.kind !== 'prune' && input.scope !== 'app' && sourceIds.has(input.source.id);
  return withDeferred(rows, await deferredInputs(storage, owner), revoked).filter(revoked);
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

/**
 * Whether a stored input gives a replay nothing: the candidates stored with it, less those held
 * for review (replay.ts skips an input without any). Unknown without stored candidates.
 */
function yieldsNothing(input: InputRow): boolean {
  return input.kind !== 'prune' && input.candidates !== undefined && replayedCandidates(input, input.candidates).length === 0;
}

/** Whether no record of the owner, in any state, lists one of the sources. */
async function noneListed(store: Storage['records'], owner: Owner, sourceIds: ReadonlySet<string>): Promise<boolean> {
  for (const id of sourceIds) if ((await store.bySource(owner, id)).length > 0) return false;
  return true;
}

async function eraseAndRegenerate(deps: ForgetDeps, sourceIds: ReadonlySet<string>, owner: Owner, write: OwnerWrite): Promise<ForgetReport> {
  // Versions first (writeOwner), reads after: a write landing in between makes the commit
  // below fail with ConflictError, and the whole decision is made again on the new state.
  const store = deps.storage.records;
  const revoked = await revokedInputs(deps.storage, owner, sourceIds);
  // Idempotent (invariant 12): a source forgotten before leaves only tombstones that list it,
  // and nothing of it can be stored since (the commit refuses a revoked source's inputs). Then
  // the store already is one that never saw it: report nothing, write nothing.
  const alreadyRevoked = revoked.length === 0 && (await allRevoked(store, owner, sourceIds));
  if (alreadyRevoked && (await noneActive(store, owner, sourceIds))) return { erased: [], regenerated: [] };
  // The revocation is recorded even when nothing of the source is stored yet: an ingest of
  // it that is still in flight must not land after the user asked to forget it.
  const revoke = { ...owner, sourceIds: [...sourceIds], at: deps.clock() };
  // Nothing of the sources in memory (small talk): their inputs give a replay nothing and no
  // record lists them, so the store already is one that never saw them but for those inputs.
  // They go and the sources are revoked; no memory is read or replayed.
  // (Not while an erasure made on a full disk waits for its rebuild: that one is made by deletes too.)
  if (!alreadyRevoked && revoked.every(yieldsNothing) && !(await store.erasurePending?.(owner)) && (await noneListed(store, owner, sourceIds))) {
    try {
      await write.commit({ records: [], deleteInputs: revoked.map((input) => input.seq!), revoke });
      await deps.clearCaches();
      return { erased: [], regenerated: [] };
    } catch (error) {
      // On a full disk the revocation cannot be written: the erasure below falls back to deletes alone.
      if (!deletesInstead(store, error)) throw error;
    }
  }
  const request: ErasureRequest = {
    inputs: new Map(revoked.map((input) => [input.seq!, null])),
    sourceIds,
    reads: [...sourceIds],
    touches: (record) => record.sources.some((source) => sourceIds.has(source.id)),
    removed: revoked,
    revoke,
    // Nothing to change and the revocations already recorded: no commit either.
    quietWhenUnchanged: alreadyRevoked,
  };
  return (await withoutReplay(deps, owner, write, request)) ?? applyErasure(deps, owner, write, request);
}

/**
 * forgetSource of sources that only restated what the store held (restated.ts): the store
 * without them is read off the records, no input is read or replayed. Null when that cannot be
 * shown, or the store cannot tell whether a prune came after them: the caller replays.
 */
async function withoutReplay(deps: ForgetDeps, owner: Owner, write: OwnerWrite, request: ErasureRequest): Promise<ForgetReport | null> {
  const store = deps.storage.records;
  if (deps.trust === undefined || store.prunedAfter === undefined || (await store.erasurePending?.(owner))) return null;
  // A source whose write made a memory did not only restate: replay without reading the records twice.
  if (await store.createdBy?.(owner, request.reads)) return null;
  const seqs = [...request.inputs.keys()];
  const [{ all }, prunedSince] = await Promise.all([erasureReads(store, owner, request.reads, undefined), store.prunedAfter(owner, seqs.length ? Math.min(...seqs) : 0)]);
  const touched = all.filter(request.touches);
  const createdWith = prunedSince ? new Map<string, number>() : await creationConfidences(store, owner, corroboratedActive(touched, request.sourceIds), deps.trust);
  const replayed = restatedOnly({ sourceIds: request.sourceIds, trust: deps.trust, all, touched, prunedSince, createdWith });
  return replayed === null ? null : commitErasure(deps, owner, write, request, { all, touched, replayed });
}

/** The confidence each of `records` was created with, read from the input its creation entry names (the creating source's input at that time); each source's inputs are read once. */
async function creationConfidences(store: Storage['records'], owner: Owner, records: readonly MemoryRecord[], trust: Trust): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const inputsOf = new Map<string, Promise<InputRow[]>>();
  for (const record of records) {
    const creation = creationOf(record);
    if (creation === undefined) continue;
    const sourceId = creation.sourceId!;
    if (!inputsOf.has(sourceId)) inputsOf.set(sourceId, store.inputsOf(owner, sourceId));
    const input = (await inputsOf.get(sourceId)!).find((row) => row.at === creation.at);
    const confidence = input === undefined ? undefined : createdConfidence(record, input, trust);
    if (confidence !== undefined) out.set(record.id, confidence);
  }
  return out;
}

/**
 * One erasure, however it was asked for: what it does to the stored inputs and which text must
 * go. forgetSource deletes a source's inputs and revokes it; forget(id) rewrites the inputs a
 * memory came from (take-out.ts) and names the memory and its spans.
 */
export interface ErasureRequest {
  /** Stored input seq → the input as it stays (rewritten in place), or null: it goes. */
  inputs: ReadonlyMap<number, InputRow | null>;
  /** Revoked sources: their inputs leave the replay, their excerpts are blanked (empty for a forget). */
  sourceIds: ReadonlySet<string>;
  /** Source ids whose records the erasure reads (erasureSet). */
  reads: readonly string[];
  /** The owner's records the erasure touches (their text or excerpts may go). */
  touches: (record: MemoryRecord) => boolean;
  forgotten?: Forgotten;
  /** The stored inputs the erasure deletes whole, when that is all it does to them (forgetSource): the replay may then keep to the partitions they and `touches` reach (partition.ts). */
  removed?: readonly InputRow[];
  revoke?: NonNullable<Commit['revoke']>;
  redactExcerpts?: NonNullable<Commit['redactExcerpts']>;
  /** No commit when the plan writes no record (the revocations are recorded already). */
  quietWhenUnchanged?: boolean;
  /** The rebuild that finishes an erasure made on a full disk ({@link finishErasure}). */
  finishes?: boolean;
  /** Prune records an erasure on a full disk left waiting (full-disk-erasure.ts): replayed after every stored input, and stored. */
  prunes?: readonly PruneInput[];
}

/**
 * Replays the owner's inputs as the request leaves them, from the last checkpoint before the
 * first one it changes, plans the erasure (erasure-plan.ts) and commits it with `write` (the
 * versions writeOwner read before anything else: a write in between makes the commit fail and
 * the call decide again).
 */
export async function applyErasure(deps: ForgetDeps, owner: Owner, write: OwnerWrite, request: ErasureRequest): Promise<ForgetReport> {
  const store = deps.storage.records;
  const seqs = [...request.inputs.keys()];
  // The rebuild reads the whole store (what it rewrites was deleted, with the checkpoints).
  const first = seqs.length && !request.finishes ? Math.min(...seqs) : undefined;
  // What the erasure can have reached: the active memories and the rows changed since the
  // first input it changes (a long history before it is not read), plus any that list one of
  // its sources. Read with where the replay starts, which only that first input decides.
  const { all, start } = await erasureReads(store, owner, request.reads, first);
  // Every record the erasure touches is among them (app scope is never a user's to erase).
  const touched = all.filter(request.touches);
  const replayed = await regenerate(deps, owner, { changed: request.inputs, prunes: request.prunes ?? [], touched, all, start, ...(request.removed ? { removed: request.removed } : {}) }, request.sourceIds);
  return commitErasure(deps, owner, write, request, { all, touched, replayed });
}

/** What an erasure compares: the owner's records it read, those it touches, and what a store that never saw the change holds (a replay's). */
interface ErasureState {
  all: readonly MemoryRecord[];
  touched: readonly MemoryRecord[];
  replayed: readonly MemoryRecord[];
}

/** Plans the erasure from `state` (erasure-plan.ts) and commits it with `write`. */
async function commitErasure(deps: ForgetDeps, owner: Owner, write: OwnerWrite, request: ErasureRequest, { all, touched, replayed }: ErasureState): Promise<ForgetReport> {
  const store = deps.storage.records;
  const seqs = [...request.inputs.keys()];
  const { writes, created, rebuilds, keptHistory, report } = planErasure({
    sourceIds: request.sourceIds,
    ...(request.forgotten ? { forgotten: request.forgotten } : {}),
    now: deps.clock(),
    newId: deps.newId,
    replayed,
    all,
    touched,
  });
  const records = [...writes.values()];
  if (records.length === 0 && request.quietWhenUnchanged) return report;
  const changed = [...request.inputs];
  const deleteInputs = changed.filter(([, input]) => input === null).map(([seq]) => seq);
  // On a full disk the erasure is made by deletes alone: every stored input it changes and every
  // record it writes or touches go; the inputs it rewrites wait in this instance for the rebuild.
  const byDeleting = async (): Promise<ForgetReport> => {
    await store.eraseByDeleting!(owner, write.versions, { deleteInputs: seqs, memoryIds: [...new Set([...writes.keys(), ...touched.map((record) => record.id)])] });
    await defer(deps.storage, owner, request.inputs);
    await deps.clearCaches();
    // What it rebuilds is written by the rebuild (finishErasure), under ids not drawn yet.
    return { erased: report.erased, regenerated: report.regenerated.map(({ from }) => ({ from, to: null })) };
  };
  // The rebuild itself needs room: it is never made by deletes.
  const mayDelete = !request.finishes;
  // An erasure already waiting for its rebuild: this one too is made by deletes, the rebuild follows both.
  if (mayDelete && (await store.erasurePending?.(owner))) return byDeleting();
  try {
    await write.commit(
      withLineage(
        {
          records,
          creates: created,
          deleteInputs,
          rewriteInputs: changed.flatMap(([seq, input]) => (input === null ? [] : [{ ...input, seq }])),
          ...(request.prunes?.length ? { inputs: [...request.prunes] } : {}),
          ...(request.revoke ? { revoke: request.revoke } : {}),
          ...(request.redactExcerpts ? { redactExcerpts: request.redactExcerpts } : {}),
          ...(request.finishes ? { finishesErasure: true } : {}),
          // Complete records; a rebuilt memory inherits the lineage of the one it replaces, less what it lacks (storage/lineage.ts), and a retired one keeps its stored history and gains its last entry.
        },
        { working: new Set(), inherits: rebuilds, keptHistory },
      ),
    );
  } catch (error) {
    if (mayDelete && deletesInstead(store, error)) return byDeleting();
    throw error;
  }
  await deps.clearCaches();
  return report;
}

/**
 * Finishes an erasure made on a full disk (store/full-disk.ts): the owner's stored inputs
 * replayed from the beginning, and the store made equal to the replay, as forgetSource does. It
 * writes the memories the erasure deleted because other sources support them too.
 */
export async function finishErasure(deps: ForgetDeps, owner: Owner, write: OwnerWrite): Promise<ForgetReport> {
  // With what this instance holds for it: the inputs forget rewrote and the prunes (full-disk-erasure.ts).
  const deferred = await deferredInputs(deps.storage, owner);
  const report = await applyErasure(deps, owner, write, { inputs: deferred.rewrites, prunes: deferred.prunes, sourceIds: new Set(), reads: [], touches: () => true, finishes: true });
  settle(deps.storage, owner);
  return report;
}

/** Where a replay starts: the last checkpoint before input `first` (or none), and the stored inputs after it. */
interface ReplayStart {
  records: readonly MemoryRecord[];
  inputs: readonly InputRow[];
}

async function replayStart(deps: ForgetDeps, owner: Owner, first: number | undefined): Promise<ReplayStart> {
  const checkpoint = first === undefined ? null : await deps.storage.records.checkpointBefore(owner, first);
  return startAt(deps.storage.records, owner, checkpoint);
}

function startAt(store: Storage['records'], owner: Owner, checkpoint: { seq: number; records: MemoryRecord[] } | null): Promise<ReplayStart> {
  return store.inputsAfter(owner, checkpoint?.seq ?? 0).then((inputs) => ({ records: checkpoint?.records ?? [], inputs }));
}

/**
 * The erasure's reads: its set (RecordStore.erasureSet) and, when it changes a stored input,
 * where the replay starts. One read of the two where the store has it (`erasureReads`).
 */
async function erasureReads(store: Storage['records'], owner: Owner, sourceIds: readonly string[], first: number | undefined): Promise<{ all: MemoryRecord[]; start: ReplayStart | undefined }> {
  const request = { sourceIds, fromSeq: first };
  if (store.erasureReads) {
    const { records, checkpoint } = await store.erasureReads(owner, request);
    return { all: records, start: first === undefined ? undefined : await startAt(store, owner, checkpoint) };
  }
  const [all, checkpoint] = await Promise.all([store.erasureSet(owner, request), first === undefined ? undefined : store.checkpointBefore(owner, first)]);
  return { all, start: checkpoint === undefined ? undefined : await startAt(store, owner, checkpoint) };
}

/**
 * What a store that never saw the sources would hold: the remaining inputs replayed in order,
 * from the last checkpoint before the source's first input (store/checkpoints.ts) or from the
 * beginning. With nothing of them stored, the store already is that store.
 */
async function regenerate(
  deps: ForgetDeps,
  owner: Owner,
  state: { changed: ReadonlyMap<number, InputRow | null>; prunes: readonly PruneInput[]; touched: readonly MemoryRecord[]; all: readonly MemoryRecord[]; start: ReplayStart | undefined; removed?: readonly InputRow[] },
  sourceIds: ReadonlySet<string>,
): Promise<MemoryRecord[]> {
  const { changed, touched, all } = state;
  if (changed.size === 0 && touched.length === 0) return [...all];
  // No stored input changed, yet records are touched: from the beginning.
  const start = state.start ?? (await replayStart(deps, owner, undefined));
  // A rewrite of an input an erasure on a full disk deleted takes its place again (full-disk-erasure.ts).
  const rewrites = new Map([...changed].flatMap(([seq, input]) => (input === null ? [] : [[seq, { ...input, seq }] as const])));
  const inputs = [...withDeferred(start.inputs, { rewrites, prunes: [] }).flatMap((input) => (changed.has(input.seq!) ? (changed.get(input.seq!) ?? []) : [input])), ...state.prunes];
  // Prunes stay in the replay, at their times: a pruned memory must not come back.
  const kept = inputs.filter((input) => input.kind === 'prune' || (!sourceIds.has(input.source.id) && input.scope !== 'app'));
  const pinned = new Set(all.filter((record) => record.pinned && record.invalidatedAt === undefined).map(pinKey));
  const erasure = state.removed ? { erasure: { removed: state.removed, records: all, touched } } : {};
  return [...(await deps.replay(kept, start.records, { pinned, stored: [...all, ...start.records], vectorsLater: true, ...erasure })).values()];
}
