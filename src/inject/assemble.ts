/**
 * Prompt assembly under a token budget: the system prompt and the `<MEMORIES>` block (the same
 * lines and escaping as inject.ts) holding as many of the retrieved memories as `maxTokens`
 * allows, the best-ranked first. Rules this code keeps:
 *
 * - The budget holds under the caller's counter: the text returned is counted whole, and
 *   `tokens` is that count. Per-line counts only guess where to start (a real tokenizer is not
 *   additive across line breaks); the full text decides.
 * - A memory is in or out whole: lines are never cut.
 * - What is left out is a tail of the ranking: every included memory ranks above every dropped
 *   one, so the lowest-ranked go first. The standing profile (`Retrieved.profile`) ranks before
 *   every hit here, so the budget drops the hits first.
 * - In `'score'` order the block is the profile, the other facts, then the episodes
 *   (inject.ts `factsFirst`); in `'stable'` order the profile's lines are written by creation
 *   among the others, each run under its heading, so a later memory still appends.
 * - `order: 'stable'` writes the chosen memories by creation (then facts before episodes, then
 *   id), facts and episodes alike, and bands each by its confidence as last stored rather than
 *   decayed to now: a line is a function of its record alone, so an unchanged chosen set gives
 *   the same bytes at any later time, and a memory created later lands after the lines already
 *   there. A fact created after an episode is therefore written after the episodes' lines, under
 *   a heading of its own (renderBlock labels each run), not above the episodes' heading.
 */
import { PluginError, ValidationError } from '../errors';
import type { Retrieved } from '../retrieve/retrieve';
import { isEpisode } from '../extract/topics';
import { byCreation, decayedConfidence } from '../schema';
import { byProfileCreation, factsFirst, memoryLine, renderBlock } from './inject';

/** How the block orders the chosen memories: by rank (`'score'`), or by creation so it stays byte-stable (`'stable'`). */
export type AssembleOrder = 'score' | 'stable';

export interface AssemblePlan {
  maxTokens: number;
  countTokens: (text: string) => number;
  order: AssembleOrder;
  /** Ms since epoch: decays the confidence bands in `'score'` order. */
  now: number;
}

/** What `assemble` resolved: the prompt, the memories it holds (in the order written) and those the budget left out (best first). */
export interface Assembled {
  text: string;
  included: Retrieved[];
  dropped: Retrieved[];
  /** `countTokens(text)`: at most `maxTokens`. */
  tokens: number;
}

/** Oldest first, then by id ({@link byCreation} of the memories): the tiebreak of the ranking. */
export function byCreatedMemory(a: Retrieved, b: Retrieved): number {
  return byCreation(a.memory, b.memory);
}

/**
 * The order of the stable block: oldest first; of one moment (a turn's episode and the facts
 * drawn from it), facts before episodes, so a turn adds at most one run of each; then by id.
 */
export function byStableOrder(a: Retrieved, b: Retrieved): number {
  return a.memory.createdAt - b.memory.createdAt || Number(isEpisode(a.memory)) - Number(isEpisode(b.memory)) || byCreatedMemory(a, b);
}

/**
 * The order the budget fills in: score first, ties by creation. Pinned memories, once they
 * exist, rank before every unpinned one here, and so are the last the budget drops.
 */
export function byRank(a: Retrieved, b: Retrieved): number {
  return b.score - a.score || byCreatedMemory(a, b);
}

/**
 * The ranking of `retrieved` with each memory once (the best-ranked copy of a memory given
 * twice): the standing profile first, in creation order (the last the budget drops: it is
 * shown whatever the question), then the rest by {@link byRank}.
 */
function rank(retrieved: readonly Retrieved[]): Retrieved[] {
  const seen = new Set<string>();
  return byProfileCreation([...retrieved].sort(byRank)).filter(({ memory }) => !seen.has(memory.id) && Boolean(seen.add(memory.id)));
}

/** The caller's counter, checked: a tokenizer that fails or returns no count is the app's plugin failing. */
function checkedCounter(countTokens: (text: string) => number): (text: string) => number {
  return (text) => {
    let count: unknown;
    try {
      count = countTokens(text);
    } catch (error) {
      throw new PluginError(`options.countTokens threw on a text of ${text.length} characters: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (typeof count !== 'number' || !Number.isFinite(count) || count < 0) {
      throw new PluginError(`options.countTokens returned ${String(count)} for a text of ${text.length} characters; it must return a token count (a finite number ≥ 0)`);
    }
    return count;
  };
}

/**
 * The largest `p` whose text fits, for texts that grow with `p`: starts at the per-line guess
 * and searches between the largest known fit and the smallest known overflow.
 */
function largestFit(fits: (p: number) => boolean, guess: number, n: number): number {
  // `low` fits; `high` does not (n + 1: nothing known to overflow yet). 0 always fits (the frame was checked).
  let [low, high] = fits(guess) ? [guess, n + 1] : [0, guess];
  for (let step = 1; high === n + 1 && low < n; step *= 2) {
    const next = Math.min(n, low + step);
    if (fits(next)) low = next;
    else high = next;
  }
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

export function assembleContext(system: string, retrieved: readonly Retrieved[], plan: AssemblePlan): Assembled {
  const count = checkedCounter(plan.countTokens);
  const ranked = rank(retrieved);
  const stable = plan.order === 'stable';
  const lines = new Map(ranked.map((hit) => [hit, memoryLine(hit.memory, stable ? hit.memory.confidence : decayedConfidence(hit.memory, plan.now))]));
  const arrange = (chosen: Retrieved[]) => (stable ? chosen.sort(byStableOrder) : chosen);
  const counted = new Map<number, { text: string; tokens: number }>();
  const measure = (p: number) => {
    let entry = counted.get(p);
    if (!entry) {
      const text = renderBlock(
        system,
        (stable ? arrange(ranked.slice(0, p)) : factsFirst(ranked.slice(0, p))).map((hit) => ({ memory: hit.memory, profile: hit.profile, line: lines.get(hit)! })),
      );
      counted.set(p, (entry = { text, tokens: count(text) }));
    }
    return entry;
  };
  const frame = measure(0).tokens;
  if (frame > plan.maxTokens) {
    throw new ValidationError('options.maxTokens', `is ${plan.maxTokens}, but the system prompt and the empty memory block alone take ${frame} tokens: raise maxTokens or shorten the system prompt`);
  }
  let guess = 0;
  for (let total = frame; guess < ranked.length; guess++) {
    total += count(`${lines.get(ranked[guess]!)!}\n`);
    if (total > plan.maxTokens) break;
  }
  const p = largestFit((q) => measure(q).tokens <= plan.maxTokens, guess, ranked.length);
  const { text, tokens } = measure(p);
  return { text, included: arrange(ranked.slice(0, p)), dropped: ranked.slice(p), tokens };
}
