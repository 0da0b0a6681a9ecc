/**
 * Model-based run over every write the API has: random sequences of ingest, remember,
 * summarizeSession, prune, forgetSource (again, too) and time passing (backwards, too), for two
 * users, with an id generator that repeats itself. After every step the invariants hold
 * (DESIGN.md 1, 3, 4, 5, 6, 9, 11, 12), and at the end the store equals a fresh one that replayed
 * the same history without any revoked source.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXCLUSIVE_TOPICS, PermissionError, type Memory, type MemoryRecord, type SourceType } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { createRepeatingIds, createTestMemory, DAY } from '../helpers/memory';
import { dumpDatabases, findInDatabases } from '../helpers/scan';

const USERS = ['u1', 'u2'] as const;
const STATEMENTS = [
  "I'm vegetarian.",
  "I'm a vegan.",
  "I've started eating fish again.",
  // Two facts on one exclusive topic in one sentence: one ingest that updates it twice.
  "I'm pescatarian now, I've started eating fish.",
  'I prefer the window seat.',
  'I want an aisle seat.',
  'Call me Ada.',
  'Call me Bo.',
  'The export keeps failing.',
  'Upload timed out again.',
  'I usually travel with my dog.',
];
const FACTS = [
  { content: 'The user likes jazz.', topic: 'music' },
  { content: 'The user follows a keto diet.', topic: 'diet' },
];
const EXCLUSIVE = new Set([...DEFAULT_EXCLUSIVE_TOPICS, 'session-summary']);

type Step =
  | { kind: 'ingest' | 'summary'; userId: string; sourceType: SourceType; session: number; statements: string[] }
  | { kind: 'remember'; userId: string; sourceType: SourceType; fact: (typeof FACTS)[number] }
  | { kind: 'prune'; userId: string; floor: number }
  | { kind: 'forget'; pick: number }
  | { kind: 'reforget'; pick: number }
  | { kind: 'wait'; days: number };

const sourceType = fc.constantFrom<SourceType>('user_explicit', 'user_implicit', 'tool_output');
const user = fc.constantFrom(...USERS);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('ingest' as const), userId: user, sourceType, session: fc.nat({ max: 1 }), statements: fc.array(fc.constantFrom(...STATEMENTS), { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('summary' as const), userId: user, sourceType, session: fc.nat({ max: 1 }), statements: fc.array(fc.constantFrom(...STATEMENTS), { minLength: 1, maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remember' as const), userId: user, sourceType, fact: fc.constantFrom(...FACTS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const), userId: user, floor: fc.constantFrom(0.1, 0.3, 0.5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reforget' as const), pick: fc.nat() }) },
  // A clock that goes backwards (invariant 11): replay follows the write order, never the times.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: -240, max: 240 }) }) },
);

/** A write as it happened: who, which source, when, and the unique canary its text carried. */
interface Written {
  userId: string;
  sourceId: string;
  at: number;
  canary: string;
  step: Step;
}

async function apply(memory: Memory, written: Written): Promise<void> {
  const { step: s, userId, sourceId, canary } = written;
  const source = { type: (s as { sourceType: SourceType }).sourceType, id: sourceId };
  // The canary is its own sentence: the extractor keeps the matching sentence as excerpt, so
  // the canary lives only in the stored conversation, which erasure must delete.
  if (s.kind === 'ingest') {
    await memory.ingest([{ role: 'user', content: `${s.statements.join(' ')} ${canary}.` }], { userId, sessionId: `c${s.session}`, source });
  } else if (s.kind === 'summary') {
    await memory.summarizeSession([{ role: 'user', content: `${s.statements.join(' ')} ${canary}.` }], { userId, sessionId: `c${s.session}`, source });
  } else if (s.kind === 'remember') {
    await memory.remember(s.fact, { userId, source });
  } else if (s.kind === 'prune') {
    await memory.prune({ userId, floor: s.floor });
  }
}

/**
 * Invariant 9: every record ever seen is still there, still its owner's. A CREATE that
 * overwrote a record (a repeated id) would move it to another owner or lose it.
 */
