/**
 * createMemory(): the one place where the stages are wired together. Every public call
 * parses its arguments at the edge (ValidationError), then runs its stage with the store,
 * the compute client and the clock as collaborators.
 */
import { consolidate, type ConsolidateDeps } from './consolidate/consolidate';
import { createPolicyDecider } from './consolidate/decider';
import { HASH_DIM } from './embed/hash-embedder';
import { checkedIdGenerator, defaultIdGenerator } from './ids';
import { checkEmbedder } from './embed/checked-embedder';
import { resolveEmbedder } from './embed/model-embedder';
import { guardClosed } from './closed';
import { NotFoundError, PermissionError, ValidationError } from './errors';
import { candidateOfFact, extractCandidates, userMessagesOf } from './extract/candidates';
import { createRuleExtractor } from './extract/rules';
import { describeValue } from './issues';
import { forgetSource } from './forget/forget';
import { replay, targetOf, type ReplayDeps } from './forget/replay';
import { renderContext } from './inject/inject';
import { parseMemoryOptions } from './memory-options';
import {
  checkRetrieved,
  Fact,
  IngestOptions,
  ListOptions,
  Messages,
  OwnerOptions,
  parseInput,
  PruneOptions,
  ReembedOptions,
  SummarizeOptions,
  Query,
  RememberOptions,
  RetrieveOptions,
} from './options';
import { reembed } from './reembed/reembed';
import { retrieveMemories } from './retrieve/retrieve';
import {
  DEFAULT_EXCLUSIVE_TOPICS,
  DEFAULT_TRUST,
  DEFAULT_WEIGHTS,
  Id,
  type Candidate,
  type Operation,
  type Scope,
} from './schema';
import { userPartition, type InputRow, type Owner, type WriteInput } from './storage/contract';
import { indexedDbStorage } from './store/indexeddb';
import { createComputeClient } from './worker/client';
import { pruneMemories } from './forget/prune';
import { SESSION_SUMMARY_TOPIC, summaryCandidates } from './session/summarize';
import type { Dexie } from 'dexie';
import type { Memory, MemoryOptions } from './memory-api';

export type { Memory, MemoryOptions } from './memory-api';

/**
 * Test seams, kept out of the published types: index.ts exports `createMemory`, never
 * `openMemory`, so nothing here reaches a user's autocompletion.
 */
export interface MemoryInternals {
  /** Receives the Dexie database before it opens, so a test can install DBCore middleware (`db.use(...)`) to inject write faults. */
  onDatabase?: (db: Dexie) => void;
}

/**
 * Opens (or creates) the memory store and starts its compute.
 * @throws ValidationError for an unknown option or a bad value (the message lists the valid
 * ones), StorageError when there is no IndexedDB (under Node: pass fake-indexeddb's
 * `IDBFactory` and `IDBKeyRange`) or it cannot be opened.
 */
export function createMemory(memoryOptions?: MemoryOptions): Promise<Memory> {
  return openMemory(memoryOptions, {});
}

