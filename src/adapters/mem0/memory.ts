/**
 * `Memory`: mem0 OSS v3's class over engram, so a mem0 caller switches by its import line.
 * Calls and shapes are mem0's; underneath, every write goes through engram's extraction and
 * consolidation, every read through its owner-scoped query layer, and every delete through
 * its erasure (`forgetSource`), which leaves no text of what was deleted behind.
 */
import { createMemory, Fact, NotFoundError, PermissionError, StorageError, ValidationError, type Memory as EngramMemory, type MemoryOptions, type MemoryRecord } from 'engram';
import { checkSearchParams, entityId, entityTarget, filterTarget, messagesOf, rejectTopLevelIds, type Target } from './arguments';
import { toHistoryRows, toItem, type AddMemoryOptions, type DeleteAllMemoryOptions, type GetAllMemoryOptions, type HistoryRow, type MemoryItem, type Message, type SearchMemoryOptions, type SearchResult, type UpdateMemoryOptions } from './shapes';
import { addedItems, eraseMemory, forgetSources, ingestMessages, newCallId, rememberOptions, sourcesOfOwner, storeVerbatim } from './writes';

/** What `new Memory(config)` takes: engram's options (it opens its own store) or an open engram `memory`. */
export interface MemoryConfig extends MemoryOptions {
  /** An engram Memory to use instead of opening one; `reset()` is then refused (the store is not this facade's). */
  memory?: EngramMemory;
  /** The owner of id-only calls (`get`, `update`, `delete`, `history`): they never resolve outside it. */
  userId?: string;
  /** The app of id-only calls (engram's `appName`). Default `'default'`. */
  agentId?: string;
}

const DEFAULT_TOP_K = 20;

