/**
 * The records layer's reads on Chroma. Every read is a `where` filter engram builds (the
 * partition, scope, `active`, topic or source flag), then the one isolation predicate again on
 * what came back; rows that fail to parse are quarantined. Reads go through the seqlock of
 * intents.ts, so no commit is ever seen half-applied.
 */
import { appPartition, byCreation, factHash, isVisibleTo, userPartition, type MemoryRecord, type Scope } from 'engram';
import type { Owner, RecordLocation, RecordStore } from '../../storage/contract';
import type { Held, Snapshots } from './snapshot';
import type { Collections, ReadRow } from './collections';
import { consistentRead, readControl, type IntentOptions } from './intents';
import { HELD, holdsPending, inputOf, inputPartition, recordOf, sourceFlag } from './rows';
import { and, eq, NOTHING, oneOf, or, type Filter } from './where';

export type RecordReads = Omit<RecordStore, 'commit' | 'quarantined'>;

/** The filter for an owner's records of `scopes` (app scope: its app's), any state. */
export function scopeFilter(owner: Owner, scopes: readonly Scope[]): Filter {
  const own = scopes.filter((scope) => scope !== 'app');
  return or(own.length ? and(eq('pk', userPartition(owner)), oneOf('scope', own)) : NOTHING, scopes.includes('app') ? eq('pk', appPartition(owner.appName)) : NOTHING);
}

