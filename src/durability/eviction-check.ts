/**
 * Every call that reaches the store checks first that the store this memory opened is still
 * there (eviction.ts), so an evicted database is reported as one, not served as an empty store.
 */
import { StorageError, StorageEvictedError } from '../errors';
import type { Memory } from '../memory-api';
import { decorateCalls } from '../memory-calls';
import type { EvictionGuard } from './eviction';

/** A view of `memory` whose calls of kind `'store'` and `'write'` (memory-calls.ts) run the storage's `check()` first (`memory` itself when it has none). */
export function checkedForEviction(memory: Memory, guard: Partial<EvictionGuard>): Memory {
  const check = guard.check?.bind(guard);
  if (!check) return memory;
  return decorateCalls(memory, ['store', 'write'], (_method, call) => async (...args) => {
    await check();
    try {
      return await call(...args);
    } catch (error) {
      // The browser may clear the database under a call before it reports the close: a call
      // that failed on storage is checked again, and an eviction is reported as one, not as
      // its symptom.
      if (!(error instanceof StorageError)) throw error;
      await check(true).catch((checked: unknown) => {
        if (checked instanceof StorageEvictedError) throw checked;
      });
      throw error;
    }
  });
}
