/**
 * The review queue's verbs over storage: list the pending memories, approve one (applied as it
 * was decided), reject one (erased). Each write is one commit against the owner's partition
 * version, under its write lock, like every write: all of it or nothing. The decide step of each
 * is a pure function of what was read (held.ts, and the plan for approve).
 */
import { storedStatements, sweepKeys } from '../consolidate/consolidate';
import { planConsolidation, targetOf, type Plan, type PlanContext } from '../consolidate/plan';
import type { Decider, Decision } from '../consolidate/decider';
import type { KeyedEmbedder } from '../embed/embedding-cache';
import { ConflictError, NotFoundError } from '../errors';
import type { MemoryRecord, Operation } from '../schema';
import { partitionOf, type Owner, type Storage } from '../storage/contract';
import { withLineage } from '../storage/lineage';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { redactInput } from '../forget/take-out';
import { describePending, heldEntries, splitApproved, withoutRejected, type HeldInput, type PendingMemory } from './held';
import { withApprovedLinks } from './turn-links';

export interface ReviewDeps {
  storage: Storage;
  /** Called with the target's partition as its cache key. */
  embedder: KeyedEmbedder;
  context: Omit<PlanContext, 'now'>;
  clock: () => number;
}

/** The owner's pending memories (user and session scope), in the order they were written. */
export async function listPending(storage: Storage, owner: Owner): Promise<PendingMemory[]> {
  return heldEntries(await storage.records.heldInputs(owner)).map(describePending);
}

async function findHeld(storage: Storage, owner: Owner, id: string): Promise<HeldInput> {
  const held = heldEntries(await storage.records.heldInputs(owner)).find((entry) => entry.entry.id === id);
  // A foreign id and a missing one look the same, as for get.
  if (!held) throw new NotFoundError(`no pending memory '${id}' for user '${owner.userId}' in app '${owner.appName}' (memory.pending lists them; an approved or rejected one is no longer pending)`);
  return held;
}

/** A decider that returns what was decided when the write was held: approve applies that decision, through the same gates. */
function decided(held: HeldInput): Decider {
  const reason = `approved in review: the ${held.input.source.type} write of source ${held.input.source.id}`;
  const decision: Decision = held.entry.action === 'UPDATE' ? { action: 'UPDATE', targetId: held.entry.targetId!, reason } : { action: 'CREATE', reason };
  return { decide: () => decision };
}

/**
 * Approves a pending memory: its CREATE or UPDATE is applied now (an UPDATE supersedes its
 * target only now), under the id `pending` listed. The policy's gates apply again, so an
 * exclusive topic that gained a memory meanwhile is replaced, not doubled.
 * @throws NotFoundError when `id` is not pending for the owner; ConflictError when the memory an
 * UPDATE would supersede is no longer active (reject it, or write the fact again).
 */
export function approvePending(deps: ReviewDeps, id: string, owner: Owner): Promise<Operation> {
  return writeOwner(deps.storage, owner, (write) => approveOnce(deps, id, owner, write));
}

