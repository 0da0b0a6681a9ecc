/**
 * Owner-scoped access to the database. Every read takes the owner and returns only what
 * {@link isVisibleTo} allows; every record read back is parsed with zod, and rows that fail
 * are quarantined (skipped and reported), never returned and never allowed to crash a scan.
 */
import { Dexie } from 'dexie';
import { ConflictError, IdCollisionError, PermissionError, toStorageError } from '../errors';
import { MemoryRecord, type Scope } from '../schema';
import type { RecordStore } from '../storage/contract';
import { sameFactKey } from '../text';
import { activeAfter, createActiveSets } from './active-set';
import type { EngramDatabase, InputRow, MemoryRow, WriteInput } from './database';
import { checkpointBefore, CHECKPOINT_EVERY, dropCheckpoints, onCheckpointStride, restoreCheckpoint, writeCheckpoint } from './checkpoints';
import { memoriesWithSource, metaOf, redactSource, writeRecords, type ParsedRow } from './lineage';
import { parseInputRows } from './input-row';
import { hydrate, toWorking } from './lineage-read';
import { appPartition, isVisibleTo, partitionOf, userPartition, type Owner } from './owner';
import { commitRows, prepareSeals, refuseMixedSealing } from './sealing';
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
  const active = createActiveSets(db);

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

  /**
   * The sweep's rows besides the neighbours (ids, in the order the indexes once gave: topic by
   * topic, then fact by fact, each by id) from the partition's active set (active-set.ts), and
   * the test a row read back by them must pass: still active, of `scope`, on one of the topics or
   * holding one of the facts (a fact-key collision is filtered out here).
   */
  async function sweepOf(owner: Owner, { topics, facts, scope }: { topics: readonly string[]; facts: readonly { topic: string; content: string }[]; scope: Scope }) {
    const partition = await active.read(owner, scope);
    const byId = (ids: readonly string[]) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const ids = [...topics.flatMap((topic) => byId(active.onTopic(partition, scope, topic))), ...facts.flatMap(({ topic, content }) => byId(active.withFact(partition, scope, topic, content)))];
    const onTopics = new Set(topics);
    const factKeys = new Set(facts.map(({ topic, content }) => `${topic}\u0000${sameFactKey(content)}`));
    const wanted = ({ record }: ParsedRow) =>
      record.scope === scope && record.invalidatedAt === undefined && (onTopics.has(record.topic) || factKeys.has(`${record.topic}\u0000${sameFactKey(record.content)}`));
    return { ids, wanted };
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
        db.transaction('r', db.memories, db.lineage, db.partitions, async () => {
          const sweep = topics.length || facts.length ? await sweepOf(owner, { topics, facts, scope }) : { ids: [], wanted: () => false };
          // One read for the neighbours and the sweep, in that order.
          const neighbours = new Set(ids);
          const all = [...new Set([...ids, ...sweep.ids])];
          const rows = all.length ? await db.memories.bulkGet(all) : [];
          const parsed = visibleRows(rows.filter((row) => row !== undefined), owner).filter((row) => neighbours.has(row.record.id) || sweep.wanted(row));
          return toWorking(db, parsed, sourceId);
        }),
      ),

    inputsAfter,

    inputsOf: (owner, sourceId) =>
      read('reading stored conversations', async () =>
        parseInputRows(await db.inputs.where('[userId+appName+source.id]').equals([owner.userId, owner.appName, sourceId]).toArray(), 'reading stored conversations').sort((a, b) => a.seq! - b.seq!),
      ),

    erasureSet: (owner, { sourceId, fromSeq }) =>
      read('reading memories to erase from', () =>
        db.transaction('r', db.memories, db.lineage, db.events, db.partitions, async () => {
          const activeIds = [...(await active.read(owner, 'user')).rows.keys()];
          const [current, since, listing] = await Promise.all([
            db.memories.bulkGet(activeIds).then((rows) => rows.filter((row): row is MemoryRow => row !== undefined && row.active === 1)),
            fromSeq === undefined ? [] : db.memories.where('[userId+appName+changed]').between([owner.userId, owner.appName, fromSeq], [owner.userId, owner.appName, Dexie.maxKey], true, true).toArray(),
            memoriesWithSource(db, owner, sourceId),
          ]);
          const rows = [...new Map([...current, ...since, ...listing].map((row) => [row.id, row])).values()].filter((row) => row.scope !== 'app');
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
        // A chain's later memories all carry its sources unless they exclude one (lineage.ts).
        db.transaction('r', db.memories, db.lineage, db.events, async () =>
          (await visible(await memoriesWithSource(db, owner, sourceId), owner)).filter((record) => record.sources.some((source) => source.id === sourceId)),
        ),
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
      let written: MemoryRow[] = [];
      try {
        release = await prepareSeals(db, () => commitRows(records, inputs));
        // Nothing but IndexedDB is awaited in here: any other await would end the transaction
        // and leave the writes before it committed (RELIABILITY.md, "Traps").
        const tables = [db.memories, db.lineage, db.events, db.checkpoints, db.inputs, db.partitions, db.vectorLog, db.vectorPacks, db.revocations];
        const result = await db.transaction('rw', tables, async () => {
          await refuseMixedSealing(db);
          await refuseRevokedInputs(db, inputs, inputsBaseVersion);
          // The rows this commit replaces, read once: the id check and the lineage placement both need them.
          const existing = records.length ? await db.memories.bulkGet(records.map((record) => record.id)) : [];
          await refuseExistingIds(db, creates, new Map(records.map((record, i) => [record.id, existing[i]])));
          const versions = await nextVersions(db, [...touched], expected);
          // A checkpoint records the owner's active rows after this commit: its set before the
          // writes (read now, at the version this commit starts from) with the rows it writes.
          const due = checkpointDue(inputs, versions);
          const before = due ? await active.read(due, 'user') : undefined;
          const checkpointed = before !== undefined && onCheckpointStride(versions.get(before.key)![1], before.rows.size);
          const seqs = inputs.length ? ((await db.inputs.bulkAdd(inputs, { allKeys: true })) as number[]) : [];
          const changed = seqs.length ? Math.max(...seqs) : (((await db.inputs.orderBy(':id').lastKey()) as number | undefined) ?? 0);
          written = await writeRecords(db, records, changed, hints, existing);
          if (revoke) await redactSource(db, revoke, revoke.sourceId);
          if (deleteInputs.length) await db.inputs.bulkDelete(deleteInputs);
          await db.partitions.bulkPut([...versions].map(([key, [, version]]) => ({ key, version })));
          // An erasure drops the checkpoints that saw the revoked source (all of them when it has no stored input but changed records).
          if (revoke && (deleteInputs.length || records.length > 0)) await dropCheckpoints(db, revoke, deleteInputs.length ? Math.min(...deleteInputs) : 0);
          if (due && before && checkpointed) await writeCheckpoint(db, due, seqs.at(-1)!, activeAfter(before, written));
          if (revoke) await db.revocations.put({ ...revoke, version: versions.get(userPartition(revoke))![1] });
          const packsDropped = await writePackLog(db, versions, records);
          return { versions, packsDropped };
        });
        active.committed(result.versions, written);
        return result;
      } catch (error) {
        throw toStorageError(error, 'writing memories');
      } finally {
        release();
      }
    },
  };
}

