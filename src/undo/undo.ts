/**
 * Undo: reverts the consolidation one write made to one memory. An UPDATE's memory goes and the
 * memory it superseded is active again with its sources (under a new id: a tombstone is never
 * rewritten); a CREATE's memory goes. The memory that goes becomes a tombstone without content
 * or vector (so no checkpoint that lists it is restored: store/checkpoints.ts), and the fact
 * leaves the stored input it came from, so no replay (forgetSource, asOf) brings it back: the
 * store is then the store that never received that fact. Rules this code keeps:
 *
 * - Only the latest consolidation of a memory, and only when nothing was built on it: the
 *   memory must be active and unchanged since (no corroboration, no prune), and replaying the
 *   owner's inputs without the fact must give the active set the undo leaves. A later write
 *   that was decided with the memory in place (a contradiction it refused, a fact it merged)
 *   fails that check: ConflictError, naming what differs.
 * - One commit against the partition's version, under the partition's write lock, like every
 *   write: all of it or nothing.
 */
import { ConflictError, NotFoundError, PermissionError, ValidationError } from '../errors';
import { identity, REDACTED } from '../forget/erasure-plan';
import type { Candidate, MemoryRecord, Operation } from '../schema';
import type { InputRow, Owner, Storage, WriteInput } from '../storage/contract';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { createRedactor, type Redactor } from '../storage/redaction';
import { EPISODE_TOPIC } from '../extract/topics';
import { spansOf } from '../forget/take-out';

export interface UndoDeps {
  storage: Storage;
  clock: () => number;
  newId: () => string;
  /** The candidates a write input yields (stored with it, else extracted again). */
  candidatesOf: (input: WriteInput) => Promise<Candidate[]>;
  /** Replays inputs in order into a fresh working set; every record it holds at the end. */
  replay: (inputs: readonly InputRow[]) => Promise<Map<string, MemoryRecord>>;
}

/** What undo did: the memory it removed, and (UPDATE) the memory that stands again for the one it superseded. */
export interface UndoReport {
  removed: string;
  /** The superseded memory as it was, under a new id (a tombstone never changes); null for a CREATE. */
  restored: { from: string; to: string } | null;
}

export function undoOperation(deps: UndoDeps, operation: Operation, owner: Owner): Promise<UndoReport> {
  return writeOwner(deps.storage, owner, (write) => undoOnce(deps, operation, owner, write));
}

/** The memory the operation made, and the one it superseded: checked to be what the operation says. */
async function readOperation(deps: UndoDeps, operation: Operation, owner: Owner): Promise<{ memory: MemoryRecord; target: MemoryRecord | undefined }> {
  if (operation.action === 'NOOP') {
    throw new ValidationError('operation.action', "is 'NOOP': undo reverts a CREATE or an UPDATE (a NOOP created nothing; a corroboration goes with forgetSource of its source)");
  }
  const ids = [operation.memoryId, ...(operation.action === 'UPDATE' && operation.targetId !== undefined ? [operation.targetId] : [])];
  const [memory, target] = await deps.storage.records.getMany(ids, owner);
  if (!memory || memory.id !== operation.memoryId) throw new NotFoundError(`no memory '${operation.memoryId}' for user '${owner.userId}' in app '${owner.appName}'`);
  if (memory.scope === 'app') throw new PermissionError(`memory '${memory.id}' is app scope: it belongs to every user of '${owner.appName}', not to '${owner.userId}'`);
  if (operation.action === 'UPDATE' && (!target || target.supersededBy !== memory.id)) {
    throw new ValidationError('operation.targetId', `must name the memory '${memory.id}' superseded (got ${String(operation.targetId)})`);
  }
  return { memory, target };
}

/** ConflictError unless the memory is still exactly what the operation left: active, and nothing since. */
function checkUntouched(memory: MemoryRecord): void {
  if (memory.invalidatedAt !== undefined) {
    const by = memory.supersededBy !== undefined ? `superseded by '${memory.supersededBy}'` : `retired (${memory.history.at(-1)?.event ?? 'invalidated'})`;
    throw new ConflictError(`cannot undo: memory '${memory.id}' was since ${by}, which depends on it; undo that first`);
  }
  const later = memory.history.slice(1);
  if (later.length > 0) {
    const events = later.map((entry) => `${entry.event} at ${new Date(entry.at).toISOString()}`).join(', ');
    throw new ConflictError(`cannot undo: memory '${memory.id}' was ${events} since it was written, which builds on it; only the latest consolidation of an unchanged memory can be undone`);
  }
}

