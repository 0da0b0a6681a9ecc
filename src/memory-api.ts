/**
 * The public shape of engram: the options `createMemory` takes and the `Memory` it returns.
 * Kept apart from the wiring in memory.ts so the contract reads on one page.
 */
import type { ForgetReport } from './forget/forget';
import type { PruneReport } from './forget/prune';
import type { Assembled } from './inject/assemble';
import type { AssembleOptions, IngestOptions, ListOptions, OwnerOptions, PruneOptions, ReembedOptions, RememberOptions, RetrieveOptions, SummarizeOptions } from './options';
import type { ReembedReport } from './reembed/reembed';
import type { Retrieved } from './retrieve/retrieve';
import type { ChatMessage, Fact, HistoryEntry, ListedMemory, MemoryRecord, Operation } from './schema';
import type { UndoReport } from './undo/undo';
import type { WhyReport } from './control/why';
import type { PendingMemory } from './review/held';
import type { RejectReport } from './review/review';
import type { Explanation } from './retrieve/explain';
import type { ImportReport, OwnerExport } from './transfer/format';
import type { PersistResult, StorageEstimateResult } from './durability/persist';
import type { ChangeListener } from './durability/subscribe';

export type { ImportReport, OwnerExport } from './transfer/format';
export type { PendingMemory } from './review/held';
export type { RejectReport } from './review/review';
export type { Explanation, Miss, MissReason } from './retrieve/explain';
export type { PersistResult, StorageEstimateResult } from './durability/persist';
export type { ChangeEvent, ChangeListener } from './durability/subscribe';

/** What `createMemory` accepts; inferred from the strict schema in memory-options.ts, which also checks it. */
export type { MemoryOptions } from './memory-options';

