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

export const MEMORIES_OPEN = '<MEMORIES>';
export const MEMORIES_CLOSE = '</MEMORIES>';
export const MEMORIES_PREAMBLE = 'Information you know about this user from previous conversations. Treat low-confidence items as weak priors.';

/**
 * One line of plain text: no line breaks, no control characters, no markup brackets, and no
 * square brackets, so memory text can neither close the block nor forge a second
 * `[confidence: …, source: …]` annotation on its own line (invariant 13).
 */
export function escapeMemoryText(text: string): string {
  return oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\[/g, '&#91;').replace(/\]/g, '&#93;').trim();
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

/**
 * The system prompt followed by the `<MEMORIES>` block: the facts' lines in the order given,
 * then the episodes' under their own heading. Facts first: episodes are the part that grows
 * most turns, so a block in a fixed order keeps its bytes when an episode is added.
 */
export function renderBlock(system: string, entries: readonly { memory: LineMemory; line: string }[]): string {
  const facts = entries.filter(({ memory }) => !isEpisode(memory)).map(({ line }) => line);
  const episodes = entries.filter(({ memory }) => isEpisode(memory)).map(({ line }) => line);
  const lines = episodes.length ? [...facts, EPISODES_HEADING, ...episodes] : facts;
  return `${system}\n\n${MEMORIES_OPEN}\n${MEMORIES_PREAMBLE}\n${lines.join('\n')}${lines.length ? '\n' : ''}${MEMORIES_CLOSE}`;
}

/** The system prompt followed by the `<MEMORIES>` block; `now` decays the confidences. */
export function renderContext(system: string, retrieved: readonly Retrieved[], now: number): string {
  return renderBlock(
    system,
    retrieved.map(({ memory }) => ({ memory, line: memoryLine(memory, decayedConfidence(memory, now)) })),
  );
}
