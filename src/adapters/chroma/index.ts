/**
 * `engram/chroma`: engram's storage on a real Chroma server (Node or browser). The pipeline
 * above it is unchanged: extraction, consolidation, retrieval, injection and forgetting run as
 * with IndexedDB; Chroma holds the records, and each instance holds the partitions it uses, by
 * version, to search them (docs/chroma-protocol.md).
 *
 * ```ts
 * import { createMemory } from 'engram';
 * import { createChromaStorage } from 'engram/chroma';
 * const memory = await createMemory({ storage: createChromaStorage({ host: '127.0.0.1', port: 8000 }) });
 * ```
 */
import type { StorageBackend } from '../../storage/contract';
import type { ChromaStorageOptions } from './options';
import { createChromaStorageWith } from './storage';

export { ChromaStorageOptions } from './options';

/**
 * A storage backend for `createMemory({ storage })` on a Chroma server. Collections are created
 * on first use (cosine space, engram's own embeddings: no Chroma embedding function).
 * @throws ValidationError for options Chroma cannot take (the field, the value, the rule).
 * `open` rejects with StorageError when the server cannot be reached.
 */
export function createChromaStorage(options: ChromaStorageOptions = {}): StorageBackend {
  return createChromaStorageWith(options, {});
}
