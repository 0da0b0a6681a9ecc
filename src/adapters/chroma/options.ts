/**
 * `createChromaStorage`'s options, as a zod schema (the schema is the type), and the one
 * place they are parsed.
 */
import { z } from 'zod/mini';
import { ValidationError } from 'engram';
import type { ChromaConnection } from './collections';

/** Where the Chroma server is, and which collections engram uses there. */
export const ChromaStorageOptions = z.strictObject({
  /** Default `'localhost'`. */
  host: z.optional(z.string().check(z.minLength(1))),
  /** Default `8000`. */
  port: z.optional(z.int().check(z.gte(1)).check(z.lte(65_535))),
  /** Default `false` (http). */
  ssl: z.optional(z.boolean()),
  /** Default Chroma's `default_tenant`. */
  tenant: z.optional(z.string().check(z.minLength(1))),
  /** Default Chroma's `default_database`. */
  database: z.optional(z.string().check(z.minLength(1))),
  /**
   * Prepended to every collection name (`<prefix>memories`, `<prefix>inputs`, `<prefix>control`,
   * `<prefix>revocations`). Default: the memory's `name` and `_` (`engram_`).
   */
  collectionPrefix: z.optional(z.string().check(z.regex(/^[a-zA-Z0-9][a-zA-Z0-9._-]{0,400}$/, { error: 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-" (Chroma names its collections with these)' }))),
});
export type ChromaStorageOptions = z.input<typeof ChromaStorageOptions>;

/** The options as the storage uses them; ValidationError naming the field for anything Chroma cannot take. */
export function parseChromaOptions(options: unknown): ChromaConnection {
  const parsed = ChromaStorageOptions.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError(['options', ...issue.path.map(String)].join('.'), issue.message, { cause: parsed.error });
  }
  return Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)) as ChromaConnection;
}
