/**
 * The storage contract: everything the stages (consolidate/, retrieve/, forget/, reembed/,
 * session/) need from where memories live, in engram's terms. Two layers sit under it:
 *
 * - **records** ({@link RecordStore}): owner-scoped reads, stored inputs, revocations and one
 *   atomic, versioned commit. IndexedDB (Dexie) by default; any store that can make a commit
 *   all-or-nothing and refuse a stale one fits.
 * - **vectors** ({@link VectorLayer}): the similarity searches (consolidation's neighbours,
 *   retrieval's ranked candidates). The worker's matrix by default; a backend with its own
 *   vector search (Chroma) implements it over that.
 *
 * Rules every backend keeps (each one is a test in test/contract/):
 * - Isolation lives here. Every read takes the owner and returns only records
 *   {@link isVisibleTo} that owner, even when an index query should already have filtered:
 *   a bug in a query must not become a leak. No read means "everyone".
 * - Records come back parsed (`MemoryRecord`); a stored row that fails to parse is skipped and
 *   its id added to {@link RecordStore.quarantined}, never returned, never a crash.
 * - Every owner's memories live in partitions ({@link userPartition}, {@link appPartition});
 *   each partition has a version that every commit touching it bumps by one. Versions are
 *   what makes a decision safe: a commit made against versions that moved is refused.
 * - A commit is all or nothing. A failure at any step leaves the store as it was before (or,
 *   for a store without transactions that finishes an interrupted commit when it is opened
 *   next, as it is after); never between.
 */
import type { MemoryRecord, Scope, Weights } from '../schema';
import type { InputRow, PendingEntry, PruneInput, WriteInput } from './input-row';
import { appPartition, isVisibleTo, partitionOf, partitionsFor, recordUserId, userPartition, type Owner } from './owner';

export { appPartition, isVisibleTo, partitionOf, partitionsFor, recordUserId, userPartition };
export type { InputRow, Owner, PendingEntry, PruneInput, WriteInput };

/** Everything one write (a consolidation, an erasure, a prune, a re-embedding) stores, at once. */
export interface Commit {
  /**
   * Records to put (new or changed), complete: a backend whose {@link RecordStore.workingSet}
   * returns complete records gets nothing else. (engram's IndexedDB backend hands out working
   * form, and its commits say which records are in it, in a field this type leaves out.)
   */
  records: MemoryRecord[];
  /**
   * Ids among `records` that this write creates. If any already exists (another owner's record
   * included) or one is listed twice, nothing is written and the commit rejects with
   * IdCollisionError, so the write is decided again with new ids: a CREATE never overwrites a
   * record it did not read.
   */
  creates?: readonly string[];
  /** Inputs to append to the ordered log (the conversation being ingested, a remembered fact, a prune). */
  inputs?: InputRow[];
  /** Inputs to delete by `seq` (erasure removes a revoked source's conversations). */
  deleteInputs?: number[];
  /**
   * Stored inputs to replace in place, each by its `seq` (forget takes a fact out of the
   * conversations it came from): their place in the log stays. The store drops whatever it
   * derived from the old inputs at or after the first of them (checkpoints).
   */
  rewriteInputs?: InputRow[];
  /**
   * Excerpts to blank (forget): every source with one of `sourceIds` in the owner's records
   * whose excerpt is one of `excerpts` (the ones that quote a forgotten span) gets the excerpt
   * `''`, as a revocation does for every excerpt of its sources.
   */
  redactExcerpts?: { userId: string; appName: string; sourceIds: readonly string[]; excerpts: readonly string[] };
  /**
   * Records that this owner revoked these sources (forgetSource): from then on {@link RecordStore.isRevoked}
   * says so for each, and the excerpt of every source with one of these ids in the owner's records is blanked.
   */
  revoke?: { userId: string; appName: string; sourceIds: readonly string[]; at: number };
  /**
   * The owner's user-partition version when the write of `inputs` began. An input whose source
   * was revoked at a version after it (or at any version, when this is absent) is refused with
   * PermissionError and nothing is written: it raced the erasure.
   */
  inputsBaseVersion?: number;
  /**
   * This commit is the rebuild that finishes an erasure made on a full disk
   * ({@link RecordStore.eraseByDeleting}): it may land on the partition the erasure left waiting
   * (every other commit there is refused until it has), and moves its version past every one it had.
   */
  finishesErasure?: boolean;
  /**
   * Partition versions the decision was made against. If any partition's current version
   * differs, nothing is written and the commit rejects with ConflictError (decide again).
   * Every partition named here, every partition of `records` and the revoking owner's
   * partition are bumped by one.
   */
  expected: ReadonlyMap<string, number>;
}