/** The stored input whose write made `memory` (its newest source, at that time), the candidate of it, and the input's other candidates. */
async function inputOf(deps: UndoDeps, memory: MemoryRecord, owner: Owner): Promise<{ input: InputRow & WriteInput; fact: Candidate; rest: Candidate[] }> {
  const source = memory.sources.at(-1)!;
  const inputs = (await deps.storage.records.inputsOf(owner, source.id)).filter((input): input is InputRow & WriteInput => input.kind !== 'prune' && input.at === source.at);
  for (const input of inputs.reverse()) {
    const candidates = input.candidates ?? (await deps.candidatesOf(input));
    const index = candidates.findIndex((candidate) => candidate.topic === memory.topic && candidate.content === memory.content);
    if (index >= 0) return { input, fact: candidates[index]!, rest: candidates.filter((_, i) => i !== index) };
  }
  throw new ConflictError(`cannot undo: the write that made memory '${memory.id}' (source '${source.id}' at ${new Date(source.at).toISOString()}) is no longer stored, so its fact cannot be taken out of it`);
}

/** Active identities (erasure-plan `identity`), with how many memories have each. */
function activeSet(records: Iterable<MemoryRecord>): Map<string, number> {
  const out = new Map<string, number>();
  for (const record of records) if (record.invalidatedAt === undefined) out.set(identity(record), (out.get(identity(record)) ?? 0) + 1);
  return out;
}

/** What one active set has that the other lacks, in words: the topics of the memories that differ. */
function difference(expected: Map<string, number>, planned: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [key, count] of expected) if ((planned.get(key) ?? 0) < count) out.push(`a memory on '${(JSON.parse(key) as string[])[2]}' that the later writes would have made`);
  for (const [key, count] of planned) if ((expected.get(key) ?? 0) < count) out.push(`the memory on '${(JSON.parse(key) as string[])[2]}' that they made instead`);
  return out;
}

function sameSet(a: Map<string, number>, b: Map<string, number>): boolean {
  return a.size === b.size && [...a].every(([key, count]) => b.get(key) === count);
}

/**
 * The memory an undone UPDATE restored in place of `memory` (the same fact under a new id,
 * `reactivated`), when that is why `memory` is no longer active and nothing touched the copy
 * since: undoing a message's operations in reverse ("I'm vegetarian. I'm a vegan." made a CREATE
 * and its UPDATE) undoes the UPDATE first, and the CREATE then reverts the copy.
 */
async function restoredCopyOf(store: UndoDeps['storage']['records'], owner: Owner, memory: MemoryRecord): Promise<MemoryRecord | undefined> {
  if (memory.supersededBy === undefined) return undefined;
  const [by] = await store.getMany([memory.supersededBy], owner);
  if (by?.history.at(-1)?.event !== 'erased') return undefined;
  const active = await store.list(owner, { scopes: ['user', 'session'], includeInvalid: false });
  return active.find((record) => {
    const last = record.history.at(-1);
    return last?.event === 'regenerated' && last.related === memory.id && record.history.length === memory.history.length + 1;
  });
}

