/**
 * Erasures told to the other instances over one database (other tabs and workers, other
 * `createMemory` calls of this page): each then drops the user text it holds in memory (the
 * embedder's recent texts, compute's token cache: verbs/deps.ts `clearTextCaches`), so an erased
 * text stays in no instance's caches. The IndexedDB records and vectors need no message: every
 * instance reads their versions before it uses them (vector-index.ts).
 *
 * Rules it keeps:
 * - One BroadcastChannel per database name (`engram-erasure:<name>`): it delivers to every other
 *   channel of that name in the origin, in this realm too, never back to the one that posts; the
 *   erasing instance clears its own caches itself (the erasure verbs).
 * - The message names nothing (no owner, no text): it only says an erasure committed, so each
 *   listener clears all it holds.
 * - Where there is no BroadcastChannel, nothing is told and nothing fails.
 */

/** What an erasure is told through and heard from. */
export interface ErasureChannel {
  /** Tells the other instances an erasure committed. */
  announce(): void;
  /** Calls `onErase` for each erasure another instance announces; returns the function that stops it. */
  listen(onErase: () => void): () => void;
  close(): void;
}

const MESSAGE = 'erased';

export function createErasureChannel(databaseName: string): ErasureChannel {
  const listeners = new Set<() => void>();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`engram-erasure:${databaseName}`) : undefined;
  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      if (event.data === MESSAGE) for (const listener of listeners) listener();
    };
    // Node keeps its event loop alive while a channel is open: a memory not closed must not hold a script open.
    (channel as { unref?: () => void }).unref?.();
  }
  return {
    announce: () => channel?.postMessage(MESSAGE),
    listen(onErase) {
      listeners.add(onErase);
      return () => listeners.delete(onErase);
    },
    close() {
      listeners.clear();
      channel?.close();
    },
  };
}
