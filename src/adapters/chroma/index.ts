/**
 * `engram/chroma`: engram's storage on a real Chroma server (Node or browser). The pipeline
 * above it is unchanged: extraction, consolidation, retrieval, injection and forgetting run as
 * with IndexedDB; Chroma holds the records and does the nearest-neighbour search.
 *
 * ```ts
 * import { createMemory } from 'engram';
 * import { createChromaStorage } from 'engram/chroma';
 * const memory = await createMemory({ storage: createChromaStorage({ host: '127.0.0.1', port: 8000 }) });
 * ```
 */
import { z } from 'zod';
import { ValidationError } from 'engram';
import type { StorageBackend } from '../../storage/contract';
import { openChromaStorage, type ChromaInternals } from './storage';

/** Where the Chroma server is, and which collections engram uses there. */
export const ChromaStorageOptions = z.strictObject({
  /** Default `'localhost'`. */
  host: z.string().min(1).optional(),
  /** Default `8000`. */
  port: z.number().int().min(1).max(65_535).optional(),
  /** Default `false` (http). */
  ssl: z.boolean().optional(),
  /** Default Chroma's `default_tenant`. */
  tenant: z.string().min(1).optional(),
  /** Default Chroma's `default_database`. */
  database: z.string().min(1).optional(),
  /**
   * Prepended to every collection name (`<prefix>memories`, `<prefix>inputs`, `<prefix>control`,
   * `<prefix>revocations`). Default: the memory's `name` and `_` (`engram_`).
   */
  collectionPrefix: z
    .string()
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9._-]{0,400}$/, { error: 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-" (Chroma names its collections with these)' })
    .optional(),
});
export type ChromaStorageOptions = z.input<typeof ChromaStorageOptions>;

/**
 * A storage backend for `createMemory({ storage })` on a Chroma server. Collections are created
 * on first use (cosine space, engram's own embeddings: no Chroma embedding function).
 * @throws ValidationError for options Chroma cannot take (the field, the value, the rule).
 * `open` rejects with StorageError when the server cannot be reached.
 */
export function createChromaStorage(options: ChromaStorageOptions = {}): StorageBackend {
  return createChromaStorageWith(options, {});
}

/** @internal The same with test seams (lease, clock, lock namespace). */
export function createChromaStorageWith(options: ChromaStorageOptions, internals: ChromaInternals): StorageBackend {
  const parsed = ChromaStorageOptions.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError(['options', ...issue.path.map(String)].join('.'), issue.message, { cause: parsed.error });
  }
  const connection = parsed.data;
  return {
    open(context) {
      const collectionPrefix = connection.collectionPrefix ?? `${context.name.replace(/[^a-zA-Z0-9._-]/g, '_')}_`;
      return openChromaStorage({ ...stripUndefined(connection), collectionPrefix }, context, internals);
    },
  };
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
