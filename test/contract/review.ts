/**
 * Review before saving and explain, for any backend (describeStorageContract runs these):
 *
 * - a model of the review queue against two instances on one store, fed random interleavings
 *   of held writes, approvals, rejections and erasures (some run at once), checked after every
 *   step: what `pending` lists equals the model, no pending memory is listed or retrieved, and
 *   no text of a rejected memory is anywhere in the store at the end;
 * - a fault sweep over approve's and reject's commits: after each failed write the store is the
 *   state before (or, for a store that finishes an interrupted commit, after), never between;
 * - explain's hits equal retrieve's results for random stores and queries.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { NotFoundError, ConflictError, type Memory, type Operation, type SourceType } from '../../src/index';
import { historyArbitrary, play } from './equivalence';
import { storedText, type ContractStore, type OpenedMemory } from './harness';
import { createSequentialIds } from '../helpers/memory';
import { sweepVerb } from './fault-sweep';

export interface ReviewStores {
  store(): Promise<ContractStore>;
  on(store: ContractStore, options?: Parameters<typeof import('./harness').openOn>[1]): Promise<OpenedMemory>;
}

const REVIEW = { sources: ['user_implicit', 'tool_output'] as SourceType[] };
const USERS = ['u1', 'u2'] as const;
const TOPICS = ['music', 'diet', 'hobbies'] as const;
const WORDS = ['jazz', 'opera', 'keto', 'vegan', 'chess', 'cello'];

type Command =
  | { kind: 'write'; instance: number; user: number; type: SourceType; source: number; word: number; topic: number }
  | { kind: 'approve' | 'reject'; instance: number; user: number; pick: number }
  | { kind: 'forget'; instance: number; user: number; source: number };

const instance = fc.nat({ max: 1 });
const user = fc.nat({ max: 1 });
const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      instance,
      user,
      type: fc.constantFrom<SourceType>('user_implicit', 'user_implicit', 'tool_output', 'user_explicit'),
      source: fc.nat({ max: 3 }),
      word: fc.nat({ max: WORDS.length - 1 }),
      topic: fc.nat({ max: TOPICS.length - 1 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('approve' as const), instance, user, pick: fc.nat({ max: 5 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reject' as const), instance, user, pick: fc.nat({ max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), instance, user, source: fc.nat({ max: 3 }) }) },
);
/** Steps: one command, or two run at once on the two instances. */
const stepsArbitrary = fc.array(
  fc.oneof(
    commandArbitrary.map((c) => [c]),
    fc.tuple(commandArbitrary, commandArbitrary),
  ),
  { minLength: 4, maxLength: 12 },
);

interface Queued {
  user: string;
  source: string;
  canary: string;
}

/** The model: what should be pending, and every canary a rejection erased. */
class QueueModel {
  readonly pending = new Map<string, Queued>();
  readonly rejected = new Set<string>();
  canaries = 0;
}

/** What one command did, applied to the model once its step has settled. */
type Outcome = { command: Command; result: PromiseSettledResult<unknown>; id?: string; canary?: string };

async function run(memories: readonly Memory[], model: QueueModel, command: Command): Promise<Outcome> {
  const memory = memories[command.instance]!;
  const userId = USERS[command.user]!;
  const owner = { userId, appName: 'default' };
  if (command.kind === 'write') {
    const canary = `zq${model.canaries++}x${WORDS[command.word]}`;
    const fact = { content: `The user likes ${canary}.`, topic: TOPICS[command.topic]! };
    const result = await memory.remember(fact, { userId, source: { type: command.type, id: `s${command.source}` } }).then(
      (value) => ({ status: 'fulfilled' as const, value }),
      (reason: unknown) => ({ status: 'rejected' as const, reason }),
    );
    return { command, result, canary };
  }
  if (command.kind === 'forget') return { command, result: await settle(memory.forgetSource(`s${command.source}`, owner)) };
  const mine = [...model.pending].filter(([, queued]) => queued.user === userId).map(([id]) => id);
  const id = mine.length ? mine[command.pick % mine.length]! : 'mem_not_pending';
  const result = await settle<unknown>(command.kind === 'approve' ? memory.approve(id, owner) : memory.reject(id, owner));
  return { command, result, id };
}

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

