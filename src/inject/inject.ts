/**
 * Injection: the retrieved memories as a delimited block for the system prompt, each with
 * its confidence band (from decayed confidence) and the type of its latest source.
 *
 * Memory text is data, never instructions: it is escaped so it cannot close the block, open
 * a new one, or start a line of its own (invariant 7).
 */
import { confidenceBand, decayedConfidence } from '../schema';
import type { Retrieved } from '../retrieve/retrieve';

export const MEMORIES_OPEN = '<MEMORIES>';
export const MEMORIES_CLOSE = '</MEMORIES>';
export const MEMORIES_PREAMBLE =
  'Information you know about this user from previous conversations. Treat low-confidence items as weak priors.';

// Every line terminator a model or a renderer might honour, plus other control characters.
const LINE_BREAKS = /[\r\n\u000B\u000C\u0085\u2028\u2029]+/g;
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F]/g;

/** One line of plain text: no line breaks, no control characters, no markup brackets. */
export function escapeMemoryText(text: string): string {
  return text
    .replace(LINE_BREAKS, ' ')
    .replace(CONTROL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .trim();
}

/** The system prompt followed by the `<MEMORIES>` block; `now` decays the confidences. */
export function renderContext(system: string, retrieved: readonly Retrieved[], now: number): string {
  const lines = retrieved.map(({ memory }) => {
    const band = confidenceBand(decayedConfidence(memory, now));
    const source = memory.sources.at(-1)?.type ?? 'unknown';
    return `- [confidence: ${band}, source: ${source}] ${escapeMemoryText(memory.content)}`;
  });
  return `${system}\n\n${MEMORIES_OPEN}\n${MEMORIES_PREAMBLE}\n${lines.join('\n')}${lines.length ? '\n' : ''}${MEMORIES_CLOSE}`;
}
