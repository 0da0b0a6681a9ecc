/**
 * The lexical channel's terms: one rule shared by the store (which sends term ids with the
 * rows), the worker (which scores queries) and anything that must agree with them.
 *
 * A term is a word ({@link wordsOf}: letters with their marks and digits, NFC, lower-cased), not a stopword, lightly stemmed
 * (plurals, -ing, -ed, a final e: "seating" ~ "seat", "flights" ~ "flight"); a word longer
 * than {@link PREFIX_LENGTH} also yields its prefix as a second term, so "grandmother" meets
 * "grandma"'s neighbours and "symbolizing" meets "symbols". Terms are sent as 32-bit hashes:
 * the worker never needs the words themselves.
 */
import { STOPWORDS } from './stopwords';
import { hash32, wordsOf } from '../text';

/** Words longer than this also count by their first PREFIX_LENGTH letters (tuned on the LoCoMo dev split: 5-6 best). */
export const PREFIX_LENGTH = 6;

/** Suffix stripping, deliberately light: a wrong merge costs more than a missed one. */
export function stemWord(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith('ies')) return stem.slice(0, -3) + 'y';
  if (stem.length > 4 && /(sh|ch|x|ss)es$/.test(stem)) return stem.slice(0, -2);
  if (stem.length > 3 && stem.endsWith('s') && !stem.endsWith('ss')) stem = stem.slice(0, -1);
  if (stem.length > 5 && stem.endsWith('ing')) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('ed')) stem = stem.slice(0, -2);
  if (stem.length > 4 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

/** The terms of `text`, in order, repeated as often as they occur (a word and its prefix both count). */
export function lexicalTermStrings(text: string): string[] {
  const out: string[] = [];
  for (const word of wordsOf(text)) {
    if (STOPWORDS.has(word)) continue;
    out.push(stemWord(word));
    if (word.length > PREFIX_LENGTH) out.push(`~${word.slice(0, PREFIX_LENGTH)}`);
  }
  return out;
}

/**
 * Term ids computed ahead, while {@link withTermsMemo} runs: an import computes every memory's
 * terms in slices before its commit, which would otherwise compute them again in one long task
 * (its vector log and the worker's rows). Only for the length of that call: a memo that
 * outlived it would keep the user's text in the page after a forget, or after `close()`.
 */
let memo: Map<string, Uint32Array> | undefined;
let memoHolders = 0;

/** Runs `run` with {@link lexicalTerms} remembering what it computes; dropped when the last such call settles. */
export async function withTermsMemo<T>(run: () => Promise<T>): Promise<T> {
  memoHolders++;
  memo ??= new Map();
  try {
    return await run();
  } finally {
    if (--memoHolders === 0) memo = undefined;
  }
}

/**
 * Term ids of `text` with repetition (their count is the term frequency). Inside
 * {@link withTermsMemo} the array may be shared with other callers: read it, copy it, never
 * write to it or transfer its buffer.
 */
export function lexicalTerms(text: string): Uint32Array {
  const known = memo?.get(text);
  if (known) return known;
  // 32-bit term ids: a collision merges two terms' counts, nothing worse.
  const terms = Uint32Array.from(lexicalTermStrings(text), (term) => hash32(term));
  memo?.set(text, terms);
  return terms;
}

/** Term ids of several texts in one flat array: text `i` is `terms[offsets[i] .. offsets[i+1])`. */
export function packTerms(texts: readonly string[]): { terms: Uint32Array; termOffsets: Uint32Array } {
  return flattenTerms(texts.map(lexicalTerms));
}

/** Several rows' term lists in the flat wire form of {@link packTerms}. */
export function flattenTerms(lists: readonly ArrayLike<number>[]): { terms: Uint32Array; termOffsets: Uint32Array } {
  const termOffsets = new Uint32Array(lists.length + 1);
  lists.forEach((list, i) => (termOffsets[i + 1] = termOffsets[i]! + list.length));
  const terms = new Uint32Array(termOffsets[lists.length]!);
  lists.forEach((list, i) => terms.set(list, termOffsets[i]!));
  return { terms, termOffsets };
}
