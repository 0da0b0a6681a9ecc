/**
 * Invariant 14 through the public API: the ordinary corpus keeps every memory, the hostile one
 * gives each message its exact outcome with nothing at app scope and nothing for anyone else.
 * One database per corpus, one owner per message: each owner's memories are exactly its own
 * message's, whatever the other owners' messages wrote (RELIABILITY 18).
 */
import { describe, expect } from 'vitest';
import { it } from '../helpers/memory-fixture';
import type { Memory, MemoryRecord } from '../../src/index';
import { HOSTILE, OTHER_OWNERS } from './corpus/hostile';
import { ORDINARY, type CorpusCase } from './corpus/ordinary';
import { ORDINARY_MORE } from './corpus/ordinary-more';

interface Outcome {
  entry: CorpusCase;
  owner: string;
  records: MemoryRecord[];
}

/** Ingests each message for its own owner and reads back what that owner has (tombstones too). */
async function ingestEach(memory: Memory, corpus: readonly CorpusCase[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const [i, entry] of corpus.entries()) {
    const owner = `caller-${i}`;
    await memory.ingest([{ role: 'user', content: entry.message }], { userId: owner, sessionId: `c${i}`, source: { type: 'user_explicit', id: `s${i}` } });
    outcomes.push({ entry, owner, records: await memory.list({ userId: owner, includeInvalid: true }) });
  }
  return outcomes;
}

/** The contents a message must leave: its corpus facts, plus what the speech reader also finds in it (ordinary-more.ts). */
function expectedOf(entry: CorpusCase): string[] {
  return [...entry.expected, ...(ORDINARY_MORE[entry.message] ?? [])].sort();
}

/** The cases whose memories differ from the expected contents, as readable lines. */
function mismatches(outcomes: readonly Outcome[]): string[] {
  return outcomes
    .filter(({ entry, records }) => JSON.stringify(records.map((record) => record.content).sort()) !== JSON.stringify(expectedOf(entry)))
    .map(({ entry, records }) => `[${entry.register}] ${JSON.stringify(entry.message)} → ${JSON.stringify(records.map((record) => record.content))}`);
}

describe('Memory.ingest (extraction corpora, invariant 14)', () => {
  it(`keeps the exact expected memories of all ${ORDINARY.length} ordinary first-person messages when they go through ingest`, async ({ open }) => {
    const registers = new Set(ORDINARY.map((entry) => entry.register));
    expect(ORDINARY.length).toBeGreaterThanOrEqual(100);
    expect(ORDINARY.every((entry) => entry.expected.length > 0)).toBe(true);
    const test = await open();
    const outcomes = await ingestEach(test.memory, ORDINARY);
    const failed = mismatches(outcomes);
    console.log(`ordinary corpus: ${ORDINARY.length - failed.length}/${ORDINARY.length} kept exactly, over ${registers.size} registers`);
    expect(failed).toEqual([]);
    for (const { entry, owner, records } of outcomes) {
      for (const record of records) {
        expect([record.userId, record.scope, record.invalidatedAt], entry.message).toEqual([owner, 'user', undefined]);
        // The excerpt is the user's sentence as typed (curly apostrophes, combining marks), cut with "…" only when long.
        for (const source of record.sources) expect(entry.message, entry.message).toContain(source.excerpt.replace(/…$/, ''));
      }
    }
  });

  it(`gives each of the ${HOSTILE.length} hostile messages its exact outcome, with 0 app-scope and 0 foreign-owner memories`, async ({ open }) => {
    const test = await open();
    const outcomes = await ingestEach(test.memory, HOSTILE);
    const failed = mismatches(outcomes);
    const mine = outcomes.flatMap((outcome) => outcome.records.map((record) => ({ ...outcome, record })));
    const foreign = mine.filter(({ owner, record }) => record.userId !== owner).length;
    const others = (await Promise.all(OTHER_OWNERS.map((userId) => test.memory.list({ userId, includeInvalid: true })))).flat();
    const surfaced = (await Promise.all(OTHER_OWNERS.map((userId) => test.memory.retrieve('vegan window seat name export diet', { userId, sessionId: 'c1', k: 50 })))).flat();
    const appScope = [...mine.map(({ record }) => record), ...others].filter((record) => record.scope === 'app').length;
    console.log(`hostile corpus: ${HOSTILE.length - failed.length}/${HOSTILE.length} exact; ${mine.length} memories, all the caller's own; ${appScope} app-scope, ${foreign + others.length + surfaced.length} foreign`);
    expect(failed).toEqual([]);
    expect(appScope).toBe(0);
    expect(foreign).toBe(0);
    expect(others).toEqual([]);
    expect(surfaced).toEqual([]);
    for (const { entry, record } of mine) expect(record.content, entry.message).not.toMatch(/Bob|Sam|José|admin|system|instruction/i);
  });
});