function checkNoOverwrite(owners: Map<string, string>, all: readonly MemoryRecord[]): void {
  for (const record of all) {
    const seen = owners.get(record.id);
    if (seen === undefined) owners.set(record.id, record.userId);
    else expect(record.userId, `record ${record.id} changed owner`).toBe(seen);
  }
}

/** Invariant 9: no record ever seen has disappeared (erasure keeps tombstones; nothing deletes records). */
async function checkNothingLost(memory: Memory, owners: ReadonlyMap<string, string>): Promise<void> {
  const present = new Set<string>();
  for (const userId of USERS) for (const record of await memory.list({ userId, includeInvalid: true })) present.add(record.id);
  expect([...owners.keys()].filter((id) => !present.has(id))).toEqual([]);
}

async function checkInvariants(memory: Memory, userId: string, owners?: Map<string, string>): Promise<void> {
  const all = await memory.list({ userId, includeInvalid: true });
  if (owners) checkNoOverwrite(owners, all);
  const ids = new Set(all.map((record) => record.id));
  const active = all.filter((record) => record.invalidatedAt === undefined);
  // 4: at most one active memory per (owner, exclusive topic, session).
  const slots = active.filter((record) => EXCLUSIVE.has(record.topic)).map((record) => `${record.scope}/${record.sessionId ?? ''}/${record.topic}`);
  expect(new Set(slots).size).toBe(slots.length);
  // 3: lineage never dangles.
  for (const record of all) if (record.supersededBy !== undefined) expect(ids.has(record.supersededBy)).toBe(true);
  // 1: only the owner's records.
  for (const record of all) expect(record.userId === userId || record.scope === 'app').toBe(true);
  // 5: tombstones are never retrieved; 1: neither is anything foreign.
  for (const hit of await memory.retrieve('diet seat name export music', { userId, k: 50, sessionId: 'c0' })) {
    expect(hit.memory.invalidatedAt).toBeUndefined();
    expect(hit.memory.userId).toBe(userId);
    expect(Number.isFinite(hit.score)).toBe(true);
  }
}

async function replayFresh(history: readonly Written[], revoked: ReadonlySet<string>, end: number): Promise<Record<string, ReturnType<typeof activeFacts>>> {
  const fresh = await createTestMemory();
  try {
    for (const written of history) {
      if (revoked.has(written.sourceId)) continue;
      fresh.clock.set(written.at);
      await apply(fresh.memory, written);
    }
    fresh.clock.set(end);
    const out: Record<string, ReturnType<typeof activeFacts>> = {};
    for (const userId of USERS) out[userId] = activeFacts(await fresh.memory.list({ userId }));
    return out;
  } finally {
    await fresh.memory.close();
  }
}

