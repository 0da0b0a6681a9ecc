/**
 * How a hosted model's call is cut into runs (worker/model-runtime.ts runGroups): every text
 * pads to the longest of its run, and each run has a fixed cost, so the runs are the cheapest
 * cut of the texts sorted by length.
 */
import { describe, expect, it } from 'vitest';
import { RUN_BATCH, RUN_OVERHEAD_TOKENS, runGroups } from '../../src/worker/model-runtime';

/** What a cut costs: each run its overhead plus its texts × its longest. */
const costOf = (groups: number[][], lengths: readonly number[]) => groups.reduce((sum, group) => sum + RUN_OVERHEAD_TOKENS + group.length * Math.max(...group.map((i) => lengths[i]!)), 0);

/** The cheapest cost over every cut of the sorted texts into runs of at most RUN_BATCH, by trying them all. */
function cheapest(lengths: readonly number[]): number {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  let best = Number.POSITIVE_INFINITY;
  for (let cuts = 0; cuts < 1 << (order.length - 1); cuts++) {
    const groups: number[][] = [[order[0]!]];
    for (let i = 1; i < order.length; i++) cuts & (1 << (i - 1)) ? groups.push([order[i]!]) : groups.at(-1)!.push(order[i]!);
    if (groups.every((group) => group.length <= RUN_BATCH)) best = Math.min(best, costOf(groups, lengths));
  }
  return best;
}

describe('runGroups', () => {
  it('runs texts of like length in one run', () => {
    expect(runGroups([9, 8, 10, 9, 8])).toEqual([[1, 4, 0, 3, 2]]);
  });

  it('runs a long text apart from short ones when padding them to it costs more than a run', () => {
    // An ingest's texts: short turns and facts, and one long turn.
    const lengths = [8, 14, 11, 17, 9, 8, 9, 10, 120];
    const groups = runGroups(lengths);
    expect(groups.at(-1)).toEqual([8]);
    expect(costOf(groups, lengths)).toBeLessThan(costOf([lengths.map((_, i) => i)], lengths));
  });

  it('keeps every run to RUN_BATCH texts and every text in exactly one run', () => {
    const lengths = Array.from({ length: 100 }, (_, i) => 10 + (i % 3));
    const groups = runGroups(lengths);
    expect(Math.max(...groups.map((group) => group.length))).toBeLessThanOrEqual(RUN_BATCH);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
  });

  it('finds the cheapest cut, checked against every cut of small calls', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 60; trial++) {
      const lengths = Array.from({ length: 1 + Math.floor(random() * 11) }, () => 3 + Math.floor(random() ** 3 * 80));
      expect(costOf(runGroups(lengths), lengths)).toBe(cheapest(lengths));
    }
  });

  it('gives no runs for no texts', () => {
    expect(runGroups([])).toEqual([]);
  });
});