export function createRecordReads(collections: Collections, intents: IntentOptions, quarantined: Set<string>, snapshots: Snapshots): RecordReads {
  const ownKeys = (owner: Owner) => [userPartition(owner), appPartition(owner.appName)];

  /** Parsed, visible records of `rows` (unparseable ones quarantined). */
  function visible(rows: readonly ReadRow[], owner: Owner | null): MemoryRecord[] {
    const out: MemoryRecord[] = [];
    for (const row of rows) {
      const record = recordOf(row);
      if (!record) quarantined.add(row.id);
      else if (owner === null || isVisibleTo(record, owner)) out.push(record);
    }
    return out;
  }

  const memories = (owner: Owner, keys: readonly string[], request: { ids?: readonly string[]; where?: Filter }) =>
    consistentRead(collections, keys, async () => visible(await collections.get('memories', { ...request, embeddings: true }), owner), intents);

  const inputsWhere = (owner: Owner, where: Filter) => {
    const key = inputPartition(owner);
    return consistentRead(
      collections,
      [key],
      async () => {
        // In the control collection (written with each commit's decision); a store an earlier
        // engram wrote also has some in `inputs`. A row in both is the same input: control's wins.
        const filter = and(eq('ok', key), where);
        const [current, earlier] = await Promise.all([collections.get('control', { where: filter }), collections.get('inputs', { where: filter })]);
        const byId = new Map([...earlier, ...current].map((row) => [row.id, row]));
        return [...byId.values()].map(inputOf).sort((a, b) => a.seq! - b.seq!);
      },
      intents,
    );
  };

  /** Active rows another embedder wrote, any owner (re-embedding walks them; no caller's read). */
  const foreign = (embedderId: string) => collections.get('memories', { where: and(eq('active', true), { embedderId: { $ne: embedderId } }) });

  return {
    versions: async (keys) => (await readControl(collections, keys)).versions,

    async getMany(ids, owner) {
      // From the held partitions when each id is found in one that is current (one control read).
      const keys = ownKeys(owner);
      const control = await readControl(collections, keys);
      const held = keys.flatMap((key) => snapshots.currentAt(control, [key]) ?? []);
      const fromHeld = ids.flatMap((id) => held.flatMap((partition) => partition.rows.get(id)?.record ?? []).slice(0, 1));
      if (fromHeld.length === ids.length) return fromHeld.filter((record) => isVisibleTo(record, owner));
      const found = new Map((await memories(owner, keys, { ids })).map((record) => [record.id, record]));
      return ids.flatMap((id) => found.get(id) ?? []);
    },

    async list(owner, { scopes, includeInvalid }) {
      const where = and(scopeFilter(owner, scopes), includeInvalid ? undefined : eq('active', true));
      return (await memories(owner, ownKeys(owner), { where })).sort(byCreation);
    },

    async workingSet(owner, request) {
      const key = request.scope === 'app' ? appPartition(owner.appName) : userPartition(owner);
      // A consolidation asks for its working set after the write's ensure, and commits against
      // the versions that returned: the held partition is at that version or later (held versions
      // never go down, snapshot.ts), and if later the commit fails with ConflictError and the write
      // is decided again. So it answers as held, without a control read of its own.
      const held = snapshots.held(key);
      const fromHeld = held && heldWorkingSet(held, request);
      if (fromHeld) return [...new Map(fromHeld.filter((record) => isVisibleTo(record, owner)).map((record) => [record.id, record])).values()];
      const { ids, topics, facts = [], scope } = request;
      const active = (clause: Filter) => collections.get('memories', { where: and(eq('pk', key), eq('scope', scope), eq('active', true), clause), embeddings: true });
      const hashes = [...new Set(facts.map((fact) => factHash(fact.topic, fact.content)))];
      // Neighbours (any state), the topic sweep and the identical facts (active, by `where`) in one consistent read.
      const rows = await consistentRead(
        collections,
        [key],
        async () => {
          const [neighbours, onTopic, same] = await Promise.all([collections.get('memories', { ids, embeddings: true }), active(oneOf('topic', topics)), active(oneOf('fact', hashes))]);
          return [...neighbours, ...onTopic, ...same];
        },
        intents,
      );
      return [...new Map(visible(rows, owner).map((record) => [record.id, record])).values()];
    },

    bySource: (owner, sourceId) => memories(owner, [userPartition(owner)], { where: and(eq('pk', userPartition(owner)), eq(sourceFlag(sourceId), true)) }),

    // All of the owner's user- and session-scope records: the contract allows more than it needs.
    erasureSet: async (owner) => (await memories(owner, [userPartition(owner)], { where: eq('pk', userPartition(owner)) })).sort(byCreation),

    inputs: (owner) => inputsWhere(owner, undefined),
    inputsAfter: (owner, seq) => inputsWhere(owner, { seq: { $gt: seq } }),
    inputsOf: (owner, sourceId) => inputsWhere(owner, eq('src', sourceId)),
    // By the `held` mark (rows.ts; set on the rows of earlier stores when opened: intents.ts
    // upgradeFormat), filtered again on the inputs themselves.
    heldInputs: async (owner) => (await inputsWhere(owner, eq('held', HELD))).filter(holdsPending),

    // This backend keeps no checkpoints: regeneration replays from the first input.
    checkpointBefore: async () => null,

    async locate(id) {
      const [row] = await collections.get('memories', { ids: [id] });
      if (row === undefined) return undefined;
      const { userId, appName, scope } = row.metadata as { userId: string; appName: string; scope: Scope };
      return { id: row.id, userId, appName, scope };
    },

    async isRevoked(owner, sourceId) {
      const rows = await collections.get('revocations', { ids: [revocationId(owner, sourceId)] });
      return rows.length > 0;
    },

    async foreignActive(embedderId, afterId, limit) {
      const rows = (await foreign(embedderId)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const after = afterId === undefined ? rows : rows.filter((row) => row.id > afterId);
      const page = after.slice(0, limit).map((row): RecordLocation => {
        const { userId, appName, scope } = row.metadata as { userId: string; appName: string; scope: Scope };
        return { id: row.id, userId, appName, scope };
      });
      return { rows: page, lastId: page.at(-1)?.id };
    },

    countForeign: async (embedderId) => (await foreign(embedderId)).length,
  };
}

/**
 * The working set from a held partition: the ids (any state), the active rows of `scope` on one
 * of `topics` or holding one of `facts`. Undefined when an id is not held there (it is in another
 * partition: the caller reads from the server).
 */
function heldWorkingSet(held: Held, { ids, topics, facts = [], scope }: Parameters<RecordStore['workingSet']>[1]): MemoryRecord[] | undefined {
  const out: MemoryRecord[] = [];
  for (const id of ids) {
    const row = held.rows.get(id);
    if (!row) return undefined;
    out.push(row.record);
  }
  const onTopic = new Set(topics);
  const hashes = new Set(facts.map((fact) => factHash(fact.topic, fact.content)));
  if (onTopic.size === 0 && hashes.size === 0) return out;
  for (const { record, fact } of held.rows.values()) {
    if (record.invalidatedAt === undefined && record.scope === scope && (onTopic.has(record.topic) || hashes.has(fact))) out.push(record);
  }
  return out;
}

/** Row id of an owner's revocation of `sourceId` (JSON: no two owners or sources share one). */
export const revocationId = (owner: Owner, sourceId: string) => JSON.stringify([owner.userId, owner.appName, sourceId]);
