/**
 * The storage contract suite (src/storage/contract.ts): what every backend must do for the
 * pipeline above it to keep its invariants. A backend's test file calls
 * `describeStorageContract('<name>', makeStore)`; the same bodies run on IndexedDB in
 * test/scenarios/seed.test.ts, test/reliability/isolation-property.test.ts and
 * test/forget/equivalence.test.ts at full size.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index';
import { locatorOf } from '../../src/facade-access';
import { noiseEmbedder } from '../helpers/noise-embedder';
import { SEED_OWNER, ingestSeed } from '../helpers/seed';
import { checkAsOf } from './as-of';
import { checkUndo } from './undo';
import { checkExplainEqualsRetrieve, checkReviewModel, sweepReview } from './review';
import { checkForget } from './forget';
import { checkOfflineForget } from './offline-erasure';
import { checkEquivalence, forgetVersusFresh, SEED_CONVERSATIONS } from './equivalence';
import { sweepSessionThree, sweepVerb } from './fault-sweep';
import { checkControlVerbs, CONTROL_VERBS } from './control';
import { checkControlModel } from './control-model';
import { createStores, type MakeStore } from './harness';
import { checkIsolation } from './isolation';
import { seedScenario } from './seed-scenario';

export type { ContractStore, MakeStore } from './harness';

export interface ContractOptions {
  /** Random callers of the isolation property (5 reads each). Default 400. */
  isolationRuns?: number;
  /** Random histories of the equivalence property. Default 12. */
  equivalenceRuns?: number;
  /** Random histories of the as-of property. Default 4. */
  asOfRuns?: number;
  /** Random runs of the review queue model. Default 8. */
  reviewRuns?: number;
  /** Random runs (30 steps each) of the control-verb model. Default 3. */
  controlRuns?: number;
  /** Per-test timeout in ms, for a store behind a server. Default 60 000. */
  timeout?: number;
}

/**
 * Registers the contract suite for one backend. `makeStore` is called for every store a test
 * needs (a fresh, empty one each time, under a unique name); each is torn down after its test.
 */
