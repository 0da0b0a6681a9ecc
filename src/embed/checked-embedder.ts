/**
 * Guards a pluggable embedder: its output is checked (count, length, finiteness) and
 * re-normalised, because every cosine in engram is a plain dot product of unit vectors.
 */
import { callPlugin, PluginError, ValidationError } from '../errors';
import type { Embedder } from './embedder';
import type { KeyedEmbedder } from './embedding-cache';
import { normalize } from './vector';

/**
 * Checks an embedder's output (count, length, finiteness) and re-normalises it: cosine = dot
 * needs unit vectors. `keyed`: engram's own embedder, handed the caller's cache key (the
 * owner's partition); a plugin never is (an owner's id is not its business).
 */
export function checkEmbedder(embedder: Embedder | KeyedEmbedder, keyed = false): KeyedEmbedder {
  if (typeof embedder?.embed !== 'function' || typeof embedder.id !== 'string' || !Number.isInteger(embedder.dim) || embedder.dim <= 0) {
    throw new ValidationError('options.embedder', 'must be { id: string, dim: positive integer, embed(texts) }');
  }
  return {
    id: embedder.id,
    dim: embedder.dim,
    async embed(texts, cacheKey) {
      const vectors = await callPlugin(`embedder '${embedder.id}'`, () => (keyed && cacheKey !== undefined ? (embedder as KeyedEmbedder).embed(texts, cacheKey) : embedder.embed(texts)));
      if (!Array.isArray(vectors) || vectors.length !== texts.length) {
        throw new PluginError(`embedder '${embedder.id}' returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${texts.length} texts`);
      }
      return vectors.map((vector, i) => {
        if (!(vector instanceof Float32Array) || vector.length !== embedder.dim || !vector.every(Number.isFinite)) {
          throw new PluginError(`embedder '${embedder.id}' vector ${i} is not a finite Float32Array of length ${embedder.dim}`);
        }
        return normalize(Float32Array.from(vector));
      });
    },
  };
}