export interface Memory {
  /** Where compute runs: `'worker'` or `'in-process'`. */
  readonly computeLocation: 'worker' | 'in-process';
  /**
   * Extracts facts from the `role: 'user'` messages, consolidates them with the owner's
   * memories (CREATE / UPDATE / NOOP, each with its reason) and stores the result together
   * with the user messages, in one transaction. Never writes app scope.
   * @throws ValidationError for bad input (nothing is stored), PermissionError when the source
   * was revoked while the call was in flight, StorageError/QuotaError when IndexedDB fails.
   */
  ingest(messages: readonly ChatMessage[], options: IngestOptions): Promise<Operation[]>;
  /**
   * Writes one fact without extraction, through the same consolidation. The only way to write
   * `scope: 'app'` (visible to every user of the app), and only with a `bootstrapped` source.
   * @throws PermissionError for an app-scope write from any other source type.
   */
  remember(fact: Fact, options: RememberOptions): Promise<Operation>;
  /**
   * The top-k memories for `query` among the caller's own (user scope, plus that session's
   * when `sessionId` is given) and its app's app-scope ones, scored
   * `relevance·fused + recency·0.5^(age/halfLife) + importance·importance`, where the fused
   * relevance blends the cosine with a BM25 lexical channel (`Retrieved` shows each part). Tombstones never appear.
   * Best score first; of equal scores the pinned first, then the oldest (`createdAt`), then by
   * id: the same order on every backend and after an export → import.
   * `weights` may be partial: the missing ones are the defaults (see RetrieveOptions).
   * With `asOf` (ms since epoch): the same ranking over what the store held at that time (see
   * `list`), recency measured at `asOf`.
   * With `profile: true`: the user's standing profile too (who the user is: name, pronouns,
   * home, job, diet, allergies; retrieve/profile.ts), marked `profile`, not counted in k, and
   * written by `inject`/`assemble` under a heading of its own.
   */
  retrieve(query: string, options: RetrieveOptions): Promise<Retrieved[]>;
  /**
   * Why `retrieve` answers what it does: `hits` are exactly its results for the same query and
   * options (one run of the same ranking), each with its score parts (relevance from cosine and
   * lexical, recency, importance); `misses` are the nearest memories left out (up to 10, best
   * score first), each with `reason` and `detail`: `'below-k'` (ranked after the top k),
   * `'pending'` (waits for review), `'other-session'` (a session memory of another session, or
   * the query names none), `'decayed'` (pruned below a floor). A miss that no search could
   * return is scored as if it were an active user memory, on the same formula.
   * @throws the same errors as `retrieve`.
   */
  explain(query: string, options: RetrieveOptions): Promise<Explanation>;
  /**
   * The system prompt followed by a `<MEMORIES>` block: one line per memory with the band of
   * its decayed confidence (high ≥ 0.75, medium ≥ 0.5, low) and its latest source type. Memory
   * text is escaped so it cannot close the block or start a line of its own. Entries marked
   * `profile` (retrieve's `profile: true`) come first, under `PROFILE_HEADING`.
   * @throws ValidationError when `retrieved` is not what `retrieve` resolved to (a Promise: await
   * it; MemoryRecords from `list`/`get`: retrieve, or wrap each as `{ memory, score, … }`).
   */
  inject(system: string, retrieved: readonly Retrieved[]): string;
  /**
   * `inject` under a token budget: the system prompt and the `<MEMORIES>` block (the same lines
   * and escaping) holding the best-ranked of `retrieved` that fit in `maxTokens`, counted over
   * the whole text with `countTokens` (the app's tokenizer; without one an upper bound, UTF-8
   * bytes plus one, that no byte-level BPE or SentencePiece tokenizer exceeds). A memory is in
   * or out whole; the budget drops the lowest-ranked first (rank: score, ties oldest first).
   * `order: 'stable'` writes the chosen memories by creation, then id, and bands each by its
   * confidence as last stored (not decayed to now), so an unchanged chosen set gives a
   * byte-identical block turn after turn and a memory created later is written after the
   * existing lines: prompt caches keep the prefix. The trade-off: the band does not fall as a
   * memory ages until it is written again (ranking and `prune` still decay).
   * @returns `{ text, included, dropped, tokens }`: `included` in the order written, `dropped`
   * best first, `tokens = countTokens(text) ≤ maxTokens`.
   * @throws ValidationError for bad arguments or a `maxTokens` too small for the system prompt
   * and the empty block; PluginError when `countTokens` throws or returns no count.
   */
  assemble(system: string, retrieved: readonly Retrieved[], options: AssembleOptions): Assembled;
  /**
   * Right to erasure: memories only `sourceId` supported become tombstones without text; the
   * others it touched are rebuilt by replaying the owner's remaining conversations. No text
   * that came only from the source remains in the database afterwards. An array of ids forgets
   * them all in one replay and one commit (the same result as one call each, much faster for many).
   */
  forgetSource(sourceId: string | readonly string[], options: OwnerOptions): Promise<ForgetReport>;
  /**
   * The user deletes one memory (a "delete" in a chat app's memory settings). Its text leaves
   * everything stored: the memory becomes a tombstone without text (history event `erased`),
   * and the fact is taken out of every stored conversation it was extracted from, its span
   * cut out there (no mark left) while the rest of each message stays for the memories it
   * still supports; what quoted the span loses it too (the episode of that turn is rebuilt
   * without it, excerpts and reasons that quote it are blanked). The memory's other sources
   * and the other memories stay. Because the stored conversations no longer hold it, no later
   * replay (`forgetSource`, `asOf`, `reembed`, an `import` of the export) brings it back; if
   * the user states it again in a new message, it is remembered again. The memory is its whole
   * line: every earlier version it superseded (a `correct`, a later message's UPDATE) is
   * forgotten with it, so none comes back. Forgetting a memory already forgotten does nothing.
   * @returns `{ erased, regenerated }` as forgetSource: the memory and its earlier versions (and
   * any record that only quoted them), and the memories rebuilt because their text or sources changed.
   * @throws NotFoundError for a memory the owner does not have; PermissionError for app scope;
   * ValidationError for a bad id or owner.
   */
  forget(id: string, owner: OwnerOptions): Promise<ForgetReport>;
  /**
   * The user's own correction of one memory (an "edit" in a chat app's memory settings): a
   * `user_explicit` UPDATE of it to `content`, on its topic and scope, written under the source
   * `correction:<id>` (so `forgetSource` of that id reverts it). The old memory stays in history
   * as superseded, the new one inherits its sources (lineage) and its pin. Stored as an input
   * like `remember({ replaces })`, so every replay makes the same correction.
   * @returns the Operation: an UPDATE (`memoryId`: the corrected memory's new id), or a NOOP when
   * the memory already says `content`.
   * @throws NotFoundError for a memory the owner does not have; PermissionError for app scope;
   * ConflictError for a memory no longer active (its current version is named) or when a more
   * trusted source stands behind it (a `bootstrapped` one: the trust gate refuses the UPDATE);
   * ValidationError for empty or oversized content.
   */
  correct(id: string, content: string, owner: OwnerOptions): Promise<Operation>;
  /**
   * Pins one memory: it no longer decays (recency 1, confidence as stored), is never pruned,
   * comes first among memories of equal score in `retrieve`, and shows `pinned: true`. The pin
   * passes to what the memory becomes (an UPDATE, `correct`, a regeneration) and travels in
   * `export`/`import`. Changes no content and no time. Pinning a pinned memory does nothing.
   * @returns the record as it stands.
   * @throws NotFoundError for a memory the owner does not have; PermissionError for app scope;
   * ConflictError for a memory no longer active.
   */
  pin(id: string, owner: OwnerOptions): Promise<MemoryRecord>;
  /** Undoes `pin`: the memory decays and may be pruned again. Errors as `pin`. */
  unpin(id: string, owner: OwnerOptions): Promise<MemoryRecord>;
  /**
   * What made one memory what it is (a "why do you think that?"): its line (the memories it was
   * updated or rebuilt from, oldest first), every event of the line with its reason and the
   * source whose statement caused it, and the sources behind it (type, id, time, and the excerpt
   * while it exists: `null` once erased). Works on tombstones too.
   * @throws NotFoundError for a memory the owner cannot see.
   */
  why(id: string, owner: OwnerOptions): Promise<WhyReport>;
  /**
   * The owner's memories and its app's app-scope ones, oldest first; tombstones with `includeInvalid`.
   * With `asOf` (ms since epoch): the memories as they stood at that time, active then, with the
   * confidence and sources they had then, under the ids of the stored records they became. The
   * past is rebuilt by replaying the stored inputs written up to `asOf` (in write order), not
   * read off today's records, so erasure reaches it: a forgotten source never reappears as of
   * any time. A memory whose record is not found again keeps an `asof_…` id of its own.
   * Each says its `kind`: `'fact'`, or `'episode'` (a turn kept in the user's words; its facts
   * name it in `episodeId` or `restatedIn`).
   */
  list(options: ListOptions): Promise<ListedMemory[]>;
  /** One memory visible to `owner`. @throws NotFoundError when missing or foreign (indistinguishable on purpose). */
  get(id: string, owner: OwnerOptions): Promise<MemoryRecord>;
  /** The audit trail of one memory: created, corroborated, superseded, erased, regenerated, pruned, each with its reason. */
  history(id: string, owner: OwnerOptions): Promise<HistoryEntry[]>;
  /**
   * Reverts one consolidation, given the Operation `ingest` or `remember` resolved to: an UPDATE's
   * memory goes and the memory it superseded is active again with its sources; a CREATE's memory
   * goes. The memory that goes is left as a tombstone without text (history event `erased`), and
   * its fact is taken out of the stored conversation it came from, so no later replay
   * (forgetSource, asOf) brings it back: undoing every operation of the last message leaves the
   * store that never received it. Only the latest consolidation of a memory can be undone.
   * A revert, not an erasure: the excerpt of the source stays (IndexedDB keeps it in the source's
   * lineage row) until `forgetSource` of that source erases it.
   * @returns `{ removed, restored }`: the id that went, and for an UPDATE `{ from, to }`: the
   * superseded memory and the id it stands under again (a tombstone is never rewritten), else null.
   * @throws ConflictError saying what depends on it when something was built on it: the memory
   * was corroborated, pruned or superseded since, or a later write was decided with it in place
   * (replaying without it would give other memories); ValidationError for a NOOP (nothing was
   * made) or an operation that does not match the store; NotFoundError for a memory the owner
   * does not have; PermissionError for app scope.
   */
  undo(operation: Operation, owner: OwnerOptions): Promise<UndoReport>;
  /**
   * The owner's memories waiting for review (`createMemory({ review: { sources } })`), oldest
   * first: what a write from a reviewed source type would create or update, not applied yet.
   * A pending memory is never retrieved, injected, listed by `list` or counted by `prune`; a
   * fact already pending is not queued twice.
   */
  pending(owner: OwnerOptions): Promise<PendingMemory[]>;
  /**
   * Applies one pending memory as it was decided, under the id `pending` listed: a CREATE
   * stores it, an UPDATE supersedes its target now (not before). The consolidation rules still
   * hold (an exclusive topic that gained a memory since is replaced, not doubled; the trust gate).
   * @returns the Operation that was applied (`undo` takes it).
   * @throws NotFoundError when `id` is not pending for `owner` (approved or rejected already, or
   * never); ConflictError when the memory an UPDATE would supersede is no longer active (reject it).
   */
  approve(id: string, owner: OwnerOptions): Promise<Operation>;
  /**
   * Erases one pending memory: its fact leaves the stored conversation and its span is redacted
   * from the stored messages, so no text of it remains and no replay (forgetSource, asOf)
   * brings it back. It was never a record, a vector or a lexical entry.
   * @throws NotFoundError when `id` is not pending for `owner`.
   */
  reject(id: string, owner: OwnerOptions): Promise<RejectReport>;
  /** Invalidates the owner's memories whose decayed confidence fell below `floor` (history event `pruned`). */
  prune(options: PruneOptions): Promise<PruneReport>;
  /** Writes one session-scope summary of the user's durable statements (null when there are none). */
  summarizeSession(messages: readonly ChatMessage[], options: SummarizeOptions): Promise<Operation | null>;
  /**
   * Everything stored for one owner, as plain JSON-ready data (a user's "download my data"):
   * their memories with sources and history (tombstones included, vectors left out) and the
   * conversations and facts they were derived from. App-scope memories are not the user's and
   * are not included.
   */
  export(owner: OwnerOptions): Promise<OwnerExport>;
  /**
   * Restores what `export` produced, on another device or after this one lost its data: the
   * memories with their sources and history, and the stored inputs in their order, so
   * `forgetSource` works as before the move. Vectors are not exported: active memories are
   * embedded again with this memory's embedder. Nothing is merged: the owner named in `data`
   * must have no memories and no stored inputs here, or the import is refused. All or nothing:
   * every refusal writes nothing. `export → import → export` gives the same data apart from
   * `exportedAt` (and `embedderId`, when this device embeds with another embedder).
   * @throws ValidationError for data that is not a valid 'engram-export/1' export (wrong format
   * version, oversized or malformed fields, `supersededBy` pointing outside it or in a cycle, a
   * source without its stored input), PermissionError for a memory of another owner or of app
   * scope, ConflictError when the owner already has data here or an id is taken by another
   * owner's memory.
   */
  import(data: unknown): Promise<ImportReport>;
  /**
   * Calls `listener` after every commit that changes what `owner` sees (their memories, or
   * their app's app-scope ones), whichever tab, worker or instance on this database made it.
   * Not called for the state at subscription time; read it with `list`. Calls are batched
   * by the browser: several quick commits may be one call. A listener that throws is reported
   * as an uncaught error and stays subscribed.
   * @returns a function that ends the subscription (`close()` ends them all).
   * @throws ValidationError for a bad owner or a listener that is not a function.
   */
  subscribe(owner: OwnerOptions, listener: ChangeListener): () => void;
  /**
   * Asks the browser to keep this origin's storage (`navigator.storage.persist()`), so it is not
   * evicted under storage pressure; resolves to the browser's answer. `supported: false` where
   * there is no Storage API (Node).
   */
  persist(): Promise<PersistResult>;
  /** The origin's storage usage and quota (`navigator.storage.estimate()`) and whether it is persistent. */
  storageEstimate(): Promise<StorageEstimateResult>;
  /**
   * Re-embeds, in batches, every active memory (of every owner) that another embedder wrote,
   * with this memory's embedder. Until it has finished, `retrieve` over those memories rejects
   * with EmbedderMismatchError. Safe to interrupt: each batch is committed on its own, and
   * calling it again (after a reload too) continues with what remains.
   * @throws AbortedError when `signal` fires (the batches done so far stay stored).
   */
  reembed(options?: ReembedOptions): Promise<ReembedReport>;
  /**
   * Releases the database connection and terminates the worker, once the writes in flight have
   * finished (each resolves or rejects on its own terms). Every later call rejects (`inject`
   * throws) with ClosedError, and so does a read still running; closing twice is fine.
   */
  close(): Promise<void>;
}
