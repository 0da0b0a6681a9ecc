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
import { takeOutFact } from '../forget/take-out';
import { blankText } from '../forget/erasure-text';

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
async function inputOf(deps: UndoDeps, memory: MemoryRecord, owner: Owner): Promise<{ input: InputRow & WriteInput; fact: Candidate; candidates: Candidate[] }> {
  const source = memory.sources.at(-1)!;
  const inputs = (await deps.storage.records.inputsOf(owner, source.id)).filter((input): input is InputRow & WriteInput => input.kind !== 'prune' && input.at === source.at);
  for (const input of inputs.reverse()) {
    const candidates = input.candidates ?? (await deps.candidatesOf(input));
    const index = candidates.findIndex((candidate) => candidate.topic === memory.topic && candidate.content === memory.content);
    if (index >= 0) return { input, fact: candidates[index]!, candidates };
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
  const { input, fact, candidates } = await inputOf(deps, memory, owner);
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
  // The fact leaves its input, with where it was said; an input left with no candidate goes whole.
  const log = await store.inputs(owner);
  const { reduced, redactor } = withoutFact(input, fact, candidates);
  const active = await store.list(owner, { scopes: ['user', 'session'], includeInvalid: false });
  // The undo must leave what a store without the fact would hold, with the rest of the input
  // where it was and (as the commit stores it) after the later inputs alike.
  const orders = [log.flatMap((row) => (row.seq === input.seq ? reduced : [row])), ...(reduced.length && log.at(-1)!.seq !== input.seq ? [[...log.filter((row) => row.seq !== input.seq), ...reduced]] : [])];
  const replays = await Promise.all(orders.map((order) => deps.replay(order)));
  // The turn's episode loses the fact's clause too: rebuilt from the replay, or retired when nothing is left of it.
  const episodes = redactEpisodes({ active, input, redactor, replayed: [...replays[0]!.values()], now, newId: deps.newId });
  const planned = activeSet([...active.filter((record) => record.id !== memory.id && !episodes.retired.has(record.id)), ...(restored ? [restored] : []), ...episodes.rebuilt]);
  for (const replayed of replays) {
    const expected = activeSet(replayed.values());
    if (!sameSet(expected, planned)) {
      throw new ConflictError(`cannot undo: later writes were decided with memory '${memory.id}' in place (${difference(expected, planned).join('; ')}); undo those first`);
    }
  }
  // The facts read from a retired episode (the undone fact's siblings) link to its rebuilt version: the episode that now holds their words.
  const relinked = relink(
    active.filter((record) => record.id !== memory.id),
    episodes.replacedBy,
  );
  const written = [removed, ...(restored ? [restored] : []), ...episodes.writes, ...relinked];
  // The fact's excerpt leaves every memory's source rows that quote it (the sentence's other
  // facts' included), not only the record's summary of them: nothing is left to quote it. So
  // do the turn's excerpts the retired episodes held.
  const said = memory.sources.at(-1);
  const excerpts = [...(said !== undefined && said.excerpt !== '' && (reduced.length === 0 || redactor.quotes(said.excerpt)) ? [said.excerpt] : []), ...episodes.excerpts];
  const blank = said !== undefined && excerpts.length > 0 ? { redactExcerpts: { ...owner, sourceIds: [said.id], excerpts: [...new Set(excerpts)] } } : {};
  await write.commit({
    records: written,
    creates: [...(restored ? [restored.id] : []), ...episodes.rebuilt.map((record) => record.id)],
    inputs: reduced,
    deleteInputs: [input.seq!],
    inputsBaseVersion: write.versions.get(write.partition)!,
    ...blank,
  });
  return { removed: memory.id, restored: restored ? { from: target!.id, to: restored.id } : null };
}

/**
 * `input` without the undone `fact` (one of its `candidates`), as forget takes a fact out
 * (forget/take-out.ts `takeOutFact`): its candidate leaves, and the span it was said in (the
 * clauses of its excerpt that state it apart from the other facts of the sentence, the whole
 * excerpt when it was said alone) leaves the messages, the other facts' excerpts and the turn's
 * episode, cut out with the joining words it leaves dangling. An input left with no candidate (no
 * fact, and no episode of another turn) goes whole.
 */
function withoutFact(input: InputRow & WriteInput, fact: Candidate, candidates: readonly Candidate[]): { reduced: InputRow[]; redactor: Redactor } {
  const taken = takeOutFact(input, candidates, (candidate) => candidate === fact);
  const redactor = createRedactor(taken.spans);
  // The other turns' episodes came from it too: it goes whole only when no candidate is left.
  if (taken.input === null || (taken.input.candidates ?? []).length === 0) return { reduced: [], redactor };
  return { reduced: [withoutSeq(taken.input as InputRow & WriteInput)], redactor };
}

/** What happens to the active episodes of the undone fact's turn ({@link redactEpisodes}). */
interface EpisodeChanges {
  /** Stored episodes that quoted the fact's span: they go. */
  retired: ReadonlySet<string>;
  /** Their rebuilt versions (the turn less the span), under new ids. */
  rebuilt: MemoryRecord[];
  /** Every record to write: the retired tombstones (without text) and the rebuilt episodes. */
  writes: MemoryRecord[];
  /** The source excerpts the retired episodes held that quote the span: blanked in every row. */
  excerpts: string[];
  /** Each retired episode → the id of its rebuilt version (undefined when nothing of the turn is left). */
  replacedBy: Map<string, string | undefined>;
}

/**
 * The active episodes of `input`'s turn whose text quotes the undone fact's span: each is
 * retired, a tombstone without text (as forget retires a record whose text goes), superseded by
 * the episode the replay without the fact made of the rest of the turn, when it made one.
 */
function redactEpisodes(state: { active: readonly MemoryRecord[]; input: InputRow & WriteInput; redactor: Redactor; replayed: readonly MemoryRecord[]; now: number; newId: () => string }): EpisodeChanges {
  const { active, input, redactor, replayed, now, newId } = state;
  const ofTurn = (record: MemoryRecord) => record.topic === EPISODE_TOPIC && record.sources.some((source) => source.id === input.source.id && source.at === input.at);
  const stale = active.filter((record) => ofTurn(record) && redactor.quotes(record.content));
  const out: EpisodeChanges = { retired: new Set(stale.map((record) => record.id)), rebuilt: [], writes: [], excerpts: [], replacedBy: new Map() };
  const blanks = (source: MemoryRecord['sources'][number]) => source.excerpt !== '' && redactor.excerpt(source.excerpt) !== source.excerpt;
  for (const record of stale) {
    const content = redactor.text(record.content);
    const twin = replayed.find((candidate) => candidate.invalidatedAt === undefined && ofTurn(candidate) && candidate.content === content && candidate.scope === record.scope);
    const rebuilt = twin && {
      ...twin,
      id: newId(),
      history: [
        ...twin.history.map(({ related: _related, ...entry }) => ({ ...entry, reason: entry.event })),
        { at: now, event: 'regenerated' as const, reason: `undone fact's words cut out of the turn, replacing ${record.id}`, related: record.id },
      ],
    };
    const blanked = blankText(record, blanks);
    const reason = rebuilt ? `the undone fact's words left the turn; rebuilt as ${rebuilt.id}` : "the undone fact's words left the turn, and nothing of it is left";
    out.writes.push({ ...blanked, invalidatedAt: now, ...(rebuilt ? { supersededBy: rebuilt.id } : {}), history: [...blanked.history, { at: now, event: 'regenerated', reason, ...(rebuilt ? { related: rebuilt.id } : {}) }] });
    if (rebuilt) {
      out.rebuilt.push(rebuilt);
      out.writes.push(rebuilt);
    }
    out.excerpts.push(...record.sources.filter(blanks).map((source) => source.excerpt));
    out.replacedBy.set(record.id, rebuilt?.id);
  }
  return out;
}

/**
 * The `records` whose episode links (`episodeId`, `restatedIn`) name a retired episode, linked
 * to its rebuilt version instead (the link goes when none was rebuilt): the fact and the episode
 * that holds its words are one hit, and the episode retires with the fact. Same id and history.
 */
function relink(records: readonly MemoryRecord[], replacedBy: ReadonlyMap<string, string | undefined>): MemoryRecord[] {
  const linksRetired = (record: MemoryRecord) => [record.episodeId, ...(record.restatedIn ?? [])].some((id) => id !== undefined && replacedBy.has(id));
  return records.filter(linksRetired).map(({ episodeId, restatedIn, ...record }) => {
    const map = (id: string) => (replacedBy.has(id) ? replacedBy.get(id) : id);
    const episode = episodeId === undefined ? undefined : map(episodeId);
    const restated = [...new Set((restatedIn ?? []).flatMap((id) => map(id) ?? []))].filter((id) => id !== episode);
    return { ...record, ...(episode !== undefined ? { episodeId: episode } : {}), ...(restated.length > 0 ? { restatedIn: restated } : {}) };
  });
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
