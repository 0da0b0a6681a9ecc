/**
 * Owner-scoped access to the database. Every read takes the owner and returns only what
 * {@link isVisibleTo} allows; every record read back is parsed with zod, and rows that fail
 * are quarantined (skipped and reported), never returned and never allowed to crash a scan.
 */
import { Dexie } from 'dexie';
import { ConflictError, IdCollisionError, PermissionError, toStorageError } from '../errors';
import { MemoryRecord, type Scope } from '../schema';
import type { RecordStore } from '../storage/contract';
import { factHash, sameFactKey } from '../text';
import type { EngramDatabase, InputRow, MemoryRow, WriteInput } from './database';
import { checkpointBefore, CHECKPOINT_EVERY, dropCheckpoints, restoreCheckpoint, writeCheckpoint } from './checkpoints';
import { memoriesWithSource, metaOf, redactSource, writeRecords, type ParsedRow } from './lineage';
import { parseInputRows } from './input-row';
import { hydrate, toWorking } from './lineage-read';
import { appPartition, isVisibleTo, partitionOf, userPartition, type Owner } from './owner';
import { commitRows, encryptsAtRest, prepareSeals, refuseMixedSealing } from './sealing';
import { writePackLog } from './vector-log';

export type { Commit, CommitResult } from '../storage/contract';

/** The IndexedDB records layer: the contract's reads and commit, plus the quarantine its vector layer reports to. */
export interface Store extends RecordStore {
  /** Adds the id of a row the vector layer found malformed to {@link RecordStore.quarantined}. */
  quarantine(id: string): void;
}

const isForeignActive = (embedderId: string) => (row: MemoryRow) => row.invalidatedAt === undefined && row.embedderId !== embedderId;

/**
 * `embedder`, when given, also quarantines rows that claim to come from it but hold a vector
 * of another length (rows of another embedder are kept: they are not corrupt, only unscannable).
 */