describe('Memory (model-based run over every write)', () => {
  it('keeps every invariant after each step, and equals a fresh store without the revoked sources at the end', async () => {
    let runs = 0;
    let steps = 0;
    let forgets = 0;
    let reforgets = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 14 }), async (plan) => {
        runs++;
        const test = await createTestMemory({ idGenerator: createRepeatingIds('mem_', [], runs) });
        const history: Written[] = [];
        const revoked = new Set<string>();
        const owners = new Map<string, string>();
        try {
          for (const s of plan) {
            steps++;
            if (s.kind === 'wait') {
              test.clock.advance(s.days * DAY);
              continue;
            }
            if (s.kind === 'reforget') {
              // 12: forgetting a source again reports nothing and writes nothing.
              const done = history.filter((written) => revoked.has(written.sourceId));
              if (done.length === 0) continue;
              const target = done[s.pick % done.length]!;
              const before = await dumpDatabases(test.factory);
              expect(await test.memory.forgetSource(target.sourceId, { userId: target.userId })).toEqual({ erased: [], regenerated: [] });
              expect(await dumpDatabases(test.factory)).toEqual(before);
              reforgets++;
              continue;
            }
            if (s.kind === 'forget') {
              const candidates = history.filter((written) => written.step.kind !== 'prune' && !revoked.has(written.sourceId));
              if (candidates.length === 0) continue;
              const target = candidates[s.pick % candidates.length]!;
              forgets++;
              revoked.add(target.sourceId);
              await test.memory.forgetSource(target.sourceId, { userId: target.userId });
              // 6: nothing of the revoked conversation's text is left anywhere.
              expect(await findInDatabases(test.factory, target.canary)).toEqual([]);
              const traces: MemoryRecord[] = (await test.memory.list({ userId: target.userId, includeInvalid: true })).filter((record) =>
                record.sources.some((source) => source.id === target.sourceId && (source.excerpt !== '' || record.invalidatedAt === undefined)),
              );
              expect(traces).toEqual([]);
            } else {
              const written: Written = { userId: s.userId, sourceId: `src${history.length}`, at: test.clock(), canary: `zqcanary${history.length}x`, step: s };
              history.push(written);
              await apply(test.memory, written);
            }
            for (const userId of USERS) await checkInvariants(test.memory, userId, owners);
            await checkNothingLost(test.memory, owners);
          }
          // 6, generalised: the same history without every revoked source, prunes at their times.
          const expected = await replayFresh(history, revoked, test.clock());
          for (const userId of USERS) expect(activeFacts(await test.memory.list({ userId }))).toEqual(expected[userId]);
        } finally {
          await test.memory.close();
        }
      }),
      { numRuns: 150, seed: 2026 },
    );
    console.log(`model run: ${runs} histories, ${steps} steps (clock backwards too), ${forgets} revocations, ${reforgets} repeated revocations, repeating ids; invariant violations 0`);
  });

  it('keeps every invariant when two instances on one database run random steps at the same time', async () => {
    let pairs = 0;
    let pairRuns = 0;
    let forgets = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(step, step), { minLength: 2, maxLength: 8 }), async (plan) => {
        // Both instances draw from one pool of ids and repeat each other's (invariant 9).
        const pool: string[] = [];
        const first = await createTestMemory({ idGenerator: createRepeatingIds('tab1_', pool, ++pairRuns) });
        const second = await createTestMemory({ indexedDB: first.factory, name: first.name, idGenerator: createRepeatingIds('tab2_', pool, pairRuns + 1000) });
        const owners = new Map<string, string>();
        const history: Written[] = [];
        const revoked = new Set<string>();
        const erasedCanaries: string[] = [];
        const run = async (test: typeof first, s: Step) => {
          if (s.kind === 'wait' || s.kind === 'reforget') return;
          if (s.kind === 'forget') {
            const candidates = history.filter((written) => written.step.kind !== 'prune' && !revoked.has(written.sourceId));
            if (candidates.length === 0) return;
            const target = candidates[s.pick % candidates.length]!;
            revoked.add(target.sourceId);
            forgets++;
            await test.memory.forgetSource(target.sourceId, { userId: target.userId });
            erasedCanaries.push(target.canary);
            return;
          }
          const written: Written = { userId: s.userId, sourceId: `src${history.length}`, at: test.clock(), canary: `zqcanary${history.length}x`, step: s };
          history.push(written);
          await apply(test.memory, written).catch((error: unknown) => {
            // Revoked by the other instance while in flight: refusing it is the specified outcome.
            if (!(error instanceof PermissionError && revoked.has(written.sourceId))) throw error;
            refused++;
          });
        };
        try {
          for (const [a, b] of plan) {
            pairs++;
            const days = (a.kind === 'wait' ? a.days : 0) + (b.kind === 'wait' ? b.days : 0);
            first.clock.advance(days * DAY);
            second.clock.set(first.clock());
            await Promise.all([run(first, a), run(second, b)]);
            for (const userId of USERS) {
              await checkInvariants(first.memory, userId, owners);
              await checkInvariants(second.memory, userId, owners);
            }
            await checkNothingLost(first.memory, owners);
          }
          // What a revoked source said is gone, whichever instance erased it and whatever ran beside it.
          for (const canary of erasedCanaries) expect(await findInDatabases(first.factory, canary)).toEqual([]);
          for (const userId of USERS) {
            expect((await second.memory.list({ userId })).map((record) => record.id)).toEqual((await first.memory.list({ userId })).map((record) => record.id));
          }
        } finally {
          await first.memory.close();
          await second.memory.close();
        }
      }),
      { numRuns: 60, seed: 7 },
    );
    console.log(`two-instance model run: ${pairs} concurrent pairs (clock backwards too, ids repeating across instances), ${forgets} revocations, ${refused} in-flight writes of a revoked source refused, invariant violations 0`);
  });
});
