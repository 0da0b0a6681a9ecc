import { describe, expect, it, vi } from 'vitest';
import type { Memory, Operation } from '../../src/index';
import { cachingEmbedder, EMBED_CACHE_CALL, type CachingEmbedder } from '../../src/embed/embedding-cache';
import { countingEmbedder } from '../helpers/counting-embedder';
import { createTestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'ada', appName: 'default' };

describe('cachingEmbedder', () => {
  it('sends each text it does not hold once, in one call, and hands back the vectors the embedder gave', async () => {
    const inner = countingEmbedder();
    const cached = cachingEmbedder(inner);
    const first = await cached.embed(['a vegan diet', 'an aisle seat'], 'ada');
    const second = await cached.embed(['an aisle seat', 'a window seat', 'a window seat', 'a vegan diet'], 'ada');
    expect(inner.calls).toEqual([['a vegan diet', 'an aisle seat'], ['a window seat']]);
    expect(second.map((vector) => [...vector])).toEqual([[...first[1]!], [...(inner.embed(['a window seat']) as Float32Array[])[0]!], [...second[1]!], [...first[0]!]]);
    expect(cached.cached).toBe(3);
  });

  it('finds a text only under the key it was cached with, and caches nothing for a call without a key', async () => {
    const inner = countingEmbedder();
    const cached = cachingEmbedder(inner);
    await cached.embed(['a vegan diet'], 'ada');
    await cached.embed(['a vegan diet'], 'bob');
    await cached.embed(['a vegan diet']);
    await cached.embed(['a vegan diet']);
    await cached.embed(['a vegan diet'], 'ada');
    expect(inner.calls).toEqual([['a vegan diet'], ['a vegan diet'], ['a vegan diet'], ['a vegan diet']]);
    expect(cached.cached).toBe(2);
  });

  it('hands out copies: a caller that changes its vector does not change the next caller’s', async () => {
    const cached = cachingEmbedder(countingEmbedder());
    const [vector] = await cached.embed(['a vegan diet'], 'ada');
    const kept = [...vector!];
    vector!.fill(0);
    expect([...(await cached.embed(['a vegan diet'], 'ada'))[0]!]).toEqual(kept);
  });

  it('keeps at most its limit, the least recently used going first', async () => {
    const inner = countingEmbedder();
    const cached = cachingEmbedder(inner, 2);
    await cached.embed(['one', 'two'], 'ada');
    await cached.embed(['one'], 'ada');
    await cached.embed(['three'], 'ada');
    expect(cached.cached).toBe(2);
    inner.calls.length = 0;
    await cached.embed(['one', 'two', 'three'], 'ada');
    expect(inner.calls).toEqual([['two']]);
  });

  it('leaves a bulk call (an import, a replay) to the embedder: it neither reads nor fills the cache', async () => {
    const inner = countingEmbedder();
    const cached = cachingEmbedder(inner);
    await cached.embed(['a vegan diet'], 'ada');
    const bulk = ['a vegan diet', ...Array.from({ length: EMBED_CACHE_CALL }, (_, i) => `memory ${i}`)];
    const vectors = await cached.embed(bulk, 'ada');
    expect(inner.calls.at(-1)).toEqual(bulk);
    expect(vectors).toHaveLength(bulk.length);
    expect(cached.cached).toBe(1);
  });

  it('caches nothing from a failed call, and nothing from a call in flight when it is cleared', async () => {
    let fail = true;
    let release: () => void = () => {};
    const inner = countingEmbedder();
    const cached = cachingEmbedder({
      ...inner,
      async embed(texts) {
        if (fail) throw new Error('model down');
        await new Promise<void>((resolve) => (release = resolve));
        return inner.embed(texts);
      },
    });
    await expect(cached.embed(['a vegan diet'], 'ada')).rejects.toThrow('model down');
    expect(cached.cached).toBe(0);
    fail = false;
    const pending = cached.embed(['a vegan diet'], 'ada');
    await Promise.resolve();
    cached.clearCache();
    release();
    expect((await pending).length).toBe(1);
    expect(cached.cached).toBe(0);
  });
});

