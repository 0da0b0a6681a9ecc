/** The labelled speech corpus (parts a-e), and the rule a fact read from it is scored by. */
import { CHAT, PLAIN, TYPOS, type LabelledCase } from './corpus-a';
import { EMOJI, FORMAL, NON_NATIVE } from './corpus-b';
import { HEDGED, NEGATED, TEXTING } from './corpus-c';
import { EVENTS, PEOPLE, SEVERAL } from './corpus-d';
import { NOTHING } from './corpus-e';

export { SPOKEN_AT, type LabelledCase } from './corpus-a';

export const LABELLED: readonly LabelledCase[] = [...PLAIN, ...CHAT, ...TYPOS, ...NON_NATIVE, ...EMOJI, ...FORMAL, ...TEXTING, ...HEDGED, ...NEGATED, ...SEVERAL, ...PEOPLE, ...EVENTS, ...NOTHING];

/**
 * The matching rule: a fact read matches an expected one when both have the same topic and the
 * same fact text once normalised: lower case, every run of characters other than letters and
 * digits one space, trimmed. ("The user lives in berlin" matches "The user lives in Berlin.")
 */
export function factKey(topic: string, content: string): string {
  return `${topic}: ${content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()}`;
}

/** `'topic: fact'` as written in the corpus, as its key. */
export function expectedKey(labelled: string): string {
  const colon = labelled.indexOf(': ');
  return factKey(labelled.slice(0, colon), labelled.slice(colon + 2));
}
