/**
 * `memory.import`: restores what `memory.export` produced (on another device, or this one after
 * its data was lost), so the owner's memories, their lineage and the inputs behind them are as
 * they were, and `forgetSource` replays them as before. All or nothing: the data is parsed and
 * checked first (check.ts), and written in one commit; a refusal writes nothing.
 */
import { ConflictError, IdCollisionError } from '../errors';
import { embedDistinct, type Embedder } from '../embed/embedder';
import type { Candidate, MemoryRecord, SourceType } from '../schema';
import type { InputRow, Owner, PendingEntry, RecordStore, Storage, WriteInput } from '../storage/contract';
import { writeOwner } from '../storage/write-owner';
import { writeInput } from '../storage/input-row';
import { checkExport } from './check';
import type { ExportedInput, ExportedMemory, ImportReport } from './format';
import { sliced } from '../slices';
import { parseExport } from './parse';
import { capImportedTrust } from './trust';
import { lexicalTerms, withTermsMemo } from '../embed/terms';

export interface ImportDeps {
  storage: Storage;
  /** The checked embedder (checked-embedder.ts): one finite vector of `dim` per text. */
  embedder: Embedder;
  /** The consolidation policy's trust per source type: what an imported source's confidence is capped by (trust.ts). */
  context: { trust: Readonly<Record<SourceType, number>> };
}

/** Texts embedded per call: a large export must not become one giant request to a model. */
const EMBED_BATCH = 256;

/** The stored form of an exported input (the inverse of toExportedInput in export.ts). */
export function toInputRow(input: ExportedInput, owner: Owner): InputRow {
  const { userId, appName } = owner;
  if (input.kind === 'prune') return { userId, appName, at: input.at, kind: 'prune', floor: input.floor };
  const { metadata } = input;
  if (input.kind === 'remember') {
    const { scope = 'user', sessionId, source, replaces } = input;
    return withHeld(writeInput('remember', { userId, appName, scope, sessionId, source, metadata, replaces }, input.at, { fact: input.fact }), input);
  }
  const scope = input.kind === 'summary' ? 'session' : 'user';
  const row = writeInput(input.kind, { userId, appName, scope, sessionId: input.sessionId, source: input.source, metadata }, input.at, { messages: input.messages });
  return withHeld(row, input);
}

/** The row with the export's stored candidates, pending entries and approval mark (review/held.ts), when it has them. */
function withHeld(row: WriteInput, input: { candidates?: Candidate[] | undefined; pending?: PendingEntry[] | undefined; approved?: true | undefined }): WriteInput {
  return { ...row, ...(input.candidates !== undefined ? { candidates: input.candidates } : {}), ...(input.pending !== undefined ? { pending: input.pending } : {}), ...(input.approved ? { approved: true } : {}) };
}

/**
 * Vectors for the records: active ones embedded with this memory's embedder (the exporting
 * device's may differ, and vectors are not exported), tombstones a blank one (never scanned).
 */
async function withVectors(memories: readonly ExportedMemory[], embedder: ImportDeps['embedder']): Promise<MemoryRecord[]> {
  const active = memories.filter((memory) => memory.invalidatedAt === undefined);
  const vectors = await embedDistinct(
    embedder,
    active.map((memory) => memory.content),
    EMBED_BATCH,
  );
  const vectorOf = (memory: ExportedMemory) => (memory.invalidatedAt === undefined ? vectors.get(memory.content)! : new Float32Array(embedder.dim));
  return memories.map((memory) => ({ ...memory, embedding: vectorOf(memory), embedderId: embedder.id }));
}

/** @throws ConflictError when the owner already has data here. */
async function refuseOccupied(store: RecordStore, owner: Owner): Promise<void> {
  const [memories, inputs] = await Promise.all([store.list(owner, { scopes: ['user', 'session'], includeInvalid: true }), store.inputs(owner)]);
  if (memories.length || inputs.length) {
    throw new ConflictError(
      `user '${owner.userId}' in app '${owner.appName}' already has ${memories.length} memories and ${inputs.length} stored inputs here; import only restores onto an owner with none (import under another userId, or into a fresh database)`,
    );
  }
}

/** The commit's refusal of an id that exists (another owner's, since this one has none), worded for an import. */
function takenId(error: unknown): never {
  if (!(error instanceof IdCollisionError)) throw error;
  throw new ConflictError(`a memory id of the export is already taken in this database, by another owner's memory; nothing was imported (${error.message})`, { cause: error });
}

/**
 * Parses, checks, embeds and writes one owner's export in one transaction.
 * @throws ValidationError / PermissionError for damaged or hostile data, ConflictError when the
 * owner already has data, StorageError when IndexedDB fails; in every case nothing is written.
 */
export async function importOwner(deps: ImportDeps, data: unknown): Promise<ImportReport> {
  // In slices, as is everything below on the page's thread: an import of 10,000 memories must not freeze it (parse.ts).
  // No source comes in above the user's own word: the file cannot prove more (trust.ts).
  const parsed = capImportedTrust(await parseExport(data), deps.context.trust);
  await checkExport(parsed);
  const owner = { userId: parsed.userId, appName: parsed.appName };
  const ids = parsed.memories.map((memory) => memory.id);
  const store = deps.storage.records;
  await refuseOccupied(store, owner);
  const records = await withVectors(parsed.memories, deps.embedder);
  // The commit computes every active memory's lexical terms in one task (its vector log and the
  // worker's rows); computed here in slices first, the commit finds them in the memo.
  const active = records.filter((record) => record.invalidatedAt === undefined);
  return withTermsMemo(async () => {
    await sliced(active.length, (i) => void lexicalTerms(active[i]!.content));
    // One attempt: a conflict means another writer reached this owner, which import refuses anyway.
    return writeOwner(
      deps.storage,
      owner,
      async (write) => {
        // Again under the lock: a write may have landed while the vectors were computed. The
        // commit's version check is the backstop for writers without it, and its `creates` check
        // refuses an id any other owner holds.
        await refuseOccupied(store, owner);
        const inputs = parsed.inputs.map((input) => toInputRow(input, owner));
        await write.commit({ records, creates: ids, inputs }).catch(takenId);
        return { ...owner, memories: records.length, inputs: inputs.length };
      },
      { attempts: 1 },
    );
  });
}
