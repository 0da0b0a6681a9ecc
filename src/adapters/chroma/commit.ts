/**
 * The contract's one write, on Chroma: engram's Commit turned into a plan for intents.ts
 * (claim, checks, the writes as one intent document, idempotent apply, clear). The refusals
 * are the IndexedDB backend's, checked after the claim is won and before anything is written:
 * a stale version (ConflictError), a CREATE whose id exists (ConflictError, decided again
 * with new ids), an input whose source was revoked after the write began (PermissionError).
 *
 * Inputs have no auto-increment here: an input's `seq` is its owner partition's version after
 * this commit × 2^20 + its position, increasing in write order within the owner (replay reads
 * one owner's inputs; invariant 11 needs their order, never a global one).
 */
import { IdCollisionError, partitionOf, PermissionError, StorageError, userPartition, type MemoryRecord } from 'engram';
import type { Source } from '../../schema';
import type { Commit, CommitResult, WriteInput } from '../../storage/contract';
import { erasesText } from '../../storage/erasure-channel';
import type { ChromaRow, Collections, ReadRow } from './collections';
import { commitPlan, type IntentOptions, type Write } from './intents';
import type { Held, Snapshots } from './snapshot';
import { dropsFlags, inputId, inputPartition, inputRow, memoryRow, recordOf, sourceFlag } from './rows';
import { revocationId } from './records';
import { and, eq } from './where';

/** Inputs one commit may append (their seqs are `version × SEQ_SPAN + i`; 2^33 commits per owner stay exact). */
const SEQ_SPAN = 2 ** 20;

/**
 * The commit, telling the other instances over these collections (`onErased`: the erasure
 * channel's announce) after each one that erases user text, and after one that failed (it
 * may have committed, or be finished by another instance's recovery).
 */
export function createCommit(collections: Collections, intents: IntentOptions, snapshots: Snapshots, onErased?: () => void): (commit: Commit) => Promise<CommitResult> {
  const commitOnce = createPlainCommit(collections, intents, snapshots);
  return async (commit) => {
    if (!erasesText(commit)) return commitOnce(commit);
    try {
      return await commitOnce(commit);
    } finally {
      onErased?.();
    }
  };
}

function createPlainCommit(collections: Collections, intents: IntentOptions, snapshots: Snapshots): (commit: Commit) => Promise<CommitResult> {
  return async (commit) => {
    const { records, inputs = [], rewriteInputs = [], revoke, redactExcerpts } = commit;
    if (inputs.length >= SEQ_SPAN) throw new StorageError(`one commit on Chroma appends at most ${SEQ_SPAN - 1} stored inputs (got ${inputs.length}); nothing was written. Import the owner's history in parts.`);
    const partitions = [
      ...new Set([
        ...commit.expected.keys(),
        ...records.map(partitionOf),
        ...(revoke ? [userPartition(revoke)] : []),
        ...(redactExcerpts ? [userPartition(redactExcerpts)] : []),
        ...inputs.map(inputPartition),
        ...rewriteInputs.map(inputPartition),
      ]),
    ];
    let stored = new Map<string, MemoryRecord>();
    let written: ChromaRow[] = [];
    const listing = revoke ?? redactExcerpts;
    const keys = [...new Set([...records.map(partitionOf), ...(listing ? [userPartition(listing)] : [])])];
    let prefetched: { revocations: ReadRow[]; records: Map<string, MemoryRecord> | undefined; versions: (number | undefined)[] } | undefined;
    const versions = await commitPlan(
      collections,
      {
        partitions,
        expected: commit.expected,
        // The revocations of the inputs' sources and the records the commit replaces (from the
        // held partitions as they are now, the new ids asked of the server), read beside the
        // claim read; the checks use them when that read shows the partitions at those versions.
        prefetch: async () => {
          const held = keys.map((key) => snapshots.held(key));
          // Taken before any await: a catch-up of this instance may move the held partitions meanwhile (storedRecords reads their rows at once).
          const versions = held.map((partition) => partition?.version);
          const asHeld = held.every((partition) => partition !== undefined) ? new Map(keys.map((key, i) => [key, held[i]!])) : undefined;
          const [revocations, records] = await Promise.all([revocationsOf(collections, commit), asHeld ? storedRecords(collections, commit, asHeld) : undefined]);
          prefetched = { revocations, records, versions };
        },
        check: async (control) => {
          refuseRevokedInputs(prefetched!.revocations, commit.inputsBaseVersion);
          const held = snapshots.currentAt(control, keys);
          const same = held?.every((partition, i) => partition.version === prefetched!.versions[i]);
          // Not current (another instance wrote): read them now, by id and by source flag, as the claim is won.
          stored = (same && prefetched!.records) || (await storedRecords(collections, commit, held && new Map(keys.map((key, i) => [key, held[i]!]))));
          refuseExistingIds(commit.creates ?? [], stored);
        },
        writes: (versions) => {
          const planned = writesOf(commit, stored, versions);
          written = planned.memories;
          return planned.writes;
        },
      },
      intents,
    );
    snapshots.follow(
      versions,
      written.map((row) => ({ id: row.id, document: row.document ?? null, metadata: row.metadata, embedding: row.embedding! })),
    );
    return { versions };
  };
}

