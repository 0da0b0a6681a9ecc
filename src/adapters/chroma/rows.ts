/**
 * engram's records as Chroma rows, and back. The mapping (DESIGN.md, "Out of the browser"):
 *
 * - memories: vector = the embedding, document = the content, metadata = what `where` filters
 *   on (partition `pk`, owner, scope, session, topic, `active`, the scoring fields, the
 *   embedder, the write version `wv`) plus the whole record as JSON (`record`, without the vector). Chroma metadata
 *   holds no arrays, so the source ids are flags: `src:<id>: true`. Chroma's upsert merges
 *   metadata and a `null` does not remove a key, so a row that loses a flag is deleted and
 *   written anew (both in one intent: commit.ts).
 * - inputs: document = the input as JSON; metadata = its owner's partition `ok`, `seq`, `src`,
 *   `kind`, and `held` (1 when it holds writes waiting for review, else 0: an integer, so the
 *   review queue's filter is served by Chroma's index, and an upsert's merge overwrites it).
 * - revocations: metadata only.
 *
 * Reading back parses with engram's zod schema; a row that fails (or whose metadata disagrees
 * with its JSON) is reported as `null`, for the caller to quarantine.
 */
import type { Metadata } from 'chromadb';
import { decayHalfLife, factHash, MemoryRecord, partitionOf, StorageError, userPartition } from 'engram';
import type { InputRow, Owner } from '../../storage/contract';
import type { ChromaRow, ReadRow } from './collections';

/** The metadata key that flags a record as listing source `sourceId`. */
export const sourceFlag = (sourceId: string) => `src:${sourceId}`;

const sourceIds = (record: Pick<MemoryRecord, 'sources'>) => new Set(record.sources.map((source) => source.id));

/** Whether writing `record` over `previous` drops a source flag (Chroma keeps metadata keys an upsert leaves out: the row must be deleted and written anew). */
export function dropsFlags(record: Pick<MemoryRecord, 'sources'>, previous: Pick<MemoryRecord, 'sources'>): boolean {
  const current = sourceIds(record);
  return [...sourceIds(previous)].some((id) => !current.has(id));
}

/** A record as a row; `wv` is its partition's version after the commit that writes it (snapshot.ts catches up by it). */
export function memoryRow(record: MemoryRecord, wv: number): ChromaRow {
  const { embedding, ...rest } = record;
  const flags: Metadata = {};
  for (const id of sourceIds(record)) flags[sourceFlag(id)] = true;
  return {
    id: record.id,
    embedding: Array.from(embedding),
    document: record.content,
    metadata: {
      pk: partitionOf(record),
      userId: record.userId,
      appName: record.appName,
      scope: record.scope,
      sessionId: record.sessionId ?? '',
      topic: record.topic,
      // The identical-fact key: a write on a non-exclusive topic finds the same fact by it.
      fact: factHash(record.topic, record.content),
      active: record.invalidatedAt === undefined,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      importance: record.importance,
      // What ranking decays with (a pinned memory's is long: schema.ts decayHalfLife).
      halfLifeDays: decayHalfLife(record),
      confidence: record.confidence,
      embedderId: record.embedderId,
      wv,
      record: JSON.stringify(rest),
      ...flags,
    },
  };
}

/** A row read with its embedding back as a record; null when it does not parse or disagrees with itself. */
export function recordOf(row: ReadRow): MemoryRecord | null {
  const json = row.metadata.record;
  if (typeof json !== 'string' || !row.embedding) return null;
  let raw: unknown;
  try {
    raw = { ...(JSON.parse(json) as object), embedding: Float32Array.from(row.embedding) };
  } catch {
    return null; // not JSON: the row is quarantined by the caller
  }
  const parsed = MemoryRecord.safeParse(raw);
  if (!parsed.success) return null;
  const record = parsed.data;
  const { metadata } = row;
  const agrees =
    record.id === row.id &&
    metadata.pk === partitionOf(record) &&
    metadata.scope === record.scope &&
    metadata.active === (record.invalidatedAt === undefined) &&
    metadata.updatedAt === record.updatedAt &&
    metadata.halfLifeDays === decayHalfLife(record) &&
    metadata.importance === record.importance;
  return agrees ? record : null;
}

/** The partition whose `seq` counter an input takes (its owner's user partition; `''` for an app's). */
export const inputPartition = (input: Owner) => userPartition(input);

/** Row id of an owner's input `seq`. */
export const inputId = (ownerKey: string, seq: number) => `${ownerKey}#${seq}`;

/** Whether an input holds writes waiting for review (a `pending` entry): what `heldInputs` returns. */
export const holdsPending = (input: InputRow): boolean => input.kind !== 'prune' && (input.pending?.length ?? 0) > 0;

/** The `held` metadata of a row whose input holds writes for review (see the header); 0 otherwise. */
export const HELD = 1;

/** An input as a row: the whole input is the document; `seq` is fixed by the commit. */
export function inputRow(input: InputRow, seq: number): ChromaRow {
  const key = inputPartition(input);
  const stored = { ...input, seq };
  return {
    id: inputId(key, seq),
    document: JSON.stringify(stored),
    metadata: { ok: key, seq, src: input.kind === 'prune' ? '' : input.source.id, kind: input.kind, held: holdsPending(input) ? HELD : 0 },
  };
}

/**
 * An input row back. A damaged one (not JSON, or not the input of the row it is stored as)
 * rejects the read with StorageError, as on IndexedDB: replay must not rebuild a history
 * without it.
 */
export function inputOf(row: ReadRow): InputRow {
  let input: InputRow | undefined;
  try {
    input = JSON.parse(row.document ?? '') as InputRow;
  } catch (error) {
    throw damagedInput(row, error);
  }
  if (typeof input?.seq !== 'number' || typeof input.kind !== 'string' || row.id !== inputId(inputPartition(input), input.seq)) throw damagedInput(row);
  return input;
}

function damagedInput(row: ReadRow, cause?: unknown): StorageError {
  return new StorageError(
    `reading stored conversations: the Chroma input row '${row.id}' is damaged (its document is not the input stored under that id), so nothing was changed. Repair or delete that row before this owner's history can be replayed.`,
    cause === undefined ? undefined : { cause },
  );
}
