/** `memory.remember`: one fact without extraction, the only way to write app scope. */
import type { z } from 'zod/mini';
import { instructionSignal } from '../defences';
import { NotFoundError, PermissionError, ValidationError } from '../errors';
import { Fact, parseInput, RememberOptions } from '../options';
import type { MemoryRecord, Operation } from '../schema';
import { isEpisode } from '../extract/topics';
import { factHash } from '../text';
import type { MemoryDeps } from './deps';
import { candidatesOf, writeInput, writeThrough } from './write-input';

/** App scope is visible to every user of the app, so only a system of record may write it; other scopes need their owner. */
function checkScope(options: z.output<typeof RememberOptions>): void {
  if (options.scope === 'app' && options.source.type !== 'bootstrapped') {
    throw new PermissionError(`app-scope memories are visible to every user of '${options.appName}', so they need a 'bootstrapped' source (got '${options.source.type}')`);
  }
  if (options.scope !== 'app' && options.userId === undefined) throw new ValidationError('options.userId', `is required for scope '${options.scope}'`);
  if (options.scope === 'session' && options.sessionId === undefined) throw new ValidationError('options.sessionId', "is required for scope 'session'");
}

/**
 * A memory is rendered into the model's prompt, so its text may carry no instruction to the
 * model: the same defences (defences.ts) that keep an instruction out of what ingest extracts
 * refuse it here, for `remember` and for `correct` (which writes through it).
 */
function refuseInstruction(content: string): void {
  const signal = instructionSignal(content);
  if (signal !== undefined) throw new ValidationError('fact.content', `reads as an instruction to the model (${signal}), and a memory's text is handed to the model: nothing was written`);
}

/**
 * `remember`; with `replaceOnly` (correct's), the write is an UPDATE of `options.replaces` or
 * nothing: undefined when that memory was no longer active as the write decided.
 */
export async function remember(deps: MemoryDeps, fact: Fact, options: RememberOptions): Promise<Operation>;
export async function remember(deps: MemoryDeps, fact: Fact, options: RememberOptions, replaceOnly: true): Promise<Operation | undefined>;
export async function remember(deps: MemoryDeps, fact: Fact, options: RememberOptions, replaceOnly?: true): Promise<Operation | undefined> {
  const parsedFact = parseInput(Fact, fact, 'fact');
  refuseInstruction(parsedFact.content);
  const parsed = parseInput(RememberOptions, options, 'options');
  checkScope(parsed);
  const { replaces: replacing, ...target } = parsed;
  const replaces = replacing === undefined ? undefined : await replacedClaim(deps, replacing, parsed);
  const input = writeInput('remember', { ...target, userId: parsed.userId ?? '', replaces }, deps.clock(), { fact: parsedFact });
  const [operation] = await writeThrough(deps, input, await candidatesOf(deps, input), undefined, replacing, replaceOnly);
  return replaceOnly ? operation : operation!;
}

/** What the stored input names the replaced memory by: its topic and fact hash, never its text (another source's). */
async function replacedClaim(deps: MemoryDeps, id: string, options: z.output<typeof RememberOptions>): Promise<{ topic: string; fact: number }> {
  const [record] = await deps.storage.records.getMany([id], { userId: options.userId ?? '', appName: options.appName });
  if (!record) throw new NotFoundError(`options.replaces: no memory '${id}' visible to this owner; pass the id of one of their memories`);
  checkReplaceable(record, options);
  return { topic: record.topic, fact: factHash(record.topic, record.content) };
}

/**
 * A remember replaces only a fact of its own scope (and session): anything else would not be
 * in the working set it decides over, and the write would silently be a CREATE beside it.
 */
function checkReplaceable(record: MemoryRecord, options: z.output<typeof RememberOptions>): void {
  const { id } = record;
  if (isEpisode(record)) {
    throw new ValidationError('options.replaces', `'${id}' is an episode, the user's own words kept as evidence: episodes are never replaced (remember the fact without replaces, or forget the episode)`);
  }
  if (record.scope === 'app' && options.scope !== 'app') {
    throw new PermissionError(`options.replaces: '${id}' is an app-scope memory, visible to every user of '${options.appName}': only an app-scope remember (scope: 'app', a 'bootstrapped' source) replaces it`);
  }
  if (record.scope !== options.scope) {
    throw new ValidationError('options.replaces', `'${id}' is a ${record.scope}-scope memory and this remember writes scope '${options.scope}': pass scope: '${record.scope}' to replace it`);
  }
  if (record.scope === 'session' && record.sessionId !== options.sessionId) {
    throw new ValidationError('options.replaces', `'${id}' belongs to session '${record.sessionId}', not '${options.sessionId}': pass sessionId: '${record.sessionId}' to replace it`);
  }
}
