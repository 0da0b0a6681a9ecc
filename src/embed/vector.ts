/** Vector math shared by the in-process paths (the worker has its own kernel). */

/** Dot product; equals the cosine for unit vectors, which is all engram stores. */
export function dot(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Scales `vector` to unit length in place; a zero vector stays zero. Returns it. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
