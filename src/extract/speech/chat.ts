/**
 * Chat register to the words the reader reads, token by token, before the clauses are cut:
 * shorthand ("bday", "bf", "w my", "n"), an age glued to its unit ("27yo"), number words
 * ("forty-six", "twenty five"), a heart between "I" and its object ("I ❤️ dumplings"), and
 * misspelt words of the reader's lexicon in the places it reads them (./typos.ts). A token
 * keeps its place in the message, so a fact still quotes the user's own characters.
 */
import type { Token } from './token';
import { correctedAt } from './typos';

/** Shorthand to the word the reader reads (`w`; the fact keeps the user's spelling, `raw`). */
const SHORTHAND: Readonly<Record<string, string>> = {
  bday: 'birthday',
  'b-day': 'birthday',
  bf: 'boyfriend',
  gf: 'girlfriend',
  yrs: 'years',
  ppl: 'people',
  ur: 'your',
  u: 'you',
  n: 'and',
};
/** What "w" stands before: "w my bf", "w a friend". */
const AFTER_WITH = new Set(['my', 'a', 'an', 'the', 'his', 'her', 'our', 'their', 'friends', 'family', 'roommates', 'kids', 'two', 'three']);
const HEARTS = /^(?:\u2764\uFE0F?|\u2665\uFE0F?|\u{1F495}|\u{1F496}|\u{1F497}|\u{1F499}|\u{1F49A}|\u{1F49B}|\u{1F49C}|\u{1F60D}|\u{1F970})$/u;
const BROKEN_HEART = '\u{1F494}';

const UNITS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 };
const TEENS: Readonly<Record<string, number>> = { thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19 };
const TENS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

/** "forty-six" → 46, "forty" + "six" → 46, "nineteen" → 19: the number and how many tokens it took (one to three numbers are left as words). */
function numberAt(tokens: readonly Token[], i: number): { value: number; words: number } | undefined {
  const w = tokens[i]!.w;
  if (TEENS[w] !== undefined) return { value: TEENS[w], words: 1 };
  const [ten, unit] = w.split('-');
  if (ten === undefined || TENS[ten] === undefined) return undefined;
  if (unit !== undefined) return UNITS[unit] === undefined ? undefined : { value: TENS[ten] + UNITS[unit], words: 1 };
  const next = UNITS[tokens[i + 1]?.w ?? ''];
  return next === undefined ? { value: TENS[ten], words: 1 } : { value: TENS[ten] + next, words: 2 };
}

const as = (token: Token, word: string, raw = word): Token => ({ ...token, w: word, raw });

/** The sentence's tokens as the reader reads them. */
export function chatTokens(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const w = token.w;
    if (HEARTS.test(token.raw) || token.raw === BROKEN_HEART) {
      // A heart is a verb only where one stands: right after "I" ("I ❤️ dumplings").
      if (out.at(-1)?.w === 'i' && tokens[i + 1] !== undefined) out.push(as(token, token.raw === BROKEN_HEART ? 'hate' : 'love'));
      continue;
    }
    const glued = /^(\d{1,3})(yo|y\/o|yrs)$/.exec(w);
    if (glued) {
      const cut = token.start + glued[1]!.length;
      out.push({ w: glued[1]!, raw: glued[1]!, start: token.start, end: cut }, { w: glued[2]!, raw: glued[2]!, start: cut, end: token.end });
      continue;
    }
    const number = numberAt(tokens, i);
    if (number !== undefined) {
      const last = tokens[i + number.words - 1]!;
      out.push({ w: String(number.value), raw: String(number.value), start: token.start, end: last.end });
      i += number.words - 1;
      continue;
    }
    const short = SHORTHAND[w] ?? (w === 'w' && AFTER_WITH.has(tokens[i + 1]?.w ?? '') ? 'with' : undefined);
    if (short !== undefined) {
      out.push(as(token, short, w === 'w' ? short : token.raw));
      continue;
    }
    const corrected = correctedAt(tokens, i, out);
    out.push(corrected === undefined ? token : as(token, corrected));
  }
  return out;
}
