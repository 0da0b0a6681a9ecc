/**
 * `Memory`: mem0 OSS v3's class over engram, so a mem0 caller switches by its import line.
 * Calls and shapes are mem0's; underneath, every write goes through engram's extraction and
 * consolidation, every read through its owner-scoped query layer, and every delete through
 * its erasure (`forgetSource`), which leaves no text of what was deleted behind.
 */
import { createMemory, Fact, NotFoundError, PermissionError, StorageError, ValidationError, type Memory as EngramMemory, type MemoryOptions, type MemoryRecord, type Metadata } from 'engram';
import { checkQuery, checkSearchParams, entityId, entityTarget, expirationOf, filterTarget, messagesOf, rejectTopLevelIds, type Target } from './arguments';
import { compileFilter } from './filters';
import { chooseForPrompt } from './prompt';
import { scoredForSearch } from './standing';
import { rootOf } from './lineage';
import { ownerReader, replaceOnlyOf, resolveId, retrieveUnflooredOf, type Owner, type Resolved } from './resolve';
import {
  envelopeFor,
  envelopeOf,
  filterDocument,
  isExpired,
  toHistoryRows,
  toItem,
  type AddMemoryOptions,
  type DeleteAllMemoryOptions,
  type GetAllMemoryOptions,
  type HistoryRow,
  type MemoryItem,
  type Message,
  type SearchFilters,
  type SearchMemoryOptions,
  type SearchResult,
  type UpdateMemoryOptions,
} from './shapes';
import { addedItems, eraseMemory, ingestMessages, newCallId, rememberOptions, sourcesOfOwner, storeVerbatim } from './writes';

/** What `new Memory(config)` takes: engram's options (it opens its own store) or an open engram `memory`. */
export interface MemoryConfig extends MemoryOptions {
  /** An engram Memory to use instead of opening one; `reset()` is then refused (the store is not this facade's). */
  memory?: EngramMemory;
  /** Optional: id-only calls (`get`, `update`, `delete`, `history`) then resolve only this user's memories. Without it they resolve any id the database holds, as in mem0. */
  userId?: string;
  /** With `userId`: the app of id-only calls (engram's `appName`). Default `'default'`. */
  agentId?: string;
}

const NODE_SETUP = "  import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';\n  new Memory({ indexedDB: new IDBFactory(), IDBKeyRange })";

/**
 * createMemory's check that there is an IndexedDB to open, made before it so the advice names
 * this facade's constructor (a mem0 caller never calls createMemory). Another backend needs none.
 */
function checkIndexedDB(options: MemoryOptions): void {
  if (options.storage !== undefined) return;
  const globals = globalThis as { indexedDB?: unknown; IDBKeyRange?: unknown };
  if (options.indexedDB === undefined && globals.indexedDB === undefined) {
    throw new StorageError(`new Memory(): there is no IndexedDB here (no config.indexedDB and no global indexedDB, as under Node). Install fake-indexeddb and pass it:\n${NODE_SETUP}`);
  }
  if (options.IDBKeyRange === undefined && globals.IDBKeyRange === undefined) {
    throw new StorageError(`new Memory(): config.indexedDB needs its IDBKeyRange (there is no global IDBKeyRange, as under Node). Pass both from fake-indexeddb:\n${NODE_SETUP}`);
  }
}

const DEFAULT_TOP_K = 20;
/** How many candidates a filtered search ranks before the filter (engram's retrieve limit). */
const FILTERED_CANDIDATES = 1000;

/** Erasures one delete runs at most while updates keep committing under it. */
const MAX_DELETE_ROUNDS = 4;

export class Memory {
  readonly #options: MemoryOptions;
  readonly #given: EngramMemory | undefined;
  readonly #owner: Owner | undefined;
  #opening: Promise<EngramMemory> | undefined;
  /** Set by reset(): the next open starts a new store on the empty database instead of reporting it evicted. */
  #startOver = false;