/**
 * The records the commit replaces, and (on a revocation, or a forget's redaction) every record of
 * the owner listing one of its sources: their source flags and excerpts change. With `held` (those
 * partitions, current as of the claim) they come from there, and only the new ids are asked of the
 * server (another partition may hold one); otherwise they are read by id and by source flag.
 */
async function storedRecords(collections: Collections, commit: Commit, held: ReadonlyMap<string, Held> | undefined): Promise<Map<string, MemoryRecord>> {
  const out = new Map<string, MemoryRecord>();
  const listing = commit.revoke ?? commit.redactExcerpts;
  if (held) {
    for (const record of commit.records) {
      const found = held.get(partitionOf(record))?.rows.get(record.id);
      if (found) out.set(record.id, found.record);
    }
    if (listing) {
      const sourceIds = new Set(listing.sourceIds);
      for (const { record } of held.get(userPartition(listing))?.rows.values() ?? []) {
        if (record.sources.some((source) => sourceIds.has(source.id))) out.set(record.id, record);
      }
    }
    const asked = (commit.creates ?? []).filter((id) => !out.has(id));
    // Existence is all a CREATE needs: ids only.
    for (const row of await collections.get('memories', { ids: asked, documents: false })) out.set(row.id, { id: row.id } as MemoryRecord);
    return out;
  }
  const ids = [...new Set([...commit.records.map((record) => record.id), ...(commit.creates ?? [])])];
  const rows = await collections.get('memories', { ids, embeddings: true });
  if (listing) rows.push(...(await listingRows(collections, listing)));
  for (const row of rows) {
    const record = recordOf(row);
    if (record) out.set(record.id, record);
    // An unreadable stored row is still an id that exists: a CREATE must not take it.
    else out.set(row.id, { id: row.id } as MemoryRecord);
  }
  return out;
}

/**
 * The owner's rows that list one of the revoked sources: by the source's flag for one, else the
 * owner's partition read once (a `$or` of thousands of flags is no faster), kept when they list one.
 */
async function listingRows(collections: Collections, revoke: { userId: string; appName: string; sourceIds: readonly string[] }) {
  const [only] = revoke.sourceIds;
  if (revoke.sourceIds.length === 1) return collections.get('memories', { where: and(eq('pk', userPartition(revoke)), eq(sourceFlag(only!), true)), embeddings: true });
  const rows = await collections.get('memories', { where: eq('pk', userPartition(revoke)), embeddings: true });
  return rows.filter((row) => revoke.sourceIds.some((id) => row.metadata[sourceFlag(id)] === true));
}

function refuseExistingIds(creates: readonly string[], stored: ReadonlyMap<string, MemoryRecord>): void {
  const taken = creates.filter((id) => stored.has(id));
  if (taken.length || new Set(creates).size !== creates.length) {
    throw new IdCollisionError(`memory id ${taken[0] ?? 'generated twice'} already exists; a new memory never replaces another record, so the write is decided again with new ids`);
  }
}

/**
 * The revocations of the sources of `inputs` (by id) that can refuse the commit. None when every
 * owner's partition is expected at `inputsBaseVersion` (an ingest whose partition did not move
 * since its write began): a revocation bumps its owner's partition and records the version after
 * it, so one after the base version would show as a version past the expected one in the claim
 * read (ConflictError before the checks), and the read is not sent.
 */
async function revocationsOf(collections: Collections, commit: Commit): Promise<ReadRow[]> {
  const { inputs = [], inputsBaseVersion: base, expected } = commit;
  const owned = inputs.filter((input): input is WriteInput => input.kind !== 'prune' && input.scope !== 'app');
  if (base !== undefined && owned.every((input) => expected.get(userPartition(input)) === base)) return [];
  return collections.get('revocations', { ids: owned.map((input) => revocationId(input, input.source.id)) });
}

function refuseRevokedInputs(rows: readonly ReadRow[], baseVersion: number | undefined): void {
  for (const row of rows) {
    const version = row.metadata.version;
    if (typeof version === 'number' && (baseVersion === undefined || version > baseVersion)) {
      const sourceId = String(row.metadata.sourceId);
      throw new PermissionError(`source '${sourceId}' was revoked with forgetSource while this write was in flight; nothing from it was stored. Ingest it again if the user shares it anew.`);
    }
  }
}

