/**
 * Erasures told to the other instances over one database (other tabs and workers, other
 * `createMemory` calls of the page), so each drops the user text it holds in memory
 * (verbs/deps.ts `clearTextCaches`). One BroadcastChannel per database name: it reaches every
 * other channel of that name in the origin, never the one that posts (the erasing instance
 * clears its own caches itself). The message names no owner and no text. Without
 * BroadcastChannel nothing is told.
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
