/**
 * Work on the page's thread in slices: a long loop (an import's parse, check and writes) yields
 * to the page between slices of about {@link SLICE_MS}, so frames and input events get their
 * turn. The one pace both the import (transfer/) and the IndexedDB request slicing
 * (store/sliced-requests.ts) keep.
 */

/** Work between two yields, in ms: half a frame. */
export const SLICE_MS = 8;

/** A monotonic clock in ms where there is one (`performance.now`), else `Date.now`. */
export const elapsedMs = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/**
 * Lets the page run (a frame, an input event) before more work: a macrotask, by MessageChannel
 * where there is one (setTimeout nested this deep waits 4 ms each time). Not `scheduler.yield`:
 * its continuation outranks rendering, and frames were seen held back across many of them.
 */
export function yieldToPage(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/** When the current task's sliced work began (undefined: none has looked at the clock in this task yet). */
let taskStarted: number | undefined;
/** Which count is running: a queued end ends only the count it was queued for. */
let generation = 0;
/** A page's message to itself: it ends the count once the task that started it has ended. */
let resetPort: MessagePort | undefined;
const endCount = (of: number) => {
  if (generation === of) taskStarted = undefined;
};

/**
 * Starts a count at `now` and queues its end: a macrotask queued now, which runs after this task.
 * Node (tests, fake-indexeddb) has setImmediate, which fake-indexeddb's events also use, so the
 * end comes before the events of requests issued later; a page has a MessageChannel (setTimeout
 * would wait 4 ms when nested), whose order against IndexedDB's events is not fixed, so a loop
 * that resumes from a request's event starts its count itself ({@link sliceAnew}). An end that
 * comes late only makes the next task's loops yield sooner.
 */
function countFromNow(now: number): void {
  taskStarted = now;
  const of = ++generation;
  if (typeof setImmediate === 'function') {
    setImmediate(() => endCount(of));
  } else if (typeof MessageChannel !== 'undefined') {
    if (resetPort === undefined) {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event: MessageEvent<number>) => endCount(event.data);
      resetPort = channel.port2;
    }
    resetPort.postMessage(of);
  } else {
    setTimeout(() => endCount(of), 0);
  }
}

/**
 * Sliced work done in the current task so far, in ms: one count for every slicing loop of the
 * page's thread ({@link sliced}, the IndexedDB request slices, the commit's placing), so loops
 * that run one after another in one task share one budget. Each counted on its own, an import's
 * checks ran four loops of SLICE_MS in a row and a commit's three bulk puts three: tasks of
 * 25–35 ms, and frames held back. The count starts at the task's first look and ends with the
 * task (and at each yield).
 */
export function sliceElapsed(): number {
  const now = elapsedMs();
  if (taskStarted === undefined) countFromNow(now);
  return now - taskStarted!;
}

/** Starts the count again now: for a loop that resumes after a pause it knows to be a task boundary (a yield, an awaited request). */
export function sliceAnew(): void {
  countFromNow(elapsedMs());
}

/** Work in slices: `step` is called with each index in turn, with a yield whenever the task's sliced work reaches SLICE_MS. */
export async function sliced(length: number, step: (index: number) => void): Promise<void> {
  for (let i = 0; i < length; i++) {
    if (sliceElapsed() >= SLICE_MS) {
      await yieldToPage();
      sliceAnew();
    }
    step(i);
  }
}