/** Whether a stored vector equals the one about to be written, to the float32 bit (Chroma's own precision). */
function sameVector(stored: Float32Array, next: readonly number[]): boolean {
  if (stored.length !== next.length) return false;
  for (let i = 0; i < stored.length; i++) if (stored[i] !== Math.fround(next[i]!)) return false;
  return true;
}

/** What a revocation or a forget's redaction leaves of a record's excerpts. */
function excerptBlanker({ revoke, redactExcerpts }: Commit): (record: MemoryRecord) => MemoryRecord {
  const rules = [
    ...(revoke ? [{ owner: revoke, ids: new Set(revoke.sourceIds), quotes: () => true }] : []),
    ...(redactExcerpts ? [{ owner: redactExcerpts, ids: new Set(redactExcerpts.sourceIds), quotes: (excerpt: string) => redactExcerpts.excerpts.includes(excerpt) }] : []),
  ];
  const goes = (record: MemoryRecord, source: Source) => source.excerpt !== '' && rules.some((rule) => record.userId === rule.owner.userId && record.appName === rule.owner.appName && rule.ids.has(source.id) && rule.quotes(source.excerpt));
  return (record) => (record.sources.some((source) => goes(record, source)) ? { ...record, sources: record.sources.map((source) => (goes(record, source) ? { ...source, excerpt: '' } : source)) } : record);
}

/** Every write of the commit, in apply order (memories, inputs appended, inputs deleted, the revocation), and the memory rows among them. */
function writesOf(commit: Commit, stored: ReadonlyMap<string, MemoryRecord>, versions: ReadonlyMap<string, [number, number]>): { writes: Write[]; memories: ChromaRow[] } {
  const { inputs = [], deleteInputs = [], rewriteInputs = [], revoke, redactExcerpts } = commit;
  const final = new Map<string, MemoryRecord>();
  if (revoke || redactExcerpts) for (const record of stored.values()) if (record.sources) final.set(record.id, record);
  for (const record of commit.records) final.set(record.id, record);
  // The revoked sources' excerpts (a forget's: those quoting its spans) are blanked in every record of the owner that lists one.
  const blank = excerptBlanker(commit);
  const memories: ChromaRow[] = [...final.values()].map((record) => memoryRow(blank(record), versions.get(partitionOf(record))![1]));
  const rewritten = [...final.values()].filter((record) => {
    const previous = stored.get(record.id);
    return previous?.sources !== undefined && dropsFlags(record, previous);
  });
  const writes: Write[] = [];
  if (rewritten.length) writes.push({ table: 'memories', remove: rewritten.map((record) => record.id) });
  // Rows that keep their vector and content (a reinforcement, a tombstone) need only their
  // metadata set: when every row of the commit is one, their vectors are not sent again, and
  // not written into the plan (one request either way: a mix is one upsert of them all).
  const kept = (row: ChromaRow) => {
    const previous = stored.get(row.id);
    return previous?.embedding !== undefined && previous.content === row.document && !rewritten.some((record) => record.id === row.id) && sameVector(previous.embedding, row.embedding!);
  };
  if (memories.length && memories.every(kept)) writes.push({ table: 'memories', update: memories.map(({ id, metadata }) => ({ id, metadata })) });
  else if (memories.length) writes.push({ table: 'memories', upsert: memories });
  // Stored inputs live in the control collection (they go with the decision: intents.ts); an
  // earlier engram kept them in `inputs`, so a rewritten or deleted one is removed from there too.
  const appended = inputs.map((input, i) => inputRow(input, versions.get(inputPartition(input))![1] * SEQ_SPAN + i));
  const rewrites = rewriteInputs.map((input) => inputRow(input, input.seq!));
  if (appended.length || rewrites.length) writes.push({ table: 'control', upsert: [...appended, ...rewrites] });
  // Seqs count per owner here: the erasing owner's (or, without a revocation, every owner the commit covers).
  const owners = revoke ? [userPartition(revoke)] : [...versions.keys()];
  const deleted = owners.flatMap((key) => deleteInputs.map((seq) => inputId(key, seq)));
  if (deleted.length) writes.push({ table: 'control', remove: deleted });
  if (deleted.length || rewrites.length) writes.push({ table: 'inputs', remove: [...deleted, ...rewrites.map((row) => row.id)] });
  if (revoke) {
    const version = versions.get(userPartition(revoke))![1];
    const upsert = revoke.sourceIds.map((sourceId) => ({ id: revocationId(revoke, sourceId), metadata: { userId: revoke.userId, appName: revoke.appName, sourceId, version, at: revoke.at } }));
    writes.push({ table: 'revocations', upsert });
  }
  return { writes, memories };
}