  /** Opens nothing yet: the engram store is opened by the first call (mem0's constructor is synchronous too). */
  constructor(config: MemoryConfig = {}) {
    const { memory, userId, agentId, ...options } = config;
    if (memory !== undefined && Object.keys(options).length > 0) {
      throw new ValidationError('config', `takes engram options or an engram memory, not both (got memory and ${Object.keys(options).join(', ')})`);
    }
    this.#given = memory;
    // mem0's memories are extracted facts, and its results have no place for an episode (a
    // turn kept in the user's words): the facade opens engram without them unless asked.
    this.#options = { episodes: false, ...options };
    const user = entityId(userId, 'config.userId');
    const agent = entityId(agentId, 'config.agentId');
    if (agent !== undefined && user === undefined) throw new ValidationError('config.agentId', 'needs config.userId: it names the app of that user');
    this.#owner = user === undefined ? undefined : { userId: user, appName: agent ?? 'default' };
  }

  /** The engram store, opened on first use; a failed open is retried by the next call. */
  #engram(): Promise<EngramMemory> {
    if (this.#given) return Promise.resolve(this.#given);
    checkIndexedDB(this.#options);
    this.#opening ??= createMemory(this.#startOver ? { ...this.#options, onEviction: 'start-over' } : this.#options).then(
      (memory) => {
        this.#startOver = false;
        return memory;
      },
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  /** The memory `id` names, or undefined (never stored, or not this facade's user's). */
  async #resolve(id: unknown, method: string): Promise<Resolved | undefined> {
    return resolveId(await this.#engram(), id, method, this.#owner);
  }

  /** The active head of the memory `id`, which `update`/`delete` change; NotFoundError when there is none. */
  async #activeHead(id: unknown, method: string): Promise<Resolved & { head: MemoryRecord }> {
    const resolved = await this.#resolve(id, method);
    const head = resolved?.chain.at(-1);
    if (!resolved || !head || head.invalidatedAt !== undefined) throw new NotFoundError(`Memory with ID ${String(id)} not found`);
    if (head.scope === 'app') throw new PermissionError(`memory '${head.id}' is app-scope (shared by every user of '${head.appName}'); ${method}() changes only the user's own memories`);
    return { ...resolved, head };
  }

  /**
   * Stores what the messages say about the user. `infer: true` (default): engram extracts facts
   * from the `role: 'user'` messages and consolidates them (duplicates corroborate, contradictions
   * on exclusive topics replace). `infer: false`: each non-system message is stored verbatim.
   * `metadata` is stored with the memories written. @returns the final state of each memory the
   * call wrote, once, under its mem0 id (`metadata.event`: `'ADD'` or `'UPDATE'`).
   */
  async add(messages: string | Message[], config: AddMemoryOptions): Promise<SearchResult> {
    const list = messagesOf(messages);
    const options = config ?? {};
    const target = entityTarget(options, 'add');
    if (options.metadata !== undefined && (typeof options.metadata !== 'object' || options.metadata === null || Array.isArray(options.metadata))) {
      throw new ValidationError('metadata', `must be an object of JSON values (got ${JSON.stringify(options.metadata)})`);
    }
    const expiration = expirationOf(options.expirationDate, 'expirationDate');
    const engram = await this.#engram();
    const context = { target, metadata: options.metadata, expiration };
    const operations = options.infer === false ? await storeVerbatim(engram, list, context) : await ingestMessages(engram, list, context);
    return { results: await addedItems(operations, ownerReader(engram, { userId: target.userId, appName: target.appName })) };
  }

  /** Records in mem0's shape under their mem0 ids (the first record of each one's chain). */
  async #items(engram: EngramMemory, owner: Owner, records: readonly { record: MemoryRecord; score?: number }[]): Promise<MemoryItem[]> {
    const read = ownerReader(engram, owner);
    return Promise.all(records.map(async ({ record, score }) => toItem(record, await rootOf(record, read), score)));
  }

