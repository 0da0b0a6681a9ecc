/**
 * Misspelt words of the reader's lexicon, corrected where the reader reads them: the verb after
 * "I" ("i wrok at", "i hvae"), "name" after "my" ("my naem is"), the complement of "I'm"
 * ("im vgan", "a techer", "allergc") and the object of "have" ("two dgos"). A word is corrected
 * to the one lexicon word within edit distance 1 (2 for words of eight letters or more; a swap
 * of two letters counts one), never when it is itself a word the reader knows or two lexicon
 * words are as near.
 */
import { DIETS, FEELINGS, HABIT_VERBS, HEALTH_STATES, IRREGULAR_PAST, JOBS, MENTAL, PETS, RELATIONSHIP_STATES, RELATIVES } from './lexicon';
import type { Token } from './token';

const FRAME_VERBS: readonly string[] = ['live', 'work', 'have', 'study', 'speak', 'love', 'like', 'hate', 'enjoy', 'prefer', 'own', 'play', 'teach', 'rent'];
const STATES: readonly string[] = [...DIETS, ...RELATIONSHIP_STATES, ...HEALTH_STATES, 'allergic', 'intolerant'];
const COMPLEMENTS: readonly string[] = [...STATES, ...JOBS];
const OWNED: readonly string[] = [...PETS, ...RELATIVES];
/** Real words within one edit of a lexicon word, read as themselves ("I lie down", "I move a lot"). */
const NOT_TYPOS = new Set('lie lies lose move give dive save gave date rate wore word fork hive line lime lake sate hare hake rant lover liver plan plays pray stay spear speck dogs cats teal leach reach each tease loaf fits'.split(' '));
const KNOWN: ReadonlySet<string> = new Set([...FRAME_VERBS, ...COMPLEMENTS, ...OWNED, ...HABIT_VERBS, ...MENTAL, ...FEELINGS, ...IRREGULAR_PAST, ...NOT_TYPOS]);
const ADVERBS = new Set(['really', 'realy', 'just', 'also', 'still', 'actually', 'totally', 'definitely', 'do']);
const COUNTS = new Set(['a', 'an', 'one', 'two', 'three', 'four', 'five', 'some', 'no']);

/** Edit distance with adjacent swaps (optimal string alignment), stopping once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      least = Math.min(least, d);
    }
    if (least > max) return max + 1;
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/** The one word of `words` nearest `typed` within its distance, or undefined (none near, or a tie). */
export function nearest(typed: string, words: readonly string[]): string | undefined {
  if (typed.length < 4 || KNOWN.has(typed) || !/^[a-z]+$/.test(typed)) return undefined;
  const max = typed.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = max + 1;
  let tie = false;
  for (const word of words) {
    if (word.length < 3 || word[0] !== typed[0]) continue;
    const d = editDistance(typed, word, max);
    if (d < bestDistance) [best, bestDistance, tie] = [word, d, false];
    else if (d === bestDistance && word !== best) tie = true;
  }
  return best !== undefined && !tie ? best : undefined;
}

/** The word `tokens[i]` stands for where the reader reads it, given the tokens already read before it (`read`), or undefined. */
export function correctedAt(tokens: readonly Token[], i: number, read: readonly Token[]): string | undefined {
  const typed = tokens[i]!.w;
  if (typed.length < 4) return undefined;
  let k = read.length - 1;
  while (k >= 0 && k > read.length - 4 && ADVERBS.has(read[k]!.w)) k--;
  const before = read[k]?.w;
  if (before === 'i') return nearest(typed, FRAME_VERBS);
  if (before === 'my' && (tokens[i + 1]?.w === 'is' || tokens[i + 1]?.w === "'s")) return nearest(typed, ['name']);
  if (before === "i'm" || before === 'im' || before === 'am' || before === 'iam') return nearest(typed, COMPLEMENTS);
  const be = read[k - 1]?.w;
  if ((before === 'a' || before === 'an') && (be === "i'm" || be === 'im' || be === 'am' || be === 'iam')) return nearest(typed, [...JOBS]);
  if (before !== undefined && (COUNTS.has(before) || /^\d+$/.test(before)) && ['have', 'has', 'got'].includes(read[k - 1]?.w ?? '')) return nearest(typed, OWNED);
  return undefined;
}
