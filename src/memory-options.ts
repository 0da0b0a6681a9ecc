/**
 * What `createMemory` accepts: one strict zod schema, and the `MemoryOptions` type is
 * inferred from it. An unknown key (`wrker`) or a bad value (`worker: 'on'`) is a
 * ValidationError listing the valid ones; plugins are checked for their shape here, their
 * output where it is used.
 */
import { z } from 'zod/mini';
import type { Decider } from './consolidate/decider';
import type { Embedder } from './embed/embedder';
import { isModelEmbedder } from './embed/model-embedder';
import { StorageError, ValidationError } from './errors';
import type { Extractor } from './extract/extractor';
import { EPISODE_TOPIC } from './extract/topics';
import { parseInput } from './options';
import { DEFAULT_TRUST, Id, SourceType } from './schema';
import type { StorageBackend } from './storage/contract';
import type { WorkerMode } from './worker/client';
import type { EvictionPolicy } from './durability/eviction';

function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === 'function';
}

function hasMethods(value: unknown, ...methods: string[]): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && methods.every((method) => isFunction((value as Record<string, unknown>)[method]));
}

function isEmbedder(value: unknown): value is Embedder {
  if (!hasMethods(value, 'embed')) return false;
  const { id, dim } = value as { id?: unknown; dim?: unknown };
  // A hosted model (engram/transformers) learns its dimension when compute loads it, and one
  // with load() (openAIEmbedder without dimensions) when createMemory loads it; both are checked again after.
  return typeof id === 'string' && id.length > 0 && Number.isInteger(dim) && ((dim as number) > 0 || isModelEmbedder(value) || isFunction((value as { load?: unknown }).load));
}

/**
 * A WebCrypto AES-GCM secret key that can encrypt and decrypt. `instanceof CryptoKey` where the
 * class exists; the shape alone elsewhere.
 */
function isEncryptionKey(value: unknown): value is CryptoKey {
  const Key = (globalThis as { CryptoKey?: abstract new () => CryptoKey }).CryptoKey;
  if (Key ? !(value instanceof Key) : typeof value !== 'object' || value === null) return false;
  const { algorithm, usages, type } = value as Partial<CryptoKey>;
  return type === 'secret' && algorithm?.name === 'AES-GCM' && Array.isArray(usages) && usages.includes('encrypt') && usages.includes('decrypt');
}

const ENCRYPTION_KEY_RULE = {
  error: "must be a WebCrypto AES-GCM CryptoKey with usages ['encrypt', 'decrypt'], e.g. await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])",
};

const THRESHOLD_RULE = { error: 'must be a cosine from -1 to 1' };
const TIMEOUT_RULE = { error: 'must be a number of ms in (0, 3600000]' };
const TRUST_RULE = { error: 'must be a number from 0 to 1' };