export class Memory {
  readonly #options: MemoryOptions;
  readonly #given: EngramMemory | undefined;
  readonly #owner: { userId: string; appName: string } | undefined;
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
    if (agent !== undefined && user === undefined) throw new ValidationError('config.agentId', 'needs config.userId: id-only calls resolve within one user');
    this.#owner = user === undefined ? undefined : { userId: user, appName: agent ?? 'default' };
  }

  /** The engram store, opened on first use; a failed open is retried by the next call. */
  #engram(): Promise<EngramMemory> {
    if (this.#given) return Promise.resolve(this.#given);
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

  /** The configured owner, required by id-only calls so an id never resolves across users. */
  #ownerFor(method: string): { userId: string; appName: string } {
    if (!this.#owner) {
      throw new ValidationError(
        `${method}(id)`,
        'engram resolves a memory id only within one user, and this Memory has none: construct it with new Memory({ userId, agentId? })',
      );
    }
    return this.#owner;
  }

  /** The owner's record `id` (any state), or null when it is missing or another owner's (indistinguishable on purpose). */
  async #find(id: unknown, method: string): Promise<MemoryRecord | null> {
    const owner = this.#ownerFor(method);
    if (typeof id !== 'string') throw new ValidationError(`${method}(id)`, `must be a string (got ${typeof id})`);
    try {
      return await (await this.#engram()).get(id, owner);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  /** A record `delete`/`update` may change: the owner's own, never an app-scope memory shared by the app. */
  async #ownRecord(id: unknown, method: string): Promise<MemoryRecord> {
    const record = await this.#find(id, method);
    if (!record) throw new NotFoundError(`Memory with ID ${String(id)} not found`);
    if (record.scope === 'app') throw new PermissionError(`memory '${record.id}' is app-scope (shared by every user of '${record.appName}'); ${method}() changes only the user's own memories`);
    return record;
  }

  /**
   * Stores what the messages say about the user. `infer: true` (default): engram extracts facts
   * from the `role: 'user'` messages and consolidates them (duplicates corroborate, contradictions
   * on exclusive topics replace). `infer: false`: each non-system message is stored verbatim.
   * `metadata` is not stored. @returns the memories written (`metadata.event`: `'ADD'` or `'UPDATE'`).
   */
  async add(messages: string | Message[], config: AddMemoryOptions): Promise<SearchResult> {
    const list = messagesOf(messages);
    const options = config ?? {};
    const target = entityTarget(options, 'add');
    const engram = await this.#engram();
    const operations = options.infer === false ? await storeVerbatim(engram, list, target) : await ingestMessages(engram, list, target);
    return { results: addedItems(operations) };
  }

  /**
   * The user's memories most relevant to `query`, best first (engram's blended score as
   * `score`). `filters.user_id` is required; `run_id` adds that run's session memories.
   * `threshold` drops memories whose cosine similarity to the query is below it.
   */
  async search(query: string, config: SearchMemoryOptions): Promise<SearchResult> {
    const options = config ?? {};
    rejectTopLevelIds(options, 'search');
    checkSearchParams(options.threshold, options.topK);
    const target = filterTarget(options.filters);
    const retrieved = await (await this.#engram()).retrieve(query, { ...target, k: options.topK ?? DEFAULT_TOP_K });
    const threshold = options.threshold ?? Number.NEGATIVE_INFINITY;
    return { results: retrieved.filter((hit) => hit.relevance >= threshold).map((hit) => toItem(hit.memory, hit.score)) };
  }

  /** The user's active memories, oldest first, at most `topK` (default 20). */
  async getAll(config: GetAllMemoryOptions): Promise<SearchResult> {
    const options = config ?? {};
    rejectTopLevelIds(options, 'getAll');
    checkSearchParams(undefined, options.topK);
    const target = filterTarget(options.filters);
    const records = await (await this.#engram()).list({ userId: target.userId, appName: target.appName });
    const visible = records.filter((record) => record.scope !== 'session' || record.sessionId === target.sessionId);
    return { results: visible.slice(0, options.topK ?? DEFAULT_TOP_K).map((record) => toItem(record)) };
  }

  /** One active memory of the configured owner, or null (missing, replaced, deleted, or another user's). */
  async get(memoryId: string): Promise<MemoryItem | null> {
    const record = await this.#find(memoryId, 'get');
    return record && record.invalidatedAt === undefined ? toItem(record) : null;
  }

  /**
   * Replaces a memory's text. engram records are never edited in place: the old memory is
   * deleted as `delete` does, and the text is stored as a new memory (its id is returned as `id`).
   */
  async update(memoryId: string, config: string | UpdateMemoryOptions): Promise<{ message: string; id: string }> {
    const text = typeof config === 'string' ? config : (config?.text ?? config?.data);
    if (typeof text !== 'string') throw new ValidationError('update options', 'text is required: engram does not store metadata or expiration dates, so only the text can be updated');
    const old = await this.#ownRecord(memoryId, 'update');
    // A replaced or deleted memory is not there to update, as get() says (delete still erases it).
    if (old.invalidatedAt !== undefined) throw new NotFoundError(`Memory with ID ${old.id} not found (it was replaced or deleted)`);
    // Checked before anything is erased: a text engram refuses must not cost the old memory.
    const parsed = Fact.safeParse({ content: text, topic: old.topic, importance: old.importance, halfLifeDays: old.halfLifeDays });
    if (!parsed.success) throw new ValidationError('update text', parsed.error.issues[0]!.message, { cause: parsed.error });
    const fact = parsed.data;
    const engram = await this.#engram();
    await eraseMemory(engram, this.#owner!, old);
    const target: Target = { ...this.#owner!, ...(old.scope === 'session' && old.sessionId !== undefined ? { sessionId: old.sessionId } : {}) };
    const operation = await engram.remember(fact, rememberOptions(target, { type: 'user_explicit', id: `${newCallId()}:0` }));
    return { message: 'Memory updated successfully!', id: operation.memoryId };
  }

  /**
   * Deletes a memory by forgetting every source (message) behind it, so no text of it is left.
   * The user's other memories survive: those other messages also support are rebuilt from them,
   * and those that came from the same messages are put back as facts with a new source (both
   * with new ids).
   */
  async delete(memoryId: string): Promise<{ message: string }> {
    const record = await this.#ownRecord(memoryId, 'delete');
    await eraseMemory(await this.#engram(), this.#owner!, record);
    return { message: 'Memory deleted successfully!' };
  }

  /** Deletes all of a user's memories (with `runId`, that run's) and the conversations they came from. */
  async deleteAll(config: DeleteAllMemoryOptions): Promise<{ message: string }> {
    const target = entityTarget(config ?? {}, 'deleteAll');
    const engram = await this.#engram();
    const owner = { userId: target.userId, appName: target.appName };
    await forgetSources(engram, owner, await sourcesOfOwner(engram, owner, target.sessionId));
    return { message: 'Memories deleted successfully!' };
  }

  /** The memory's changes in mem0's history rows, newest first (values are null once erased). */
  async history(memoryId: string): Promise<HistoryRow[]> {
    const record = await this.#find(memoryId, 'history');
    if (!record) return [];
    const linked = new Map<string, MemoryRecord>();
    for (const entry of record.history) {
      if (entry.related === undefined || linked.has(entry.related)) continue;
      const other = await this.#find(entry.related, 'history');
      if (other) linked.set(other.id, other);
    }
    return toHistoryRows(record, linked);
  }

  /** Deletes the whole store (every user) and starts empty on the next call. */
  async reset(): Promise<void> {
    if (this.#given) throw new PermissionError('reset() deletes the whole database, and this Memory was given an engram memory it does not own: delete that database yourself, or use deleteAll({ userId })');
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
