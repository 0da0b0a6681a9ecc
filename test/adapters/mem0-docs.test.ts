/**
 * mem0's documented Node examples (test/fixtures/mem0-docs.ts), run as written but for the
 * import line, on IndexedDB (fake-indexeddb under Node): each on a fresh database.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describeMem0Docs } from './mem0-docs';

let counter = 0;

describeMem0Docs('IndexedDB', {
  async open() {
    const indexedDB = new IDBFactory();
    return { config: { name: `mem0-docs-${++counter}`, indexedDB, IDBKeyRange }, teardown: async () => {} };
  },
});
