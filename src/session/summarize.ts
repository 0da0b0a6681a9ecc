/**
 * Session memory: an offline, extractive summary of what the user said about themselves in
 * one conversation, stored as ONE session-scope memory and used in place of the transcript on
 * the next turn (the seed's exercise: Chapter 3's compaction joined to this chapter's memory).
 *
 * Extractive means the summary is the user's own durable sentences, in order, deduplicated and
 * capped: nothing is paraphrased, so nothing is invented. A sentence is durable when the
 * extractor took a fact from it, or when it is a first-person statement of a lasting trait or
 * preference. The extractor's poisoning defences apply here too: no quoted or reported speech,
 * nothing from a message that carries instructions.
 */
import { instructionSignal, normalizeApostrophes, ownStatementCheck, reportsSomeoneElse } from '../defences';
import { claimsReservedName } from '../names';
import type { Candidate, ChatMessage } from '../schema';

import { SESSION_SUMMARY_TOPIC } from '../extract/topics';

export { SESSION_SUMMARY_TOPIC };
/** Longest summary text; whole sentences are dropped from the end to stay under it. */
export const MAX_SUMMARY_LENGTH = 600;
export const SUMMARY_PREFIX = 'In this session the user said: ';

/** First-person statements of something lasting ("I'm allergic to nuts", "my budget is …"). */
const DURABLE =
  /\b(?:i'?m|i am|i'?ve|i have|i (?:always|usually|never|often|prefer|like|love|hate|dislike|want|need|eat|don'?t|do not|can'?t|cannot|live|work|use|own|speak|travel|fly|avoid|follow|am allergic)|my (?:[a-z]+ )?(?:is|are|was)|call me)\b/i;
/** First-person sentences about the moment, not about the person. */
const TRANSIENT =
  /^(?:hi|hello|hey|thanks|thank you|ok|okay|cool|great|bye|sure|yes|no)\b|\bi'?m (?:fine|good|ok|okay|great|well|here|back|sorry|not sure|wondering|looking|trying|just|still|done|ready)\b|\b(?:right now|at the moment|today|tonight|this morning|just now)\b/i;
const SENTENCE = /[^.!?\n\r]+[.!?]*/g;

function key(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!?\s]+$/, '');
}

/**
 * The user's durable sentences, in the order said, each once. `flagged` are the excerpts the
 * extractor took facts from: those count as durable whatever their wording.
 */
export function durableStatements(userMessages: readonly ChatMessage[], flagged: readonly string[] = []): string[] {
  const flaggedKeys = new Set(flagged.map(key));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const message of userMessages) {
    const text = normalizeApostrophes(message.content);
    if (instructionSignal(text) !== undefined) continue;
    const notOwn = ownStatementCheck(text);
    for (const match of text.matchAll(SENTENCE)) {
      const sentence = match[0].trim();
      const id = key(sentence);
      if (id.length === 0 || seen.has(id) || sentence.endsWith('?')) continue;
      const start = match.index + match[0].indexOf(sentence);
      const isFlagged = flaggedKeys.has(key(message.content.slice(start, start + sentence.length)));
      const durable = DURABLE.exec(sentence);
      if (!isFlagged && (!durable || TRANSIENT.test(sentence))) continue;
      const at = start + (durable?.index ?? 0);
      if (notOwn(at, at + (durable?.[0].length ?? sentence.length)) !== undefined || reportsSomeoneElse(sentence)) continue;
      if (claimsReservedName(sentence)) continue;
      seen.add(id);
      // The stored text is the user's, not the apostrophe-normalised copy.
      out.push(message.content.slice(start, start + sentence.length));
    }
  }
  return out;
}

/** The summary text: the prefix and as many whole sentences as fit in `maxLength`. */
export function summaryText(statements: readonly string[], maxLength = MAX_SUMMARY_LENGTH): string | null {
  let text = SUMMARY_PREFIX;
  let count = 0;
  for (const statement of statements) {
    const sentence = /[.!?]$/.test(statement) ? statement : statement + '.';
    const next = count === 0 ? text + sentence : `${text} ${sentence}`;
    if (next.length > maxLength) {
      if (count === 0) text = next.slice(0, maxLength - 1).trimEnd() + '…';
      break;
    }
    text = next;
    count++;
  }
  return text === SUMMARY_PREFIX ? null : text;
}

/**
 * The session summary as a candidate (none when the user said nothing durable). Deterministic
 * in its input, so `forgetSource` can replay it exactly like an ingest.
 */
export function summaryCandidates(userMessages: readonly ChatMessage[], flagged: readonly string[] = []): Candidate[] {
  const statements = durableStatements(userMessages, flagged);
  const content = summaryText(statements);
  if (content === null) return [];
  return [
    {
      content,
      topic: SESSION_SUMMARY_TOPIC,
      confidence: 0.9,
      excerpt: statements.join(' ').slice(0, MAX_SUMMARY_LENGTH),
      importance: 0.6,
      halfLifeDays: 30,
    },
  ];
}
