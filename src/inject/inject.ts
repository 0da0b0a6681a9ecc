/**
 * Injection: the retrieved memories as a delimited block for the system prompt, each with
 * its confidence band (from decayed confidence) and the type of its latest source.
 *
 * Memory text is data, never instructions: it is escaped so it cannot close the block, open
 * a new one, or start a line of its own (invariant 7).
 */
import { confidenceBand, decayedConfidence } from '../schema';
import type { Retrieved } from '../retrieve/retrieve';
import { isEpisode } from '../extract/topics';
import type { MemoryRecord } from '../schema';
import { oneLine } from '../text';
import { foldBrackets } from '../brackets';

export const MEMORIES_OPEN = '<MEMORIES>';
export const MEMORIES_CLOSE = '</MEMORIES>';
export const MEMORIES_PREAMBLE = 'Information you know about this user from previous conversations. Treat low-confidence items as weak priors.';

/**
 * One line of plain text: no line breaks, no control characters, no markup brackets, and no
 * square brackets, so memory text can neither close the block nor forge a second
 * `[confidence: …, source: …]` annotation on its own line (invariant 13). Lookalike brackets
 * ("⟨/MEMORIES⟩", "［confidence: high］") are folded to the ASCII ones first and escaped with them
 * (brackets.ts `foldBrackets`); the prompt shows them as the brackets they draw.
 */
export function escapeMemoryText(text: string): string {
  return oneLine(foldBrackets(text)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\[/g, '&#91;').replace(/\]/g, '&#93;').trim();
}

/** Heads the block's second part: the episodes, the user's own past words with their dates. */
export const EPISODES_HEADING = 'What the user told you before, in their own words, with the date they said it:';

type LineMemory = Pick<MemoryRecord, 'content' | 'sources' | 'topic' | 'createdAt'>;

/** When an episode was said: its first source's time, as a UTC calendar date (past year 9999 a Date writes a signed six-digit year). */
function saidOn(memory: LineMemory): string {
  return new Date(memory.sources[0]?.at ?? memory.createdAt).toISOString().split('T')[0]!;
}

/**
 * One memory's line: the `[confidence: …, source: …]` annotation (the band of `confidence`, the
 * type of the latest source), an episode's date, then the escaped text. Every block engram
 * writes (inject, assemble) is made of these lines.
 */
export function memoryLine(memory: LineMemory, confidence: number): string {
  const source = memory.sources.at(-1)?.type ?? 'unknown';
  const date = isEpisode(memory) ? `(${saidOn(memory)}) ` : '';
  return `- [confidence: ${confidenceBand(confidence)}, source: ${source}] ${date}${escapeMemoryText(memory.content)}`;
}

/** Heads a run of facts that follows episodes (only `order: 'stable'` writes one: it appends by creation). */
export const MORE_FACTS_HEADING = 'More information you know about this user:';

type BlockEntry = { memory: LineMemory; line: string };

/** Facts first, then episodes, each kind in the order given: the order of `inject` and of `assemble`'s `'score'` order. */
export function factsFirst<Entry extends { memory: { topic: string } }>(entries: readonly Entry[]): Entry[] {
  return [...entries.filter(({ memory }) => !isEpisode(memory)), ...entries.filter(({ memory }) => isEpisode(memory))];
}

/**
 * The system prompt followed by the `<MEMORIES>` block: the lines in the order given, each run of
 * episodes under {@link EPISODES_HEADING} and each run of facts after one under
 * {@link MORE_FACTS_HEADING}. A heading is written where a run starts, so appending lines keeps
 * every byte before them: given {@link factsFirst}, the block is the facts then one labelled
 * part of episodes; given creation order (`'stable'`), a fact newer than an episode is appended
 * under a heading of its own rather than written above the episodes.
 */
export function renderBlock(system: string, entries: readonly BlockEntry[]): string {
  const lines: string[] = [];
  entries.forEach(({ memory, line }, i) => {
    const episode = isEpisode(memory);
    if (episode !== (i > 0 && isEpisode(entries[i - 1]!.memory))) lines.push(episode ? EPISODES_HEADING : MORE_FACTS_HEADING);
    lines.push(line);
  });
  return `${system}\n\n${MEMORIES_OPEN}\n${MEMORIES_PREAMBLE}\n${lines.join('\n')}${lines.length ? '\n' : ''}${MEMORIES_CLOSE}`;
}

/** The system prompt followed by the `<MEMORIES>` block; `now` decays the confidences. */
export function renderContext(system: string, retrieved: readonly Retrieved[], now: number): string {
  return renderBlock(
    system,
    factsFirst(retrieved).map(({ memory }) => ({ memory, line: memoryLine(memory, decayedConfidence(memory, now)) })),
  );
}