/** What a commit did, for the vector layer to follow ({@link VectorLayer.afterCommit}). */
export interface CommitResult {
  /** Partition key → [version before, version after] for every partition the commit bumped. */
  versions: Map<string, [number, number]>;
  /** Partitions whose stored vector copies the commit dropped (it wiped a vector); a backend may leave it out. */
  packsDropped?: string[];
}

/** Where one record is, for the re-embedding walk. */
export type RecordLocation = Pick<MemoryRecord, 'id' | 'userId' | 'appName' | 'scope'>;

/**
 * The records layer: owner-scoped reads and the one way to write. Every method that takes an
 * `owner` returns only what {@link isVisibleTo} allows that owner (app-scope records of its app
 * included). Reads and commits reject with StorageError (QuotaError when out of space) when
 * the store fails, with the action that failed in the message.
 */
export interface RecordStore {
  /** Ids of stored rows that failed validation when read (skipped, never returned). */
  readonly quarantined: ReadonlySet<string>;
  /** The current version of each partition key (0 for a partition never written). */
  versions(keys: readonly string[]): Promise<Map<string, number>>;
  /** Records by id that are visible to `owner`, in the order asked; missing and foreign ones are dropped alike. */
  getMany(ids: readonly string[], owner: Owner): Promise<MemoryRecord[]>;
  /**
   * The owner's records of the given scopes (`'app'`: its app's app-scope records), oldest
   * first (`createdAt`, then id); tombstones only with `includeInvalid`.
   */
  list(owner: Owner, options: { scopes: readonly Scope[]; includeInvalid: boolean }): Promise<MemoryRecord[]>;
  /**
   * What one consolidation decides over: the records `ids` (the similarity neighbours, any
   * state) united with the active records of `scope` on each of `topics` (the topic sweep:
   * consolidation names exclusive topics here, and the topics a candidate's slot may be on,
   * where a contradiction must be found by topic or slot alone) and the active records of `scope` that hold one of `facts` (same topic, and
   * the same text by `sameFactKey`: all a non-exclusive topic needs, so a store should find
   * them by an index, not by reading the topic), visible to `owner`. Returning more is allowed.
   * Records may come in *working form*: `sources` holds at least the first source of each
   * type (working-form.ts `summarize`) and every source with id `sourceId`, `history` may be empty. Complete records are a
   * valid working form.
   */
  workingSet(owner: Owner, request: { ids: readonly string[]; topics: readonly string[]; facts?: readonly { topic: string; content: string }[]; scope: Scope; sourceId: string }): Promise<MemoryRecord[]>;
  /** All of the owner's records (any state) that list `sourceId` among their sources. */
  bySource(owner: Owner, sourceId: string): Promise<MemoryRecord[]>;
  /**
   * What an erasure of `sourceIds` reads, oldest first, user and session scope only: at least
   * the owner's active records, those that list one of the sources, and those changed by a write
   * at or after input `fromSeq` (the sources' first input). It may return more of the owner's records.
   */
  erasureSet(owner: Owner, request: { sourceIds: readonly string[]; fromSeq: number | undefined }): Promise<MemoryRecord[]>;
  /**
   * Optional: {@link erasureSet} and, when `fromSeq` is given, {@link checkpointBefore}(`fromSeq`)
   * in one read, as the two would answer. A store that keeps a memory's lists apart (the
   * IndexedDB one) reads the lists the two share once: an erasure's set and its checkpoint hold
   * the same long-lived memories. Without it, the erasure calls the two.
   */
  erasureReads?(owner: Owner, request: { sourceIds: readonly string[]; fromSeq: number | undefined }): Promise<{ records: MemoryRecord[]; checkpoint: { seq: number; records: MemoryRecord[] } | null }>;
  /**
   * The owner's stored inputs (user and session writes and prunes), in the order written (`seq`),
   * never by clock. Inputs come back parsed (storage/input-row.ts): replay rebuilds memories from
   * them, so a damaged one rejects the read with StorageError instead of being skipped.
   */
  inputs(owner: Owner): Promise<InputRow[]>;
  /** The owner's stored inputs with `seq` greater than `seq`, in order. */
  inputsAfter(owner: Owner, seq: number): Promise<InputRow[]>;
  /** The owner's stored inputs of one source, in order. */
  inputsOf(owner: Owner, sourceId: string): Promise<InputRow[]>;
  /**
   * Optional, a hint: whether a write of one of the sources made a memory (created one, or an
   * UPDATE's new version) rather than only corroborating what was stored. forgetSource of sources
   * that only restated is made without a replay (forget/restated.ts); when this says true it
   * replays at once instead of reading the owner's records to find out, then again for the replay.
   * Either answer leaves the erasure correct (the records are what decides): true may only cost
   * the shortcut, false a second read. Without this method the records decide alone.
   */
  createdBy?(owner: Owner, sourceIds: readonly string[]): Promise<boolean>;
  /**
   * Optional: whether the owner has a stored prune (an input of kind `'prune'`) with `seq`
   * greater than `seq`, read without reading the other inputs. forgetSource of sources that only
   * restated is made without a replay when none is (forget/restated.ts); without this method it
   * always replays.
   */
  prunedAfter?(owner: Owner, seq: number): Promise<boolean>;
  /**
   * The owner's stored inputs that hold writes waiting for review (a `pending` entry), in order:
   * what the review queue is made of (review/held.ts). It may return more of the owner's inputs
   * (a backend without an index for them filters {@link inputs}); the queue reads only their
   * pending entries. The IndexedDB backend reads these rows alone, by index.
   */
  heldInputs(owner: Owner): Promise<InputRow[]>;
  /**
   * The owner's user- and session-scope records as they were right after some input before
   * `seq`, and that input's seq, so regeneration can replay from there; null when the store
   * keeps no such checkpoint (then replay starts from the beginning). Always allowed to be null.
   */
  checkpointBefore(owner: Owner, seq: number): Promise<{ seq: number; records: MemoryRecord[] } | null>;
  /**
   * Facade-only: where the record `id` is (its owner and scope), whoever owns it; undefined when
   * the database holds no such id. No stage calls it (every stage read is owner-scoped): it
   * serves engram/mem0, whose id-only calls name a memory by its 128-bit id alone, and which
   * then reads the record with the owner-scoped {@link getMany}.
   */
  locate(id: string): Promise<RecordLocation | undefined>;
  /** Whether the owner has revoked `sourceId` with forgetSource before. */
  isRevoked(owner: Owner, sourceId: string): Promise<boolean>;
  /**
   * Applies `commit` all or nothing (see {@link Commit} for each refusal). Versions are checked
   * and bumped in the same atomic step as the writes, so two writers can never both succeed
   * against one version.
   * @throws ConflictError, IdCollisionError, PermissionError, StorageError; nothing written on any.
   */
  commit(commit: Commit): Promise<CommitResult>;
  /**
   * Active records of every owner whose vectors another embedder than `embedderId` wrote, in
   * id order after `afterId`, at most `limit`; `lastId` is the last one returned, to continue
   * after (undefined: none left). Re-embedding reads each batch again with {@link getMany}.
   */
  foreignActive(embedderId: string, afterId: string | undefined, limit: number): Promise<{ rows: RecordLocation[]; lastId: string | undefined }>;
  /** How many active records of every owner another embedder than `embedderId` wrote. */
  countForeign(embedderId: string): Promise<number>;
  /**
   * Optional: ids of the owner's active user- and session-scope records whose vector
   * `embedderId` wrote, found by an index (O(those records), not O(the owner's)). A write looks
   * for the memories an erasure left waiting for a vector this way after every commit in a
   * partition with foreign rows; without it, the owner's records are listed and filtered.
   */
  activeOfEmbedder?(owner: Owner, embedderId: string): Promise<string[]>;
  /**
   * Optional, for a store whose writes fail for want of room while deletes still commit (the
   * IndexedDB backend, as Chromium at an exhausted quota): an erasure by deletes alone, against
   * the versions `expected` (ConflictError when the owner's partition moved). It deletes the stored
   * inputs `deleteInputs` and every row of the memories `memoryIds` (with what shares their
   * history), and leaves the owner's partition waiting for a rebuild ({@link erasurePending}),
   * which a commit with `finishesErasure` makes; until then every other commit of that partition
   * rejects with StorageError. Resolves to the ids of the memories deleted.
   */
  eraseByDeleting?(owner: Owner, expected: ReadonlyMap<string, number>, erasure: { deleteInputs: readonly number[]; memoryIds: readonly string[] }): Promise<string[]>;
  /** Optional, with {@link eraseByDeleting}: whether an erasure by deletes left the owner's partition waiting for its rebuild. */
  erasurePending?(owner: Owner): Promise<boolean>;
}