export function describeStorageContract(name: string, makeStore: MakeStore, options: ContractOptions = {}): void {
  const { isolationRuns = 400, equivalenceRuns = 12, asOfRuns = 4, reviewRuns = 8, controlRuns = 3, timeout = 60_000 } = options;
  describe(`storage contract: ${name}`, () => {
    const stores = createStores(makeStore);
    afterEach(() => stores.teardown());

    describe('Memory (seed scenario)', () => seedScenario(stores.open));

    describe('every read path (isolation property)', () => {
      it(
        'returns only the caller’s records and its app’s app-scope records, for random callers',
        async () => {
          const { memory } = await stores.open();
          const { reads, foreign } = await checkIsolation(memory, isolationRuns);
          expect(reads).toBe(isolationRuns * 5);
          expect(foreign).toBe(0);
        },
        timeout,
      );

      it(
        'refuses a foreign id on get and history as if it did not exist when another user owns it',
        async () => {
          const { memory, clock } = await stores.open();
          await ingestSeed(memory, clock, 1);
          const [record] = await memory.list(SEED_OWNER);
          await expect(memory.get(record!.id, { ...SEED_OWNER, userId: 'someone-else' })).rejects.toThrow(NotFoundError);
          await expect(memory.history(record!.id, { ...SEED_OWNER, appName: 'another-app' })).rejects.toThrow(NotFoundError);
        },
        timeout,
      );
    });

    describe('RecordStore.locate (the facade-only read by id)', () => {
      it(
        "locates any owner's memory by its id alone, and nothing for an id the database does not hold",
        async () => {
          const { memory, clock } = await stores.open();
          await ingestSeed(memory, clock, 1);
          const [record] = await memory.list(SEED_OWNER);
          const locate = locatorOf(memory)!;
          expect(await locate(record!.id)).toEqual({ id: record!.id, ...SEED_OWNER, scope: record!.scope });
          expect(await locate('mem_not_stored_here')).toBeUndefined();
        },
        timeout,
      );
    });

    describe('Memory.ingest (fault sweep over the commit)', () => {
      it(
        'leaves the store before or after the write, never between, when each write of an UPDATE fails in turn',
        async () => {
          const writes = await sweepSessionThree(stores);
          console.log(`fault sweep (${name}): session 3's commit makes ${writes} writes; each failed in turn; half-applied states: 0`);
          expect(writes).toBeGreaterThanOrEqual(1);
        },
        timeout * 2,
      );
    });

    describe('Memory.forget (the embedder offline)', () => {
      it('erases at once and gives the cut episode its vector on the first retrieve once the embedder answers', () => checkOfflineForget(stores), timeout);
    });

    describe('Memory.remember (identical facts on a non-exclusive topic, workingSet facts)', () => {
      it(
        'corroborates the same fact when only the identical-fact lookup can find it',
        async () => {
          // Vectors that link nothing (fresh noise on every call): the sweep finds the earlier
          // statement only through workingSet's `facts`, since 'general' is not exclusive.
          const { memory } = await stores.open({ embedder: noiseEmbedder(), exclusiveTopics: ['diet'], candidateThreshold: 0.99 });
          const owner = { userId: 'u', appName: 'default' };
          for (let i = 0; i < 12; i++) await memory.remember({ content: `The user owns board game number ${i}.`, topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: `s${i}` } });
          const operation = await memory.remember({ content: '  the user owns BOARD GAME number 7.', topic: 'general' }, { ...owner, source: { type: 'user_explicit', id: 'again' } });
          expect(operation).toMatchObject({ action: 'NOOP', reason: 'identical to an existing memory' });
          expect((await memory.get(operation.memoryId, owner)).sources.map((source) => source.id)).toEqual(['s7', 'again']);
          expect(await memory.list(owner)).toHaveLength(12);
        },
        timeout,
      );
    });

    describe('Memory.list and Memory.retrieve asOf (the stored inputs replayed up to a time)', () => {
      it(
        'equals the state seen at each time, and after an erasure a store that never saw the source, for random histories',
        async () => {
          const { reads, differing } = await checkAsOf(stores.open, asOfRuns);
          console.log(`as-of property (${name}): ${asOfRuns} random histories, ${reads} as-of reads compared, 0 mismatches`);
          expect(differing).toBeGreaterThan(0);
        },
        timeout * 2,
      );

      it(
        'reads the app-scope memories that existed then from the app’s own stored inputs',
        async () => {
          const { memory, clock } = await stores.open();
          const app = { appName: 'default', scope: 'app' as const, source: { type: 'bootstrapped' as const, id: 'kb' } };
          await memory.remember({ content: 'Support answers within a day.', topic: 'support' }, app);
          const before = clock();
          clock.advance(1000);
          await memory.remember({ content: 'Refunds take a week.', topic: 'refunds' }, app);
          const then = await memory.list({ userId: 'u', asOf: before });
          expect(then.map((record) => [record.scope, record.content])).toEqual([['app', 'Support answers within a day.']]);
          expect((await memory.list({ userId: 'u' }))[0]!.id).toBe(then[0]!.id);
        },
        timeout,
      );
    });

    describe('Memory.undo (the last message undone equals never having ingested it)', () => {
      it(
        'leaves the store that never received the last message when every operation of it is undone, for random histories',
        async () => {
          const { runs, undone, operations } = await checkUndo(stores.open, asOfRuns * 2);
          console.log(`undo property (${name}): ${runs} random histories, ${undone} with only CREATE/UPDATE in the last message (${operations} operations undone), 0 mismatches`);
          expect(undone).toBeGreaterThan(0);
        },
        timeout * 2,
      );
    });

    describe("the user's verbs (correct, pin, unpin, why)", () => {
      it(
        'corrects with an UPDATE, keeps a pinned memory through decay and prune, and explains the line',
        async () => {
          await checkControlVerbs(await stores.open());
        },
        timeout,
      );

      it(
        'keeps list, retrieve and export equal to the model and erases every forgotten text, for random runs on two instances',
        async () => {
          const { steps, concurrent, forgotten, corrected, pinned, lineages } = await checkControlModel(stores, controlRuns);
          console.log(
            `control model (${name}): ${controlRuns} random runs, ${steps} steps on two instances (${concurrent} with two commands at once), ${forgotten} forgets (${lineages} of a corrected memory's line), ${corrected} corrections, ${pinned} pins, 0 mismatches`,
          );
          expect(forgotten).toBeGreaterThan(0);
          expect(lineages).toBeGreaterThan(0);
          expect(concurrent).toBeGreaterThan(0);
          expect(corrected).toBeGreaterThan(0);
          expect(pinned).toBeGreaterThan(0);
        },
        timeout * 4,
      );
    });

    describe('Memory.pending, approve and reject (review before saving)', () => {
      it(
        'lists what the model holds pending, never lists or retrieves it, and erases every rejected text, for random interleavings on two instances',
        async () => {
          const { steps, approved, rejected } = await checkReviewModel(stores, reviewRuns);
          console.log(`review model (${name}): ${reviewRuns} random runs, ${steps} steps on two instances, ${approved} approvals and ${rejected} rejections, 0 mismatches`);
          expect(approved).toBeGreaterThan(0);
          expect(rejected).toBeGreaterThan(0);
        },
        timeout * 4,
      );

      it(
        'leaves the store before or after approve and reject, never between, when each write of their commits fails in turn',
        async () => {
          const writes = await sweepReview(stores);
          console.log(`review fault sweep (${name}): approve makes ${writes.approve} writes, reject ${writes.reject}; each failed in turn; half-applied states: 0`);
          expect(writes.approve).toBeGreaterThanOrEqual(1);
          expect(writes.reject).toBeGreaterThanOrEqual(1);
        },
        timeout * 4,
      );
    });

    describe('Memory.explain (its hits are retrieve’s results)', () => {
      it(
        'returns retrieve’s results as its hits, for random stores and queries',
        async () => {
          const { compared, misses } = await checkExplainEqualsRetrieve(stores, asOfRuns * 2);
          console.log(`explain property (${name}): ${asOfRuns * 2} random stores, ${compared} hits equal to retrieve's, ${misses} misses explained`);
          expect(compared).toBeGreaterThan(0);
          expect(misses).toBeGreaterThan(0);
        },
        timeout * 2,
      );
    });

    describe("the user's verbs (fault sweep over each commit)", () => {
      for (const [verb, swept] of Object.entries(CONTROL_VERBS)) {
        it(
          `leaves the store before or after ${verb}, never between, when each of its writes fails in turn`,
          async () => {
            const writes = await sweepVerb(stores, swept);
            console.log(`fault sweep (${name}): ${verb}'s commit makes ${writes} writes; each failed in turn; half-applied states: 0`);
            expect(writes).toBeGreaterThanOrEqual(1);
          },
          timeout * 2,
        );
      }
    });

    describe('Memory.forget (one memory: no claim left, the replay equals the store)', () => {
      it(
        'forgets a random memory of random histories so that no replay brings it back, unrelated memories stay and its sources keep their other facts',
        async () => {
          const { runs, forgotten } = await checkForget(stores.open, equivalenceRuns);
          console.log(`forget property (${name}): ${runs} random histories, ${forgotten} memories forgotten, 0 mismatches`);
          expect(forgotten).toBeGreaterThan(0);
        },
        timeout * 2,
      );
    });

    describe('Memory.forgetSource (equivalence, invariant 6)', () => {
      for (const revoked of ['s1', 's2', 's3']) {
        it(
          `equals a store that never saw ${revoked} when ${revoked} of the seed is revoked`,
          async () => {
            const conversations = SEED_CONVERSATIONS.map((c) => ({ ...c, userId: 'u_ada' }));
            const { after, expected } = await forgetVersusFresh(stores.open, conversations, 'u_ada', revoked, ['u_ada']);
            expect(after).toEqual(expected);
          },
          timeout,
        );
      }

      it(
        'equals a store that never saw s1 and s2 when both of the seed are revoked in one call',
        async () => {
          const conversations = SEED_CONVERSATIONS.map((c) => ({ ...c, userId: 'u_ada' }));
          const { after, expected } = await forgetVersusFresh(stores.open, conversations, 'u_ada', ['s1', 's2'], ['u_ada']);
          expect(after).toEqual(expected);
        },
        timeout,
      );

      it(
        'equals a store that never saw s when s is revoked, for random histories',
        async () => {
          const { runs, changed } = await checkEquivalence(stores.open, equivalenceRuns);
          console.log(`equivalence property (${name}): ${runs} random histories, ${changed} where the erasure changed the active set, 0 mismatches`);
          expect(runs).toBe(equivalenceRuns);
          // Not vacuous: a good share of the revocations change something.
          expect(changed).toBeGreaterThanOrEqual(Math.ceil(equivalenceRuns / 4));
        },
        timeout * 2,
      );
    });
  });
}
