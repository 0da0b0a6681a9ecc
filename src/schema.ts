/**
 * The data model. Each schema is the single definition of its type (`z.infer`); records
 * read back from IndexedDB and everything a caller passes in are parsed with these.
 */
import { z } from 'zod/mini';
import { DAY_MS } from './time';
import { EXCLUSIVE_TOPICS } from './extract/topics';

/** Longest text engram accepts in one field; longer input is a ValidationError, never truncated silently. */
export const MAX_TEXT_LENGTH = 100_000;
/** Longest id (user, app, session, source). */
export const MAX_ID_LENGTH = 512;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A non-empty identifier: no lone surrogates (they collide once encoded), no surrounding whitespace. */
export const Id = z
  .string()
  .check(z.minLength(1, { error: 'must not be empty' }))
  .check(z.maxLength(MAX_ID_LENGTH, { error: `must be at most ${MAX_ID_LENGTH} characters` }))
  .check(z.refine((value) => value.trim() === value, { error: 'must not start or end with whitespace' }))
  .check(z.refine((value) => !LONE_SURROGATE.test(value), { error: 'must not contain lone UTF-16 surrogates' }));

/**
 * Free text: lone surrogates are replaced by U+FFFD (what the browser would do on encode anyway),
 * empty or whitespace-only text is rejected.
 */
export const Text = z
  .pipe(
    z.string().check(z.maxLength(MAX_TEXT_LENGTH, { error: `must be at most ${MAX_TEXT_LENGTH} characters` })),
    z.transform((value) => value.toWellFormed()),
  )
  .check(z.refine((value) => value.trim().length > 0, { error: 'must contain non-whitespace text' }));

/** `-0` becomes `0`: it passes `min(0)` but prints as "-0" and is not `Object.is` zero. */
export const positiveZero = (value: number): number => (value === 0 ? 0 : value);

/** Shortest half-life: below it a Float32 row rounds towards 0 and `age / halfLife` becomes 0/0 = NaN. */
export const MIN_HALF_LIFE_DAYS = 0.001;

// Range messages sit on the checks: an error given to `z.number()` itself would also word
// every check (`-1` would read "must be a finite number"). Wrong types are worded by parseInput.
const UNIT_RULE = { error: 'must be a number from 0 to 1' };
const UnitInterval = z.pipe(z.number().check(z.gte(0, UNIT_RULE)).check(z.lte(1, UNIT_RULE)), z.transform(positiveZero));
/** The latest time a `Date` holds (its range is ±8.64e15 ms): a later one has no date to print or compare. */
export const MAX_TIME = 8.64e15;
/** Whether `value` is a time engram stores: ms since epoch, from 0 to {@link MAX_TIME}. */
export function isTime(value: number): boolean {
  return value >= 0 && value <= MAX_TIME;
}
/** The rule every time is checked with, in the words of its message. */
export const TIME_RULE = `must be ms since epoch, from 0 to ${MAX_TIME} (the range of a Date)`;
/** A time: ms since epoch within a Date's range ({@link isTime}). */
export const Timestamp = z.number().check(z.refine(isTime, { error: TIME_RULE }));
const HALF_LIFE_RULE = { error: `must be a number of days from ${MIN_HALF_LIFE_DAYS} to 365000` };
const HalfLifeDays = z.number().check(z.gte(MIN_HALF_LIFE_DAYS, HALF_LIFE_RULE)).check(z.lte(365_000, HALF_LIFE_RULE));

export const SourceType = z.enum(['bootstrapped', 'user_explicit', 'user_implicit', 'tool_output']);
export type SourceType = z.infer<typeof SourceType>;

export const Scope = z.enum(['user', 'session', 'app']);
export type Scope = z.infer<typeof Scope>;

/** One thing a memory was derived from. A memory usually has several. */
export const Source = z.object({
  type: SourceType,
  /** Session id, CRM record id, form id: what `forgetSource` revokes. */
  id: Id,
  /** The span the memory came from, for auditing ("why do you think I'm vegetarian?"). */
  excerpt: z.string().check(z.maxLength(MAX_TEXT_LENGTH)),
  at: Timestamp,
});
export type Source = z.infer<typeof Source>;

/** What a caller says a write came from; `excerpt` and `at` are filled in by engram. */
export const SourceInput = z.strictObject({ type: SourceType, id: Id });
export type SourceInput = z.infer<typeof SourceInput>;

export const HistoryEvent = z.enum(['created', 'corroborated', 'superseded', 'erased', 'regenerated', 'pruned']);
export type HistoryEvent = z.infer<typeof HistoryEvent>;

