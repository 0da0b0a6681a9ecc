/**
 * Owner-scoped access to the database. Every read takes the owner and returns only what
 * {@link isVisibleTo} allows; every record read back is parsed with zod, and rows that fail
 * are quarantined (skipped and reported), never returned and never allowed to crash a scan.
 */
import { Dexie } from 'dexie';
import { toStorageError } from '../errors';
import { byCreation, MemoryRecord, type Scope } from '../schema';
import type { RecordStore } from '../storage/contract';
import { lineageOfCommit } from '../storage/lineage';
import { sameFactKey } from '../text';
import { activeAfter, createActiveSets } from './active-set';
import { HELD, markHeld, type EngramDatabase, type EventRow, type InputRow, type MemoryRow } from './database';
import { checkpointBefore, dropCheckpoints, onCheckpointStride, restoreCheckpoint, writeCheckpoint } from './checkpoints';
import { createdBySources, memoriesWithSource, metaOf, quotingSources, redactSources, sourceSlot, writeRecords, type ParsedRow } from './lineage';
import { parseInputRows } from '../storage/input-row';
import { hydrate, sharedReads, toWorking } from './lineage-read';
import { appPartition, isVisibleTo, partitionOf, userPartition, type Owner } from '../storage/owner';
import { commitRows, prepareSeals, refuseMixedSealing } from './sealing';
import { writePackLog } from './vector-log';
import { erasesText, redactsText } from '../storage/erasure-channel';
import { checkpointDue, nextVersions, refuseExistingIds, refuseRevokedInputs } from './commit-checks';
import { createRecordCache, type RecordCache } from './record-cache';
import { createRecordFill } from './record-fill';
import { erasurePending, eraseByDeleting } from './full-disk';

export type { Commit, CommitResult } from '../storage/contract';

/** The IndexedDB records layer: the contract's reads and commit, plus the quarantine its vector layer reports to. */
export interface Store extends RecordStore {
  /** Adds the id of a row the vector layer found malformed to {@link RecordStore.quarantined}. */
  quarantine(id: string): void;
  /** Drops what it holds of the database in memory (the active sets, the recent records): the database closed under it. */
  forgetCaches(): void;
  /**
   * The hydrated records of this store's partitions (record-cache.ts), for the vector layer's
   * warm retrieve: kept past this store's commits except what they wrote, cleared whole by an
   * erasure or a failed commit.
   */
  readonly recent: RecordCache;
  /**
   * The full records of the stored `rows` that `owner` may see, parsed (bad rows quarantined),
   * as {@link RecordStore.getMany} returns them; run inside the caller's read transaction over
   * `memories`, `lineage` and `events` (the vector layer's re-rank, which read the rows already,
   * and with them `events`: the rows' event rows by memory id, read in the same transaction).
   */
  visibleRecords(rows: readonly unknown[], owner: Owner, events?: ReadonlyMap<string, readonly EventRow[]>): Promise<MemoryRecord[]>;
  /**
   * Reads the active records of `owner`'s partition for `scope` that {@link recent} lacks into
   * it, in slices, when they fit (record-fill.ts); resolves when it is done or gave up for now.
   * `idle` resolves when no search is in flight: each slice waits for it.
   */
  fillRecent(owner: Owner, scope: Scope, idle?: () => Promise<void>): Promise<void>;
}

const isForeignActive = (embedderId: string) => (row: MemoryRow) => row.invalidatedAt === undefined && row.embedderId !== embedderId;

/**
 * `embedder`, when given, also quarantines rows that claim to come from it but hold a vector
 * of another length (rows of another embedder are kept: they are not corrupt, only unscannable).
 * `recordCache`: records the record cache holds at most (default RECORD_CACHE_LIMIT; 0: none).
 * `onErased` is called after each commit that erased user text.
 */
