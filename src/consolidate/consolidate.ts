/**
 * The live consolidation path: embed the candidates in one batch, sweep the storage for what
 * they might affect (the vector layer's neighbours united with the same-topic memories), plan
 * in memory (decider included), then commit the plan in one atomic commit that first checks
 * nothing changed since the sweep. If another
 * instance wrote the same partition in between, the whole decision is made again.
 */
import type { KeyedEmbedder } from '../embed/embedding-cache';
import type { Candidate, MemoryRecord, Operation, Source } from '../schema';
import { partitionOf, type Owner, type Storage, type WriteInput } from '../storage/contract';
import { withLineage } from '../storage/lineage';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { MAX_NEIGHBOURS, planConsolidation, type PlanContext, type PlanTarget } from './plan';
import { planHeld, queuedFacts } from '../review/hold';
import { alreadySaid } from './correction';
import type { StatementReader } from './episodes';
import { SLOT_TOPICS, sharedSlot } from './slot';

export interface ConsolidateDeps {
  storage: Storage;
  /** Called with the target's partition as its cache key: the candidates are that owner's text. */
  embedder: KeyedEmbedder;
  context: Omit<PlanContext, 'now'>;
  clock: () => number;
}

export interface ConsolidateRequest {
  target: PlanTarget;
  candidates: readonly Candidate[];
  /** The source each candidate came from (excerpt filled per candidate). */
  source: Omit<Source, 'excerpt'>;
  /** The input to store with the result (for regeneration), in the same transaction. */
  input?: WriteInput;
  /**
   * The owner's partition version when the caller began this write (before extraction). A
   * revocation of the source after it makes the commit refuse the write. Default: the version
   * the first attempt reads.
   */
  baseVersion?: number;
  /** Embeddings for `candidates`, when the caller already has them. */
  embeddings?: readonly Float32Array[];
  /** The id of the memory the write replaces (`target.replaces`): read with the sweep. */
  replacing?: string;
  /**
   * Only an UPDATE of `replacing` may be written (a correction), or nothing: when that memory (or
   * the version that superseded it) already says the candidate, the write resolves to a NOOP of
   * it (correction.ts); when it is no longer active as the write decides (forgotten or corrected
   * by a write that landed first), to no operation; when the plan is anything but an UPDATE of it (the trust
   * gate refused it, an episode makes a new one), to the plan's operations, and nothing is
   * committed.
   */
  replaceOnly?: boolean;
  /** Hold the write for review (review/hold.ts): decided now, applied by `approve`. */
  review?: boolean;
}

export async function consolidate(deps: ConsolidateDeps, request: ConsolidateRequest): Promise<Operation[]> {
  const { target, candidates } = request;
  const owner: Owner = { userId: target.userId, appName: target.appName };
  const embeddings =
    request.embeddings ??
    (candidates.length
      ? await deps.embedder.embed(
          candidates.map((c) => c.content),
          partitionOf(target),
        )
      : []);
  const items = candidates.map((candidate, i) => ({
    candidate,
    embedding: embeddings[i]!,
    source: { ...request.source, excerpt: candidate.excerpt },
  }));
  // The version this write began from: a revocation of its source after it is a race with
  // forgetSource, and the commit refuses it (retries must not launder it to a newer version).
  let baseVersion = request.baseVersion;
  return writeOwner(
    deps.storage,
    owner,
    (write) => {
      baseVersion ??= write.versions.get(write.partition);
      return decideAndCommit(deps, request, items, owner, write, baseVersion);
    },
    { scope: target.scope },
  );
}

