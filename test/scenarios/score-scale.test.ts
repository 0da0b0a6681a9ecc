/**
 * One query's relevance is on one scale across every partition it reads (user, session, app):
 * BM25's statistics are those of all of them together, so which partition a memory sits in does
 * not change its score, and a query that is a memory's exact text finds that memory first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/index';
import { createTestMemory, type TestMemory } from '../helpers/memory';

const APP_SOURCE = { type: 'bootstrapped', id: 'policy' } as const;
const USER_SOURCE = { type: 'user_explicit', id: 'chat' } as const;
const REFUNDS = ['shoes', 'electronics', 'books'].map((item, i) => `Refund window for ${item} is ${(i + 1) * 15} days.`);
const USER_FACTS = [
  'The user bought electronics in March.',
  'The user lives in Lisbon.',
  'The user has two cats.',
  'The user plays the cello.',
  'The user works as a nurse.',
  'The user runs on Sundays.',
  'The user reads science fiction.',
  'The user drinks green tea.',
  'The user is learning Japanese.',
  'The user grows tomatoes.',
];

let tests: TestMemory[] = [];
afterEach(async () => {
  for (const test of tests) await test.memory.close();
  tests = [];
});

async function open(): Promise<TestMemory> {
  const test = await createTestMemory();
  tests.push(test);
  return test;
}

async function write(test: TestMemory, content: string, scope: Scope, topic = 'general'): Promise<void> {
  await test.memory.remember({ content, topic }, scope === 'app' ? { scope, source: APP_SOURCE } : { userId: 'u1', scope, source: USER_SOURCE });
}

describe('Memory.retrieve (one relevance scale across partitions)', () => {
  it('returns the app entry first when the query is its exact text and the user holds many memories', async () => {
    const test = await open();
    for (const entry of REFUNDS) await write(test, entry, 'app', 'policy');
    for (const fact of USER_FACTS) await write(test, fact, 'user');
    const hits = await test.memory.retrieve(REFUNDS[1]!, { userId: 'u1', k: 3 });
    expect(hits[0]!.memory.content).toBe(REFUNDS[1]);
    expect(hits[0]!.relevance).toBeGreaterThan(hits[1]!.relevance);
  });

  it('gives every memory the same relevance whether the probe sits in the user or the app partition', async () => {
    const probe = REFUNDS[1]!;
    const relevance = async (probeScope: Scope) => {
      const test = await open();
      // The same other memories either way: only the probe moves, and with it each partition's statistics.
      for (const entry of REFUNDS.filter((entry) => entry !== probe)) await write(test, entry, 'app', 'policy');
      for (const fact of USER_FACTS) await write(test, fact, 'user');
      await write(test, probe, probeScope, 'policy');
      const hits = await test.memory.retrieve('How long is the refund window for electronics?', { userId: 'u1', k: 20 });
      return Object.fromEntries(hits.map((hit) => [hit.memory.content, hit.relevance]));
    };
    const inApp = await relevance('app');
    const inUser = await relevance('user');
    expect(Object.keys(inApp).sort()).toEqual(Object.keys(inUser).sort());
    for (const content of Object.keys(inApp)) expect(inUser[content], content).toBeCloseTo(inApp[content]!, 6);
  });
});
