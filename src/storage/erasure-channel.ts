/**
 * Erasures told to the other instances over one store (other tabs and workers, other
 * `createMemory` calls of the page or process), so each drops the user text it holds in memory
 * (verbs/deps.ts `clearTextCaches`). One BroadcastChannel per store name (the IndexedDB
 * database's name, the Chroma storage's lock namespace): it reaches every other channel of that
 * name in the origin (in Node, the process), never the one that posts (the erasing instance
 * clears its own caches itself). The message names no owner and no text. Without
 * BroadcastChannel nothing is told. Every backend that implements `Storage.watchErasures`
 * announces after each commit {@link erasesText} says erases, and after one that failed (it may
 * have committed).
 */
import type { Commit } from './contract';
import type { MemoryRecord } from '../schema';

/**
 * True when an inactive record's vector was wiped (erasure stores a zero vector). Active zero
 * vectors (text of stopwords only) are ordinary rows.
 */
export function isWiped(record: MemoryRecord): boolean {
  return record.invalidatedAt !== undefined && record.embedding.every((value) => value === 0);
}

/** Whether a commit redacts: it revokes sources, blanks excerpts, or deletes or rewrites stored conversations. */
export function redactsText({ revoke, redactExcerpts, deleteInputs = [], rewriteInputs = [] }: Commit): boolean {
  return revoke !== undefined || redactExcerpts !== undefined || deleteInputs.length > 0 || rewriteInputs.length > 0;
}

/** Whether a commit erases user text: a redaction ({@link redactsText}), or a record whose vector it wipes (an erased record keeps no text). */
export function erasesText(commit: Commit): boolean {
  return redactsText(commit) || commit.records.some(isWiped);
}

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
