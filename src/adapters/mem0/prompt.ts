/** engram's prompt options on mem0's `search`: a token budget and a byte-stable order. */
import { byCreation, type Memory as EngramMemory, type Retrieved } from 'engram';
import type { SearchMemoryOptions } from './shapes';

/**
 * The results a prompt gets: with `maxTokens`, those `Memory.assemble` fits in the budget (in the
 * order it writes them); else all of `ranked`, re-ordered by creation for `order: 'stable'`.
 */
export function chooseForPrompt(engram: EngramMemory, ranked: Retrieved[], options: SearchMemoryOptions): Retrieved[] {
  const { maxTokens, countTokens, order } = options;
  if (maxTokens !== undefined) {
    return engram.assemble('', ranked, { maxTokens, ...(countTokens ? { countTokens } : {}), ...(order ? { order } : {}) }).included;
  }
  return order === 'stable' ? [...ranked].sort((a, b) => byCreation(a.memory, b.memory)) : ranked;
}
