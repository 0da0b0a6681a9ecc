/**
 * Parsing at the edge: every public call's arguments go through one of these schemas, and a
 * failure becomes a ValidationError naming the field, the value and what is expected. Option
 * objects are strict: a misspelt key (`userID`) is an error that names the valid keys, never
 * silently ignored.
 */
import { z } from 'zod/mini';
import { ValidationError } from './errors';
import type { ReembedProgress } from './reembed/reembed';
import { describeValue, expectedOf, issueMessage, issueValue } from './issues';
import { ChatMessage, DEFAULT_WEIGHTS, Fact, Id, MemoryRecord, Metadata, MetadataText, positiveZero, Scope, SourceInput, Timestamp, Weights } from './schema';

/** A past time to read the store as of (`retrieve`, `list`): ms since epoch. */
const AsOf = Timestamp;

/** Owner ids must be real strings: a missing or empty userId is an error, never "everyone". */
const UserId = Id;
const AppName = z._default(Id, 'default');
/** The caller's metadata, kept as JSON text on the stored input and on the memories the write creates. */
const WriteMetadata = z.pipe(
  z.pipe(
    Metadata,
    z.transform((value) => JSON.stringify(value)),
  ),
  MetadataText,
);

export const IngestOptions = z.strictObject({
  userId: UserId,
  appName: AppName,
  sessionId: Id,
  source: SourceInput,
  /** A JSON object kept with the memories this write creates (their `metadata`, as JSON text). */
  metadata: z.optional(WriteMetadata),
});
export type IngestOptions = z.input<typeof IngestOptions>;

export const IngestMessages = z
  .array(ChatMessage)
  .check(z.minLength(1, { error: 'must contain at least one message' }))
  .check(z.maxLength(10_000, { error: 'must contain at most 10000 messages' }));

export const RememberOptions = z.strictObject({
  userId: z.optional(UserId),
  appName: AppName,
  scope: z._default(Scope, 'user'),
  sessionId: z.optional(Id),
  source: SourceInput,
  /** A JSON object kept with the memory this write creates (its `metadata`, as JSON text). */
  metadata: z.optional(WriteMetadata),
  /**
   * The id of an active memory of the same owner and scope (and session) that this fact
   * replaces: the write is an UPDATE of it (it stays in history as superseded), subject to the
   * trust gate. When that memory is not active, the fact is consolidated as usual. An episode, an
   * app-scope memory from another scope's write, or a memory of another scope or session is
   * refused (ValidationError; PermissionError for the app-scope one).
   */
  replaces: z.optional(Id),
});
export type RememberOptions = z.input<typeof RememberOptions>;

/** Weights a caller may give in part: the missing ones are taken from DEFAULT_WEIGHTS. */
const PartialWeights = z.pipe(
  z.partial(Weights),
  z.transform(
    (given): Weights => ({
      relevance: given.relevance ?? DEFAULT_WEIGHTS.relevance,
      recency: given.recency ?? DEFAULT_WEIGHTS.recency,
      importance: given.importance ?? DEFAULT_WEIGHTS.importance,
    }),
  ),
);

export const RetrieveOptions = z.strictObject({
  userId: UserId,
  appName: AppName,
  sessionId: z.optional(Id),
  scopes: z.optional(z.array(Scope).check(z.maxLength(3))),
  k: z._default(z.pipe(z.int().check(z.gte(0)).check(z.lte(1000)), z.transform(positiveZero)), 5),
  /** Each a number from 0 to 1000; a partial object is merged over `{ relevance: 0.6, recency: 0.25, importance: 0.15 }`. */
  weights: z.optional(PartialWeights),
  /** Rank what the store held at this time (ms since epoch), scored as of then. */
  asOf: z.optional(AsOf),
  /** Also return the user's standing profile (src/retrieve/profile.ts), marked `profile`, beside the at most k hits. Default false. */
  profile: z.optional(z.boolean()),
});
/**
 * Options of `memory.retrieve`: the owner (`userId`, `appName` default `'default'`), an optional
 * `sessionId` (adds that session's memories), `scopes` (default `['user', 'app']`, plus
 * `'session'` with a `sessionId`), `k` (an integer in [0, 1000], default 5) and `weights`.
 * Each weight is a number from 0 to 1000 (0 switches that term off; all three may be 0); a
 * partial `weights` object is merged over the defaults `{ relevance: 0.6, recency: 0.25,
 * importance: 0.15 }`, so `{ recency: 0 }` keeps relevance 0.6 and importance 0.15.
 * `asOf` (ms since epoch) ranks what the store held at that time instead, scored as of then.
 * `profile: true` also returns the user's standing profile (who the user is: name, pronouns,
 * home, job, diet, allergies), marked `profile`, beside the hits (default false).
 */
export type RetrieveOptions = z.input<typeof RetrieveOptions>;

export const OwnerOptions = z.strictObject({ userId: UserId, appName: AppName });
export type OwnerOptions = z.input<typeof OwnerOptions>;

/** The owner a call names, parsed (`name`: how the argument is called in the message, `options` or `owner`). */
export function parseOwner(options: unknown, name = 'options'): z.output<typeof OwnerOptions> {
  return parseInput(OwnerOptions, options, name);
}

export const ListOptions = z.extend(OwnerOptions, { includeInvalid: z._default(z.boolean(), false), asOf: z.optional(AsOf) });
export type ListOptions = z.input<typeof ListOptions>;

