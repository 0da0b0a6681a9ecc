/**
 * What an export may claim about its sources. A file handed to `memory.import` is the user's
 * data in the user's hands: nothing in it proves that the app vouched for a memory, so no source
 * comes in above the user's own word. A source typed `bootstrapped` (the app's trust) becomes
 * `user_explicit`, in the memories and in the stored inputs alike (a replay after the move,
 * `forgetSource` of another source, makes the same memory again and must not raise it back),
 * and a memory that named such a source has its confidence capped at `user_explicit`'s trust.
 * Everything else is kept as it was: a user's or a tool's source claims no more than the user
 * could have said, so a plain move between devices loses nothing else.
 */
import type { SourceType } from '../schema';
import type { OwnerExport } from './format';

/** The most trusted source type an import takes as written; a more trusted claim is lowered to it. */
export const IMPORT_TRUST_CEILING: SourceType = 'user_explicit';

/** Source types an import lowers to {@link IMPORT_TRUST_CEILING}. */
const ABOVE_CEILING: ReadonlySet<SourceType> = new Set(['bootstrapped']);

function capped<T extends { type: SourceType }>(source: T): T {
  return ABOVE_CEILING.has(source.type) ? { ...source, type: IMPORT_TRUST_CEILING } : source;
}

/** `data` with every source above the ceiling lowered to it, and the confidence of each memory that had one capped at `trust` of the ceiling. */
export function capImportedTrust(data: OwnerExport, trust: Readonly<Record<SourceType, number>>): OwnerExport {
  const ceiling = trust[IMPORT_TRUST_CEILING];
  const memories = data.memories.map((memory) => {
    if (!memory.sources.some((source) => ABOVE_CEILING.has(source.type))) return memory;
    return { ...memory, sources: memory.sources.map(capped), confidence: Math.min(memory.confidence, ceiling) };
  });
  const inputs = data.inputs.map((input) => (input.kind === 'prune' || !ABOVE_CEILING.has(input.source.type) ? input : { ...input, source: capped(input.source) }));
  return { ...data, memories, inputs };
}
