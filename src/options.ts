/**
 * Parsing at the edge: every public call's arguments go through one of these schemas, and a
 * failure becomes a ValidationError naming the field, the value and what is expected.
 */
import { z } from 'zod';
import { ValidationError } from './errors';
import type { ReembedProgress } from './reembed/reembed';
import { ChatMessage, Fact, Id, positiveZero, Scope, SourceInput, Weights } from './schema';

/** Owner ids must be real strings: a missing or empty userId is an error, never "everyone". */
const UserId = Id;
const AppName = Id.default('default');

export const IngestOptions = z.object({
  userId: UserId,
  appName: AppName,
  sessionId: Id,
  source: SourceInput,
});
export type IngestOptions = z.input<typeof IngestOptions>;

export const IngestMessages = z.array(ChatMessage).min(1, { error: 'must contain at least one message' }).max(10_000);

export const RememberOptions = z.object({
  userId: UserId.optional(),
  appName: AppName,
  scope: Scope.default('user'),
  sessionId: Id.optional(),
  source: SourceInput,
});
export type RememberOptions = z.input<typeof RememberOptions>;

export const RetrieveOptions = z.object({
  userId: UserId,
  appName: AppName,
  sessionId: Id.optional(),
  scopes: z.array(Scope).max(3).optional(),
  k: z.number().int().min(0).max(1000).transform(positiveZero).default(5),
  weights: Weights.optional(),
});
export type RetrieveOptions = z.input<typeof RetrieveOptions>;

export const OwnerOptions = z.object({ userId: UserId, appName: AppName });
export type OwnerOptions = z.input<typeof OwnerOptions>;

export const ListOptions = OwnerOptions.extend({ includeInvalid: z.boolean().default(false) });
export type ListOptions = z.input<typeof ListOptions>;

export const PruneOptions = OwnerOptions.extend({ floor: z.number().min(0).max(1).transform(positiveZero) });
export type PruneOptions = z.input<typeof PruneOptions>;

export const SummarizeOptions = z.object({ userId: UserId, appName: AppName, sessionId: Id, source: SourceInput });
export type SummarizeOptions = z.input<typeof SummarizeOptions>;

export const ReembedOptions = z
  .object({
    onProgress: z.custom<(progress: ReembedProgress) => void>((value) => typeof value === 'function', { error: 'must be a function' }).optional(),
    signal: z.custom<AbortSignal>((value) => typeof AbortSignal !== 'undefined' && value instanceof AbortSignal, { error: 'must be an AbortSignal' }).optional(),
    batchSize: z.number().int().min(1).max(10_000).default(256),
  })
  .default({ batchSize: 256 });
export type ReembedOptions = z.input<typeof ReembedOptions>;

export const Query = z.string({ error: 'must be a string' }).max(100_000).transform((value) => value.toWellFormed());

export { Fact, IngestMessages as Messages };

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return value;
}

/** Parses `input` with `schema`; on failure throws a ValidationError for the first issue. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, name: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = [name, ...issue.path.map(String)].join('.');
  const value = valueAt(input, issue.path);
  throw new ValidationError(path, `${issue.message} (got ${describe(value)})`, { cause: result.error });
}