/** The candidate search retrieval runs: the caller's visible memories ranked by the blended score. */
export interface VectorSearch {
  owner: Owner;
  /** Scopes to search; rows of any other scope are never candidates. */
  scopes: readonly Scope[];
  /** Session-scope rows are candidates only when their session is this one. */
  sessionId?: string;
  /** The query's embedding (the embedder's `dim`, L2-normalised). */
  vector: Float32Array;
  /** The query's text, for a lexical channel where the layer has one; without one, relevance is the cosine. */
  text?: string;
  k: number;
  /**
   * How many of the first hits the caller reads the records of (default: all `k`). Retrieval
   * asks one hit past the ones it returns, to see whether the memories tied with the last go
   * on past it, and needs no record of that one: a layer that reads records with its hits
   * ({@link VectorHit.record}) reads only these.
   */
  records?: number;
  /** Ms since epoch, for recency. */
  now: number;
  weights: Weights;
}

/** One candidate of a {@link VectorSearch}: `score = weights·(relevance, recency, importance)`. */
export interface VectorHit {
  id: string;
  score: number;
  /** The fused relevance (the cosine when the query shares no term with any candidate, or the layer has no lexical channel). */
  relevance: number;
  cosine: number;
  /** The lexical channel relative to the query's best lexical match, 0–1 (0 without a lexical channel). */
  lexical: number;
  /** The part of `lexical` the semantic channel brought (worker/concepts.ts); absent without one. */
  semantic?: number;
  /** `0.5 ** (ageDays / halfLifeDays)`. */
  recency: number;
  importance: number;
  /**
   * Optional: the hit's record, when the layer read it anyway in the read that ranked it (the
   * IndexedDB layer's exact re-rank reads the candidates' rows), parsed and checked against the
   * owner by the records layer's own rules; `null`: read, and not visible or not valid. When every
   * hit carries one, retrieval does not read them again with {@link RecordStore.getMany}.
   */
  record?: MemoryRecord | null;
}

