/**
 * The closed state of a Memory: after `close()` every call fails with ClosedError. A write in
 * flight when close() is called finishes first (close() waits for it, so what a caller started
 * is stored or reported, never cut between its commit and its answer); a read that close()
 * overtook fails with ClosedError, instead of the Dexie or worker failure that closing caused
 * underneath it.
 */
import { ClosedError, isEngramError, StorageError, WorkerError } from './errors';
import type { Memory } from './memory-api';
import { decorateCalls } from './memory-calls';

function closedError(method: string, cause?: unknown): ClosedError {
  const when = cause === undefined ? 'after close()' : 'while close() ran, which stopped it (anything it had not committed was not written)';
  const message = `memory.${method} was called ${when}: this memory is closed. Create a new one with createMemory() to keep using the store.`;
  return new ClosedError(message, cause === undefined ? undefined : { cause });
}

/** What closing the database or terminating the worker makes an in-flight call fail with. */
function causedByClose(error: unknown): boolean {
  return error instanceof StorageError || error instanceof WorkerError || !isEngramError(error);
}

/** The writes a memory is running: close() drains them before it closes the store. */
export interface WritesInFlight {
  /** Runs `write` now and keeps its promise until it settles. */
  run<T>(write: () => Promise<T>): Promise<T>;
  /** Resolves once no write runs (those started while it waits included). */
  drain(): Promise<void>;
}

export function writesInFlight(): WritesInFlight {
  const running = new Set<Promise<unknown>>();
  return {
    run(write) {
      const promise = (async () => write())();
      running.add(promise);
      const settled = () => void running.delete(promise);
      promise.then(settled, settled);
      return promise;
    },
    async drain() {
      while (running.size > 0) await Promise.allSettled(running);
    },
  };
}

/**
 * A view of `memory` whose calls check `isClosed()` first (memory-calls.ts: every kind but
 * `close`, which is idempotent, and values); its writes run under `writes`. Internal calls
 * between methods use the unguarded object.
 */
export function guardClosed(memory: Memory, isClosed: () => boolean, writes: WritesInFlight): Memory {
  return decorateCalls(memory, ['store', 'write', 'device', 'sync'], (method, call, kind) => {
    if (kind === 'sync') {
      return (...args) => {
        if (isClosed()) throw closedError(method);
        return call(...args);
      };
    }
    // A write is never cut: close() waits for it, so its own outcome is the answer.
    if (kind === 'write') {
      return (...args) => (isClosed() ? Promise.reject(closedError(method)) : writes.run(async () => call(...args)));
    }
    return async (...args) => {
      if (isClosed()) throw closedError(method);
      try {
        return await call(...args);
      } catch (error) {
        throw isClosed() && causedByClose(error) ? closedError(method, error) : error;
      }
    };
  });
}
