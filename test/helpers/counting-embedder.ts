/** A test embedder: the hash embedder at 64 dimensions, recording the texts of every call it gets. */
import type { Embedder } from '../../src/embed/embedder';
import { createHashEmbedder } from '../../src/embed/hash-embedder';

export function countingEmbedder(): Embedder & { calls: string[][] } {
  const inner = createHashEmbedder(64);
  const calls: string[][] = [];
  return {
    id: 'counting-hash-64',
    dim: 64,
    calls,
    embed(texts) {
      calls.push([...texts]);
      return inner.embed(texts);
    },
  };
}