// The shape is its own declaration so the emitted types keep each field's TSDoc (a shape
// inferred inside z.strictObject(...) is printed without comments).
const memoryOptionsShape = {
  /** IndexedDB database name. Default `'engram'`. */
  name: z.optional(z.string().check(z.minLength(1))),
  /** IndexedDB factory (fake-indexeddb's `new IDBFactory()` under Node). */
  indexedDB: z.optional(z.custom<IDBFactory>((value) => hasMethods(value, 'open', 'deleteDatabase'), { error: "must be an IDBFactory (under Node: new IDBFactory() from 'fake-indexeddb')" })),
  /** The `IDBKeyRange` class that goes with `indexedDB` (fake-indexeddb's under Node). */
  IDBKeyRange: z.optional(
    z.custom<IDBKeyRangeClass>((value) => isFunction(value) && hasMethods(value, 'bound', 'lowerBound', 'upperBound', 'only'), { error: "must be the IDBKeyRange class (under Node: IDBKeyRange from 'fake-indexeddb')" }),
  ),
  /** `'auto'` (default): compute in a module Worker where `Worker` exists, else in-process. `'off'`: in-process. */
  worker: z.optional(z.enum(['auto', 'off'] satisfies WorkerMode[])),
  /**
   * A compute call (embed, scan) that takes longer than this rejects with WorkerError and the
   * worker is restarted; a worker that was terminated from outside is only noticed this way.
   * Default 30 000 ms.
   */
  workerTimeoutMs: z.optional(z.number().check(z.gt(0, TIMEOUT_RULE)).check(z.lte(3_600_000, TIMEOUT_RULE))),
  /** Replaces the offline hash embedder (256-d). */
  embedder: z.optional(z.custom<Embedder>(isEmbedder, { error: 'must be an embedder { id: non-empty string, dim: positive integer (or 0 with load()), embed(texts) }' })),
  /** Replaces the offline rule extractor. */
  extractor: z.optional(z.custom<Extractor>((value) => hasMethods(value, 'extract'), { error: 'must be an extractor { extract(userMessages, context) }' })),
  /** Replaces the seed's consolidation policy. */
  decider: z.optional(z.custom<Decider>((value) => hasMethods(value, 'decide'), { error: 'must be a decider { decide(input) }' })),
  /** Milliseconds since epoch; inject one to simulate time. Default `Date.now`. */
  clock: z.optional(z.custom<() => number>(isFunction, { error: 'must be a function returning ms since epoch' })),
  /**
   * Topics where a user holds one value at a time. Default `['diet', 'travel', 'identity']`.
   * Never `'episode'`: episodes accumulate and never replace one another.
   */
  exclusiveTopics: z.optional(
    z.readonly(z.array(Id)).check(z.refine((topics) => !topics.includes(EPISODE_TOPIC), { error: `must not include '${EPISODE_TOPIC}': episodes are kept side by side, never one at a time (turn them off with episodes: false)` })),
  ),
  /**
   * `true` (default): an ingest also keeps each user turn with personal content as an episode
   * (its text, bounded, on topic `'episode'`), retrieved beside facts and injected in its own
   * part of the block. `false`: facts only. Small talk is never kept.
   */
  episodes: z.optional(z.boolean({ error: 'must be true or false' })),
  /**
   * `true` (default): relevance also counts words related in meaning to the query's, through
   * WordNet (a table compute fetches once, before its first retrieve: see docs/embedder.md), so
   * "lunch" finds "eats fish". `false`: the query's words alone.
   */
  semantic: z.optional(z.boolean({ error: 'must be true or false' })),
  /** Base trust per source type, each from 0 to 1 (partial: merged over the defaults). */
  trust: z.optional(
    z.pipe(
      z.partialRecord(SourceType, z.number().check(z.gte(0, TRUST_RULE)).check(z.lte(1, TRUST_RULE))),
      z.transform((given): Readonly<Record<SourceType, number>> => ({ ...DEFAULT_TRUST, ...given })),
    ),
  ),
  /** Cosine at or above which an existing memory is a consolidation neighbour, from -1 to 1. Default 0.6. */
  candidateThreshold: z.optional(z.number().check(z.gte(-1, THRESHOLD_RULE)).check(z.lte(1, THRESHOLD_RULE))),
  /**
   * Memory id generator. Default `mem_` + 32 random hex digits (128 bits). A generated id that
   * already exists is never written over (whoever's record it is): the write is decided again
   * with a new id, and a generator that keeps repeating itself gets a ConflictError.
   */
  idGenerator: z.optional(z.custom<() => string>(isFunction, { error: 'must be a function returning a new id' })),
  /**
   * What to do with memories another embedder wrote. `'manual'` (default): `retrieve` rejects
   * with EmbedderMismatchError until `memory.reembed()` has run. `'auto'`: `createMemory`
   * re-embeds them before it resolves.
   */
  reembed: z.optional(z.enum(['auto', 'manual'])),
  /**
   * What opening does when the browser cleared or evicted the database engram stored here
   * (see StorageEvictedError). `'reject'` (default): `createMemory` rejects with
   * StorageEvictedError, never serving the empty database as the user's. `'start-over'`: the
   * empty database is accepted as a new store (then restore backups with `memory.import`).
   */
  onEviction: z.optional(z.enum(['reject', 'start-over'] satisfies EvictionPolicy[])),
  /**
   * Where memories are stored: a backend `{ open(context) }` (e.g. `createChromaStorage()` from
   * `engram/chroma`). Default: IndexedDB (Dexie, with the worker's vector index), named `name`.
   */
  storage: z.optional(z.custom<StorageBackend>((value) => hasMethods(value, 'open'), { error: 'must be a storage backend { open(context) }' })),
  /**
   * Encrypts at rest: every text that came from a user (contents, excerpts, history reasons,
   * stored messages and facts) and every vector and term list is stored AES-GCM-encrypted with
   * this key; indexes keep only ids, owner, app, scope, session, topic, state and versions. The
   * app holds the key (engram never stores it). A database is created with or without a key and
   * always opened the same way: a wrong, missing or extra key is an EncryptionKeyError at
   * `createMemory`, and nothing is written.
   */
  encryptionKey: z.optional(z.custom<CryptoKey>(isEncryptionKey, ENCRYPTION_KEY_RULE)),
  /**
   * Review before saving: what a write from one of `sources` would change (each CREATE and
   * UPDATE) waits as a pending memory, never retrieved or injected, until `memory.approve`
   * applies it or `memory.reject` erases it (`memory.pending` lists them). App-scope writes
   * (bootstrapped, the app's own) are never held. Default: nothing is held.
   */
  review: z.optional(
    z.strictObject({
      /** The source types whose writes wait for review, e.g. `['user_implicit', 'tool_output']`. */
      sources: z.readonly(z.array(SourceType)),
    }),
  ),
};
export const MemoryOptions: z.ZodMiniObject<typeof memoryOptionsShape, z.core.$strict> = z.strictObject(memoryOptionsShape);
export type MemoryOptions = z.input<typeof MemoryOptions>;
export type ParsedMemoryOptions = z.output<typeof MemoryOptions>;

