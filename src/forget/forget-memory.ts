/**
 * `forget(id)`: the user deletes one memory, and with it every earlier version of it (its line:
 * the versions a later message or `correct` superseded, {@link lineageOf}), which are the same
 * memory's past. Each version's fact is taken out of every stored input of its sources that
 * yields it (take-out.ts: the candidates go, their spans are redacted in the messages; a
 * correction's input goes whole), and the erasure forgetSource runs ({@link applyErasure})
 * replays the inputs so changed: every version becomes a tombstone without text, whatever
 * quoted their spans (an episode of the turn, an excerpt, a reason) loses that text, and
 * everything else of their sources stays. Because the stored inputs no longer hold any version,
 * no replay (forgetSource, asOf, reembed, an import of the export) brings one back (forgetting
 * only the newest would let the replay re-extract the one it superseded); a new message that
 * states it again is a new input, and is remembered again.
 *
 * Rules this code keeps:
 * - A candidate is a version's fact when it makes the same claim (topic and fact, text.ts), or
 *   when it is the statement a source of that version records (same topic, excerpt and time).
 * - One commit against the partition's version, under its write lock, like every write.
 */
import { NotFoundError, PermissionError } from '../errors';
import type { Candidate, MemoryRecord } from '../schema';
import type { InputRow, Owner, WriteInput } from '../storage/contract';
import { createRedactor } from '../storage/redaction';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { sameClaimKey } from '../text';
import { applyErasure, type ForgetDeps } from './forget';
import { isErased, lineageOf, type ForgetReport } from './erasure-plan';
import { factWords } from './fact-span';
import { deferredInputs, withDeferred } from './full-disk-erasure';
import { spansOf, takeOutFact } from './take-out';

export interface ForgetMemoryDeps extends ForgetDeps {
  /** The candidates a write input yields (stored with it, else extracted again). */
  candidatesOf: (input: WriteInput) => Promise<Candidate[]>;
}

/** Forgets the memory `id` of `owner`; see the module comment. The internal entry point of `memory.forget`. */
export function forgetMemory(deps: ForgetMemoryDeps, id: string, owner: Owner): Promise<ForgetReport> {
  return writeOwner(deps.storage, owner, (write) => forgetOnce(deps, id, owner, write));
}

/** The memory, checked: the owner's own (not app scope). */
async function readMemory(deps: ForgetMemoryDeps, id: string, owner: Owner): Promise<MemoryRecord> {
  const [memory] = await deps.storage.records.getMany([id], owner);
  if (!memory) throw new NotFoundError(`no memory '${id}' for user '${owner.userId}' in app '${owner.appName}'`);
  if (memory.scope === 'app') throw new PermissionError(`memory '${id}' is app scope: it belongs to every user of '${owner.appName}', not to '${owner.userId}'; only a bootstrapped write can change it`);
  return memory;
}

/** A statement a source of one of the line's versions records: where and when it was said, and what the version says. */
interface Statement {
  key: string;
  content: string;
}

const statementKey = (type: string, id: string, at: number, topic: string, excerpt: string) => JSON.stringify([type, id, at, topic, excerpt]);

/** How many words two facts share (fact-span.ts `factWords`). */
function overlap(a: string, b: string): number {
  const words = factWords(b);
  return [...factWords(a)].filter((word) => words.has(word)).length;
}

/**
 * Which candidates of an input are the line's facts (see the module comment). A statement is
 * matched by (source, time, topic, excerpt), and several facts of one sentence share all four:
 * it stands for one of them, never for its siblings. So a statement already matched by claim
 * adds nothing, and otherwise it names the candidate of its group closest to the version's
 * content (every one that ties: the fact cannot be told apart from them, and it must go).
 */
function factMatcher(line: readonly MemoryRecord[]): (input: WriteInput, candidates: readonly Candidate[]) => (candidate: Candidate) => boolean {
  const claims = new Set(line.map(sameClaimKey));
  const statements: Statement[] = line.flatMap((version) =>
    version.sources.filter((source) => source.excerpt !== '').map((source) => ({ key: statementKey(source.type, source.id, source.at, version.topic, source.excerpt), content: version.content })),
  );
  return (input, candidates) => {
    const facts = new Set(candidates.filter((candidate) => claims.has(sameClaimKey(candidate))));
    for (const statement of statements) {
      const group = candidates.filter((candidate) => statementKey(input.source.type, input.source.id, input.at, candidate.topic, candidate.excerpt) === statement.key);
      if (group.length === 0 || group.some((candidate) => facts.has(candidate))) continue;
      const scores = group.map((candidate) => overlap(candidate.content, statement.content));
      const best = Math.max(...scores);
      group.forEach((candidate, i) => scores[i] === best && facts.add(candidate));
    }
    return (candidate) => facts.has(candidate);
  };
}

/**
 * The inputs of the line's sources as they stay with its facts taken out (null: the input
 * goes), and the spans taken out. Two passes: the spans first, then every input of the sources
 * redacted with all of them (a session summary of the turn quotes the span without holding the
 * fact). The line's own statements (`statements`: a version's excerpt, whose input may be gone)
 * are spans too, split from the other facts of their sentences like a candidate's excerpt.
 */
