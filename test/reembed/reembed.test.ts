/** Embedder migration on open: `reembed: 'auto'` (the 10k-memory migration runs in the soak project, test/soak/reembed-10k.test.ts). */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../src/index';
import { createTestMemory } from '../helpers/memory';

const APP = 'default';

describe('memory.reembed', () => {
  it("re-embeds before createMemory resolves when reembed is 'auto'", async () => {
    const factory = new IDBFactory();
    const writer = await createTestMemory({ indexedDB: factory, name: 'auto' });
    await writer.memory.remember({ content: 'The user drinks oat milk.', topic: 'diet' }, { userId: 'u_0', appName: APP, source: { type: 'user_explicit', id: 'c1' } });
    await writer.memory.close();
    const reopened = await createTestMemory({ indexedDB: factory, name: 'auto', embedder: createHashEmbedder(64), reembed: 'auto' });
    const [hit] = await reopened.memory.retrieve('oat milk', { userId: 'u_0', appName: APP });
    expect(hit!.memory).toMatchObject({ content: 'The user drinks oat milk.', embedderId: 'hash-fnv1a-64' });
    expect(hit!.memory.embedding).toHaveLength(64);
  });
});
