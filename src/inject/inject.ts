/**
 * Injection: the retrieved memories as a delimited block for the system prompt, each with
 * its confidence band (from decayed confidence) and the type of its latest source.
 *
 * Memory text is data, never instructions: it is escaped so it cannot close the block, open
 * a new one, or start a line of its own (invariant 7).
 */
import { byCreation, confidenceBand, decayedConfidence } from '../schema';
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

/** Heads a run of facts that follows episodes or the profile (only `order: 'stable'` writes one after episodes: it appends by creation). */
export const MORE_FACTS_HEADING = 'More information you know about this user:';

/** Heads a run of the user's standing profile (retrieve's `profile` option): who the user is, not an answer to this question. */
export const PROFILE_HEADING = 'Who the user is (shown whatever the question):';

type BlockEntry = { memory: LineMemory; line: string; profile?: true | undefined };

/** What a block entry is: a run of one kind is written under one heading. */
function kindOf(entry: { memory: { topic: string }; profile?: true | undefined }): 'profile' | 'fact' | 'episode' {
  return entry.profile ? 'profile' : isEpisode(entry.memory) ? 'episode' : 'fact';
}

/** The profile's lines before every hit, then the other facts, then the episodes, each kind in the order given: the order of `inject` and of `assemble`'s `'score'` order. */
export function factsFirst<Entry extends { memory: { topic: string }; profile?: true | undefined }>(entries: readonly Entry[]): Entry[] {
  return (['profile', 'fact', 'episode'] as const).flatMap((kind) => entries.filter((entry) => kindOf(entry) === kind));
}

const HEADINGS = { profile: PROFILE_HEADING, fact: MORE_FACTS_HEADING, episode: EPISODES_HEADING } as const;

/**
 * The system prompt followed by the `<MEMORIES>` block: the lines in the order given, each run of
 * profile memories under {@link PROFILE_HEADING}, each run of episodes under
 * {@link EPISODES_HEADING} and each run of facts after another run under
 * {@link MORE_FACTS_HEADING}. A heading is written where a run starts, so appending lines keeps
 * every byte before them: given {@link factsFirst}, the block is the profile, the facts, then one
 * labelled part of episodes; given creation order (`'stable'`), a memory newer than a run of
 * another kind is appended under a heading of its own rather than written above it.
 */
export function renderBlock(system: string, entries: readonly BlockEntry[]): string {
  const lines: string[] = [];
  entries.forEach((entry, i) => {
    const kind = kindOf(entry);
    if (kind !== (i > 0 ? kindOf(entries[i - 1]!) : 'fact')) lines.push(HEADINGS[kind]);
    lines.push(entry.line);
  });
  return `${system}\n\n${MEMORIES_OPEN}\n${MEMORIES_PREAMBLE}\n${lines.join('\n')}${lines.length ? '\n' : ''}${MEMORIES_CLOSE}`;
}

/** The system prompt followed by the `<MEMORIES>` block; `now` decays the confidences. */
export function renderContext(system: string, retrieved: readonly Retrieved[], now: number): string {
  return renderBlock(
    system,
    factsFirst(byProfileCreation(retrieved)).map(({ memory, profile }) => ({ memory, profile, line: memoryLine(memory, decayedConfidence(memory, now)) })),
  );
}

/** The entries as given, but the profile's in creation order: the profile part reads the same whatever the question ranked. */
export function byProfileCreation<Entry extends { memory: Pick<MemoryRecord, 'createdAt' | 'id'>; profile?: true | undefined }>(entries: readonly Entry[]): Entry[] {
  const profile = entries.filter((entry) => entry.profile).sort((a, b) => byCreation(a.memory, b.memory));
  return [...profile, ...entries.filter((entry) => !entry.profile)];
}