async function undoOnce(deps: UndoDeps, operation: Operation, owner: Owner, write: OwnerWrite): Promise<UndoReport> {
  const store = deps.storage.records;
  const read = await readOperation(deps, operation, owner);
  const { target } = read;
  const copy = operation.action === 'CREATE' && read.memory.invalidatedAt !== undefined ? await restoredCopyOf(store, owner, read.memory) : undefined;
  if (copy === undefined) checkUntouched(read.memory);
  const memory = copy ?? read.memory;
  const { input, fact, rest } = await inputOf(deps, memory, owner);
  const now = deps.clock();
  const removed: MemoryRecord = {
    ...memory,
    content: REDACTED,
    sources: memory.sources.map((source, i) => (i === memory.sources.length - 1 ? { ...source, excerpt: '' } : source)),
    embedding: new Float32Array(Math.max(1, memory.embedding.length)),
    invalidatedAt: now,
    history: [
      { ...memory.history[0]!, reason: memory.history[0]!.event },
      { at: now, event: 'erased', reason: `undone: ${operation.action} reverted${target ? `, '${target.id}' restored` : ''}` },
    ],
  };
  const restored = target && reactivated(target, deps.newId(), `restored: '${target.id}' as it was before the undone update '${memory.id}'`, now);
  // The fact leaves its input, with where it was said; an input left with no fact goes whole.
  const log = await store.inputs(owner);
  const { reduced, redactor } = withoutFact(input, fact, rest);
  const planned = activeSet([...(await store.list(owner, { scopes: ['user', 'session'], includeInvalid: false })).filter((record) => record.id !== memory.id), ...(restored ? [restored] : [])]);
  // The undo must leave what a store without the fact would hold, with the rest of the input
  // where it was and (as the commit stores it) after the later inputs alike.
  const orders = [log.flatMap((row) => (row.seq === input.seq ? reduced : [row])), ...(reduced.length && log.at(-1)!.seq !== input.seq ? [[...log.filter((row) => row.seq !== input.seq), ...reduced]] : [])];
  for (const order of orders) {
    const expected = activeSet((await deps.replay(order)).values());
    if (!sameSet(expected, planned)) {
      throw new ConflictError(`cannot undo: later writes were decided with memory '${memory.id}' in place (${difference(expected, planned).join('; ')}); undo those first`);
    }
  }
  const written = [removed, ...(restored ? [restored] : [])];
  // The fact's excerpt leaves every memory's source rows that quote it (the sentence's other
  // facts' included), not only the record's summary of them: nothing is left to quote it.
  const said = memory.sources.at(-1);
  const blank = said !== undefined && said.excerpt !== '' && (reduced.length === 0 || redactor.quotes(said.excerpt)) ? { redactExcerpts: { ...owner, sourceIds: [said.id], excerpts: [said.excerpt] } } : {};
  await write.commit({ records: written, creates: restored ? [restored.id] : [], inputs: reduced, deleteInputs: [input.seq!], inputsBaseVersion: write.versions.get(write.partition)!, ...blank });
  return { removed: memory.id, restored: restored ? { from: target!.id, to: restored.id } : null };
}

/**
 * `input` without the undone `fact` (its other candidates `rest`): none left, it goes whole;
 * else its candidate leaves, and the span it was said in (forget/take-out.ts `spansOf`: the
 * clauses of its excerpt that state it apart from the other facts of the sentence, the whole
 * excerpt when it was said alone) leaves the messages and the other facts' excerpts. An
 * episode's candidate keeps its text: the turn's episode is a memory of its own, which its own
 * undo or forget takes out.
 */
function withoutFact(input: InputRow & WriteInput, fact: Candidate, rest: readonly Candidate[]): { reduced: InputRow[]; redactor: Redactor } {
  const redactor = createRedactor(spansOf(fact, input.messages, rest).filter((span) => span.trim() !== ''));
  if (rest.length === 0) return { reduced: [], redactor };
  const candidates = rest.map((candidate) => (candidate.topic === EPISODE_TOPIC ? candidate : { ...candidate, excerpt: redactor.excerpt(candidate.excerpt) }));
  const messages = input.messages.map((message) => ({ ...message, content: redactor.text(message.content) }));
  return { reduced: [{ ...withoutSeq(input), messages, candidates }], redactor };
}

/**
 * The superseded memory active again as it was before the UPDATE (content, sources, confidence,
 * times), under a new id: a tombstone is never written again (stores keep lineage by reference).
 */
function reactivated(target: MemoryRecord, id: string, reason: string, now: number): MemoryRecord {
  const { invalidatedAt: _invalidatedAt, supersededBy: _supersededBy, ...active } = target;
  return { ...active, id, history: [...target.history, { at: now, event: 'regenerated', reason, related: target.id }] };
}

function withoutSeq(input: InputRow & WriteInput): WriteInput {
  const { seq: _seq, ...rest } = input;
  return rest;
}