/** Inside the commit transaction: each touched partition's [current, next] version; ConflictError when one moved since `expected`. */
async function nextVersions(db: EngramDatabase, keys: readonly string[], expected: ReadonlyMap<string, number>): Promise<Map<string, [number, number]>> {
  const current = await db.partitions.bulkGet([...keys]);
  const versions = new Map<string, [number, number]>();
  keys.forEach((key, i) => {
    const version = current[i]?.version ?? 0;
    const seen = expected.get(key);
    if (seen !== undefined && seen !== version) {
      throw new ConflictError(`partition ${key} changed (version ${seen} → ${version}) while this write was being decided`);
    }
    versions.set(key, [version, version + 1]);
  });
  return versions;
}

/**
 * The write input whose owner gets a checkpoint in this commit (checkpoints.ts): one that brings
 * its owner's partition to a multiple of CHECKPOINT_EVERY.
 */
function checkpointDue(inputs: readonly InputRow[], versions: ReadonlyMap<string, [number, number]>): WriteInput | undefined {
  const input = inputs.at(-1);
  if (!input || input.kind === 'prune' || input.scope === 'app') return undefined;
  const version = versions.get(userPartition(input))?.[1];
  return version !== undefined && version % CHECKPOINT_EVERY === 0 ? input : undefined;
}

/**
 * Inside the commit transaction: throws IdCollisionError when an id this commit creates is
 * already taken (`read`: the rows already read for this commit's records, by id).
 */
async function refuseExistingIds(db: EngramDatabase, creates: readonly string[], read: ReadonlyMap<string, MemoryRow | undefined>): Promise<void> {
  if (creates.length === 0) return;
  const unread = creates.filter((id) => !read.has(id));
  const more = unread.length ? await db.memories.bulkGet(unread) : [];
  const stored = new Map([...read, ...unread.map((id, i) => [id, more[i]] as const)]);
  const taken = creates.filter((id) => stored.get(id) !== undefined);
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
