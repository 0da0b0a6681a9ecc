/**
 * Linear time without a wall-time bound: a case is timed at size n and at 2n in one run, and
 * the ratio is what a test checks (about 2 for linear work, 4 for quadratic, far more for
 * catastrophic backtracking). A loaded machine slows both sizes alike, so the ratio holds where
 * a fixed budget in milliseconds fails. Each size is timed several times, interleaved, and the
 * fastest kept, so one descheduled run does not decide it.
 */
import { expect } from 'vitest';

export interface GrowthCase {
  label: string;
  /** Does the work at size `n` (bytes, characters, repetitions: whatever the case scales). */
  run: (n: number) => unknown;
}

/** What a linear case may reach at 2n over n: 2 plus room for noise, below quadratic's 4. */
export const LINEAR_RATIO = 3;
const REPEATS = 5;
/** Below this, timer resolution and noise dominate: the size is doubled until a run takes longer. */
const MIN_MS = 5;
/** How far the size may grow for that: past a few megabytes, caches and the collector distort the ratio. */
const MAX_SCALE = 8;

async function timeOnce(run: (n: number) => unknown, n: number): Promise<number> {
  const started = performance.now();
  await run(n);
  return performance.now() - started;
}

/** The fastest of REPEATS interleaved timings at n and at 2n. */
async function timePair(run: (n: number) => unknown, n: number): Promise<[number, number]> {
  let [small, large] = [Infinity, Infinity];
  for (let i = 0; i < REPEATS; i++) {
    small = Math.min(small, await timeOnce(run, n));
    large = Math.min(large, await timeOnce(run, 2 * n));
  }
  return [small, large];
}

/**
 * Times every case at `n` and checks the `slowest` of them (the ones a super-linear case would
 * be among) for linear growth from n to 2n: the ratio stays below {@link LINEAR_RATIO}. A case
 * too fast to time at `n` is measured at a larger size. Resolves to the worst time at `n` and
 * each checked case's ratio, for the test's report.
 */
export async function expectLinearGrowth(cases: readonly GrowthCase[], n: number, slowest = 3): Promise<{ worstMs: number; worst: string; ratios: Record<string, number> }> {
  const timed: { label: string; run: GrowthCase['run']; ms: number }[] = [];
  for (const { label, run } of cases) timed.push({ label, run, ms: await timeOnce(run, n) });
  timed.sort((a, b) => b.ms - a.ms);
  const ratios: Record<string, number> = {};
  for (const { label, run } of timed.slice(0, slowest)) {
    let size = n;
    let [small, large] = await timePair(run, size);
    while (small < MIN_MS && size < n * MAX_SCALE) [small, large] = await timePair(run, (size *= 2));
    ratios[label] = large / small;
    expect(large / small, `${label}: ${small.toFixed(1)} ms at ${size}, ${large.toFixed(1)} ms at ${2 * size}`).toBeLessThan(LINEAR_RATIO);
  }
  return { worstMs: timed[0]?.ms ?? 0, worst: timed[0]?.label ?? '', ratios };
}
