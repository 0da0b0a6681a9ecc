import { afterEach, describe, expect, it } from 'vitest';
import { IDBKeyRange } from 'fake-indexeddb';
import { createPolicyDecider, createRuleExtractor, DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, type ChatMessage, type Decider, type Extractor } from '../../src/index';
import { CHECKPOINT_EVERY } from '../../src/store/checkpoints';
import { EngramDatabase } from '../../src/store/database';
import { longUserConversations } from '../../scripts/bench-long';
import { activeFacts } from '../helpers/facts';
import { createTestMemory, T0, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';
import type { MemoryRecord } from '../../src/schema';

const owner = { userId: 'u_long', appName: 'default' };
const HOUR = 3_600_000;

/** The rule extractor, counting its calls: one per replayed (or ingested) conversation. */
function countingExtractor(): Extractor & { calls: number } {
  const rules = createRuleExtractor();
  const counting = {
    calls: 0,
    extract: (...args: Parameters<Extractor['extract']>) => (counting.calls++, rules.extract(...args)),
  };
  return counting;
}

/** The default policy, counting its calls: one per replayed (or ingested) candidate. */
function countingDecider(): Decider & { calls: number } {
  const policy = createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: new Set(DEFAULT_EXCLUSIVE_TOPICS) });
  const counting = {
    calls: 0,
    decide: (...args: Parameters<Decider['decide']>) => (counting.calls++, policy.decide(...args)),
  };
  return counting;
}

let tests: TestMemory[] = [];
afterEach(async () => {
  await Promise.all(tests.map((test) => test.memory.close()));
  tests = [];
});

/** Conversation i, with a canary of its own so its erasure can be checked. */
const conversations = longUserConversations(260).map((messages, i): ChatMessage[] => [...messages, { role: 'user', content: `zqcp${i}x.` }]);

async function play(test: TestMemory, indexes: readonly number[]) {
  for (const i of indexes) {
    test.clock.set(T0 + i * HOUR);
    await test.memory.ingest(conversations[i]!, { ...owner, sessionId: `s${i % 3}`, source: { type: 'user_explicit', id: `c${i}` } });
  }
}

/** Active memories with their sources in stored order (activeFacts sorts them): the order a store that never saw a source keeps. */
const ordered = (records: readonly MemoryRecord[]) =>
  records
    .filter((record) => record.invalidatedAt === undefined)
    .map((record) => `${record.topic}: ${record.content} (${record.confidence}) <- ${record.sources.map((source) => source.id).join(',')}`)
    .sort();

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('Memory.forgetSource (checkpointed regeneration)', () => {
  it('replays only from the last checkpoint before a recent source, and still equals a store that never saw it', async () => {
    const [extractor, decider] = [countingExtractor(), countingDecider()];
    const test = await createTestMemory({ extractor, decider });
    tests.push(test);
    await play(test, range(0, 200));
    const perConversation = decider.calls / 200;
    [extractor.calls, decider.calls] = [0, 0];
    await test.memory.forgetSource('c195', owner);
    // At most a checkpoint interval of conversations is replayed, not the 199 that remain,
    // and from the candidates stored with each input: nothing is extracted again.
    expect(decider.calls).toBeLessThanOrEqual((CHECKPOINT_EVERY + 5) * perConversation * 1.5);
    expect(decider.calls).toBeGreaterThan(0);
    expect(extractor.calls).toBe(0);

    const fresh = await createTestMemory();
    tests.push(fresh);
    await play(
      fresh,
      range(0, 200).filter((i) => i !== 195),
    );
    expect(activeFacts(await test.memory.list(owner))).toEqual(activeFacts(await fresh.memory.list(owner)));
  }, 120_000);

  it('extracts again and still equals a store that never saw it when the stored inputs carry no candidates', async () => {
    const extractor = countingExtractor();
    const test = await createTestMemory({ extractor });
    tests.push(test);
    await play(test, range(0, 80));
    // Inputs as a version that did not keep candidates wrote them.
    const raw = new EngramDatabase(test.name, { indexedDB: test.factory, IDBKeyRange });
    await raw.inputs.toCollection().modify((input) => void delete (input as { candidates?: unknown }).candidates);
    raw.close();
    extractor.calls = 0;
    await test.memory.forgetSource('c70', owner);
    expect(extractor.calls).toBeGreaterThan(0);

    const fresh = await createTestMemory();
    tests.push(fresh);
    await play(
      fresh,
      range(0, 80).filter((i) => i !== 70),
    );
    expect(activeFacts(await test.memory.list(owner))).toEqual(activeFacts(await fresh.memory.list(owner)));
  }, 120_000);

  it('equals a store that never saw any of them when a recent, an old, and then a source written after both forgets are revoked', async () => {
    const test = await createTestMemory();
    tests.push(test);
    await play(test, range(0, 200));
    await test.memory.forgetSource('c190', owner);
    await test.memory.forgetSource('c20', owner);
    // Checkpoints written after the erasures are of the state without c190 and c20.
    await play(test, range(200, 260));
    await test.memory.forgetSource('c250', owner);
    for (const gone of [190, 20, 250]) expect(await findInDatabases(test.factory, `zqcp${gone}x`)).toEqual([]);

    const fresh = await createTestMemory();
    tests.push(fresh);
    await play(
      fresh,
      range(0, 260).filter((i) => i !== 190 && i !== 20 && i !== 250),
    );
    expect(activeFacts(await test.memory.list(owner))).toEqual(activeFacts(await fresh.memory.list(owner)));
  }, 180_000);

  it('rebuilds a memory of many sources without writing them again, in the order a store that never saw the source keeps them', async () => {
    let db: EngramDatabase | undefined;
    const test = await createTestMemory({ onDatabase: (handle) => void (db = handle as EngramDatabase) });
    tests.push(test);
    await play(test, range(0, 120));
    const before = await db!.lineage.count();
    const widest = Math.max(...(await test.memory.list(owner)).map((record) => record.sources.length));
    await test.memory.forgetSource('c60', owner);
    // The rebuilt memories join the chains of the ones they replace: a few new rows, not their 30+ sources again.
    expect(widest).toBeGreaterThan(30);
    expect((await db!.lineage.count()) - before).toBeLessThan(10);
    const fresh = await createTestMemory();
    tests.push(fresh);
    await play(
      fresh,
      range(0, 120).filter((i) => i !== 60),
    );
    expect(ordered(await test.memory.list(owner))).toEqual(ordered(await fresh.memory.list(owner)));
  }, 120_000);

  it('equals a store that never saw them after erasures before and after later writes, over memories that joined rebuilt chains', async () => {
    const test = await createTestMemory();
    tests.push(test);
    await play(test, range(0, 120));
    await test.memory.forgetSource('c60', owner);
    await play(test, range(120, 200));
    for (const source of ['c150', 'c100', 'c5']) await test.memory.forgetSource(source, owner);
    const fresh = await createTestMemory();
    tests.push(fresh);
    await play(
      fresh,
      range(0, 200).filter((i) => ![5, 60, 100, 150].includes(i)),
    );
    expect(ordered(await test.memory.list(owner))).toEqual(ordered(await fresh.memory.list(owner)));
    expect(await test.memory.forgetSource('c60', owner)).toEqual({ erased: [], regenerated: [] });
    expect(ordered(await test.memory.list(owner))).toEqual(ordered(await fresh.memory.list(owner)));
  }, 120_000);
});
