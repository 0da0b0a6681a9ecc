/**
 * The closed state of a Memory: after `close()` every call fails with ClosedError, and so
 * does a call that close() overtook, instead of the Dexie or worker failure that closing
 * caused underneath it.
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

/**
 * A view of `memory` whose calls check `isClosed()` first (memory-calls.ts: every kind but
 * `close`, which is idempotent, and values). Internal calls between methods use the unguarded object.
 */
export function guardClosed(memory: Memory, isClosed: () => boolean): Memory {
  return decorateCalls(memory, ['store', 'device', 'sync'], (method, call, kind) =>
    kind === 'sync'
      ? (...args) => {
          if (isClosed()) throw closedError(method);
          return call(...args);
        }
      : async (...args) => {
          if (isClosed()) throw closedError(method);
          try {
            return await call(...args);
          } catch (error) {
            throw isClosed() && causedByClose(error) ? closedError(method, error) : error;
          }
        },
  );
}
