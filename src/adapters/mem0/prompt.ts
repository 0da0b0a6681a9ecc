/** engram's prompt options on mem0's `search`: a token budget and a byte-stable order. */
import type { Memory as EngramMemory, Retrieved } from 'engram';
import type { SearchMemoryOptions } from './shapes';

/** Oldest first, then by id: the order in which a stable prompt lists memories. */
function byCreation(a: Retrieved, b: Retrieved): number {
  const { createdAt: x, id: i } = a.memory;
  const { createdAt: y, id: j } = b.memory;
  return x - y || (i < j ? -1 : i > j ? 1 : 0);
}

/**
 * The results a prompt gets: with `maxTokens`, those `Memory.assemble` fits in the budget (in the
 * order it writes them); else all of `ranked`, re-ordered by creation for `order: 'stable'`.
 */
export function chooseForPrompt(engram: EngramMemory, ranked: Retrieved[], options: SearchMemoryOptions): Retrieved[] {
  const { maxTokens, countTokens, order } = options;
  if (maxTokens !== undefined) {
    return engram.assemble('', ranked, { maxTokens, ...(countTokens ? { countTokens } : {}), ...(order ? { order } : {}) }).included;
  }
  return order === 'stable' ? [...ranked].sort(byCreation) : ranked;
}
