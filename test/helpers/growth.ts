/**
 * Linear time without a wall-time bound: a case is timed at size n and at 4n in one run, and
 * the ratio is what a test checks (about 4 for linear work, 16 for quadratic, far more for
 * catastrophic backtracking). Four times the size, not two, leaves a factor of two on either
 * side of the bar: at 2n a one-off step (a string outgrowing a cache, a collection) once
 * pushed a linear case to 3.25 against a bar of 3. The time is the process's CPU time, which a loaded machine does
 * not stretch as it stretches wall time, and the ratio holds where a fixed budget in
 * milliseconds fails. Each size is timed several times, interleaved, and the
 * fastest kept, so one descheduled run does not decide it (see timePair).
 */
import { expect } from 'vitest';

export interface GrowthCase {
  label: string;
  /** Does the work at size `n` (bytes, characters, repetitions: whatever the case scales). */
  run: (n: number) => unknown;
}

/** How much larger the second size is than the first. */
export const GROWTH = 4;
/** What a linear case may reach at GROWTH·n over n: twice linear's 4, half quadratic's 16. */
export const LINEAR_RATIO = 8;
/** Timings per size: at least MIN_REPEATS, and up to MAX_REPEATS while the ratio is still above the bar. */
const MIN_REPEATS = 3;
const MAX_REPEATS = 9;
/** Below this, timer resolution and noise dominate: the size is doubled until a run takes longer. */
const MIN_MS = 3;
/** How far the size may grow for that: past a few megabytes, caches and the collector distort the ratio. */
const MAX_SCALE = 2;
/** Runs per timing at most, for a case still under MIN_MS at the largest size (each timing then spans MIN_MS). */
const MAX_RUNS = 64;

/**
 * Milliseconds of CPU this process spent on one run, not wall time: on a loaded machine a run
 * is descheduled for longer than it computes, and by different amounts from run to run.
 */
async function timeOnce(run: (n: number) => unknown, n: number, runs = 1): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < runs; i++) await run(n);
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

/** The fastest of `repeats` CPU timings of `run(n)`, after one untimed run: for comparing two cases' costs in one run. */
export async function fastestCpuMs(run: (n: number) => unknown, n: number, repeats = MIN_REPEATS): Promise<number> {
  await run(n);
  let fastest = Infinity;
  for (let i = 0; i < repeats; i++) fastest = Math.min(fastest, await timeOnce(run, n));
  return fastest;
}

/**
 * The fastest of several interleaved timings at n and at GROWTH·n. Noise only ever adds time, so the
 * minima converge on the true costs: more timings are taken while the ratio is above the bar,
 * which a descheduled run explains and a super-linear case does not (its minima stay apart).
 */
async function timePair(run: (n: number) => unknown, n: number, runs: number): Promise<[number, number]> {
  // Once each untimed first: the first run at a size pays for warming up (compiling, allocating).
  await run(n);
  await run(GROWTH * n);
  let [small, large] = [Infinity, Infinity];
  for (let i = 0; i < MAX_REPEATS; i++) {
    small = Math.min(small, await timeOnce(run, n, runs));
    large = Math.min(large, await timeOnce(run, GROWTH * n, runs));
    if (i + 1 >= MIN_REPEATS && large / small < LINEAR_RATIO) break;
  }
  return [small, large];
}

/**
 * Times every case at `n` and checks the `slowest` of them (the ones a super-linear case would
 * be among) for linear growth from n to GROWTH·n: the ratio stays below {@link LINEAR_RATIO}. A case
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
    let ms = await timeOnce(run, size);
    while (ms < MIN_MS && size < n * MAX_SCALE) ms = await timeOnce(run, (size *= 2));
    // Still under MIN_MS at the largest size (0.3 ms once read 8.07 against the bar of 8): each
    // timing spans several runs, so the timer's resolution and a stray pause weigh as little.
    const runs = ms < MIN_MS ? Math.min(MAX_RUNS, Math.ceil(MIN_MS / Math.max(ms, MIN_MS / MAX_RUNS))) : 1;
    const [small, large] = await timePair(run, size, runs);
    ratios[label] = large / small;
    expect(large / small, `${label}: ${small.toFixed(1)} ms at ${size}, ${large.toFixed(1)} ms at ${GROWTH * size}`).toBeLessThan(LINEAR_RATIO);
  }
  return { worstMs: timed[0]?.ms ?? 0, worst: timed[0]?.label ?? '', ratios };
}