const NODE_SETUP = "  import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';\n  createMemory({ indexedDB: new IDBFactory(), IDBKeyRange })";

/**
 * What Dexie needs of the `IDBKeyRange` class (the global one, or fake-indexeddb's): the
 * `IDBKeyRange` option. An interface, so emitted declarations name it instead of spelling out
 * the DOM's.
 */
export interface IDBKeyRangeClass {
  readonly prototype: IDBKeyRange;
  bound(lower: unknown, upper: unknown, lowerOpen?: boolean, upperOpen?: boolean): IDBKeyRange;
  lowerBound(lower: unknown, open?: boolean): IDBKeyRange;
  upperBound(upper: unknown, open?: boolean): IDBKeyRange;
  only(value: unknown): IDBKeyRange;
}

/** Fails before Dexie does (its "MissingAPIError" names no fix) when there is no IndexedDB to open. */
function checkIndexedDB(options: ParsedMemoryOptions): void {
  const globals = globalThis as { indexedDB?: unknown; IDBKeyRange?: unknown };
  if (options.indexedDB === undefined && globals.indexedDB === undefined) {
    throw new StorageError(`createMemory: there is no IndexedDB here (no options.indexedDB and no global indexedDB, as under Node). Install fake-indexeddb and pass it:\n${NODE_SETUP}`);
  }
  if (options.IDBKeyRange === undefined && globals.IDBKeyRange === undefined) {
    throw new StorageError(`createMemory: options.indexedDB needs its IDBKeyRange (there is no global IDBKeyRange, as under Node). Pass both from fake-indexeddb:\n${NODE_SETUP}`);
  }
}

/** Parses `createMemory`'s options: ValidationError for a bad or unknown option, StorageError when IndexedDB is missing. */
export function parseMemoryOptions(options: unknown): ParsedMemoryOptions {
  const parsed = parseInput(MemoryOptions, options === undefined ? {} : options, 'options');
  if (parsed.encryptionKey && parsed.storage) {
    throw new ValidationError('options.encryptionKey', 'encrypts the default IndexedDB storage and cannot be combined with options.storage (that backend stores what it is given); drop one of the two');
  }
  // Another backend needs no IndexedDB here.
  if (parsed.storage === undefined) checkIndexedDB(parsed);
  return parsed;
}