/** Applies a settled step to the model; `partners`: the other command of the step, which may have taken an id first. */
function apply(model: QueueModel, outcome: Outcome, partner: Outcome | undefined): void {
  const { command, result } = outcome;
  const userId = USERS[command.user]!;
  if (command.kind === 'write') {
    if (result.status === 'rejected') throw result.reason;
    const operation = result.value as Operation;
    if (operation.pending && operation.action !== 'NOOP') model.pending.set(operation.memoryId, { user: userId, source: `s${command.source}`, canary: outcome.canary! });
    return;
  }
  if (command.kind === 'forget') {
    if (result.status === 'rejected') throw result.reason;
    for (const [id, queued] of model.pending) if (queued.user === userId && queued.source === `s${command.source}`) model.pending.delete(id);
    return;
  }
  const queued = model.pending.get(outcome.id!);
  if (result.status === 'fulfilled') {
    expect(queued, `${command.kind} of ${outcome.id} succeeded, but the model holds it as not pending`).toBeDefined();
    model.pending.delete(outcome.id!);
    if (command.kind === 'reject') model.rejected.add(queued!.canary);
    return;
  }
  const taken = partner !== undefined && (partner.id === outcome.id || partner.command.kind === 'forget');
  if (result.reason instanceof NotFoundError) expect(queued === undefined || taken, `${outcome.id} is pending, yet ${command.kind} found nothing`).toBe(true);
  else if (!(command.kind === 'approve' && result.reason instanceof ConflictError)) throw result.reason;
  if (result.reason instanceof NotFoundError && queued && taken && partner!.command.kind === 'forget') model.pending.delete(outcome.id!);
}

/**
 * A write and an erasure of its source run at once may land in either order, and only the
 * store knows which: the write's pending memory is kept exactly when the store kept it.
 */
async function settleRace(memory: Memory, model: QueueModel, outcomes: readonly Outcome[]): Promise<void> {
  const [a, b] = outcomes;
  if (!a || !b) return;
  const write = [a, b].find((outcome) => outcome.command.kind === 'write');
  const forget = [a, b].find((outcome) => outcome.command.kind === 'forget');
  if (!write || !forget || write.command.user !== forget.command.user) return;
  if (write.command.kind !== 'write' || forget.command.kind !== 'forget' || write.command.source !== forget.command.source) return;
  const operation = (write.result as PromiseFulfilledResult<Operation>).value;
  if (!operation.pending || operation.action === 'NOOP') return;
  const userId = USERS[write.command.user]!;
  const kept = (await memory.pending({ userId, appName: 'default' })).some((entry) => entry.id === operation.memoryId);
  if (kept) model.pending.set(operation.memoryId, { user: userId, source: `s${write.command.source}`, canary: write.canary! });
  else model.pending.delete(operation.memoryId);
}

async function checkAgainst(memories: readonly Memory[], model: QueueModel): Promise<void> {
  for (const userId of USERS) {
    const owner = { userId, appName: 'default' };
    const expected = [...model.pending]
      .filter(([, queued]) => queued.user === userId)
      .map(([id]) => id)
      .sort();
    for (const memory of memories) {
      expect((await memory.pending(owner)).map((entry) => entry.id).sort()).toEqual(expected);
      const visible = [...(await memory.list(owner)), ...(await memory.retrieve('The user likes', { ...owner, k: 50 })).map((hit) => hit.memory)];
      expect(visible.filter((record) => model.pending.has(record.id))).toEqual([]);
    }
  }
}

/** The queue model over `runs` random step lists; resolves to how many approvals and rejections succeeded. */
export async function checkReviewModel(stores: ReviewStores, runs: number): Promise<{ steps: number; approved: number; rejected: number }> {
  let steps = 0;
  let approved = 0;
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(stepsArbitrary, async (plan) => {
      const store = await stores.store();
      // Ids of their own, as 128 random bits would be: a pending id equal to another instance's record is approve's case (a new id), not the queue's.
      const opened = [await stores.on(store, { review: REVIEW, idGenerator: createSequentialIds('a_') }), await stores.on(store, { review: REVIEW, idGenerator: createSequentialIds('b_') })];
      const memories = opened.map((entry) => entry.memory);
      const model = new QueueModel();
      let at = opened[0]!.clock();
      for (const step of plan) {
        at += 60_000;
        for (const entry of opened) entry.clock.set(at);
        // Each command sees the model as it was when its step began.
        const outcomes = await Promise.all(step.map((command) => run(memories, model, command)));
        outcomes.forEach((outcome, i) => apply(model, outcome, outcomes[1 - i]));
        await settleRace(memories[0]!, model, outcomes);
        for (const outcome of outcomes) {
          if (outcome.result.status !== 'fulfilled') continue;
          if (outcome.command.kind === 'approve') approved++;
          if (outcome.command.kind === 'reject') rejected++;
        }
        await checkAgainst(memories, model);
        steps++;
      }
      const held = await storedText(store);
      for (const canary of model.rejected) expect(held.includes(canary), `rejected '${canary}' is still in the store`).toBe(false);
    }),
    { numRuns: runs, seed: 24 },
  );
  return { steps, approved, rejected };
}