export const PruneOptions = z.extend(OwnerOptions, {
  floor: z.pipe(
    z
      .number()
      .check(z.gte(0, { error: 'must be a number from 0 to 1' }))
      .check(z.lte(1, { error: 'must be a number from 0 to 1' })),
    z.transform(positiveZero),
  ),
});
export type PruneOptions = z.input<typeof PruneOptions>;

export const SummarizeOptions = z.strictObject({ userId: UserId, appName: AppName, sessionId: Id, source: SourceInput });
export type SummarizeOptions = z.input<typeof SummarizeOptions>;

export const ReembedOptions = z._default(
  z.strictObject({
    onProgress: z.optional(z.custom<(progress: ReembedProgress) => void>((value) => typeof value === 'function', { error: 'must be a function' })),
    signal: z.optional(z.custom<AbortSignal>((value) => typeof AbortSignal !== 'undefined' && value instanceof AbortSignal, { error: 'must be an AbortSignal' })),
    batchSize: z._default(z.int().check(z.gte(1)).check(z.lte(10_000)), 256),
  }),
  { batchSize: 256 },
);
export type ReembedOptions = z.input<typeof ReembedOptions>;

export const Query = z.pipe(
  z.string().check(z.maxLength(100_000, { error: 'must be at most 100000 characters' })),
  z.transform((value) => value.toWellFormed()),
);

export { Fact, IngestMessages as Messages };

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Parses `input` with `schema`; on failure throws a ValidationError for one issue: an unknown
 * key if there is one (a misspelt `userID` also makes `userId` missing, and the typo is the
 * cause), else the first.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, name: string): z.output<S> {
  if (isThenable(input)) throw new ValidationError(name, `must be ${expectedOf(schema)}, not a Promise: await it first (got a Promise)`);
  const result = schema.safeParse(input, { error: issueMessage, reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0]!;
  const path = [name, ...issue.path.map(String)].join('.');
  // An unknown-key message names the keys already; the object itself says nothing more.
  const got = issue.code === 'unrecognized_keys' ? '' : ` (got ${describeValue(issueValue(issue))})`;
  throw new ValidationError(path, issue.message + got, { cause: result.error });
}

/** What `inject` reads of each retrieve() result. */
const RetrievedList = z.array(
  z.object({
    memory: z.pick(MemoryRecord, { content: true, confidence: true, updatedAt: true, halfLifeDays: true, sources: true }),
    score: z.number(),
  }),
);

/** What `assemble` reads: `inject`'s fields, plus what the stable order and the ranking's tiebreak sort by. */
const AssembleList = z.array(
  z.object({
    memory: z.pick(MemoryRecord, { id: true, createdAt: true, content: true, confidence: true, updatedAt: true, halfLifeDays: true, sources: true }),
    score: z.number(),
  }),
);

export const AssembleOptions = z.strictObject({
  /** The most tokens the whole text (system prompt and block) may take under `countTokens`. */
  maxTokens: z.int().check(z.gte(1)).check(z.lte(100_000_000)),
  /** The app's tokenizer: `(text) => number of tokens`. Default: {@link estimateTokens}, an upper bound. */
  countTokens: z.optional(z.custom<(text: string) => number>((value) => typeof value === 'function', { error: 'must be a function (text) => number of tokens' })),
  /** `'score'` (default): best first. `'stable'`: by creation, so an unchanged set gives the same bytes (prompt caches stay warm). */
  order: z._default(z.enum(['score', 'stable']), 'score'),
});
/**
 * Options of `memory.assemble`: `maxTokens` (an integer ≥ 1: the budget of the whole text),
 * `countTokens` (the app's tokenizer; default an estimate that never undercounts: UTF-8 bytes
 * plus one) and `order` (`'score'` default, or `'stable'`).
 */
export type AssembleOptions = z.input<typeof AssembleOptions>;

const RETRIEVED_HINT = 'an array of memory.retrieve() results: [{ memory, score, relevance, recency, importance }]';

/** A MemoryRecord (from list/get) where a retrieve() result belongs. */
function isBareRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !('memory' in value) && 'content' in value && 'sources' in value;
}

/** Checks `inject`'s (or, with `AssembleList`, `assemble`'s) `retrieved` argument; the message says how to get the right value. */
export function checkRetrieved(retrieved: unknown, fields: 'inject' | 'assemble' = 'inject'): void {
  if (isThenable(retrieved)) {
    throw new ValidationError('retrieved', `must be ${RETRIEVED_HINT}, not a Promise: await it first, e.g. memory.inject(system, await memory.retrieve(query, options)) (got a Promise)`);
  }
  const index = Array.isArray(retrieved) ? retrieved.findIndex(isBareRecord) : -1;
  if (index >= 0) {
    throw new ValidationError(
      `retrieved.${index}`,
      `is a MemoryRecord, not a retrieve() result: pass what memory.retrieve(query, options) resolves to, or wrap each record as { memory: record, score: 0, relevance: 0, recency: 0, importance: 0 }`,
    );
  }
  if (!Array.isArray(retrieved)) throw new ValidationError('retrieved', `must be ${RETRIEVED_HINT} (got ${describeValue(retrieved)})`);
  parseInput(fields === 'inject' ? RetrievedList : AssembleList, retrieved, 'retrieved');
}