/**
 * The vector layer: similarity over the active records of each partition, kept in step with
 * the records layer. Hits are ids: the stages read the records with {@link RecordStore.getMany}
 * (so isolation is checked again there) and skip ids that no longer come back.
 */
export interface VectorLayer {
  /**
   * Brings the partitions up to their current versions (writes made by other instances and
   * tabs included) and resolves to those versions, which a decision then commits against.
   */
  ensure(keys: readonly string[]): Promise<Map<string, number>>;
  /**
   * For each vector, the ids of the active records of `scope` in partition `key` (for session
   * scope with `sessionId`, of that session only: the limit is not spent on other sessions'
   * memories, which the sweep drops) whose cosine is ≥ `threshold`: the `limit` most similar,
   * most similar first (the consolidation sweep). It may return more: rows tied with the
   * `limit`-th, or, where it compares approximately (8-bit codes), a superset that holds them;
   * the sweep compares the records it reads exactly, so the decision is the same.
   */
  neighbours(key: string, vectors: readonly Float32Array[], options: { threshold: number; scope: Scope; sessionId?: string; limit: number }): Promise<string[][]>;
  /** The top `k` candidates for a query among what `search.owner` may see (see {@link VectorSearch}), best first. */
  search(search: VectorSearch): Promise<VectorHit[]>;
  /**
   * True when `search` itself brings its partitions up to the store's versions, checked in the
   * read that returns the hits' records (the IndexedDB layer): a retrieve then needs no
   * `ensure` before it, and reads the store once. Absent: the caller ensures first.
   */
  readonly searchCatchesUp?: boolean;
  /**
   * How many active records of a partition (as of the last ensure) were embedded by another
   * embedder: they cannot be searched with this one, so a search would silently miss them.
   */
  foreignRows(key: string): number;
  /**
   * Follows a commit this instance made (`records`: what it wrote); the next ensure catches up on
   * anything else, this commit included when following it failed (writeOwner does not wait for
   * that failure: the commit stands and the write resolves).
   */
  afterCommit(result: CommitResult, records: readonly MemoryRecord[]): Promise<void>;
  /** Resolves when background work (snapshot writes) has finished: tests, benchmarks, close. */
  settled(): Promise<void>;
  /** Forgets everything loaded: the store under it went away (another tab deleted it) and versions restart. */
  reset(): Promise<void>;
}

