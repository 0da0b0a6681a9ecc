/**
 * Consolidation against a reference model of the seed's rules (DESIGN.md invariants 3, 6, 10):
 * random histories of two users whose messages hold one to three statements, often several on
 * one exclusive topic (one ingest updates a topic twice: a record created and superseded in the
 * same commit), from sources of every trust, with revocations. After every step the store's
 * active memories (content, topic, source ids, confidence) equal the model's over the history
 * without the revoked sources, and at the end they equal a fresh store's that never saw them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, type Memory, type MemoryRecord, type SourceType } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { createTestMemory } from '../helpers/memory';
import { SOURCES, STATEMENTS, TABLE, sentencesOf, tableExtractor } from '../helpers/table-extractor';

const USERS = ['u1', 'u2'] as const;
const EXCLUSIVE = new Set(DEFAULT_EXCLUSIVE_TOPICS);

type Step = { kind: 'ingest'; userId: string; source: number; statements: string[] } | { kind: 'forget'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('ingest' as const),
      userId: fc.constantFrom(...USERS),
      source: fc.nat({ max: SOURCES.length - 1 }),
      // Weighted towards the exclusive topics: two or three diet statements in one message is the case under test.
      statements: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...STATEMENTS.slice(0, 4)) }, { weight: 2, arbitrary: fc.constantFrom(...STATEMENTS) }), { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }) },
);

interface ModelMemory {
  content: string;
  topic: string;
  confidence: number;
  sources: { id: string; type: SourceType }[];
}

const round = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 1e9) / 1e9;
const key = (content: string) => content.trim().toLowerCase();

/**
 * The seed's rules, written out plainly: identical text corroborates (+0.05, the source once);
 * on an exclusive topic a source at least as trusted as the strongest behind the holder
 * replaces it and inherits every source, a weaker one changes nothing; anything else is new.
 * Within one message a claim said twice counts once.
 */
function modelOf(messages: readonly { userId: string; source: { id: string; type: SourceType }; statements: readonly string[] }[]): Record<string, ReturnType<typeof activeFacts>> {
  const active = new Map<string, ModelMemory[]>(USERS.map((user) => [user, []]));
  for (const { userId, source, statements } of messages) {
    const memories = active.get(userId)!;
    const seen = new Set<string>();
    for (const statement of sentencesOf(statements.join(' '))) {
      const fact = TABLE[statement];
      if (!fact || seen.has(`${fact.topic}|${key(fact.content)}`)) continue;
      seen.add(`${fact.topic}|${key(fact.content)}`);
      const trust = DEFAULT_TRUST[source.type];
      const identical = memories.find((memory) => key(memory.content) === key(fact.content));
      if (identical) {
        if (!identical.sources.some((known) => known.id === source.id)) {
          identical.confidence = round(identical.confidence + 0.05);
          identical.sources.push(source);
        }
        continue;
      }
      const holder = EXCLUSIVE.has(fact.topic) ? memories.find((memory) => memory.topic === fact.topic) : undefined;
      const created: ModelMemory = { content: fact.content, topic: fact.topic, confidence: round(Math.min(fact.confidence, trust)), sources: [source] };
      if (holder) {
        if (trust < Math.max(...holder.sources.map((known) => DEFAULT_TRUST[known.type]))) continue;
        created.sources = [...holder.sources, ...(holder.sources.some((known) => known.id === source.id) ? [] : [source])];
        memories.splice(memories.indexOf(holder), 1);
      }
      memories.push(created);
    }
  }
  const out: Record<string, ReturnType<typeof activeFacts>> = {};
  for (const [user, memories] of active) {
    out[user] = activeFacts(memories.map((memory) => ({ ...memory, scope: 'user', sources: memory.sources.map((s) => ({ ...s, excerpt: '', at: 0 })) }) as unknown as MemoryRecord));
  }
  return out;
}

interface Written {
  userId: string;
  source: { id: string; type: SourceType };
  statements: string[];
}

async function ingest(memory: Memory, written: Written, n: number): Promise<string[]> {
  const operations = await memory.ingest([{ role: 'user', content: `${written.statements.join(' ')} zqcanary${n}x` }], {
    userId: written.userId,
    sessionId: `c${n}`,
    source: written.source,
  });
  return operations.map((operation) => operation.action);
}

async function activeOf(memory: Memory): Promise<Record<string, ReturnType<typeof activeFacts>>> {
  const out: Record<string, ReturnType<typeof activeFacts>> = {};
  for (const userId of USERS) out[userId] = activeFacts(await memory.list({ userId }));
  return out;
}

describe('Memory (against a reference model of the seed rules, multi-statement messages)', () => {
  it('holds what the model holds after every step, and equals a fresh store without the revoked sources', async () => {
    const counts = { histories: 0, steps: 0, ingests: 0, doubleUpdates: 0, forgets: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 12 }), async (plan) => {
        counts.histories++;
        const test = await createTestMemory({ extractor: tableExtractor });
        const history: Written[] = [];
        const revoked = new Set<string>();
        const live = () => history.filter((written) => !revoked.has(`${written.userId}|${written.source.id}`));
        try {
          for (const s of plan) {
            counts.steps++;
            if (s.kind === 'forget') {
              const candidates = live();
              if (candidates.length === 0) continue;
              const target = candidates[s.pick % candidates.length]!;
              revoked.add(`${target.userId}|${target.source.id}`);
              await test.memory.forgetSource(target.source.id, { userId: target.userId });
              counts.forgets++;
            } else {
              const written: Written = { userId: s.userId, source: SOURCES[s.source]!, statements: s.statements };
              // A revoked source cannot write again (the store refuses it): such a step is skipped.
              if (revoked.has(`${written.userId}|${written.source.id}`)) continue;
              history.push(written);
              const actions = await ingest(test.memory, written, history.length);
              counts.ingests++;
              if (actions.filter((action) => action === 'UPDATE').length >= 2) counts.doubleUpdates++;
            }
            expect(await activeOf(test.memory)).toEqual(modelOf(live()));
          }
          // 6: the same history without the revoked sources, in a store that never saw them.
          const fresh = await createTestMemory({ extractor: tableExtractor });
          try {
            for (const [n, written] of live().entries()) await ingest(fresh.memory, written, n);
            expect(await activeOf(test.memory)).toEqual(await activeOf(fresh.memory));
          } finally {
            await fresh.memory.close();
          }
        } finally {
          await test.memory.close();
        }
      }),
      { numRuns: 200, seed: 2127 },
    );
    console.log(`reference model: ${counts.histories} histories, ${counts.steps} steps, ${counts.ingests} ingests (${counts.doubleUpdates} with two or more UPDATEs in one commit), ${counts.forgets} revocations; mismatches 0`);
    expect(counts.doubleUpdates).toBeGreaterThan(50);
    expect(counts.forgets).toBeGreaterThan(50);
  });
});
