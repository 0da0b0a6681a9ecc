/**
 * Each text embedded once while it is recent, per owner. A chat turn embeds the user's message twice: as
 * retrieve's query before the reply, and as the episode its ingest keeps after it (and `explain`
 * or `assemble` after a retrieve, or an app that passes the conversation so far to every ingest,
 * embed again what was just embedded). With a model that is one model run per text; this map
 * from text to vector, in front of the checked embedder, hands back what it embedded already.
 *
 * Rules it keeps:
 * - Per owner: a text is found only under the key it was cached with (the partition it is
 *   embedded for), so how fast a text embeds says nothing about what another user said. A call
 *   without a key neither reads nor fills the cache.
 * - Bounded: at most {@link EMBED_CACHE_LIMIT} texts, the least recently used out first; a call
 *   of more than {@link EMBED_CACHE_CALL} texts (bulk work) neither reads nor fills it.
 * - Erasure clears it ({@link CachingEmbedder.clearCache}, with compute's token cache:
 *   verbs/deps.ts `clearTextCaches`), so no text a user erased stays in it; an embed that was
 *   in flight across the clear keeps nothing it read before it.
 * - Callers get copies: no caller can change what another is handed.
 * - A call's misses go to the embedder in one call, each distinct text once, in order; a failure
 *   caches nothing and rejects as the embedder did.
 */
import type { Embedder } from './embedder';

/** Texts held at most: some 390 kB of 384-d vectors, a few hundred turns of a conversation. */
export const EMBED_CACHE_LIMIT = 256;
/**
 * Texts a call may have and still use the cache. A larger call is bulk work (an import, a
 * replay, a re-embedding: hundreds of texts a call, seldom repeated) and goes straight to the
 * embedder: it would only push the recent turns out and copy every vector.
 */
export const EMBED_CACHE_CALL = 32;

/**
 * An embedder a caller tells whose text it embeds (`cacheKey`: the owner's partition key). A
 * plain {@link Embedder} is one: it ignores the key.
 */
export interface KeyedEmbedder extends Embedder {
  embed(texts: readonly string[], cacheKey?: string): Promise<Float32Array[]> | Float32Array[];
}

export interface CachingEmbedder extends KeyedEmbedder {
  /** `texts`' vectors; with `cacheKey`, through the cache of that key's texts (without one, straight from the embedder). */
  embed(texts: readonly string[], cacheKey?: string): Promise<Float32Array[]>;
  /** Forgets every text and vector held (erasure). */
  clearCache(): void;
  /** Texts held now. */
  readonly cached: number;
}

/**
 * `embedder` (checked: unit vectors of `dim`) behind a bounded cache of the texts it embedded.
 * The key goes on to `embedder` (a {@link KeyedEmbedder}: the built-in hash embedder keys
 * compute's token cache by it; a plain one ignores it).
 */
export function cachingEmbedder(embedder: KeyedEmbedder, limit = EMBED_CACHE_LIMIT): CachingEmbedder {
  // Keyed by JSON [cacheKey, text]: no two (key, text) pairs share an entry.
  const vectors = new Map<string, Float32Array>();
  let generation = 0;
  const take = (entry: string): Float32Array | undefined => {
    const vector = vectors.get(entry);
    if (vector === undefined) return undefined;
    // Most recently used last: the map's first key is the next to go.
    vectors.delete(entry);
    vectors.set(entry, vector);
    return vector;
  };
  const keep = (entry: string, vector: Float32Array) => {
    vectors.delete(entry);
    vectors.set(entry, vector);
    while (vectors.size > limit) vectors.delete(vectors.keys().next().value!);
  };
  return {
    id: embedder.id,
    dim: embedder.dim,
    get cached() {
      return vectors.size;
    },
    clearCache() {
      vectors.clear();
      generation++;
    },
    async embed(texts, cacheKey) {
      if (cacheKey === undefined || texts.length > EMBED_CACHE_CALL) return embedder.embed(texts, cacheKey);
      const entry = (text: string) => JSON.stringify([cacheKey, text]);
      const found = new Map<string, Float32Array>();
      for (const text of texts) {
        const vector = found.has(text) ? undefined : take(entry(text));
        if (vector) found.set(text, vector);
      }
      const missing = [...new Set(texts.filter((text) => !found.has(text)))];
      if (missing.length) {
        const at = generation;
        const embedded = await embedder.embed(missing, cacheKey);
        missing.forEach((text, i) => {
          found.set(text, embedded[i]!);
          if (at === generation && limit > 0) keep(entry(text), embedded[i]!);
        });
      }
      return texts.map((text) => found.get(text)!.slice());
    },
  };
}