async function decideAndCommit(
  deps: ConsolidateDeps,
  request: ConsolidateRequest,
  items: readonly { candidate: Candidate; embedding: Float32Array; source: Source }[],
  owner: Owner,
  write: OwnerWrite,
  baseVersion: number | undefined,
): Promise<Operation[]> {
  const { records: store, vectors } = deps.storage;
  const { target, candidates } = request;
  const working = new Map<string, MemoryRecord>();
  if (items.length) {
    const neighbourIds = await vectors.neighbours(
      write.partition,
      items.map((item) => item.embedding),
      { threshold: deps.context.candidateThreshold, scope: target.scope, ...(target.scope === 'session' && target.sessionId !== undefined ? { sessionId: target.sessionId } : {}), limit: MAX_NEIGHBOURS },
    );
    const { topics, facts } = sweepKeys(candidates, deps.context.exclusiveTopics);
    const records = await store.workingSet(owner, { ids: [...new Set([...neighbourIds.flat(), ...(request.replacing !== undefined ? [request.replacing] : [])])], topics, facts, scope: target.scope, sourceId: request.source.id });
    for (const record of records) working.set(record.id, record);
  }
  // A correction to what the memory (or the version that superseded it meanwhile) already says
  // writes nothing (checked here, under the lock); one of a memory that is no longer active (a
  // forget or another correction landed first) writes nothing either.
  const replaced = request.replacing === undefined ? undefined : working.get(request.replacing);
  if (request.replaceOnly) {
    const said = await alreadySaid(store, owner, replaced, candidates[0]?.content ?? '', target.metadata);
    if (said) return [said];
    if (replaced === undefined || replaced.invalidatedAt !== undefined) return [];
  }
  const loaded = new Set(working.keys());
  const now = deps.clock();
  const context = { ...deps.context, now, statements: storedStatements(deps.storage, owner) };
  // Under review the queue is read too, so a fact already waiting is not queued twice.
  const plan = request.review ? await planHeld(working, items, target, context, queuedFacts(await store.heldInputs(owner), target)) : await planConsolidation(working, items, target, context);
  // A correction the plan does not make an UPDATE of its memory is refused whole: nothing of it is stored.
  if (request.replaceOnly && !plan.operations.every((operation) => operation.action === 'UPDATE' && operation.targetId === request.replacing)) return plan.operations;
  const held = 'held' in plan ? plan.held : undefined;
  // An UPDATE's new memory inherits the sources of the one it supersedes: by reference, so
  // the write stays O(1) however many sources that memory has gathered (lineage.ts).
  await write.commit(
    withLineage(
      {
        records: plan.changed,
        creates: plan.created,
        // The candidates go with the input: a replay decides over the same ones without extracting again.
        inputs: request.input ? [{ ...request.input, ...(held ? held : { candidates: [...candidates] }) }] : [],
        ...(baseVersion !== undefined ? { inputsBaseVersion: baseVersion } : {}),
      },
      { working: loaded, inherits: plan.supersedes },
    ),
  );
  return plan.operations;
}

/**
 * What the sweep reads besides the similarity neighbours (plan.ts `sweep`): every active memory
 * of an exclusive topic, where a contradiction must be found by topic alone; on any other topic
 * only the same fact (by the store's identical-fact index), since there the decider can only
 * corroborate an identical memory or create. So a write on a big non-exclusive topic reads
 * O(1) memories, not the topic, unless the fact fills a slot (slot.ts: "loves olives", "quit
 * the choir"): then the topics that slot's facts may be on are read, where its earlier value
 * must be found by what it is about alone.
 */
export function sweepKeys(candidates: readonly Candidate[], exclusiveTopics: ReadonlySet<string>): { topics: string[]; facts: { topic: string; content: string }[] } {
  const slotTopics = candidates.flatMap((c) => {
    const slot = sharedSlot(c, exclusiveTopics);
    return slot === undefined ? [] : SLOT_TOPICS[slot.kind];
  });
  const topics = [...new Set([...candidates.filter((c) => exclusiveTopics.has(c.topic)).map((c) => c.topic), ...slotTopics])];
  const facts = candidates.filter((c) => !exclusiveTopics.has(c.topic)).map(({ topic, content }) => ({ topic, content }));
  return { topics, facts };
}

/**
 * The live path's {@link StatementReader}: the episodes a superseded memory names, read from the
 * store by id. Read only when a plan supersedes something, inside the write (its commit checks
 * nothing changed since).
 */
export function storedStatements(storage: Storage, owner: Owner): StatementReader {
  return { recordsOf: (ids) => storage.records.getMany(ids, owner) };
}
