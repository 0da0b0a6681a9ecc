/**
 * A second storage backend, written only for the tests: plain Maps and arrays, brute-force
 * cosine, no Dexie and no worker rows. It implements src/storage/contract.ts from its TSDoc
 * alone; the contract suite (test/contract/) runs against it and the IndexedDB backend, which
 * shows that the stages above the contract need nothing of IndexedDB.
 *
 * A commit is staged on copies and swapped in at the end, so a fault at any step (see
 * `faults`) leaves the state as it was.
 */
import { ConflictError, IdCollisionError, PermissionError, StorageError, toStorageError } from '../../src/errors';
import { byCreation, type MemoryRecord } from '../../src/schema';
import { sameFactKey } from '../../src/text';
import { isVisibleTo, partitionOf, userPartition, type Commit, type CommitResult, type InputRow, type Owner, type RecordStore, type Storage, type StorageBackend, type StorageContext } from '../../src/storage/contract';
import { parseInputRows } from '../../src/storage/input-row';
import { createMemoryVectors } from './memory-vectors';

/** Everything the backend holds; plain data, so a snapshot is a structured clone. */
export interface MemoryState {
  records: Map<string, MemoryRecord>;
  /** Input `seq` of the last write that changed each record (erasure reads from it). */
  changed: Map<string, number>;
  inputs: InputRow[];
  lastSeq: number;
  versions: Map<string, number>;
  /** JSON [userId, appName, sourceId] → the version its revocation produced. */
  revocations: Map<string, number>;
}

/** Arms a failure: the `failAt`-th state mutation from now on throws (1-based; 0 never). */
export interface MemoryFaults {
  count: number;
  failAt: number;
}

export interface MemoryBackend extends StorageBackend {
  readonly state: MemoryState;
  readonly faults: MemoryFaults;
}

function emptyState(): MemoryState {
  return { records: new Map(), changed: new Map(), inputs: [], lastSeq: 0, versions: new Map(), revocations: new Map() };
}

const ownerOf = (row: { userId: string; appName: string }, owner: Owner) => row.userId === owner.userId && row.appName === owner.appName;
const revocationKey = (userId: string, appName: string, sourceId: string) => JSON.stringify([userId, appName, sourceId]);

/** A fresh, empty in-memory store; every `open` of it sees the same state (two instances, one store). */
export function createMemoryStorage(): MemoryBackend {
  const state = emptyState();
  const faults: MemoryFaults = { count: 0, failAt: 0 };
  return {
    state,
    faults,
    async open(context: StorageContext): Promise<Storage> {
      let closed = false;
      const records = createMemoryRecords(state, faults, () => closed);
      return {
        lockName: `memory:${context.name}`,
        records,
        vectors: createMemoryVectors(state, context.embedder),
        async close() {
          closed = true;
        },
      };
    },
  };
}

type Read = <T>(body: () => T) => Promise<T>;
type OwnerReads = Omit<RecordStore, 'quarantined' | 'commit' | 'foreignActive' | 'countForeign'>;

/** The owner-scoped reads; every record and input handed out is a copy. */
function ownerReads(state: MemoryState, read: Read): OwnerReads {
  const copy = (record: MemoryRecord) => structuredClone(record);
  const visible = (owner: Owner, records: Iterable<MemoryRecord>) => [...records].filter((record) => isVisibleTo(record, owner)).map(copy);
  /** The owner's inputs matching `keep`, parsed like every stored input read back. */
  const ownInputs = (owner: Owner, keep: (input: InputRow) => boolean = () => true) => parseInputRows(structuredClone(state.inputs.filter((input) => ownerOf(input, owner) && keep(input))), 'reading stored conversations');
  const withSource = (owner: Owner, sourceId: string) => [...state.records.values()].filter((record) => ownerOf(record, owner) && record.sources.some((source) => source.id === sourceId));
  return {
    versions: (keys) => read(() => new Map(keys.map((key) => [key, state.versions.get(key) ?? 0]))),
    locate: (id) =>
      read(() => {
        const record = state.records.get(id);
        return record && { id: record.id, userId: record.userId, appName: record.appName, scope: record.scope };
      }),
    getMany: (ids, owner) =>
      read(() =>
        visible(
          owner,
          ids.flatMap((id) => state.records.get(id) ?? []),
        ),
      ),
    list: (owner, { scopes, includeInvalid }) =>
      read(() =>
        visible(
          owner,
          [...state.records.values()].filter((record) => scopes.includes(record.scope) && (includeInvalid || record.invalidatedAt === undefined)),
        ).sort(byCreation),
      ),
    workingSet: (owner, { ids, topics, facts = [], scope }) =>
      read(() => {
        const sameFact = (record: MemoryRecord) => facts.some((fact) => fact.topic === record.topic && sameFactKey(fact.content) === sameFactKey(record.content));
        const onTopic = [...state.records.values()].filter((record) => record.scope === scope && record.invalidatedAt === undefined && (topics.includes(record.topic) || sameFact(record)));
        const picked = new Map([...ids.flatMap((id) => state.records.get(id) ?? []), ...onTopic].map((record) => [record.id, record]));
        return visible(owner, picked.values());
      }),
    bySource: (owner, sourceId) => read(() => visible(owner, withSource(owner, sourceId))),
    erasureSet: (owner, { sourceIds, fromSeq }) =>
      read(() => {
        const reached = [...state.records.values()].filter(
          (record) => ownerOf(record, owner) && (record.invalidatedAt === undefined || record.sources.some((source) => sourceIds.includes(source.id)) || (fromSeq !== undefined && state.changed.get(record.id)! >= fromSeq)),
        );
        return visible(
          owner,
          reached.filter((record) => record.scope !== 'app'),
        ).sort(byCreation);
      }),
    inputs: (owner) => read(() => ownInputs(owner)),
    inputsAfter: (owner, seq) => read(() => ownInputs(owner, (input) => input.seq! > seq)),
    inputsOf: (owner, sourceId) => read(() => ownInputs(owner, (input) => input.kind !== 'prune' && input.source.id === sourceId)),
    heldInputs: (owner) => read(() => ownInputs(owner, (input) => input.kind !== 'prune' && (input.pending?.length ?? 0) > 0)),
    checkpointBefore: () => read(() => null),
    isRevoked: (owner, sourceId) => read(() => state.revocations.has(revocationKey(owner.userId, owner.appName, sourceId))),
  };
}

