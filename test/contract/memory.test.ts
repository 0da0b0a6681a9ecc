/**
 * The contract suite against the in-memory backend written only for the tests
 * (test/helpers/memory-storage.ts): Maps and brute-force cosine, no Dexie, no worker rows.
 */
import { createMemoryStorage } from '../helpers/memory-storage';
import { describeStorageContract } from './suite';

let stores = 0;

describeStorageContract('in-memory', async () => {
  const backend = createMemoryStorage();
  return {
    storage: backend,
    name: `memory-${++stores}`,
    snapshot: async () => structuredClone(backend.state),
    failWrite(k) {
      backend.faults.count = 0;
      backend.faults.failAt = k;
    },
    get writes() {
      return backend.faults.count;
    },
    teardown: async () => {},
  };
});
