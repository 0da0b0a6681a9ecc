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

/** Work in slices: `step` is called with each index in turn, with a yield whenever SLICE_MS has passed since the last. */
export async function sliced(length: number, step: (index: number) => void): Promise<void> {
  let started = elapsedMs();
  for (let i = 0; i < length; i++) {
    if (elapsedMs() - started >= SLICE_MS) {
      await yieldToPage();
      started = elapsedMs();
    }
    step(i);
  }
}
