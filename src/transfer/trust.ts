/**
 * What an export may claim about its sources. Nothing in a file the user holds proves that the
 * app vouched for a memory, so no source comes in above the user's own word: `bootstrapped`
 * becomes `user_explicit` in memories and stored inputs alike (a replay after the move must not
 * raise it back), and such a memory's confidence is capped at that trust. Other sources are kept.
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
