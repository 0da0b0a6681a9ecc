/**
 * Whether a word is typed as a name: a capital, and no word of the lexicon that is written
 * with one (a nationality, a faith, a language, a day or month).
 */
import { LANGUAGES, RELIGIONS } from './lexicon';
import type { Token } from './token';

/** A word typed with a capital that can be a name: not a nationality, a faith, a language, a day or month ("I'm British", "It's Monday"). */
export function capitalisedName(token: Token): boolean {
  return /^\p{Lu}\p{Ll}/u.test(token.raw) && !NOT_NAME_WORDS.test(token.w) && !RELIGIONS.has(token.w) && !LANGUAGES.has(token.w) && !CALENDAR.has(token.w);
}
const NOT_NAME_WORDS = /(?:ish|ese|ian|ean|can|ic)$/;
const CALENDAR = new Set([
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'christmas',
  'easter',
  'same',
  'nothing',
  'everyone',
  'anyone',
  'someone',
  'nobody',
]);