/** An opened storage: the two layers and what the stages name their locks with. */
export interface Storage {
  /**
   * The namespace of this store's write locks. Writers of one partition on the same store (in
   * any tab or instance) take turns under `engram:<lockName>:<partition>`; two stores with
   * different names never wait for each other.
   */
  readonly lockName: string;
  readonly records: RecordStore;
  readonly vectors: VectorLayer;
  /**
   * Optional: calls `onChange` after any commit, by this instance or another one on the same
   * store (another tab), that bumped one of `partitions`; returns the function that stops it.
   * `memory.subscribe` needs it (a backend without it refuses subscriptions).
   */
  watch?(partitions: readonly string[], onChange: () => void): () => void;
  /**
   * Optional: calls `onErase` after another instance on the same store (another tab, another
   * `createMemory` over the same database) commits an erasure (a revocation, a redaction, a
   * deletion or rewrite of stored inputs, a wiped vector), so this one drops the user text it
   * holds in memory; returns the function that stops it. Not called for this instance's own
   * erasures: the erasing verb clears its caches itself.
   */
  watchErasures?(onErase: () => void): () => void;
  /**
   * Optional: rejects (StorageEvictedError) once the store this instance opened is found gone
   * (a browser evicted or cleared it); run before every call. Cheap while nothing is suspect.
   */
  check?(): Promise<void>;
  /** Releases the store (database connection, client). Calls after it reject. Compute is not closed here. */
  close(): Promise<void>;
}

/** What a backend is opened with: engram's choices that the store has to agree with. */
export interface StorageContext {
  /** The memory's name (`createMemory({ name })`, default `'engram'`): the database, collection prefix or lock namespace. */
  name: string;
  /** The embedder in use: every vector a search gets or a record carries from it has `dim` values. */
  embedder: { id: string; dim: number };
}

/**
 * How a storage is given to `createMemory({ storage })`; IndexedDB (Dexie and the worker's
 * matrix) when none is. `open` is called once per `createMemory`.
 * @throws StorageError from `open` when the store cannot be reached or opened (say how to fix it).
 */
export interface StorageBackend {
  open(context: StorageContext): Promise<Storage>;
}
