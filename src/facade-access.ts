/**
 * The three calls engram/mem0 needs that engram's public API does not offer: where a record is,
 * by its id alone (RecordStore.locate), a `remember({ replaces })` that writes nothing when
 * the memory it replaces is gone by the time it commits (what `correct` does: a mem0 `update`
 * racing a `delete` must not leave the new text as a new memory), and a `retrieve` without the
 * relevance floor (a search whose metadata filter already says which memories the caller wants
 * ranks all of them, as mem0 does). They are kept off the
 * published `Memory` type: symbol-keyed methods on the memories `createMemory` returns, which
 * only the facade looks up. `Symbol.for`, so the facade's bundle and the main entry share the keys.
 */
import type { RememberOptions, RetrieveOptions } from './options';
import type { Retrieved } from './retrieve/retrieve';
import type { Fact, Operation } from './schema';
import type { RecordLocation } from './storage/contract';

export const LOCATE = Symbol.for('engram.facade.locate');

export const REPLACE_ONLY = Symbol.for('engram.facade.replaceOnly');

export const RETRIEVE_UNFLOORED = Symbol.for('engram.facade.retrieveUnfloored');

/** `retrieve(query, options)` with no relevance floor: the same ranking, k filled by relevance order whatever the relevance. */
export type RetrieveUnfloored = (query: string, options: RetrieveOptions) => Promise<Retrieved[]>;

/** `remember(fact, { ...options, replaces })` as an UPDATE of `replaces` or nothing (undefined: it was gone). */
export type ReplaceOnly = (fact: Fact, options: RememberOptions & { replaces: string }) => Promise<Operation | undefined>;

/** What the facade calls: the location of any record of this database by id, or undefined. */
export type Locate = (id: string) => Promise<RecordLocation | undefined>;

/** The locate function of a memory made by `createMemory`, or undefined for any other object. */
export function locatorOf(memory: object): Locate | undefined {
  const locate = (memory as { [LOCATE]?: unknown })[LOCATE];
  return typeof locate === 'function' ? (locate as Locate) : undefined;
}
