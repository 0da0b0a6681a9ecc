/**
 * An extractor by table, for the property runs that model consolidation itself: a message is
 * its sentences, and each known sentence gives one fixed candidate. Several sentences of one
 * message can land on the same exclusive topic, so one ingest updates a topic more than once.
 */
import type { Extractor, SourceType } from '../../src/index';

export interface TableFact {
  content: string;
  topic: string;
  confidence: number;
}

export const TABLE: Readonly<Record<string, TableFact>> = {
  "I'm vegetarian.": { content: 'The user follows a vegetarian diet.', topic: 'diet', confidence: 0.8 },
  "I'm vegan.": { content: 'The user follows a vegan diet.', topic: 'diet', confidence: 0.85 },
  "I'm pescatarian now.": { content: 'The user follows a pescatarian diet.', topic: 'diet', confidence: 0.9 },
  "I've started eating fish.": { content: 'The user eats fish again.', topic: 'diet', confidence: 0.75 },
  'Call me Ada.': { content: 'The user goes by Ada.', topic: 'identity', confidence: 0.95 },
  'Call me Bo.': { content: 'The user goes by Bo.', topic: 'identity', confidence: 0.9 },
  'Window seat, please.': { content: 'The user prefers a window seat.', topic: 'travel', confidence: 0.8 },
  'Aisle seat, please.': { content: 'The user prefers an aisle seat.', topic: 'travel', confidence: 0.9 },
  'I like jazz.': { content: 'The user likes jazz.', topic: 'music', confidence: 0.7 },
  'I like opera.': { content: 'The user likes opera.', topic: 'music', confidence: 0.8 },
};
export const STATEMENTS = Object.keys(TABLE);

/** Each source id has one type, so "the same source" means one thing in the model and the store. */
export const SOURCES: readonly { id: string; type: SourceType }[] = [
  { id: 's0', type: 'user_explicit' },
  { id: 's1', type: 'user_implicit' },
  { id: 's2', type: 'tool_output' },
  { id: 's3', type: 'user_explicit' },
  { id: 's4', type: 'bootstrapped' },
  { id: 's5', type: 'user_implicit' },
];

/** The sentences of a message, each ending at its full stop. */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=\.)\s+/).filter((sentence) => sentence.length > 0);
}

/** The extractor: every known sentence of the user's messages, in order; anything else (a canary) gives nothing. */
export const tableExtractor: Extractor = {
  extract: (messages) =>
    messages.flatMap((message) =>
      sentencesOf(message.content).flatMap((sentence) => {
        const fact = TABLE[sentence];
        return fact ? [{ ...fact, excerpt: sentence }] : [];
      }),
    ),
};