function createMemoryRecords(state: MemoryState, faults: MemoryFaults, isClosed: () => boolean): RecordStore {
  async function read<T>(body: () => T): Promise<T> {
    if (isClosed()) throw new StorageError('the in-memory storage was closed');
    return body();
  }
  return {
    quarantined: new Set<string>(),
    ...ownerReads(state, read),
    async commit(commit) {
      if (isClosed()) throw new StorageError('the in-memory storage was closed');
      try {
        return applyCommit(state, commit, () => {
          if (++faults.count === faults.failAt) throw new Error('injected');
        });
      } catch (error) {
        throw toStorageError(error, 'writing memories');
      }
    },
    foreignActive: (embedderId, afterId, limit) =>
      read(() => {
        const rows = [...state.records.values()]
          .filter((record) => record.invalidatedAt === undefined && record.embedderId !== embedderId && (afterId === undefined || record.id > afterId))
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, limit)
          .map(({ id, userId, appName, scope }) => ({ id, userId, appName, scope }));
        return { rows, lastId: rows.at(-1)?.id };
      }),
    countForeign: (embedderId) => read(() => [...state.records.values()].filter((record) => record.invalidatedAt === undefined && record.embedderId !== embedderId).length),
  };
}

/** The refusals of {@link Commit}, in the order the contract lists them; nothing is staged yet. */
function refuse(state: MemoryState, commit: Commit, keys: readonly string[]): void {
  for (const input of commit.inputs ?? []) {
    if (input.kind === 'prune' || input.scope === 'app') continue;
    const version = state.revocations.get(revocationKey(input.userId, input.appName, input.source.id));
    if (version !== undefined && (commit.inputsBaseVersion === undefined || version > commit.inputsBaseVersion)) {
      throw new PermissionError(`source '${input.source.id}' was revoked while this write was in flight`);
    }
  }
  const creates = commit.creates ?? [];
  if (creates.some((id) => state.records.has(id)) || new Set(creates).size !== creates.length) throw new IdCollisionError('a created memory id already exists');
  for (const key of keys) {
    const seen = commit.expected.get(key);
    if (seen !== undefined && seen !== (state.versions.get(key) ?? 0)) throw new ConflictError(`partition ${key} changed while this write was being decided`);
  }
}

/** Stages `commit` on copies of the state (calling `step` before each change), then swaps them in. */
function applyCommit(state: MemoryState, commit: Commit, step: () => void): CommitResult {
  const { records, inputs = [], deleteInputs = [], rewriteInputs = [], revoke, redactExcerpts } = commit;
  const keys = [...new Set([...commit.expected.keys(), ...records.map(partitionOf), ...(revoke ? [userPartition(revoke)] : []), ...(redactExcerpts ? [userPartition(redactExcerpts)] : [])])];
  refuse(state, commit, keys);
  const next = { ...state, records: new Map(state.records), changed: new Map(state.changed), inputs: [...state.inputs], versions: new Map(state.versions), revocations: new Map(state.revocations) };
  for (const input of inputs) {
    step();
    next.inputs.push({ ...structuredClone(input), seq: ++next.lastSeq });
  }
  for (const record of records) {
    step();
    next.records.set(record.id, structuredClone(record));
    next.changed.set(record.id, next.lastSeq);
  }
  if (revoke) redact(next, revoke, step);
  if (redactExcerpts) redact(next, redactExcerpts, step, (excerpt) => redactExcerpts.excerpts.includes(excerpt));
  const rewritten = new Map(rewriteInputs.map((input) => [input.seq!, input]));
  if (rewritten.size) {
    step();
    next.inputs = next.inputs.map((input) => (rewritten.has(input.seq!) ? structuredClone(rewritten.get(input.seq!)!) : input));
  }
  const doomed = new Set(deleteInputs);
  if (doomed.size) {
    step();
    next.inputs = next.inputs.filter((input) => !doomed.has(input.seq!));
  }
  const versions = new Map<string, [number, number]>();
  for (const key of keys) {
    step();
    const version = next.versions.get(key) ?? 0;
    versions.set(key, [version, version + 1]);
    next.versions.set(key, version + 1);
  }
  if (revoke) for (const sourceId of revoke.sourceIds) next.revocations.set(revocationKey(revoke.userId, revoke.appName, sourceId), versions.get(userPartition(revoke))![1]);
  Object.assign(state, next);
  return { versions };
}

/** Blanks the excerpt of every source of `revoke.sourceIds` in the owner's records (those `quotes` picks). */
function redact(next: MemoryState, revoke: { userId: string; appName: string; sourceIds: readonly string[] }, step: () => void, quotes: (excerpt: string) => boolean = () => true): void {
  const goes = (source: { id: string; excerpt: string }) => revoke.sourceIds.includes(source.id) && source.excerpt !== '' && quotes(source.excerpt);
  for (const record of next.records.values()) {
    if (!ownerOf(record, revoke) || !record.sources.some(goes)) continue;
    step();
    next.records.set(record.id, { ...record, sources: record.sources.map((source) => (goes(source) ? { ...source, excerpt: '' } : source)) });
  }
}