/** One line of a memory's audit trail; `reason` is what made the decision. */
export const HistoryEntry = z.object({
  at: Timestamp,
  event: HistoryEvent,
  reason: z.string(),
  /** The other memory involved: the replacement, the predecessor, … */
  related: z.optional(z.string()),
  /**
   * The source whose statement caused this event (created, corroborated, superseded). Its reason
   * may quote or paraphrase that statement (an LLM decider's does), so `forgetSource` of it
   * drops the reason wherever the entry is, whatever the wording.
   */
  sourceId: z.optional(z.string()),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** Every element finite; a plain loop, not `every` (this runs on each of a vector's 256–1024 floats for every record read). */
function allFinite(vector: Float32Array): boolean {
  for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i]!)) return false;
  return true;
}

/**
 * A caller's own data on a memory (mem0's `metadata`): a JSON object, stored as its JSON text so
 * it is sealed at rest like any other text, and erased with the source it came from.
 */
export const MetadataText = z
  .string()
  .check(z.maxLength(MAX_TEXT_LENGTH, { error: `must be at most ${MAX_TEXT_LENGTH} characters as JSON` }))
  .check(z.refine(isJsonObjectText, { error: 'must be the JSON text of an object' }));

function isJsonObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** How deep a write's metadata may nest (the object itself is level 1). */
export const MAX_METADATA_DEPTH = 32;

/**
 * Why `value` cannot be metadata before anything walks it recursively (zod's JSON check,
 * `JSON.stringify`): it nests deeper than {@link MAX_METADATA_DEPTH} (a cyclic object nests
 * without end), or holds more values than its JSON text could (each takes a character at
 * least), which also bounds an object that repeats one nested object under many keys.
 */
function metadataBoundIssue(value: unknown): string | undefined {
  let values = 0;
  const walk = (node: unknown, depth: number): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    if (depth > MAX_METADATA_DEPTH) return `must nest at most ${MAX_METADATA_DEPTH} levels of objects and arrays (a cyclic object nests without end)`;
    for (const inner of Object.values(node)) {
      if (++values > MAX_TEXT_LENGTH) return `must be at most ${MAX_TEXT_LENGTH} characters as JSON`;
      const issue = walk(inner, depth + 1);
      if (issue) return issue;
    }
    return undefined;
  };
  return walk(value, 1);
}

/** Metadata as a caller gives it: a plain object of JSON values, within {@link MAX_METADATA_DEPTH}; stored as {@link MetadataText}. */
export const Metadata = z.pipe(
  z.custom<Record<string, z.core.util.JSONType>>((value) => metadataBoundIssue(value) === undefined, { error: (issue) => metadataBoundIssue(issue.input) }),
  z.record(z.string().check(z.minLength(1)).check(z.maxLength(MAX_ID_LENGTH)), z.json()),
);
export type Metadata = z.infer<typeof Metadata>;

export const MemoryRecord = z.object({
  id: Id,
  /** The owner; `''` only on app-scope memories, which belong to the whole app. */
  userId: z.string().check(z.maxLength(MAX_ID_LENGTH)),
  appName: Id,
  scope: Scope,
  sessionId: z.optional(Id),
  topic: Id,
  content: z.string().check(z.maxLength(MAX_TEXT_LENGTH)),
  importance: UnitInterval,
  halfLifeDays: HalfLifeDays,
  confidence: UnitInterval,
  sources: z.array(Source),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  invalidatedAt: z.optional(Timestamp),
  supersededBy: z.optional(Id),
  history: z.array(HistoryEntry),
  /** The caller's metadata of the write that created it ({@link MetadataText}); gone when that write's source is erased. */
  metadata: z.optional(MetadataText),
  // A NaN in a stored vector would make every score it touches NaN; an empty one is no vector.
  // (Whether the length matches the embedder's dim is the store's check: the schema has no dim.)
  embedding: z.custom<Float32Array>((value) => value instanceof Float32Array && value.length > 0 && allFinite(value), {
    error: 'must be a non-empty Float32Array of finite numbers',
  }),
  embedderId: z.string(),
  /**
   * On a fact: the episode (the user's turn, kept in their words) it was extracted from, when
   * that turn was kept as one. A link, not an owner: forgetting either follows its own sources.
   */
  episodeId: z.optional(Id),
  /**
   * On a fact: the episodes of the later turns that restated it (a corroboration), beside
   * `episodeId`. When the fact is superseded, they retire with it (consolidate/episodes.ts).
   */
  restatedIn: z.optional(z.array(Id)),
  /**
   * The user pinned it (`memory.pin`): it does not decay (recency 1, confidence as stored), is
   * never pruned, and comes first among memories of equal score. Passed on to the memory an
   * UPDATE or a regeneration makes of it.
   */
  pinned: z.optional(z.literal(true)),
});
export type MemoryRecord = z.infer<typeof MemoryRecord>;

/** What a memory is: a statement about the user (`'fact'`), or a turn kept in the user's words (`'episode'`, topic `'episode'`). */
export type MemoryKind = 'fact' | 'episode';

/** A memory as `list` returns it: the record and its kind, derived from the topic (never stored). */
export type ListedMemory = MemoryRecord & { kind: MemoryKind };

