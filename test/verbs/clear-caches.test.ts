/**
 * The text caches are emptied after an erasure's commit: a compute that is gone (its worker lost
 * and restarted, or closed) must not turn a stored erasure into a rejected call.
 */
import { describe, expect, it } from 'vitest';
import { StorageError, WorkerError } from '../../src/index';
import { clearTextCaches } from '../../src/verbs/deps';

function parts(failure: Error | undefined) {
  let embedderCleared = 0;
  const embedder = { clearCache: () => void embedderCleared++ } as unknown as Parameters<typeof clearTextCaches>[0]['embedder'];
  const compute = { clearCaches: () => (failure ? Promise.reject(failure) : Promise.resolve()) } as unknown as Parameters<typeof clearTextCaches>[0]['compute'];
  return { deps: { embedder, compute }, cleared: () => embedderCleared };
}

describe('clearTextCaches', () => {
  it('resolves when compute is gone (WorkerError), with the embedder cache emptied', async () => {
    const { deps, cleared } = parts(new WorkerError('compute call did not answer'));
    await expect(clearTextCaches(deps)).resolves.toBeUndefined();
    expect(cleared()).toBe(1);
  });

  it('passes on any other failure', async () => {
    const { deps } = parts(new StorageError('disk'));
    await expect(clearTextCaches(deps)).rejects.toThrow(StorageError);
  });
});