  /** The filter of `search`/`getAll`: the run (when named), the metadata conditions, and expiry unless `showExpired`. */
  #filterOf(filters: SearchFilters | undefined, showExpired: unknown) {
    const { target, metadata } = filterTarget(filters);
    const conditions = compileFilter(metadata);
    const run = target.sessionId;
    const today = new Date().toISOString().slice(0, 10);
    const passes = (record: MemoryRecord) => record.scope !== 'app' && (showExpired === true || !isExpired(record, today)) && conditions(filterDocument(record)) && (run === undefined || filterDocument(record)['run_id'] === run);
    return { owner: { userId: target.userId, appName: target.appName }, passes, narrowed: Object.keys(metadata).length > 0 };
  }

  /**
   * The user's memories most relevant to `query`, best first (engram's blended score as
   * `score`; for a query no memory shares anything with, the memory's standing: see standing.ts). `filters.user_id` is required; `run_id` and metadata conditions narrow it.
   * `threshold` drops memories whose cosine similarity to the query is below it.
   */
  async search(query: string, config: SearchMemoryOptions): Promise<SearchResult> {
    checkQuery(query);
    const options = config ?? {};
    rejectTopLevelIds(options, 'search');
    checkSearchParams(options.threshold, options.topK);
    const { owner, passes, narrowed } = this.#filterOf(options.filters, options.showExpired);
    const topK = options.topK ?? DEFAULT_TOP_K;
    const engram = await this.#engram();
    // Ranked first, filtered after (any backend): enough candidates that the filter leaves topK.
    // A metadata filter already says which memories the caller wants: its matches are ranked
    // whatever their relevance, as mem0 ranks them (engram's relevance floor keeps an
    // unfiltered search from padding; `threshold` stays the caller's own floor).
    const unfloored = narrowed ? retrieveUnflooredOf(engram) : undefined;
    const ask = { ...owner, k: FILTERED_CANDIDATES };
    const retrieved = scoredForSearch(await (unfloored ? unfloored(query, ask) : engram.retrieve(query, ask)));
    const threshold = options.threshold ?? Number.NEGATIVE_INFINITY;
    const kept = retrieved.filter((hit) => hit.relevance >= threshold && passes(hit.memory)).slice(0, topK);
    const chosen = chooseForPrompt(engram, kept, options);
    return {
      results: await this.#items(
        engram,
        owner,
        chosen.map((hit) => ({ record: hit.memory, score: hit.score })),
      ),
    };
  }

  /** The user's active memories (every run's, unless `run_id` names one), oldest first, at most `topK` (default 20). */
  async getAll(config: GetAllMemoryOptions): Promise<SearchResult> {
    const options = config ?? {};
    rejectTopLevelIds(options, 'getAll');
    checkSearchParams(undefined, options.topK);
    const { owner, passes } = this.#filterOf(options.filters, options.showExpired);
    const engram = await this.#engram();
    const records = (await engram.list(owner)).filter(passes);
    return {
      results: await this.#items(
        engram,
        owner,
        records.slice(0, options.topK ?? DEFAULT_TOP_K).map((record) => ({ record })),
      ),
    };
  }

  /** The memory `memoryId` names as it is now, or null (never stored, deleted, or another user's when the facade names one). */
  async get(memoryId: string): Promise<MemoryItem | null> {
    const resolved = await this.#resolve(memoryId, 'get');
    const head = resolved?.chain.at(-1);
    return resolved && head && head.invalidatedAt === undefined ? toItem(head, resolved.chain[0]!) : null;
  }

  /**
   * Replaces a memory's text (and, given, its metadata). engram writes it as an UPDATE of the
   * memory from a `user_explicit` source: the memory keeps its id, the old text stays in its
   * history as mem0's does, and no other memory changes.
   * @throws NotFoundError for an id that names no memory now (or that a delete removed while this update ran: then nothing is written), PermissionError when the trust
   * gate refuses (the memory rests on a more trusted source than the caller's).
   */
  async update(memoryId: string, config: string | UpdateMemoryOptions): Promise<{ message: string }> {
    const options = typeof config === 'string' ? { text: config } : (config ?? {});
    const text = options.text ?? options.data;
    if (text === undefined && options.metadata === undefined && options.expirationDate === undefined) throw new ValidationError('update options', 'give text (or data), metadata and/or expirationDate to update');
    const expiration = options.expirationDate === null ? null : expirationOf(options.expirationDate, 'expirationDate');
    if (text !== undefined && typeof text !== 'string') throw new ValidationError('update text', `must be a string (got ${typeof text})`);
    const { owner, head } = await this.#activeHead(memoryId, 'update');
    // Checked before anything is written: a text engram refuses changes nothing.
    const parsed = Fact.safeParse({ content: text ?? head.content, topic: head.topic, importance: head.importance, halfLifeDays: head.halfLifeDays });
    if (!parsed.success) throw new ValidationError('update text', parsed.error.issues[0]!.message, { cause: parsed.error });
    const kept = envelopeOf(head);
    const run = kept.run_id;
    const target: Target = { ...owner, ...(run !== undefined ? { sessionId: run } : {}) };
    const envelope = envelopeFor(options.metadata ?? kept.metadata, run, expiration === null ? undefined : (expiration ?? kept.expiration_date));
    const engram = await this.#engram();
    const writing = {
      ...rememberOptions(target, { type: 'user_explicit', id: `${newCallId()}:0` }),
      ...(envelope !== undefined ? { metadata: envelope as Metadata } : {}),
      replaces: head.id,
    };
    // Replace-only where engram offers it (createMemory's memories): a delete that commits
    // first leaves nothing to update, and the new text must not stay as a memory of its own.
    const replaceOnly = replaceOnlyOf(engram);
    const operation = replaceOnly ? await replaceOnly(parsed.data, writing) : await engram.remember(parsed.data, writing);
    if (operation === undefined) throw new NotFoundError(`memory ${String(memoryId)} was deleted while it was being updated; nothing was written`);
    if (operation.action !== 'UPDATE') throw new PermissionError(`memory ${String(memoryId)} was not updated: ${operation.reason}`);
    return { message: 'Memory updated successfully!' };
  }

  /**
   * Deletes a memory by forgetting every source (message) behind it, in one erasure, so no
   * text of it is left. The user's other memories keep their ids: those other messages also
   * support are rebuilt from them, and those that came only from the same messages are kept
   * (restated from a new source before the erasure).
   */
  async delete(memoryId: string): Promise<{ message: string }> {
    const engram = await this.#engram();
    const found = await this.#activeHead(memoryId, 'delete');
    const { owner } = found;
    let { head } = found;
    // An update that commits while the erasure runs gives the memory a source the erasure did
    // not list: erased again until no version of it is active, as if the update came first.
    for (let round = 0; round < MAX_DELETE_ROUNDS; round++) {
      await eraseMemory(engram, owner, head);
      const after = (await this.#resolve(memoryId, 'delete'))?.chain.at(-1);
      if (!after || after.invalidatedAt !== undefined) return { message: 'Memory deleted successfully!' };
      head = after;
    }
    throw new StorageError(`memory ${String(memoryId)} was updated during each of ${MAX_DELETE_ROUNDS} erasures in a row; retry the delete`);
  }

  /** Deletes all of a user's memories (with `runId`, that run's) and the conversations they came from, in one erasure. */
  async deleteAll(config: DeleteAllMemoryOptions): Promise<{ message: string }> {
    const target = entityTarget(config ?? {}, 'deleteAll');
    const engram = await this.#engram();
    const owner = { userId: target.userId, appName: target.appName };
    const sources = await sourcesOfOwner(engram, owner, target.sessionId);
    if (sources.size > 0) await engram.forgetSource([...sources], owner);
    return { message: 'Memories deleted successfully!' };
  }

  /** The memory's changes in mem0's history rows (ADD, UPDATE, DELETE), newest first; text an erasure removed is null. */
  async history(memoryId: string): Promise<HistoryRow[]> {
    const resolved = await this.#resolve(memoryId, 'history');
    return resolved ? toHistoryRows(resolved.chain) : [];
  }

  /** Deletes the whole store (every user) and starts empty on the next call. */
  async reset(): Promise<void> {
    if (this.#given) throw new PermissionError('reset() deletes the whole database, and this Memory was given an engram memory it does not own: delete that database yourself, or use deleteAll({ userId })');
    if (this.#options.storage !== undefined) throw new PermissionError('reset() deletes the IndexedDB database, and this Memory stores in another backend (options.storage): clear it there, or use deleteAll({ userId }) per user');
    const name = this.#options.name ?? 'engram';
    const factory = this.#options.indexedDB ?? globalThis.indexedDB;
    await this.close();
    await new Promise<void>((resolve, reject) => {
      const request = factory.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(new StorageError(`deleting the IndexedDB database '${name}' failed; close other tabs using it and retry`, { cause: request.error }));
    });
    this.#startOver = true;
  }

  /** Releases the engram store this Memory opened (not one it was given); the next call reopens it. */
  async close(): Promise<void> {
    const opening = this.#opening;
    this.#opening = undefined;
    // A store that failed to open holds nothing to release; that failure was reported to its caller.
    if (opening) await (await opening.catch(() => undefined))?.close();
  }
}
