/**
 * `forget(id)`: the user deletes one memory. Its fact is taken out of every stored input of its
 * sources that yields it (take-out.ts: the candidates go, their spans are redacted in the
 * messages), and the erasure forgetSource runs ({@link applyErasure}) replays the inputs so
 * changed: the memory becomes a tombstone without text, whatever quoted its spans (an episode of
 * the turn, an excerpt, a reason) loses that text, and everything else of its sources stays.
 * Because the stored inputs no longer hold the fact, no replay (forgetSource, asOf, an import
 * of the export) brings it back; a new message that states it again is a new input, and is
 * remembered again.
 *
 * Rules this code keeps:
 * - A candidate is the memory's fact when it makes the same claim (topic and fact, text.ts), or
 *   when it is the statement a source of the memory records (same topic, excerpt and time),
 *   except sources the memory inherited from the memory it superseded (those said the old value).
 * - One commit against the partition's version, under its write lock, like every write.
 */
import { NotFoundError, PermissionError } from '../errors';
import type { Candidate, MemoryRecord } from '../schema';
import type { InputRow, Owner, WriteInput } from '../storage/contract';
import { createRedactor } from '../storage/redaction';
import { sourceKey } from '../storage/working-form';
import { writeOwner, type OwnerWrite } from '../storage/write-owner';
import { sameClaimKey } from '../text';
import { applyErasure, type ForgetDeps } from './forget';
import { isErased, type ForgetReport } from './erasure-plan';
import { takeOutFact } from './take-out';

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

/** Whether a candidate of `input` is the memory's fact (see the module comment). */
function factMatcher(memory: MemoryRecord, inherited: ReadonlySet<string>): (input: WriteInput) => (candidate: Candidate) => boolean {
  const claim = sameClaimKey(memory);
  const statements = memory.sources.filter((source) => !inherited.has(sourceKey(source)));
  return (input) => {
    const said = statements.filter((source) => source.id === input.source.id && source.type === input.source.type && source.at === input.at);
    return (candidate) => sameClaimKey(candidate) === claim || (candidate.topic === memory.topic && said.some((source) => source.excerpt !== '' && source.excerpt === candidate.excerpt));
  };
}

/**
 * The inputs of the memory's sources as they stay with its fact taken out (null: the input
 * goes), and the spans taken out. Two passes: the spans first, then every input of the sources
 * redacted with all of them (a session summary of the turn quotes the span without holding the fact).
 */
async function takeOutAll(deps: ForgetMemoryDeps, memory: MemoryRecord, owner: Owner, inherited: ReadonlySet<string>, extraSpans: readonly string[]): Promise<{ changed: Map<number, InputRow | null>; spans: string[] }> {
  const matcher = factMatcher(memory, inherited);
  const inputs: { input: InputRow & WriteInput; candidates: Candidate[] }[] = [];
  for (const sourceId of new Set(memory.sources.map((source) => source.id))) {
    for (const input of await deps.storage.records.inputsOf(owner, sourceId)) {
      if (input.kind === 'prune' || input.scope === 'app') continue;
      inputs.push({ input, candidates: input.candidates ?? (await deps.candidatesOf(input)) });
    }
  }
  const spans = new Set(extraSpans);
  for (const { input, candidates } of inputs) takeOutFact(input, candidates, matcher(input)).spans.forEach((span) => spans.add(span));
  const redactor = createRedactor([...spans]);
  const changed = new Map<number, InputRow | null>();
  for (const { input, candidates } of inputs) {
    const taken = takeOutFact(input, candidates, matcher(input), [...spans]);
    const quoted = taken.removed > 0 || input.messages.some((message) => redactor.quotes(message.content)) || candidates.some((candidate) => redactor.quotes(candidate.content) || redactor.excerpt(candidate.excerpt) !== candidate.excerpt);
    if (quoted) changed.set(input.seq!, taken.input);
  }
  return { changed, spans: [...spans] };
}

async function forgetOnce(deps: ForgetMemoryDeps, id: string, owner: Owner, write: OwnerWrite): Promise<ForgetReport> {
  const store = deps.storage.records;
  const memory = await readMemory(deps, id, owner);
  // Forgotten before: a tombstone without text, nothing of it left to take out.
  if (isErased(memory, () => false)) return { erased: [], regenerated: [] };
  const sourceIds = [...new Set(memory.sources.map((source) => source.id))];
  const listing = await store.erasureSet(owner, { sourceIds, fromSeq: undefined });
  const inherited = new Set(listing.filter((record) => record.supersededBy === memory.id).flatMap((record) => record.sources.map(sourceKey)));
  const statements = memory.sources.filter((source) => !inherited.has(sourceKey(source))).map((source) => source.excerpt);
  const { changed, spans: allSpans } = await takeOutAll(deps, memory, owner, inherited, statements);
  const redactor = createRedactor(allSpans);
  const quoting = (excerpt: string) => excerpt !== '' && redactor.excerpt(excerpt) !== excerpt;
  const excerpts = [...new Set(listing.flatMap((record) => record.sources.filter((source) => quoting(source.excerpt)).map((source) => source.excerpt)))];
  return applyErasure(deps, owner, write, {
    inputs: changed,
    sourceIds: new Set(),
    reads: sourceIds,
    touches: (record) => record.id === memory.id || redactor.quotes(record.content) || record.sources.some((source) => quoting(source.excerpt)),
    forgotten: { ids: new Set([memory.id]), spans: allSpans },
    redactExcerpts: { ...owner, sourceIds, excerpts },
  });
}