async function approveOnce(deps: ReviewDeps, id: string, owner: Owner, write: OwnerWrite): Promise<Operation> {
  const store = deps.storage.records;
  const held = await findHeld(deps.storage, owner, id);
  const { candidate, entry, input } = held;
  const target = targetOf(input);
  const { topics, facts } = sweepKeys([candidate], deps.context.exclusiveTopics);
  const ids = entry.targetId !== undefined ? [entry.targetId] : [];
  const [records, [embedding]] = await Promise.all([store.workingSet(owner, { ids, topics, facts, scope: target.scope, sourceId: input.source.id }), deps.embedder.embed([candidate.content], partitionOf(target))]);
  const working = new Map(records.map((record) => [record.id, record]));
  const replaced = entry.targetId === undefined ? undefined : working.get(entry.targetId);
  if (entry.action === 'UPDATE' && (replaced === undefined || replaced.invalidatedAt !== undefined)) {
    throw new ConflictError(`cannot approve '${id}': the memory it would supersede, '${entry.targetId}', is no longer active (it was replaced or forgotten since); reject it, or write the fact again`);
  }
  const loaded = new Set(working.keys());
  // The write takes effect now: its source is dated now, as the input replay reads it from
  // (splitApproved), so a past state (asOf) before the approval does not hold it.
  const now = deps.clock();
  const source = { ...input.source, excerpt: candidate.excerpt, at: now };
  // The id `pending` listed, unless a record took it meanwhile (a write never replaces a record
  // it did not read): then a new one, which the Operation names.
  const memoryId = (await store.locate(id)) === undefined ? id : deps.context.newId();
  const context = { ...deps.context, decider: decided(held), newId: () => memoryId, now, statements: storedStatements(deps.storage, owner) };
  const plan = await planConsolidation(working, [{ candidate, embedding: embedding!, source }], target, context);
  const written = await withTurnLinks(store, owner, plan, input.source.id, working);
  await write.commit(
    withLineage(
      {
        records: written,
        creates: plan.created,
        inputs: splitApproved(held, now),
        deleteInputs: [input.seq!],
        inputsBaseVersion: write.versions.get(write.partition)!,
      },
      { working: loaded, inherits: plan.supersedes },
    ),
  );
  return plan.operations[0]!;
}

/**
 * The plan's records with its turn links (turn-links.ts `withApprovedLinks`). A linked fact the
 * plan did not change but the sweep read is written in the form it was read in (working form,
 * lineage.ts), any other as `bySource` read it (complete).
 */
async function withTurnLinks(store: Storage['records'], owner: Owner, plan: Plan, sourceId: string, working: ReadonlyMap<string, MemoryRecord>): Promise<MemoryRecord[]> {
  const planned = new Set(plan.changed.map((record) => record.id));
  return withApprovedLinks(plan, sourceId, await store.bySource(owner, sourceId)).map((record) => {
    const read = planned.has(record.id) ? undefined : working.get(record.id);
    return read === undefined ? record : { ...read, episodeId: record.episodeId };
  });
}

/** What one rejection erased: the pending memory's id. */
export interface RejectReport {
  rejected: string;
}

/**
 * Rejects a pending memory: it is erased. Its candidate leaves the stored input and its span is
 * redacted from the input's messages, so no text of it remains and no replay brings it back.
 * @throws NotFoundError when `id` is not pending for the owner.
 */
export function rejectPending(deps: Pick<ReviewDeps, 'storage'>, id: string, owner: Owner): Promise<RejectReport> {
  return writeOwner(deps.storage, owner, (write) => rejectOnce(deps, id, owner, write));
}

async function rejectOnce(deps: Pick<ReviewDeps, 'storage'>, id: string, owner: Owner, write: OwnerWrite): Promise<RejectReport> {
  const held = await findHeld(deps.storage, owner, id);
  // The source's other inputs: a fact of the same sentence approved before this one was rejected
  // lives in an input of its own that quotes the sentence (splitApproved).
  const others = (await deps.storage.records.inputsOf(owner, held.input.source.id)).filter((input) => input.kind !== 'prune' && input.seq !== held.input.seq);
  const { input, spans } = withoutRejected(
    held,
    others.flatMap((other) => (other.kind === 'prune' ? [] : (other.candidates ?? []))),
  );
  const quoting = others.map((other) => ({ seq: other.seq!, input: other.kind === 'prune' ? undefined : redactInput(other, spans) }));
  const rewrites = [...(input ? [input] : []), ...quoting.flatMap(({ seq, input: redacted }) => (redacted ? [{ ...redacted, seq }] : []))];
  const deletes = [...(input ? [] : [held.input.seq!]), ...quoting.filter(({ input: redacted }) => redacted === null).map(({ seq }) => seq)];
  await write.commit({
    records: [],
    ...(rewrites.length ? { rewriteInputs: rewrites } : {}),
    ...(deletes.length ? { deleteInputs: deletes } : {}),
    // A record of the same source quoting the span loses that excerpt, as forget does.
    redactExcerpts: { ...owner, sourceIds: [held.input.source.id], excerpts: [held.candidate.excerpt, ...spans] },
  });
  return { rejected: id };
}