export function createStore(db: EngramDatabase, embedder?: { id: string; dim: number }): Store {
  const quarantined = new Set<string>();

  function parse(row: unknown): ParsedRow | null {
    const result = MemoryRecord.safeParse(row);
    const meta = metaOf(row);
    if (result.success && meta !== null && !(embedder && result.data.embedderId === embedder.id && result.data.embedding.length !== embedder.dim)) {
      return { record: result.data, meta };
    }
    const id = typeof row === 'object' && row !== null && 'id' in row ? String((row as { id: unknown }).id) : '?';
    quarantined.add(id);
    return null;
  }

  function visibleRows(rows: unknown[], owner: Owner): ParsedRow[] {
    const out: ParsedRow[] = [];
    for (const row of rows) {
      const parsed = parse(row);
      if (parsed && isVisibleTo(parsed.record, owner)) out.push(parsed);
    }
    return out;
  }

  /** Full records (lineage.ts hydrate) of the rows visible to `owner`. */
  function visible(rows: unknown[], owner: Owner): Promise<MemoryRecord[]> {
    return hydrate(db, visibleRows(rows, owner), (id) => quarantined.add(id));
  }

  /** Active rows of `scope` on `topic` by the `active` index: tombstones are never read. */
  async function activeOnTopic(owner: Owner, topic: string, scope: Scope): Promise<ParsedRow[]> {
    const rows = await db.memories.where('[userId+appName+topic+active]').equals([scope === 'app' ? '' : owner.userId, owner.appName, topic, 1]).toArray();
    return visibleRows(rows, owner).filter(({ record }) => record.scope === scope && record.invalidatedAt === undefined);
  }

  /**
   * Active rows of `scope` holding the same fact on the same topic, by the `fact` index (a hash
   * collision is filtered out here). An encrypted database keeps no fact key, so there the
   * topic's active rows are filtered instead: `onTopic` reads each topic once per sweep.
   */
  async function activeWithFact(owner: Owner, fact: { topic: string; content: string }, scope: Scope, onTopic: (topic: string) => Promise<ParsedRow[]>): Promise<ParsedRow[]> {
    const byKey = async () => {
      const rows = await db.memories.where('[userId+appName+fact+active]').equals([scope === 'app' ? '' : owner.userId, owner.appName, factHash(fact.topic, fact.content), 1]).toArray();
      return visibleRows(rows, owner).filter(({ record }) => record.scope === scope && record.invalidatedAt === undefined);
    };
    const key = sameFactKey(fact.content);
    return (encryptsAtRest(db) ? await onTopic(fact.topic) : await byKey()).filter(({ record }) => record.topic === fact.topic && sameFactKey(record.content) === key);
  }

  async function read<T>(action: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw toStorageError(error, action);
    }
  }

  /** The owner's inputs after `seq`, in `seq` order (the index's order), parsed. */
  const inputsAfter = (owner: Owner, seq: number) =>
    read('reading stored conversations', async () =>
      parseInputRows(
        await db.inputs.where('[userId+appName+seq]').between([owner.userId, owner.appName, seq], [owner.userId, owner.appName, Dexie.maxKey], false, true).toArray(),
        'reading stored conversations',
      ),
    );

  return {
    quarantined,
    quarantine: (id) => void quarantined.add(id),

    versions: (keys) =>
      read('reading partition versions', async () => {
        const rows = await db.partitions.bulkGet([...keys]);
        return new Map(keys.map((key, i) => [key, rows[i]?.version ?? 0]));
      }),

    getMany: (ids, owner) =>
      read('reading memories', () =>
        db.transaction('r', db.memories, db.lineage, db.events, async () => {
          const rows = await db.memories.bulkGet([...ids]);
          return visible(rows.filter((row) => row !== undefined), owner);
        }),
      ),

    list: (owner, { scopes, includeInvalid }) =>
      read('listing memories', () =>
        db.transaction('r', db.memories, db.lineage, db.events, async () => {
          const own = scopes.filter((scope) => scope !== 'app').map((scope) => [owner.userId, owner.appName, scope]);
          // One equality query per scope, not anyOf: anyOf reads by cursor, and a cursor's rows
          // cannot be decrypted on the way (sealing.ts).
          const rows = (await Promise.all(own.map((key) => db.memories.where('[userId+appName+scope]').equals(key).toArray()))).flat();
          if (scopes.includes('app')) rows.push(...(await db.memories.where('[appName+scope]').equals([owner.appName, 'app']).toArray()));
          const wanted = includeInvalid ? rows : rows.filter((row) => row.invalidatedAt === undefined);
          const records = await visible(wanted, owner);
          return records.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
        }),
      ),

    workingSet: (owner, { ids, topics, facts = [], scope, sourceId }) =>
      read('reading the candidate sweep', () =>
        db.transaction('r', db.memories, db.lineage, async () => {
          const topicReads = new Map<string, Promise<ParsedRow[]>>();
          const onTopic = (topic: string) => topicReads.get(topic) ?? topicReads.set(topic, activeOnTopic(owner, topic, scope)).get(topic)!;
          // All reads issued at once (one round trip, not one per topic and fact), merged in the
          // order neighbours, topics, facts.
          const [neighbours, onTopics, withFacts] = await Promise.all([
            ids.length ? db.memories.bulkGet([...ids]) : [],
            Promise.all(topics.map(onTopic)),
            Promise.all(facts.map((fact) => activeWithFact(owner, fact, scope, onTopic))),
          ]);
          const byId = new Map<string, ParsedRow>();
          for (const row of visibleRows(neighbours.filter((row) => row !== undefined), owner)) byId.set(row.record.id, row);
          for (const row of [...onTopics, ...withFacts].flat()) byId.set(row.record.id, row);
          return toWorking(db, [...byId.values()], sourceId);
        }),
      ),

    inputsAfter,

    inputsOf: (owner, sourceId) =>
      read('reading stored conversations', async () =>
        parseInputRows(await db.inputs.where('[userId+appName+source.id]').equals([owner.userId, owner.appName, sourceId]).toArray(), 'reading stored conversations').sort((a, b) => a.seq! - b.seq!),
      ),

    erasureSet: (owner, { sourceId, fromSeq }) =>
      read('reading memories to erase from', () =>
        db.transaction('r', db.memories, db.lineage, db.events, async () => {
          const [active, since, listing] = await Promise.all([
            db.memories.where('[userId+appName+active]').equals([owner.userId, owner.appName, 1]).toArray(),
            fromSeq === undefined ? [] : db.memories.where('[userId+appName+changed]').between([owner.userId, owner.appName, fromSeq], [owner.userId, owner.appName, Dexie.maxKey], true, true).toArray(),
            memoriesWithSource(db, owner, sourceId),
          ]);
          const rows = [...new Map([...active, ...since, ...listing].map((row) => [row.id, row])).values()].filter((row) => row.scope !== 'app');
          const records = await visible(rows, owner);
          return records.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
        }),
      ),

    checkpointBefore: (owner, seq) =>
      read('reading a checkpoint', () =>
        db.transaction('r', db.checkpoints, db.memories, db.lineage, db.events, async () => {
          const checkpoint = await checkpointBefore(db, owner, seq);
          const records = checkpoint ? await restoreCheckpoint(db, checkpoint, parse) : null;
          return checkpoint && records ? { seq: checkpoint.seq, records: records.filter((record) => isVisibleTo(record, owner)) } : null;
        }),
      ),

    bySource: (owner, sourceId) =>
      read('reading memories by source', () =>
        db.transaction('r', db.memories, db.lineage, db.events, async () => visible(await memoriesWithSource(db, owner, sourceId), owner)),
      ),

    // The order they were written in (invariant 11), never their clock times: after a clock went
    // backwards, sorting by time would replay a history that never happened.
    inputs: (owner) => inputsAfter(owner, 0),

    isRevoked: (owner, sourceId) =>
      read('reading revocations', async () => (await db.revocations.get([owner.userId, owner.appName, sourceId])) !== undefined),

    foreignActive: (embedderId, afterId, limit) =>
      read('reading memories to re-embed', async () => {
        const all = afterId === undefined ? db.memories.toCollection() : db.memories.where(':id').above(afterId);
        const rows = await all.filter(isForeignActive(embedderId)).limit(limit).toArray();
        return { rows: rows.map(({ id, userId, appName, scope }) => ({ id, userId, appName, scope })), lastId: rows.at(-1)?.id };
      }),

    countForeign: (embedderId) => read('counting memories to re-embed', () => db.memories.filter(isForeignActive(embedderId)).count()),

    async commit({ records, creates = [], inputs = [], deleteInputs = [], expected, revoke, inputsBaseVersion, hints }) {
      const touched = new Set([...expected.keys(), ...records.map(partitionOf), ...(revoke ? [userPartition(revoke)] : [])]);
      // Encrypted at rest: everything this commit can write is sealed first (sealing.ts).
      let release = () => {};
      try {
        release = await prepareSeals(db, () => commitRows(records, inputs));
        // Nothing but IndexedDB is awaited in here: any other await would end the transaction
        // and leave the writes before it committed (RELIABILITY.md, "Traps").
        const tables = [db.memories, db.lineage, db.events, db.checkpoints, db.inputs, db.partitions, db.vectorLog, db.vectorPacks, db.revocations];
        return await db.transaction('rw', tables, async () => {
          await refuseMixedSealing(db);
          await refuseRevokedInputs(db, inputs, inputsBaseVersion);
          await refuseExistingIds(db, creates);
          const keys = [...touched];
          const current = await db.partitions.bulkGet(keys);
          const versions = new Map<string, [number, number]>();
          keys.forEach((key, i) => {
            const version = current[i]?.version ?? 0;
            const seen = expected.get(key);
            if (seen !== undefined && seen !== version) {
              throw new ConflictError(`partition ${key} changed (version ${seen} → ${version}) while this write was being decided`);
            }
            versions.set(key, [version, version + 1]);
          });
          const seqs = inputs.length ? ((await db.inputs.bulkAdd(inputs, { allKeys: true })) as number[]) : [];
          const changed = seqs.length ? Math.max(...seqs) : (((await db.inputs.orderBy(':id').lastKey()) as number | undefined) ?? 0);
          await writeRecords(db, records, changed, hints);
          if (revoke) await redactSource(db, revoke, revoke.sourceId);
          if (deleteInputs.length) await db.inputs.bulkDelete(deleteInputs);
          await db.partitions.bulkPut(keys.map((key) => ({ key, version: versions.get(key)![1] })));
          await keepCheckpoints(db, { inputs, seqs, versions, ...(revoke ? { revoke, deleteInputs, wrote: records.length > 0 } : {}) });
          if (revoke) await db.revocations.put({ ...revoke, version: versions.get(userPartition(revoke))![1] });
          const packsDropped = await writePackLog(db, versions, records);
          return { versions, packsDropped };
        });
      } catch (error) {
        throw toStorageError(error, 'writing memories');
      } finally {
        release();
      }
    },
  };
}

