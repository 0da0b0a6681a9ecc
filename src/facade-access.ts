/**
 * The one read engram/mem0 needs that engram's public API does not offer: where a record is,
 * by its id alone (RecordStore.locate). It is kept off the published `Memory` type: a
 * symbol-keyed method on the memories `createMemory` returns, which only the facade looks up.
 * `Symbol.for`, so the facade's bundle and the main entry share the key.
 */
import type { RecordLocation } from './storage/contract';

export const LOCATE = Symbol.for('engram.facade.locate');

/** What the facade calls: the location of any record of this database by id, or undefined. */
export type Locate = (id: string) => Promise<RecordLocation | undefined>;

/** The locate function of a memory made by `createMemory`, or undefined for any other object. */
export function locatorOf(memory: object): Locate | undefined {
  const locate = (memory as { [LOCATE]?: unknown })[LOCATE];
  return typeof locate === 'function' ? (locate as Locate) : undefined;
}
