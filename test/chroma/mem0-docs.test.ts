/**
 * mem0's documented Node examples (test/fixtures/mem0-docs.ts), run as written but for the
 * import line, on the Chroma backend (the run's real server): each on a fresh collection
 * prefix. The basic example is left out here: it calls reset(), which deletes an IndexedDB
 * database and is refused on another backend (docs/adapters.md, mem0 table).
 */
import { createChromaStorage } from '../../src/adapters/chroma/index';
import { describeMem0Docs } from '../adapters/mem0-docs';
import { chromaClient, collectionNames, freshPrefix, server } from './helpers';

describeMem0Docs(
  'Chroma',
  {
    async open() {
      const prefix = freshPrefix('mem0docs');
      return {
        config: { name: prefix.slice(0, -1), storage: createChromaStorage({ ...server(), collectionPrefix: prefix }) },
        async teardown() {
          const client = chromaClient();
          for (const name of await collectionNames(prefix, client)) await client.deleteCollection({ name });
        },
      };
    },
  },
  { timeout: 120_000, skip: ['basic'] },
);
