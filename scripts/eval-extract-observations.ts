/**
 * When a fact read from a LoCoMo turn carries an annotator's observation of that turn ("Caroline
 * started a new job as a financial analyst"): of the observation's content words (stopwords and
 * the speakers' names removed, each word lightly stemmed) the fact holds a share of at least
 * MATCH_THRESHOLD, and at least MIN_SHARED of them (all of them when the observation has fewer).
 * The share is low because annotators add why and how it felt to the fact itself ("… and found
 * the stories inspiring"); the floor keeps one common word from matching a short observation.
 * Both were set by reading matches and non-matches by eye, and checked on another sample
 * (docs/eval.md).
 */

/** The share of an observation's content words a fact must hold to carry it. */
export const MATCH_THRESHOLD = 0.3;

/** The fewest content words a fact must share with an observation that has at least this many. */
export const MIN_SHARED = 2;

// Function words, auxiliaries, pronouns (an observation names its speaker, a fact says "the
// user"), and the fillers annotators add around a fact ("recently", "currently", "really").
const STOPWORDS = new Set(
  (
    'a an the and or but nor so yet for of to in on at by with from into onto about as than then that this these those there here ' +
    'is am are was were be been being has have had having do does did doing will would shall should can could may might must ' +
    'i me my mine we us our ours you your yours he him his she her hers they them their theirs it its itself herself himself themselves ' +
    'who whom whose which what when where why how not no also too very really just still even only quite some any all each both ' +
    'recently currently now lately often always usually sometimes much many more most lot lots user other another own such ' +
    'up out over after before while during because if though although which whether one ones get gets got getting'
  ).split(' '),
);

/** A word's light stem: possessive and plural/verb endings off, a final "e" and a doubled last consonant folded ("hiking", "hikes", "hike" → "hik"). */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (w.length > 4 && /i(?:es|ed)$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('es') && /(?:ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The distinct stems of `text`'s content words: stopwords and `names` (any case, possessive too) removed. */
export function contentWords(text: string, names: readonly string[] = []): string[] {
  const removed = new Set(names.flatMap((name) => name.toLowerCase().split(/\s+/)));
  const stems = new Set<string>();
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []) {
    const word = raw.replace(/['’]s$/, '');
    if (STOPWORDS.has(word) || removed.has(word)) continue;
    stems.add(stem(word));
  }
  return [...stems];
}

export interface Coverage {
  /** The share of the observation's content words the fact holds (0 when it has none). */
  share: number;
  /** Whether the fact carries the observation: share ≥ the threshold, and enough words shared. */
  carried: boolean;
}

/** How much of `observation` `fact` holds, and whether that is enough to carry it. */
export function coverage(observation: string, fact: string, names: readonly string[] = [], threshold = MATCH_THRESHOLD): Coverage {
  const wanted = contentWords(observation, names);
  if (wanted.length === 0) return { share: 0, carried: false };
  const held = new Set(contentWords(fact, names));
  const shared = wanted.filter((word) => held.has(word)).length;
  const share = shared / wanted.length;
  return { share, carried: share >= threshold && shared >= Math.min(MIN_SHARED, wanted.length) };
}
