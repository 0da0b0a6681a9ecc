import type { Embedder } from '../../src/embed/embedder';
import { createHashEmbedder } from '../../src/embed/hash-embedder';

/** A remote embedder that can go offline (`online = false`): every call then fails as a network request would. */
export function switchableEmbedder(): Embedder & { online: boolean; calls: number } {
  const inner = createHashEmbedder(64);
  const embedder = {
    id: 'remote-hash-64',
    dim: 64,
    online: true,
    calls: 0,
    embed(texts: readonly string[]) {
      embedder.calls++;
      if (!embedder.online) return Promise.reject(new TypeError('fetch failed: getaddrinfo ENOTFOUND embeddings.example'));
      return inner.embed(texts);
    },
  };
  return embedder;
}
