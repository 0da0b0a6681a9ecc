/**
 * A subject the user left out of a list or a coordination: "I live in Berlin and work as a
 * nurse", "i'm 35, married, one kid, live in austin", "vegan, 42, two cats". Each item after a
 * comma or "and" whose first words say what it is (a verb of the reader's frames, an age, a
 * state, "a nurse", "two kids") gets the subject back ("I", "I'm", "I have"), so it is read as
 * the clause it stands for.
 */
import { DIETS, HEALTH_STATES, isPet, JOBS, RELATIONSHIP_STATES, RELATIVES } from './lexicon';
import type { Token } from './token';
import { capitalisedName } from './typed-name';

/** Verbs an item may start with (not "like": ", like her" compares). */
const VERBS = new Set(['live', 'work', 'have', 'study', 'speak', 'teach', 'own', 'rent', 'love', 'hate', 'enjoy', 'play', 'volunteer', 'run', 'swim', 'cycle']);
/** Objects that point at someone else: "and love her" says nothing the reader keeps. */
const POINTING = new Set(['her', 'him', 'me', 'you', 'them', 'it', 'that', 'this', 'us']);
const PROGRESSIVE = new Set(['living', 'working', 'studying', 'learning']);
const STATES = new Set([...RELATIONSHIP_STATES, ...DIETS, ...HEALTH_STATES, 'allergic', 'from', 'based', 'retired']);
const BEINGS = new Set([...JOBS, 'mum', 'mom', 'dad', 'mother', 'father', 'parent', 'student']);
const COUNTS = new Set(['a', 'an', 'one', 'two', 'three', 'four', 'five', 'no']);
const AGE_UNITS = new Set([',', 'and', 'years', 'yo', 'y/o', 'yrs', 'm', 'f']);
const I_FORMS = new Set(['i', "i'm", 'im', "i've", 'ive', 'iam']);

/** Whether the clause so far has the user for its subject (past fillers: "so", "hi", ","). */
export function userClause(current: readonly Token[], fillers: ReadonlySet<string>): boolean {
  // Looks at the first few tokens only: a clause of a thousand commas costs each boundary a constant.
  for (let k = 0; k < current.length && k < 6; k++) {
    const w = current[k]!.w;
    if (w !== ',' && !fillers.has(w)) return I_FORMS.has(w);
  }
  return false;
}

function isAge(tokens: readonly Token[], j: number): boolean {
  const w = tokens[j]?.w ?? '';
  if (!/^\d{1,3}$/.test(w) || Number(w) < 5 || Number(w) > 110) return false;
  const next = tokens[j + 1]?.w;
  return next === undefined || AGE_UNITS.has(next);
}

/**
 * The subject words an item starting at `tokens[j]` leaves out, or undefined when it is no
 * item of the user's. `comma`: the item follows a comma (a count of kids or pets is an item
 * only there: "I have a dog and two cats" is one thing the user has); `having`: the clause
 * before it is a "have" clause.
 */
export function elidedSubject(tokens: readonly Token[], j: number, comma: boolean, having: boolean): string[] | undefined {
  const w = tokens[j]?.w;
  if (w === undefined) return undefined;
  if (VERBS.has(w) && tokens[j + 1] !== undefined && !POINTING.has(tokens[j + 1]!.w)) return ['i'];
  if (PROGRESSIVE.has(w) || STATES.has(w) || isAge(tokens, j)) return ["i'm"];
  if (w === 'a' || w === 'an') {
    for (let k = j + 1; k <= j + 3 && k < tokens.length; k++) {
      if (BEINGS.has(tokens[k]!.w)) return ["i'm"];
      if (tokens[k]!.w === ',') break;
    }
  }
  // "Sam, 44, plumber": a bare job that is the whole item.
  if (comma && JOBS.has(w) && (tokens[j + 1] === undefined || tokens[j + 1]!.w === ',' || tokens[j + 1]!.w === 'and')) return ["i'm"];
  if (comma && !having && (COUNTS.has(w) || /^\d{1,2}$/.test(w))) {
    for (let k = j + 1; k <= j + 2 && k < tokens.length; k++) if (RELATIVES.has(tokens[k]!.w) || isPet(tokens[k]!.w)) return ['i', 'have'];
  }
  return undefined;
}

/**
 * Whether a message opens with a name typed as one and then a list about its writer ("Sam, 44,
 * plumber", "Tomás, from Buenos Aires"): the name is an item of "I'm" like the ones after it,
 * when the item after it is an age, "from" or a bare job.
 */
export function namedOpening(tokens: readonly Token[], j: number): boolean {
  const name = tokens[j];
  if (name === undefined || !capitalisedName(name) || tokens[j + 1]?.w !== ',') return false;
  const item = tokens[j + 2];
  if (item === undefined) return false;
  return isAge(tokens, j + 2) || item.w === 'from' || (JOBS.has(item.w) && (tokens[j + 3] === undefined || tokens[j + 3]!.w === ','));
}

/** The subject words as tokens of no width, standing where the item starts. */
export function subjectTokens(words: readonly string[], at: Token): Token[] {
  return words.map((w) => ({ w, raw: w === 'i' ? 'I' : w === "i'm" ? "I'm" : w, start: at.start, end: at.start }));
}