async function takeOutAll(deps: ForgetMemoryDeps, line: readonly MemoryRecord[], owner: Owner, sourceIds: readonly string[]): Promise<{ changed: Map<number, InputRow | null>; spans: string[] }> {
  const matcher = factMatcher(line);
  const inputs: { input: InputRow & WriteInput; candidates: Candidate[]; isFact: (candidate: Candidate) => boolean }[] = [];
  // With the inputs an earlier forget on a full disk rewrote, which wait for the rebuild (full-disk-erasure.ts).
  const deferred = await deferredInputs(deps.storage, owner);
  for (const sourceId of sourceIds) {
    for (const input of withDeferred(await deps.storage.records.inputsOf(owner, sourceId), deferred, (input) => input.kind !== 'prune' && input.source.id === sourceId)) {
      if (input.kind === 'prune' || input.scope === 'app') continue;
      const candidates = input.candidates ?? (await deps.candidatesOf(input));
      inputs.push({ input, candidates, isFact: matcher(input, candidates) });
    }
  }
  // The facts the user stated beside the line's, in any input of its sources: what stays.
  const others = inputs.flatMap(({ candidates, isFact }) => candidates.filter((candidate) => !isFact(candidate)));
  const spans = new Set(statementSpans(line, others));
  for (const { input, candidates, isFact } of inputs) takeOutFact(input, candidates, isFact, { others }).spans.forEach((span) => spans.add(span));
  const redactor = createRedactor([...spans]);
  const changed = new Map<number, InputRow | null>();
  for (const { input, candidates, isFact } of inputs) {
    const taken = takeOutFact(input, candidates, isFact, { extraSpans: [...spans], others });
    const quoted = taken.removed > 0 || input.messages.some((message) => redactor.quotes(message.content)) || candidates.some((candidate) => redactor.quotes(candidate.content) || redactor.excerpt(candidate.excerpt) !== candidate.excerpt);
    if (quoted) changed.set(input.seq!, taken.input);
  }
  return { changed, spans: [...spans] };
}

/** The spans of the line's own statements (its versions' excerpts), apart from the `others` stated in the same sentences. */
function statementSpans(line: readonly MemoryRecord[], others: readonly Candidate[]): string[] {
  return line.flatMap((version) => version.sources.filter((source) => source.excerpt !== '').flatMap((source) => spansOf({ content: version.content, topic: version.topic, excerpt: source.excerpt }, [], others)));
}

/**
 * The version of the memory the user sees now: an id a later version superseded (a correction
 * or an update that landed first) names the same memory, so forget follows `supersededBy` to
 * the end of its line (the active version, or the tombstone the line ended in).
 */
async function currentVersion(store: ForgetMemoryDeps['storage']['records'], owner: Owner, memory: MemoryRecord): Promise<MemoryRecord> {
  let current = memory;
  // A cycle (a damaged store) ends the walk where it closes.
  const seen = new Set([memory.id]);
  while (current.supersededBy !== undefined && !seen.has(current.supersededBy)) {
    const [next] = await store.getMany([current.supersededBy], owner);
    if (!next) break;
    seen.add(next.id);
    current = next;
  }
  return current;
}

/**
 * The memory's line ({@link lineageOf}) and every record the erasure reads: the records that
 * list a source of the line. An earlier version shares a source with the next one (an UPDATE
 * inherits its predecessor's, a rebuild keeps a remaining one), so the listing of the line's
 * sources holds the version before each; read again while the line gains sources.
 */
async function readLine(store: ForgetMemoryDeps['storage']['records'], owner: Owner, memory: MemoryRecord): Promise<{ line: MemoryRecord[]; listing: MemoryRecord[]; sourceIds: string[] }> {
  let line = [memory];
  let listing: MemoryRecord[] = [];
  let read = new Set<string>();
  for (;;) {
    const sourceIds = [...new Set(line.flatMap((version) => version.sources.map((source) => source.id)))];
    if (read.size > 0 && sourceIds.every((id) => read.has(id))) return { line, listing, sourceIds };
    listing = await store.erasureSet(owner, { sourceIds, fromSeq: undefined });
    read = new Set(sourceIds);
    line = lineageOf(memory, listing);
  }
}

async function forgetOnce(deps: ForgetMemoryDeps, id: string, owner: Owner, write: OwnerWrite): Promise<ForgetReport> {
  const store = deps.storage.records;
  const memory = await currentVersion(store, owner, await readMemory(deps, id, owner));
  // Forgotten before: a tombstone without text, nothing of it left to take out.
  if (isErased(memory, () => false)) return { erased: [], regenerated: [] };
  const { line, listing, sourceIds } = await readLine(store, owner, memory);
  const { changed, spans: allSpans } = await takeOutAll(deps, line, owner, sourceIds);
  const redactor = createRedactor(allSpans);
  const quoting = (excerpt: string) => excerpt !== '' && redactor.excerpt(excerpt) !== excerpt;
  const excerpts = [...new Set(listing.flatMap((record) => record.sources.filter((source) => quoting(source.excerpt)).map((source) => source.excerpt)))];
  const ids = new Set(line.map((version) => version.id));
  return applyErasure(deps, owner, write, {
    inputs: changed,
    sourceIds: new Set(),
    reads: sourceIds,
    touches: (record) => ids.has(record.id) || redactor.quotes(record.content) || record.sources.some((source) => quoting(source.excerpt)),
    forgotten: { ids, spans: allSpans },
    redactExcerpts: { ...owner, sourceIds, excerpts },
  });
}
