import { createRandom } from './random';

/**
 * An embedder whose vectors say nothing: every call returns fresh random unit vectors, so no
 * two texts (not even equal ones) are similarity neighbours. Whatever a sweep finds with it,
 * it found by topic or by the identical-fact lookup.
 */
export function noiseEmbedder(dim = 32) {
  const random = createRandom(17);
  const unit = () => {
    const vector = Float32Array.from({ length: dim }, () => random() - 0.5);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  };
  return { id: `noise-${dim}`, dim, embed: async (texts: readonly string[]) => texts.map(unit) };
}
