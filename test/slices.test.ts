/**
 * The page's slicing loops share one budget per task (src/slices.ts): loops that run one after
 * another in a task (an import's checks, a commit's puts) yield once their sum reaches SLICE_MS,
 * not each after SLICE_MS of its own. The clock is a fake one that only a step moves, so the
 * counts are exact on a loaded machine; the yields are real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SLICE_MS, sliceElapsed, sliced } from '../src/slices';

let now = 0;
/** The work of a step: `ms` of the fake clock. */
const busy = (ms: number) => void (now += ms);
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeEach(async () => {
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  // A task of its own, so no count is running from before.
  await nextTask();
});
afterEach(() => void vi.restoreAllMocks());

describe('the slice budget', () => {
  it('counts from the task’s first look, across calls, and starts again in the next task', async () => {
    expect(sliceElapsed()).toBe(0);
    busy(3);
    expect(sliceElapsed()).toBe(3);
    busy(1);
    expect(sliceElapsed()).toBe(4);
    await nextTask();
    expect(sliceElapsed()).toBe(0);
  });

  it('makes a loop that follows another in the same task yield once their sum reaches SLICE_MS', async () => {
    await sliced(1, () => busy(SLICE_MS - 3));
    const looks: number[] = [];
    await sliced(3, () => {
      looks.push(sliceElapsed());
      busy(2);
    });
    // 5 ms in, then 7, then a yield (9 ≥ 8) and a new count. Each loop on its own clock, the
    // second would count 0, 2, 4 and run all three steps in the first loop's task.
    expect(looks).toEqual([SLICE_MS - 3, SLICE_MS - 1, 0]);
  });

  it('yields inside one loop each time the count reaches SLICE_MS', async () => {
    const looks: number[] = [];
    await sliced(6, () => {
      looks.push(sliceElapsed());
      busy(3);
    });
    expect(looks).toEqual([0, 3, 6, 0, 3, 6]);
  });
});
