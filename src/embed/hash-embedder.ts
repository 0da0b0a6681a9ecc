import type { Embedder } from './embedder';
import type { KeyedEmbedder } from './embedding-cache';
import { STOPWORDS } from './stopwords';
import { ValidationError } from '../errors';
import { wordsOf } from '../text';

/** The seed's dimension: 256 buckets. */
export const HASH_DIM = 256;

/** The hash embedder's id at `dim`: what its vectors are recorded with, wherever they are computed. */
export function hashEmbedderId(dim: number): string {
  return `hash-fnv1a-${dim}`;
}

/**
 * The one compute call the hash embedder makes (the compute client's `embed`). Written here,
 * not taken from worker/client.ts: the worker's compute runs this embedder, so a type import
 * of the client would close a cycle.
 */
export interface HashCompute {
  embed(texts: string[], dim: number, cacheKey?: string): Promise<Float32Array[]>;
}

/**
 * The default embedder of a memory: the hash embedder computed by `compute` (in the worker
 * where there is one), under the same id as {@link createHashEmbedder} gives in this thread.
 */
export function computeHashEmbedder(compute: HashCompute, dim: number = HASH_DIM): KeyedEmbedder {
  // One short text (a retrieve's query) is embedded on the calling thread, the same vector as
  // compute's in microseconds: a worker round trip would cost a warm retrieve more than its scan.
  // No token cache here: user text stays in compute's cache only (per owner: `cacheKey`), which erasure clears.
  const here = hashEmbedding(dim, false);
  return { id: hashEmbedderId(dim), dim, embed: (texts, cacheKey) => (texts.length === 1 && texts[0]!.length <= HERE_CHARS ? Promise.resolve([here(texts[0]!)]) : compute.embed([...texts], dim, cacheKey)) };
}

/** Longest single text {@link computeHashEmbedder} embeds on the calling thread (a query, a fact). */
const HERE_CHARS = 2000;
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.35;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Bounded so a long-lived worker does not grow without limit on an open vocabulary. */
const CACHE_LIMIT = 50_000;

/** Bucket indexes of one token: the word itself, then each trigram of `^token$`. */
type TokenFeatures = Uint16Array;

/**
 * Deterministic bag-of-words hash embedding, offline. Words (weight 1) and character
 * trigrams of `^word$` (weight 0.35, crude stemming: "diet" ~ "dietary") are hashed into
 * `dim` buckets and the vector is L2-normalised. It knows nothing of meaning ("lunch" is not
 * near "vegetarian"): replace it with a real embedder for production.
 *
 * FNV-1a over UTF-16 code units, computed without building trigram substrings; a crypto
 * hash (the seed's blake2b) buys nothing here and is ~60x slower.
 */
export function createHashEmbedder(dim: number = HASH_DIM): Embedder & { embedOne(text: string): Float32Array } {
  checkDim(dim);
  const embedOne = hashEmbedding(dim, true);
  return {
    id: hashEmbedderId(dim),
    dim,
    embed: (texts) => texts.map(embedOne),
    embedOne,
  };
}

/** One text's hash embedding at `dim`; `keep`: token features kept (bounded) between calls. */
function hashEmbedding(dim: number, keep: boolean): (text: string) => Float32Array {
  const cache = new Map<string, TokenFeatures>();

  function featuresOf(token: string): TokenFeatures {
    const cached = cache.get(token);
    if (cached) return cached;
    const features = new Uint16Array(1 + token.length);
    features[0] = mix(fnv(token, 0, token.length)) % dim;
    // Trigrams of "^token$": positions -1 .. length, where -1 is '^' and length is '$'.
    for (let start = -1; start <= token.length - 2; start++) {
      let hash = FNV_OFFSET;
      for (let i = start; i < start + 3; i++) {
        const code = i < 0 ? 94 /* ^ */ : i >= token.length ? 36 /* $ */ : token.charCodeAt(i);
        hash = Math.imul(hash ^ code, FNV_PRIME) >>> 0;
      }
      features[start + 2] = mix(hash) % dim;
    }
    if (!keep) return features;
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(token, features);
    return features;
  }

  function embedOne(text: string): Float32Array {
    const vector = new Float32Array(dim);
    for (const token of wordsOf(text)) {
      if (STOPWORDS.has(token)) continue;
      const features = featuresOf(token);
      vector[features[0]!]! += WORD_WEIGHT;
      for (let i = 1; i < features.length; i++) vector[features[i]!]! += TRIGRAM_WEIGHT;
    }
    let sum = 0;
    for (let i = 0; i < dim; i++) sum += vector[i]! * vector[i]!;
    const norm = Math.sqrt(sum) || 1;
    for (let i = 0; i < dim; i++) vector[i]! /= norm;
    return vector;
  }

  return embedOne;
}

/** The one argument createHashEmbedder takes: the number of dimensions, not an options object. */
function checkDim(dim: unknown): asserts dim is number {
  if (typeof dim === 'number' && Number.isInteger(dim) && dim >= 8 && dim <= 65_536) return;
  let shown: string;
  try {
    shown = typeof dim === 'object' && dim !== null ? JSON.stringify(dim) : String(dim);
  } catch {
    shown = `an unprintable ${typeof dim}`;
  }
  const hint = typeof dim === 'object' && dim !== null && 'dim' in dim ? `; pass the number itself: createHashEmbedder(${String((dim as { dim: unknown }).dim)})` : '';
  throw new ValidationError('createHashEmbedder(dim)', `takes the number of dimensions, an integer in [8, 65536] (default ${HASH_DIM}), got ${shown}${hint}`);
}

/**
 * murmur3's fmix32 finaliser. FNV-1a's low bits avalanche poorly, and `% dim` with a
 * power-of-two dim keeps only those bits: without this, short trigrams collide far more
 * often than chance ("dietary" landed next to "flights").
 */
function mix(value: number): number {
  let h = value;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function fnv(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME) >>> 0;
  return hash;
}
