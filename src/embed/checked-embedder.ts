/**
 * Guards a pluggable embedder: its output is checked (count, length, finiteness) and
 * re-normalised, because every cosine in engram is a plain dot product of unit vectors.
 */
import { callPlugin, PluginError, ValidationError } from '../errors';
import type { Embedder } from './embedder';
import { normalize } from './vector';

/** Checks an embedder's output (count, length, finiteness) and re-normalises it: cosine = dot needs unit vectors. */
export function checkEmbedder(embedder: Embedder): Embedder {
  if (typeof embedder?.embed !== 'function' || typeof embedder.id !== 'string' || !Number.isInteger(embedder.dim) || embedder.dim <= 0) {
    throw new ValidationError('options.embedder', 'must be { id: string, dim: positive integer, embed(texts) }');
  }
  return {
    id: embedder.id,
    dim: embedder.dim,
    async embed(texts) {
      const vectors = await callPlugin(`embedder '${embedder.id}'`, () => embedder.embed(texts));
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
