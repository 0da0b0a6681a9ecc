/**
 * `@vitest/web-worker`, with this thread's lazy chunks loaded before any worker starts.
 *
 * The shim runs a worker's modules in this thread's module graph and, once the worker's entry
 * has loaded, invalidates the entry's whole import tree (its `_invalidateSubTreeById` call). A
 * module that this thread is importing at that moment and that the worker imports too (the
 * compute kernel, the hash embedder) loses its metadata between two steps of the import, which
 * then fails with "Cannot read properties of undefined (reading 'id')": createMemory reported it
 * as a StorageError for the IndexedDB backend, once in a full run. Browsers give a worker a module
 * graph of its own, so only the shim has this race; loading the chunks that createMemory and the
 * verbs import on demand here, first, leaves no import of this thread in flight when it happens.
 */
import '@vitest/web-worker';

await Promise.all([import('../../src/store/indexeddb'), import('../../src/verbs/writes'), import('../../src/verbs/occasional'), import('../../src/extract/speech/extractor')]);
