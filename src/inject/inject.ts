/**
 * Injection: the retrieved memories as a delimited block for the system prompt, each with
 * its confidence band (from decayed confidence) and the type of its latest source.
 *
 * Memory text is data, never instructions: it is escaped so it cannot close the block, open
 * a new one, or start a line of its own (invariant 7).
 */
import { confidenceBand, decayedConfidence } from '../schema';
import type { Retrieved } from '../retrieve/retrieve';
import type { MemoryRecord } from '../schema';
import { oneLine } from '../text';

export const MEMORIES_OPEN = '<MEMORIES>';
export const MEMORIES_CLOSE = '</MEMORIES>';
export const MEMORIES_PREAMBLE =
  'Information you know about this user from previous conversations. Treat low-confidence items as weak priors.';

/**
 * One line of plain text: no line breaks, no control characters, no markup brackets, and no
 * square brackets, so memory text can neither close the block nor forge a second
 * `[confidence: …, source: …]` annotation on its own line (invariant 13).
 */
export function escapeMemoryText(text: string): string {
  return oneLine(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\[/g, '&#91;')
    .replace(/\]/g, '&#93;')
    .trim();
}

/**
 * One memory's line: the `[confidence: …, source: …]` annotation (the band of `confidence`, the
 * type of the latest source), then the escaped text. Every block engram writes (inject,
 * assemble) is made of these lines.
 */
export function memoryLine(memory: Pick<MemoryRecord, 'content' | 'sources'>, confidence: number): string {
  const source = memory.sources.at(-1)?.type ?? 'unknown';
  return `- [confidence: ${confidenceBand(confidence)}, source: ${source}] ${escapeMemoryText(memory.content)}`;
}

/** The system prompt followed by the `<MEMORIES>` block holding `lines` in the order given. */
export function renderBlock(system: string, lines: readonly string[]): string {
  return `${system}\n\n${MEMORIES_OPEN}\n${MEMORIES_PREAMBLE}\n${lines.join('\n')}${lines.length ? '\n' : ''}${MEMORIES_CLOSE}`;
}

/** The system prompt followed by the `<MEMORIES>` block; `now` decays the confidences. */
export function renderContext(system: string, retrieved: readonly Retrieved[], now: number): string {
  return renderBlock(system, retrieved.map(({ memory }) => memoryLine(memory, decayedConfidence(memory, now))));
}