/**
 * Inside the commit transaction (checkpoints.ts): an erasure drops the owner's checkpoints that
 * saw the revoked source (all of them when it has no stored input but changed records); a
 * write input that brings its owner's partition to a multiple of CHECKPOINT_EVERY leaves one.
 */
async function keepCheckpoints(
  db: EngramDatabase,
  commit: { inputs: readonly InputRow[]; seqs: readonly number[]; versions: ReadonlyMap<string, [number, number]>; revoke?: Owner; deleteInputs?: readonly number[]; wrote?: boolean },
): Promise<void> {
  const { inputs, seqs, versions, revoke, deleteInputs = [] } = commit;
  if (revoke && (deleteInputs.length || commit.wrote)) await dropCheckpoints(db, revoke, deleteInputs.length ? Math.min(...deleteInputs) : 0);
  const last = inputs.length - 1;
  const input = inputs[last];
  if (!input || input.kind === 'prune' || input.scope === 'app') return;
  const version = versions.get(userPartition(input))?.[1];
  if (version !== undefined && version % CHECKPOINT_EVERY === 0) await writeCheckpoint(db, input, seqs[last]!);
}

/** Inside the commit transaction: throws ConflictError when an id this commit creates is already taken. */
async function refuseExistingIds(db: EngramDatabase, creates: readonly string[]): Promise<void> {
  if (creates.length === 0) return;
  const existing = await db.memories.bulkGet([...creates]);
  const taken = creates.filter((_id, i) => existing[i] !== undefined);
  if (taken.length || new Set(creates).size !== creates.length) {
    throw new IdCollisionError(`memory id ${taken[0] ?? 'generated twice'} already exists; a new memory never replaces another record, so the write is decided again with new ids`);
  }
}

/** Inside the commit transaction: throws PermissionError for an input whose source was revoked after the write began. */
async function refuseRevokedInputs(db: EngramDatabase, inputs: readonly InputRow[], baseVersion: number | undefined): Promise<void> {
  const owned = inputs.filter((input) => input.kind !== 'prune' && input.scope !== 'app') as WriteInput[];
  if (owned.length === 0) return;
  const revocations = await db.revocations.bulkGet(owned.map((input) => [input.userId, input.appName, input.source.id] as [string, string, string]));
  revocations.forEach((revocation, i) => {
    if (revocation && (baseVersion === undefined || revocation.version > baseVersion)) {
      throw new PermissionError(
        `source '${owned[i]!.source.id}' was revoked with forgetSource while this write was in flight; nothing from it was stored. Ingest it again if the user shares it anew.`,
      );
    }
  });
}

export { appPartition, userPartition };
