/**
 * Compute's token cache (the hash embedder's token features) is kept per owner, like the
 * embedding cache in front of it (embed/embedding-cache.ts): a text one owner embedded never
 * makes another owner's embed of it faster. The key travels from the caching embedder through
 * the checked embedder and the built-in hash embedder to compute.
 */
import { describe, expect, it } from 'vitest';
import { createCompute } from '../../src/worker/compute';
import { cachingEmbedder } from '../../src/embed/embedding-cache';
import { checkEmbedder } from '../../src/embed/checked-embedder';
import { computeHashEmbedder } from '../../src/embed/hash-embedder';

const said = 'I am allergic to peanuts and I play squash on Tuesdays';

describe("compute's token cache", () => {
  it('keeps each key’s tokens apart, caches nothing for a call without one, and empties on clearCaches', () => {
    const compute = createCompute({ kernel: 'js' });
    const [ada] = compute.embed([said], 64, 'u:ada');
    expect(compute.stats().tokenCaches).toBe(1);
    const [bob] = compute.embed([said], 64, 'u:bob');
    expect(compute.stats().tokenCaches).toBe(2);
    const [none] = compute.embed([said], 64);
    expect(compute.stats().tokenCaches).toBe(2);
    // The cache changes no vector.
    expect([...bob!]).toEqual([...ada!]);
    expect([...none!]).toEqual([...ada!]);
    compute.clearCaches();
    expect(compute.stats().tokenCaches).toBe(0);
  });

  it('keeps the token caches of at most 16 owners', () => {
    const compute = createCompute({ kernel: 'js' });
    for (let i = 0; i < 100; i++) compute.embed([said], 64, `u:${i}`);
    expect(compute.stats().tokenCaches).toBeLessThanOrEqual(16);
  });

  it('is reached with the owner’s key through the memory’s embedder chain', async () => {
    const compute = createCompute({ kernel: 'js' });
    const keys: (string | undefined)[] = [];
    const recording = { embed: async (texts: string[], dim: number, cacheKey?: string) => (keys.push(cacheKey), compute.embed(texts, dim, cacheKey)) };
    const embedder = cachingEmbedder(checkEmbedder(computeHashEmbedder(recording, 64), true));
    await embedder.embed([said, 'I live in Lyon'], 'u:ada');
    await embedder.embed(['I work nights', 'I like tea'], 'u:bob');
    await embedder.embed(['a replay', 'of many texts']);
    expect(keys).toEqual(['u:ada', 'u:bob', undefined]);
  });

  it('never hands a plugin embedder the owner’s key', async () => {
    const seen: unknown[][] = [];
    const plugin = { id: 'plugin', dim: 8, embed: (...args: unknown[]) => (seen.push(args), (args[0] as string[]).map(() => new Float32Array(8).fill(1))) };
    await cachingEmbedder(checkEmbedder(plugin)).embed(['a text'], 'u:ada');
    expect(seen).toEqual([[['a text']]]);
  });
});
