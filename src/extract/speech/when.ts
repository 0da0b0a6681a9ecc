/**
 * Relative times in a user's sentence ("yesterday", "last week", "in two days"), resolved
 * against the message's time into a phrase a fact keeps ("on 7 May 2023"). Calendar days are
 * UTC days: the library knows the message's instant, not the user's time zone.
 */
import { DAY_MS } from '../../time';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SHORT_WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const WEEKDAY_SPELLING: Readonly<Record<string, number>> = { tues: 2, thur: 4, thurs: 4, weds: 3 };
const NUMBER_WORDS: Readonly<Record<string, number>> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, couple: 2, few: 3 };

/** A time phrase found in a clause: how many words it spans and what it resolves to. */
export interface TimePhrase {
  words: number;
  /** The resolved phrase ("on 7 May 2023"), or undefined when the message has no time. */
  phrase: string | undefined;
  /** Whether it points ahead (a plan) rather than back. */
  future: boolean;
}

function day(at: number): string {
  const date = new Date(at);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

function monthOf(at: number, offset: number): string {
  const date = new Date(at);
  const month = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
  return `in ${MONTHS[month.getUTCMonth()]} ${month.getUTCFullYear()}`;
}

function weekOf(at: number, offsetWeeks: number): string {
  const weekday = (new Date(at).getUTCDay() + 6) % 7;
  return `in the week of ${day(at - weekday * DAY_MS + offsetWeeks * 7 * DAY_MS)}`;
}

function yearOf(at: number, offset: number): string {
  return `in ${new Date(at).getUTCFullYear() + offset}`;
}

/** The unit's phrase `count` units from `at` (negative: back). */
function shifted(at: number, unit: string, count: number): string {
  if (unit.startsWith('day')) return `on ${day(at + count * DAY_MS)}`;
  if (unit.startsWith('week')) return weekOf(at, count);
  if (unit.startsWith('month')) return monthOf(at, count);
  return yearOf(at, count);
}

function weekdayBefore(at: number, target: number, ahead: boolean): string {
  const today = new Date(at).getUTCDay();
  const back = (today - target + 7) % 7 || 7;
  const forward = (target - today + 7) % 7 || 7;
  return `on ${day(at + (ahead ? forward : -back) * DAY_MS)}`;
}

const UNIT = /^(?:days?|weeks?|months?|years?)$/;

/**
 * The time phrase starting at `words[i]` (lower-case words), or undefined. Reads at most four
 * words: "yesterday", "last week", "two weeks ago", "a few days ago", "next month", "in 3 days".
 */
export function timeAt(words: readonly string[], i: number, at: number | undefined): TimePhrase | undefined {
  const [w0, w1, w2] = [words[i], words[i + 1], words[i + 2]];
  const known = at !== undefined && Number.isFinite(at);
  const resolve = (make: (at: number) => string) => (known ? make(at) : undefined);
  if (w0 === 'yesterday') return { words: 1, phrase: resolve((t) => `on ${day(t - DAY_MS)}`), future: false };
  if (w0 === 'today' || w0 === 'tonight') return { words: 1, phrase: resolve((t) => `on ${day(t)}`), future: false };
  if (w0 === 'tomorrow') return { words: 1, phrase: resolve((t) => `on ${day(t + DAY_MS)}`), future: true };
  if ((w0 === 'this' || w0 === 'last') && (w1 === 'morning' || w1 === 'afternoon' || w1 === 'evening' || w1 === 'night')) {
    const back = w0 === 'last' ? DAY_MS : 0;
    return { words: 2, phrase: resolve((t) => `on ${day(t - back)}`), future: false };
  }
  if ((w0 === 'last' || w0 === 'next' || w0 === 'this') && w1 !== undefined) {
    const ahead = w0 === 'next';
    const sign = ahead ? 1 : w0 === 'last' ? -1 : 0;
    const weekday = Math.max(WEEKDAYS.indexOf(w1), SHORT_WEEKDAYS.indexOf(w1), WEEKDAY_SPELLING[w1] ?? -1);
    if (weekday >= 0) return { words: 2, phrase: resolve((t) => weekdayBefore(t, weekday, ahead || w0 === 'this')), future: ahead };
    if (w1 === 'weekend' || w1 === 'wknd' || w1 === 'wkend') return { words: 2, phrase: resolve((t) => `on the weekend of ${day(saturdayNear(t, sign))}`), future: ahead };
    if (w1 === 'week' || w1 === 'month' || w1 === 'year') return { words: 2, phrase: resolve((t) => shifted(t, w1, sign)), future: ahead };
  }
  // "two weeks ago", "a few days ago", "3 years ago", "a couple of weeks ago"
  let j = i;
  if (words[j] === 'a' && (words[j + 1] === 'few' || words[j + 1] === 'couple')) j++;
  const countWord = words[j];
  if (countWord !== undefined) {
    let k = j + 1;
    if (words[k] === 'of') k++;
    const count = /^\d{1,3}$/.test(countWord) ? Number(countWord) : NUMBER_WORDS[countWord];
    const unit = words[k];
    if (count !== undefined && unit !== undefined && UNIT.test(unit) && words[k + 1] === 'ago') {
      return { words: k + 2 - i, phrase: resolve((t) => shifted(t, unit, -count)), future: false };
    }
  }
  // "in two days", "in 3 weeks"
  if (w0 === 'in' && w1 !== undefined && w2 !== undefined && UNIT.test(w2)) {
    const count = /^\d{1,3}$/.test(w1) ? Number(w1) : NUMBER_WORDS[w1];
    if (count !== undefined) return { words: 3, phrase: resolve((t) => shifted(t, w2, count)), future: true };
  }
  return undefined;
}

function saturdayNear(at: number, sign: number): number {
  const today = new Date(at).getUTCDay();
  if (sign < 0) return at - ((today + 1) % 7 || 7) * DAY_MS;
  const ahead = (6 - today + 7) % 7;
  return at + (sign > 0 ? ahead + (ahead === 0 ? 7 : 0) : ahead) * DAY_MS;
}