export function createStore(db: EngramDatabase, embedder?: { id: string; dim: number }, recordCache?: number, onErased?: () => void): Store {
  const quarantined = new Set<string>();
  const active = createActiveSets(db);
  const recent = createRecordCache(recordCache);

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

  function visibleRows(rows: readonly unknown[], owner: Owner): ParsedRow[] {
    const out: ParsedRow[] = [];
    for (const row of rows) {
      const parsed = parse(row);
      if (parsed && isVisibleTo(parsed.record, owner)) out.push(parsed);
    }
    return out;
  }

  /** Full records (lineage.ts hydrate) of the rows visible to `owner`. */
  function visible(rows: readonly unknown[], owner: Owner, events?: ReadonlyMap<string, readonly EventRow[]>): Promise<MemoryRecord[]> {
    return hydrate(db, visibleRows(rows, owner), (id) => quarantined.add(id), undefined, events);
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
    const wanted = ({ record }: ParsedRow) => record.scope === scope && record.invalidatedAt === undefined && (onTopics.has(record.topic) || factKeys.has(`${record.topic}\u0000${sameFactKey(record.content)}`));
    return { ids, wanted };
  }

  async function read<T>(action: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw toStorageError(error, action);
    }
  }

  /**
   * Before a commit whose input will probably leave a checkpoint (its owner's partition is one
   * write short of a multiple of CHECKPOINT_EVERY): the owner's active set, read in a read
   * transaction of its own (the commit's write transaction may not build one, active-set.ts).
   */
  async function readCheckpointSet(inputs: readonly InputRow[], expected: ReadonlyMap<string, number>): Promise<void> {
    const due = checkpointDue(inputs, (key) => (expected.has(key) ? expected.get(key)! + 1 : undefined));
    if (due) await db.transaction('r', db.memories, db.partitions, db.vectorLog, () => active.read(due, 'user'));
  }

  /** The owner's inputs after `seq`, in `seq` order (the index's order), parsed. */
  const inputsAfter = (owner: Owner, seq: number) =>
    read('reading stored conversations', async () =>
      parseInputRows(await db.inputs.where('[userId+appName+seq]').between([owner.userId, owner.appName, seq], [owner.userId, owner.appName, Dexie.maxKey], false, true).toArray(), 'reading stored conversations'),
    );

  /** Past this many sources, an erasure reads all of the owner's rows once instead of each source's. */
  const MANY_SOURCES = 32;

  /** The rows {@link RecordStore.erasureSet} reads (unparsed), inside the caller's transaction over memories, lineage, partitions and vectorLog. */
  async function erasureRows(owner: Owner, { sourceIds, fromSeq }: { sourceIds: readonly string[]; fromSeq: number | undefined }): Promise<MemoryRow[]> {
    // Many sources at once (a user's whole history): all of the owner's rows in one read, which the contract allows.
    if (sourceIds.length > MANY_SOURCES) {
      return (await Promise.all((['user', 'session'] as const).map((scope) => db.memories.where('[userId+appName+scope]').equals([owner.userId, owner.appName, scope]).toArray()))).flat();
    }
    const activeIds = [...(await active.read(owner, 'user')).rows.keys()];
    const [current, since, listing] = await Promise.all([
      db.memories.bulkGet(activeIds).then((rows) => rows.filter((row): row is MemoryRow => row !== undefined && row.active === 1)),
      fromSeq === undefined ? [] : db.memories.where('[userId+appName+changed]').between([owner.userId, owner.appName, fromSeq], [owner.userId, owner.appName, Dexie.maxKey], true, true).toArray(),
      memoriesWithSource(db, owner, sourceIds),
    ]);
    return [...new Map([...current, ...since, ...listing].map((row) => [row.id, row])).values()].filter((row) => row.scope !== 'app');
  }

  const fillRecent = createRecordFill({ db, active, recent, hydrate: (rows, owner, events) => visible(rows, owner, events) });

  return {
    quarantined,
    quarantine: (id) => void quarantined.add(id),
    recent,
    forgetCaches: () => {
      active.clear();
      recent.clear();
    },
    visibleRecords: visible,
    fillRecent,

    versions: (keys) =>
      read('reading partition versions', async () => {
        const rows = await db.partitions.bulkGet([...keys]);
        return new Map(keys.map((key, i) => [key, rows[i]?.version ?? 0]));
      }),

    getMany: (ids, owner) =>
      read('reading memories', () =>
        db.transaction('r', db.memories, db.lineage, db.events, async () => {
          const rows = await db.memories.bulkGet([...ids]);
          return visible(
            rows.filter((row) => row !== undefined),
            owner,
          );
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
          return records.sort(byCreation);
        }),
      ),

    workingSet: (owner, { ids, topics, facts = [], scope, sourceId }) =>
      read('reading the candidate sweep', () =>
        db.transaction('r', db.memories, db.lineage, db.partitions, db.vectorLog, async () => {
          const sweep = topics.length || facts.length ? await sweepOf(owner, { topics, facts, scope }) : { ids: [], wanted: () => false };
          // One read for the neighbours and the sweep, in that order.
          const neighbours = new Set(ids);
          const all = [...new Set([...ids, ...sweep.ids])];
          const rows = all.length ? await db.memories.bulkGet(all) : [];
          const parsed = visibleRows(
            rows.filter((row) => row !== undefined),
            owner,
          ).filter((row) => neighbours.has(row.record.id) || sweep.wanted(row));
          return toWorking(db, parsed, sourceId);
        }),
      ),

    inputsAfter,

    inputsOf: (owner, sourceId) =>
      read('reading stored conversations', async () =>
        parseInputRows(await db.inputs.where('[userId+appName+source.id]').equals([owner.userId, owner.appName, sourceId]).toArray(), 'reading stored conversations').sort((a, b) => a.seq! - b.seq!),
      ),

    prunedAfter: (owner, seq) =>
      read(
        'reading stored conversations',
        async () => (await db.inputs.where('[userId+appName+kind+seq]').between([owner.userId, owner.appName, 'prune', seq], [owner.userId, owner.appName, 'prune', Dexie.maxKey], false, true).count()) > 0,
      ),

    createdBy: (owner, sourceIds) => read('reading memories by source', () => createdBySources(db, owner, sourceIds)),

    // The held index's entries for one owner come in primary key order: seq, the order written.
    heldInputs: (owner) => read('reading the review queue', async () => parseInputRows(await db.inputs.where('[userId+appName+held]').equals([owner.userId, owner.appName, HELD]).toArray(), 'reading the review queue')),

    erasureSet: (owner, request) =>
      read('reading memories to erase from', () => db.transaction('r', db.memories, db.lineage, db.events, db.partitions, db.vectorLog, async () => (await visible(await erasureRows(owner, request), owner)).sort(byCreation))),

    erasureReads: (owner, request) =>
      read('reading memories to erase from', () =>
        db.transaction('r', [db.memories, db.lineage, db.events, db.partitions, db.vectorLog, db.checkpoints], async () => {
          // One read of each list the two share: the long-lived memories are in both. The set
          // first, so the checkpoint's lists come from what it read.
          const reads = sharedReads(db);
          const [rows, checkpoint] = await Promise.all([erasureRows(owner, request), request.fromSeq === undefined ? undefined : checkpointBefore(db, owner, request.fromSeq)]);
          const records = await hydrate(db, visibleRows(rows, owner), (id) => quarantined.add(id), undefined, undefined, reads);
          const restored = checkpoint ? await restoreCheckpoint(db, checkpoint, parse, reads) : null;
          return { records: records.sort(byCreation), checkpoint: checkpoint && restored ? { seq: checkpoint.seq, records: restored.filter((record) => isVisibleTo(record, owner)) } : null };
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
        db.transaction('r', db.memories, db.lineage, db.events, async () => (await visible(await memoriesWithSource(db, owner, [sourceId]), owner)).filter((record) => record.sources.some((source) => source.id === sourceId))),
      ),

    // The order they were written in (invariant 11), never their clock times: after a clock went
    // backwards, sorting by time would replay a history that never happened.
    inputs: (owner) => inputsAfter(owner, 0),

    locate: (id) =>
      read('locating a memory', async () => {
        // Owner and scope are clear fields of a sealed row: nothing is opened here.
        const row = await db.memories.get(id);
        return row === undefined ? undefined : { id: row.id, userId: row.userId, appName: row.appName, scope: row.scope };
      }),

    isRevoked: (owner, sourceId) => read('reading revocations', async () => (await db.revocations.get([owner.userId, owner.appName, sourceId])) !== undefined),

    foreignActive: (embedderId, afterId, limit) =>
      read('reading memories to re-embed', async () => {
        const all = afterId === undefined ? db.memories.toCollection() : db.memories.where(':id').above(afterId);
        const rows = await all.filter(isForeignActive(embedderId)).limit(limit).toArray();
        return { rows: rows.map(({ id, userId, appName, scope }) => ({ id, userId, appName, scope })), lastId: rows.at(-1)?.id };
      }),

    activeOfEmbedder: (owner, embedderId) =>
      read('reading memories waiting for a vector', async () => {
        const rows = await db.memories.where('[userId+appName+embedderId+active]').equals([owner.userId, owner.appName, embedderId, 1]).toArray();
        return rows.filter((row) => row.scope !== 'app').map((row) => row.id);
      }),

    countForeign: (embedderId) => read('counting memories to re-embed', () => db.memories.filter(isForeignActive(embedderId)).count()),

    erasurePending: (owner) => read('reading partition versions', () => erasurePending(db, owner)),

    async eraseByDeleting(owner, expected, erasure) {
      try {
        return await eraseByDeleting(db, owner, expected.get(userPartition(owner)) ?? 0, erasure);
      } catch (error) {
        throw toStorageError(error, 'erasing memories');
      } finally {
        // Whatever it did, nothing cached of the partition is trusted (its versions restart at the rebuild).
        active.clear();
        recent.clear();
        onErased?.();
      }
    },

    async commit(commit) {
      const { records, creates = [], inputs = [], deleteInputs = [], rewriteInputs = [], redactExcerpts, expected, revoke, inputsBaseVersion } = commit;
      const touched = new Set([...expected.keys(), ...records.map(partitionOf), ...(revoke ? [userPartition(revoke)] : [])]);
      // An erasure's redactions (and a rewrite of stored conversations) reach records the commit
      // does not list: no record cache may follow it by the rows it wrote (below, and vector-log.ts).
      const redacts = redactsText(commit);
      const erases = erasesText(commit);
      // Encrypted at rest: everything this commit can write is sealed first (sealing.ts).
      let release = () => {};
      let written: MemoryRow[] = [];
      try {
        await readCheckpointSet(inputs, expected);
        release = await prepareSeals(db, () => commitRows(records, [...inputs, ...rewriteInputs]));
        // Which excerpts quote a forgotten span, read before the transaction: inside it a sealed
        // excerpt cannot be opened to compare (lineage.ts quotingSources).
        const quoting = redactExcerpts ? await quotingSources(db, redactExcerpts, redactExcerpts.sourceIds, redactExcerpts.excerpts) : undefined;
        // Nothing but IndexedDB is awaited in here: any other await would end the transaction
        // and leave the writes before it committed (RELIABILITY.md, "Traps").
        const tables = [db.memories, db.lineage, db.events, db.checkpoints, db.inputs, db.partitions, db.vectorLog, db.vectorPacks, db.revocations];
        const result = await db.transaction('rw', tables, async () => {
          await refuseMixedSealing(db);
          await refuseRevokedInputs(db, inputs, inputsBaseVersion);
          // The rows this commit replaces, read once: the id check and the lineage placement both need them.
          const existing = records.length ? await db.memories.bulkGet(records.map((record) => record.id)) : [];
          await refuseExistingIds(db, creates, new Map(records.map((record, i) => [record.id, existing[i]])));
          const versions = await nextVersions(db, [...touched], expected, commit.finishesErasure);
          // A checkpoint records the owner's active rows after this commit: its set at the version
          // this commit starts from with the rows it writes. Without that set in hand (a fresh
          // instance, another tab wrote) it is skipped: the next one due is written.
          const due = checkpointDue(inputs, (key) => versions.get(key)?.[1]);
          const before = due ? active.exact(userPartition(due), versions.get(userPartition(due))![0]) : undefined;
          const checkpointed = before !== undefined && onCheckpointStride(versions.get(before.key)![1], before.rows.size);
          const seqs = inputs.length ? ((await db.inputs.bulkAdd(inputs.map(markHeld), { allKeys: true })) as number[]) : [];
          const changed = seqs.length ? Math.max(...seqs) : (((await db.inputs.orderBy(':id').lastKey()) as number | undefined) ?? 0);
          written = await writeRecords(db, records, changed, lineageOfCommit(commit), existing);
          if (revoke) await redactSources(db, revoke, revoke.sourceIds);
          if (redactExcerpts) await redactSources(db, redactExcerpts, redactExcerpts.sourceIds, (source, memoryId) => quoting!.has(sourceSlot(memoryId, source)));
          if (deleteInputs.length) await db.inputs.bulkDelete(deleteInputs);
          if (rewriteInputs.length) {
            await db.inputs.bulkPut(rewriteInputs.map(markHeld));
            // Checkpoints at or after a rewritten input were derived from what it held before.
            for (const owner of ownersOfInputs(rewriteInputs)) await dropCheckpoints(db, owner, Math.min(...rewriteInputs.filter((input) => input.userId === owner.userId && input.appName === owner.appName).map((input) => input.seq!)));
          }
          await db.partitions.bulkPut([...versions].map(([key, [, version]]) => ({ key, version })));
          // An erasure drops the checkpoints that saw the revoked source (all of them when it has no stored input but changed records).
          if (revoke && (deleteInputs.length || records.length > 0)) await dropCheckpoints(db, revoke, deleteInputs.length ? Math.min(...deleteInputs) : 0);
          if (due && before && checkpointed) await writeCheckpoint(db, due, seqs.at(-1)!, activeAfter(before, written));
          if (revoke) {
            const version = versions.get(userPartition(revoke))![1];
            await db.revocations.bulkPut(revoke.sourceIds.map((sourceId) => ({ userId: revoke.userId, appName: revoke.appName, sourceId, at: revoke.at, version })));
          }
          const packsDropped = await writePackLog(db, versions, records, redacts ? null : written);
          return { versions, packsDropped };
        });
        active.committed(result.versions, written);
        // What this commit wrote leaves the record cache; an erasure (or a commit that rewrites
        // stored conversations) clears it whole: nothing it changed stays cached.
        if (redacts) recent.clear();
        else recent.committed(result.versions, written);
        if (erases) onErased?.();
        return result;
      } catch (error) {
        // Failed, or unknown whether it committed: nothing cached is trusted (an erasure's text included).
        recent.clear();
        if (erases) onErased?.();
        throw toStorageError(error, 'writing memories');
      } finally {
        release();
      }
    },
  };
}

/** The owners of some inputs, once each. */
function ownersOfInputs(inputs: readonly InputRow[]): Owner[] {
  return [...new Map(inputs.map((input) => [JSON.stringify([input.userId, input.appName]), { userId: input.userId, appName: input.appName }])).values()];
}

export { appPartition, userPartition };