/** Oldest first, then by id: the order `list` returns (every backend), and the stable prompt block's. */
export function byCreation(a: Pick<MemoryRecord, 'createdAt' | 'id'>, b: Pick<MemoryRecord, 'createdAt' | 'id'>): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export const Role = z.enum(['user', 'assistant', 'system', 'tool']);
/** Not strict, unlike option objects: a chat app's messages carry their own fields (ids, times), which are dropped. */
export const ChatMessage = z.object({ role: Role, content: Text });
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A fact an extractor found, before consolidation decides what to do with it. */
export const Candidate = z.object({
  content: Text,
  topic: Id,
  confidence: UnitInterval,
  excerpt: z.string().check(z.maxLength(MAX_TEXT_LENGTH)),
  importance: z._default(UnitInterval, 0.5),
  halfLifeDays: z._default(HalfLifeDays, 180),
});
export type Candidate = z.infer<typeof Candidate>;
export type CandidateInput = z.input<typeof Candidate>;

export const Action = z.enum(['CREATE', 'UPDATE', 'NOOP']);
export type Action = z.infer<typeof Action>;

/** What consolidation did with one candidate. */
export const Operation = z.object({
  action: Action,
  /** The memory that now holds the fact: the new one for CREATE/UPDATE, the existing one for NOOP. */
  memoryId: z.string(),
  /** The existing memory the decision was about (UPDATE: the one tombstoned; NOOP: the one kept). */
  targetId: z.optional(z.string()),
  content: z.string(),
  reason: z.string(),
  /**
   * Set when the write waits for review (`createMemory({ review })`): `memoryId` is the pending
   * memory's id, for `approve` or `reject`; nothing was applied yet.
   */
  pending: z.optional(z.literal(true)),
});
export type Operation = z.infer<typeof Operation>;

/** A fact written directly with `remember` (no extraction). */
export const Fact = z.strictObject({
  content: Text,
  topic: Id,
  importance: z.optional(UnitInterval),
  halfLifeDays: z.optional(HalfLifeDays),
  confidence: z.optional(UnitInterval),
});
export type Fact = z.infer<typeof Fact>;

const WEIGHT_RULE = { error: 'must be a number from 0 to 1000 (0 switches that term off)' };
const Weight = z.pipe(z.number().check(z.gte(0, WEIGHT_RULE)).check(z.lte(1000, WEIGHT_RULE)), z.transform(positiveZero));
export const Weights = z.strictObject({ relevance: Weight, recency: Weight, importance: Weight });
export type Weights = z.infer<typeof Weights>;

/** Base trust by source type: bootstrapped data comes from a system of record; tool output goes stale. */
export const DEFAULT_TRUST: Readonly<Record<SourceType, number>> = Object.freeze({
  bootstrapped: 0.95,
  user_explicit: 0.9,
  user_implicit: 0.65,
  tool_output: 0.3,
});

/** Topics where a user holds one value at a time: two memories there are a contradiction. */
export const DEFAULT_EXCLUSIVE_TOPICS: readonly string[] = EXCLUSIVE_TOPICS;

export const DEFAULT_WEIGHTS: Readonly<Weights> = Object.freeze({ relevance: 0.6, recency: 0.25, importance: 0.15 });

/** Days since the memory was last confirmed. */
export function ageDays(memory: Pick<MemoryRecord, 'updatedAt'>, now: number): number {
  return Math.max(0, now - memory.updatedAt) / DAY_MS;
}

/** The half-life a pinned memory decays with: long enough that its recency is 1 to ten digits for a million years. */
export const PINNED_HALF_LIFE_DAYS = 1e12;

/** The half-life a memory's scores decay with: its own, or {@link PINNED_HALF_LIFE_DAYS} when pinned (every vector layer ranks with this). */
export function decayHalfLife(memory: Pick<MemoryRecord, 'halfLifeDays'> & { pinned?: true | undefined }): number {
  return memory.pinned ? PINNED_HALF_LIFE_DAYS : memory.halfLifeDays;
}

/** `0.5 ** (age / halfLife)`: 1 for a fresh memory, 0.5 after one half-life; always 1 for a pinned one. */
export function recencyOf(memory: Pick<MemoryRecord, 'updatedAt' | 'halfLifeDays'> & { pinned?: true | undefined }, now: number): number {
  return memory.pinned ? 1 : 0.5 ** (ageDays(memory, now) / memory.halfLifeDays);
}

/** Confidence after decay: an old memory presents as less certain automatically. */
export function decayedConfidence(memory: Pick<MemoryRecord, 'updatedAt' | 'halfLifeDays' | 'confidence'> & { pinned?: true | undefined }, now: number): number {
  return memory.confidence * recencyOf(memory, now);
}

export type ConfidenceBand = 'high' | 'medium' | 'low';

/** high ≥ 0.75, medium ≥ 0.5, low below. */
export function confidenceBand(confidence: number): ConfidenceBand {
  return confidence >= 0.75 ? 'high' : confidence >= 0.5 ? 'medium' : 'low';
}