/** `createMemory` with test seams; internal (not exported from index.ts). */
export async function openMemory(memoryOptions: MemoryOptions | undefined, internals: MemoryInternals): Promise<Memory> {
  const options = parseMemoryOptions(memoryOptions);
  const trust = options.trust ?? DEFAULT_TRUST;
  const threshold = options.candidateThreshold ?? 0.6;
  const clock = options.clock ?? Date.now;
  const now = () => {
    const value = clock();
    if (!Number.isFinite(value) || value < 0) throw new ValidationError('options.clock', `returned ${value}; expected ms since epoch`);
    return value;
  };
  const newId = options.idGenerator ? checkedIdGenerator(options.idGenerator) : defaultIdGenerator;
  const compute = createComputeClient({
    ...(options.worker !== undefined ? { worker: options.worker } : {}),
    ...(options.workerTimeoutMs !== undefined ? { timeoutMs: options.workerTimeoutMs } : {}),
  });
  const given = options.embedder ?? { id: `hash-fnv1a-${HASH_DIM}`, dim: HASH_DIM, embed: (texts) => compute.embed([...texts], HASH_DIM) };
  const embedder = checkEmbedder(
    await resolveEmbedder(given, compute).catch((error: unknown) => {
      compute.close();
      throw error;
    }),
  );
  const extractor = options.extractor ?? createRuleExtractor();
  const exclusiveTopics = new Set([...(options.exclusiveTopics ?? DEFAULT_EXCLUSIVE_TOPICS), SESSION_SUMMARY_TOPIC]);
  const decider = options.decider ?? createPolicyDecider({ trust, exclusiveTopics });
  const storage = await (options.storage ?? indexedDbStorage(internals)).open({ name: options.name ?? 'engram', embedder, compute, indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange }).catch((error: unknown) => {
    compute.close();
    throw error;
  });
  const store = storage.records;
  const planContext = { decider, trust, exclusiveTopics, candidateThreshold: threshold, embedderId: embedder.id, newId };
  const consolidateDeps: ConsolidateDeps = { storage, embedder, context: planContext, clock: now };
  let closed = false;

  async function candidatesOf(input: WriteInput): Promise<Candidate[]> {
    if (input.kind === 'remember') return input.fact ? [candidateOfFact(input.fact)] : [];
    const extracted = await extractCandidates(extractor, input.messages, { userId: input.userId, appName: input.appName, sessionId: input.sessionId });
    // A summary keeps the sentences the extractor took facts from, plus other durable ones.
    return input.kind === 'summary' ? summaryCandidates(input.messages, extracted.map((candidate) => candidate.excerpt)) : extracted;
  }
  const replayDeps: ReplayDeps = { candidatesOf, embedder, context: planContext };

  function owner(options: OwnerOptions, name = 'options'): Owner {
    return parseInput(OwnerOptions, options, name);
  }

  /** The owner's partition version now: taken before extraction, so a revocation racing the write is seen. */
  async function versionOf(input: Pick<InputRow, 'userId' | 'appName'>): Promise<number> {
    const key = userPartition(input);
    return (await store.versions([key])).get(key)!;
  }

  async function write(input: WriteInput, candidates: Candidate[], baseVersion?: number): Promise<Operation[]> {
    return consolidate(consolidateDeps, {
      target: targetOf(input),
      candidates,
      source: { ...input.source, at: input.at },
      input,
      ...(baseVersion !== undefined ? { baseVersion } : {}),
    });
  }

  const memory: Memory = {
    computeLocation: compute.location,

    async ingest(messages, options) {
      const userMessages = userMessagesOf(parseInput(Messages, messages, 'messages'));
      const parsed = parseInput(IngestOptions, options, 'options');
      const input: WriteInput = {
        userId: parsed.userId,
        appName: parsed.appName,
        scope: 'user', // ingest never writes app scope (invariant 2)
        sessionId: parsed.sessionId,
        source: parsed.source,
        at: now(),
        kind: 'ingest',
        messages: userMessages,
      };
      const baseVersion = await versionOf(input);
      return write(input, await candidatesOf(input), baseVersion);
    },

    async remember(fact, options) {
      const parsedFact = parseInput(Fact, fact, 'fact');
      const parsed = parseInput(RememberOptions, options, 'options');
      if (parsed.scope === 'app' && parsed.source.type !== 'bootstrapped') {
        throw new PermissionError(`app-scope memories are visible to every user of '${parsed.appName}', so they need a 'bootstrapped' source (got '${parsed.source.type}')`);
      }
      if (parsed.scope !== 'app' && parsed.userId === undefined) throw new ValidationError('options.userId', `is required for scope '${parsed.scope}'`);
      if (parsed.scope === 'session' && parsed.sessionId === undefined) throw new ValidationError('options.sessionId', "is required for scope 'session'");
      const input: WriteInput = {
        userId: parsed.scope === 'app' ? '' : parsed.userId!,
        appName: parsed.appName,
        scope: parsed.scope,
        sessionId: parsed.sessionId ?? '',
        source: parsed.source,
        at: now(),
        kind: 'remember',
        messages: [],
        fact: parsedFact,
      };
      const [operation] = await write(input, [candidateOfFact(parsedFact)]);
      return operation!;
    },

    async retrieve(query, options) {
      const text = parseInput(Query, query, 'query');
      const parsed = parseInput(RetrieveOptions, options, 'options');
      const scopes: Scope[] = parsed.scopes ?? (parsed.sessionId !== undefined ? ['user', 'session', 'app'] : ['user', 'app']);
      return retrieveMemories({ storage, embedder, clock: now }, text, {
        owner: { userId: parsed.userId, appName: parsed.appName },
        scopes: [...new Set(scopes)],
        k: parsed.k,
        weights: parsed.weights ?? DEFAULT_WEIGHTS,
        ...(parsed.sessionId !== undefined ? { sessionId: parsed.sessionId } : {}),
      });
    },

    inject(system, retrieved) {
      if (typeof system !== 'string') throw new ValidationError('system', `must be the system prompt, a string (got ${describeValue(system)})`);
      checkRetrieved(retrieved);
      return renderContext(system, retrieved, now());
    },

    async forgetSource(sourceId, options) {
      const id = parseInput(Id, sourceId, 'sourceId');
      return forgetSource(
        { storage, clock: now, newId, replay: (inputs, start) => replay(replayDeps, inputs, start), clearCaches: async () => void (await compute.clearCaches()) },
        id,
        owner(options),
      );
    },

    async list(options) {
      const parsed = parseInput(ListOptions, options, 'options');
      return store.list(parsed, { scopes: ['user', 'session', 'app'], includeInvalid: parsed.includeInvalid });
    },

    async get(id, options) {
      const memoryId = parseInput(Id, id, 'id');
      const who = owner(options, 'owner');
      const [record] = await store.getMany([memoryId], who);
      // A foreign id and a missing id look the same: existence is not leaked across owners.
      if (!record) throw new NotFoundError(`no memory '${memoryId}' for user '${who.userId}' in app '${who.appName}'`);
      return record;
    },

    async history(id, options) {
      return (await memory.get(id, options)).history;
    },

    async prune(options) {
      const parsed = parseInput(PruneOptions, options, 'options');
      return pruneMemories({ storage, clock: now }, { userId: parsed.userId, appName: parsed.appName }, parsed.floor);
    },

    async summarizeSession(messages, options) {
      const userMessages = userMessagesOf(parseInput(Messages, messages, 'messages'));
      const parsed = parseInput(SummarizeOptions, options, 'options');
      const input: WriteInput = {
        userId: parsed.userId,
        appName: parsed.appName,
        scope: 'session',
        sessionId: parsed.sessionId,
        source: parsed.source,
        at: now(),
        kind: 'summary',
        messages: userMessages,
      };
      const baseVersion = await versionOf(input);
      const [operation] = await write(input, await candidatesOf(input), baseVersion);
      return operation ?? null;
    },

    async export(options) {
      const who = owner(options);
      const [records, inputs] = await Promise.all([store.list(who, { scopes: ['user', 'session'], includeInvalid: true }), store.inputs(who)]);
      return {
        format: 'engram-export/1',
        exportedAt: now(),
        userId: who.userId,
        appName: who.appName,
        memories: records.map(({ embedding: _vector, ...record }) => record),
        inputs: inputs.map((input) =>
          input.kind === 'prune'
            ? { kind: 'prune', at: input.at, floor: input.floor }
            : input.kind === 'remember'
              ? { kind: 'remember', at: input.at, source: input.source, fact: input.fact! }
              : { kind: input.kind, at: input.at, sessionId: input.sessionId, source: input.source, messages: input.messages },
        ),
      };
    },

    async reembed(options) {
      const parsed = parseInput(ReembedOptions, options, 'options');
      return reembed({ storage, embedder }, parsed);
    },

    async close() {
      if (closed) return;
      closed = true;
      compute.close();
      await storage.close();
    },
  };
  const guarded = guardClosed(memory, () => closed);
  if (options.reembed === 'auto') {
    await guarded.reembed().catch(async (error: unknown) => {
      await guarded.close();
      throw error;
    });
  }
  return guarded;
}
