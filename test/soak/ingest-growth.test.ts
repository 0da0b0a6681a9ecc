/**
 * One ingest of N messages in time linear in N (issue 41, item 13): the plan swept its whole
 * working set for every candidate, so 1k messages took 2.0 s and 10k 232 s. A chat's turns,
 * nine in ten personal (an episode each) and one in ten stating a fact of its own, ingested in one
 * call on a fresh memory at n and 4n messages: the CPU time grew 5.3 to 6.9-fold in three runs on
 * a loaded machine (the part above 4 is each fact's scan of every memory, perf.md), under the bar
 * of 8. Before, single runs read 8.4 (1.9 s, then 15.8 s), and this test ran past 600 s.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/index';
import { expectLinearGrowth } from '../helpers/growth';
import { createTestMemory } from '../helpers/memory';

const PLACES = ['Lisbon', 'the lake', 'my parents', 'the market', 'Kyoto', 'the gym', 'my office', 'the coast'];
const PASTIMES = ['pottery', 'chess', 'the violin', 'sourdough', 'climbing', 'Spanish', 'watercolours', 'running'];

function conversation(n: number): ChatMessage[] {
  return Array.from({ length: n }, (_, i) => ({
    role: 'user' as const,
    content: i % 10 === 9 ? `I love my dog number ${i}.` : `On day ${i} I went to ${PLACES[i % 8]} and practised ${PASTIMES[(i >> 3) % 8]} with my friend number ${i % 37}.`,
  }));
}

describe('ingest', () => {
  it('costs time linear in the messages of one call', async () => {
    const ingest = async (n: number) => {
      const { memory } = await createTestMemory({ episodes: true });
      const operations = await memory.ingest(conversation(n), { userId: 'u', sessionId: 's', source: { type: 'user_explicit', id: 'chat' } });
      await memory.close();
      return operations;
    };
    // Every turn an episode, every tenth a fact besides: nothing is merged away to make it cheap.
    expect((await ingest(100)).map((op) => op.action)).toEqual(Array(110).fill('CREATE'));
    const { ratios } = await expectLinearGrowth([{ label: 'ingest', run: ingest }], 1_000);
    console.log(`ingest of 4,000 messages over 1,000: ${ratios['ingest']!.toFixed(2)}× the CPU time`);
  });
});
