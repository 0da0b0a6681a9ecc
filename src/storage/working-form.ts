/**
 * The working form of a record (storage/contract.ts, `RecordStore.workingSet`): what a decision
 * needs of its sources without its whole lineage. Rules every backend and the replay share.
 */
import type { Source } from '../schema';

/** One source's identity in a lineage: the same id from another source type is another source. */
export function sourceKey(source: Pick<Source, 'type' | 'id'>): string {
  return `${source.type}\u0000${source.id}`;
}

/** Whether two sources are one: the same type and id (a document and a conversation may share an id). */
export function sameSource(a: Pick<Source, 'type' | 'id'>, b: Pick<Source, 'type' | 'id'>): boolean {
  return a.type === b.type && a.id === b.id;
}

/** The bounded summary a working-form record carries: the first source of each type, in order. */
export function summarize(sources: readonly Source[]): Source[] {
  const seen = new Set<string>();
  return sources.filter((source) => !seen.has(source.type) && seen.add(source.type));
}