describe('a memory’s embedder cache', () => {
  it('embeds a chat turn’s user message once: as retrieve’s query, then as the episode its ingest keeps', async () => {
    const embedder = countingEmbedder();
    const { memory } = await createTestMemory({ embedder, episodes: true });
    const message = 'I have been vegan for ten years now and I cook every night';
    await memory.retrieve(message, owner);
    const operations = await memory.ingest([{ role: 'user', content: message }], { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 'turn-1' } });
    expect(operations.map((operation) => operation.content)).toContain(message);
    expect(embedder.calls.flat().filter((text) => text === message)).toHaveLength(1);
    await memory.close();
  });

  const erasures: Record<string, (memory: Memory, operations: Operation[]) => Promise<unknown>> = {
    forgetSource: (memory) => memory.forgetSource('turn-1', owner),
    forget: (memory, operations) => memory.forget(operations[0]!.memoryId, owner),
    undo: (memory, operations) => memory.undo(operations.at(-1)!, owner),
  };
  for (const [verb, erase] of Object.entries(erasures)) {
    it(`forgets every text it held when ${verb} erases`, async () => {
      const embedder = countingEmbedder();
      const { memory } = await createTestMemory({ embedder });
      const operations = await memory.ingest([{ role: 'user', content: 'I am allergic to peanuts' }], { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 'turn-1' } });
      await memory.retrieve('what is the user allergic to?', owner);
      await erase(memory, operations);
      embedder.calls.length = 0;
      await memory.retrieve('what is the user allergic to?', owner);
      expect(embedder.calls).toEqual([['what is the user allergic to?']]);
      await memory.close();
    });
  }

  it('keeps each owner’s texts apart: another user’s retrieve of a text Alice said goes to the embedder', async () => {
    const embedder = countingEmbedder();
    const { memory } = await createTestMemory({ embedder });
    const said = 'I am allergic to peanuts';
    await memory.ingest([{ role: 'user', content: said }], { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 'turn-1' } });
    await memory.retrieve(said, owner);
    embedder.calls.length = 0;
    await memory.retrieve(said, { userId: 'bob', appName: 'default' });
    await memory.retrieve(said, { userId: 'ada', appName: 'other-app' });
    expect(embedder.calls).toEqual([[said], [said]]);
    embedder.calls.length = 0;
    await memory.retrieve(said, owner);
    expect(embedder.calls).toEqual([]);
    await memory.close();
  });

  it('keeps an app-scope write apart from every user: a user’s query of that text goes to the embedder', async () => {
    const embedder = countingEmbedder();
    const { memory } = await createTestMemory({ embedder });
    const fact = 'The support line opens at nine';
    await memory.remember({ content: fact, topic: 'other' }, { ...owner, scope: 'app', source: { type: 'bootstrapped', id: 'app-faq' } });
    embedder.calls.length = 0;
    await memory.retrieve(fact, owner);
    expect(embedder.calls).toEqual([[fact]]);
    await memory.close();
  });

  const otherErasures: typeof erasures = { ...erasures, reject: (memory) => memory.pending(owner).then(([held]) => memory.reject(held!.id, owner)) };
  for (const [verb, erase] of Object.entries(otherErasures)) {
    it(`forgets every text it held when another instance over the same database ${verb === 'reject' ? 'rejects a held write' : `runs ${verb}`}`, async () => {
      const review = verb === 'reject' ? { review: { sources: ['user_implicit' as const] } } : {};
      const eraser = await createTestMemory({ embedder: countingEmbedder(), ...review });
      const embedder = countingEmbedder();
      let cache: CachingEmbedder | undefined;
      const other = await createTestMemory({ embedder, indexedDB: eraser.factory, name: eraser.name, onEmbedder: (made) => void (cache = made), ...review });
      const said = 'I am allergic to peanuts';
      const operations = await eraser.memory.ingest([{ role: 'user', content: said }], { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 'turn-1' } });
      await other.memory.retrieve(said, owner);
      expect(cache!.cached).toBe(1);
      // The canary scan: every raw row of every database on the factory, read past engram.
      const stored = async () => (await findInDatabases(eraser.factory, 'peanuts')).map((row) => row.store);
      expect(await stored()).not.toEqual([]);
      await erase(eraser.memory, operations);
      expect(await stored()).toEqual([]);
      await vi.waitFor(() => expect(cache!.cached).toBe(0));
      embedder.calls.length = 0;
      await other.memory.retrieve(said, owner);
      expect(embedder.calls).toEqual([[said]]);
      // Nothing the other instance held (records, vectors, its cache) is written back by its reads and close.
      await other.memory.list(owner);
      await Promise.all([eraser.memory.close(), other.memory.close()]);
      expect(await stored()).toEqual([]);
    });
  }

  it('forgets every text it held when a held write is rejected', async () => {
    const embedder = countingEmbedder();
    const { memory } = await createTestMemory({ embedder, review: { sources: ['user_implicit'] } });
    await memory.ingest([{ role: 'user', content: 'I am allergic to peanuts' }], { ...owner, sessionId: 's1', source: { type: 'user_implicit', id: 'turn-1' } });
    await memory.retrieve('what is the user allergic to?', owner);
    const [held] = await memory.pending(owner);
    await memory.reject(held!.id, owner);
    embedder.calls.length = 0;
    await memory.retrieve('what is the user allergic to?', owner);
    expect(embedder.calls).toEqual([['what is the user allergic to?']]);
    await memory.close();
  });
});