/** A held UPDATE and a held CREATE on a store; resolves to the pending ids. */
async function holdTwo(memory: Memory): Promise<{ update: string; create: string }> {
  const owner = { userId: 'u1', appName: 'default' };
  await memory.remember({ content: 'The user is vegetarian.', topic: 'diet' }, { ...owner, source: { type: 'user_implicit', id: 'a' } });
  await memory.approve((await memory.pending(owner))[0]!.id, owner);
  const update = await memory.remember({ content: 'The user eats fish.', topic: 'diet' }, { ...owner, source: { type: 'user_implicit', id: 'b' } });
  const create = await memory.remember({ content: 'The user likes zqfaultcanary.', topic: 'music' }, { ...owner, source: { type: 'user_implicit', id: 'c' } });
  expect([update.action, create.action]).toEqual(['UPDATE', 'CREATE']);
  return { update: update.memoryId, create: create.memoryId };
}

/** The owner's state through the public reads. */
async function view(memory: Memory) {
  const owner = { userId: 'u1', appName: 'default' };
  return { pending: await memory.pending(owner), exported: (({ exportedAt: _at, ...rest }) => rest)(await memory.export(owner)) };
}

/**
 * The fault sweep over approve (of an UPDATE: a tombstone, a new memory, two inputs, one deleted)
 * and reject (an input rewritten); resolves to how many writes each commit makes.
 */
export async function sweepReview(stores: ReviewStores): Promise<{ approve: number; reject: number }> {
  const owner = { userId: 'u1', appName: 'default' };
  const sweep = (act: (memory: Memory, ids: { update: string; create: string }) => Promise<unknown>) =>
    sweepVerb(stores, { prepare: ({ memory }) => holdTwo(memory), act: ({ memory }, ids) => act(memory, ids), view, open: { review: REVIEW } });
  return {
    approve: await sweep((memory, ids) => memory.approve(ids.update, owner)),
    reject: await sweep((memory, ids) => memory.reject(ids.create, owner)),
  };
}

/** explain's hits equal retrieve's results, for random stores (some writes held) and queries; resolves to how many hits were compared. */
export async function checkExplainEqualsRetrieve(stores: ReviewStores, runs: number): Promise<{ compared: number; misses: number }> {
  let compared = 0;
  let misses = 0;
  const query = fc.record({
    text: fc.constantFrom('diet', 'seat', 'what does the user eat?', 'Ada', 'export failing', 'jazz music', 'dog'),
    k: fc.nat({ max: 6 }),
    session: fc.option(fc.nat({ max: 2 }), { nil: undefined }),
    userId: fc.constantFrom('u1', 'u2'),
  });
  await fc.assert(
    fc.asyncProperty(historyArbitrary, fc.array(query, { minLength: 1, maxLength: 4 }), async (conversations, queries) => {
      const { memory, clock } = await stores.on(await stores.store(), { review: { sources: ['tool_output'] } });
      await play(memory, clock.set, conversations);
      for (const q of queries) {
        const options = { userId: q.userId, k: q.k, ...(q.session !== undefined ? { sessionId: `c${q.session}` } : {}) };
        const [retrieved, explained] = [await memory.retrieve(q.text, options), await memory.explain(q.text, options)];
        expect(explained.hits).toEqual(retrieved);
        expect(explained.misses.length).toBeLessThanOrEqual(10);
        const hitIds = new Set(retrieved.map((hit) => hit.memory.id));
        expect(explained.misses.filter((miss) => hitIds.has(miss.memory.id))).toEqual([]);
        compared += retrieved.length;
        misses += explained.misses.length;
      }
    }),
    { numRuns: runs, seed: 7 },
  );
  return { compared, misses };
}
