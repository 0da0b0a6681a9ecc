/**
 * The pieces a fact is written from: the object of a clause rewritten for "the user" (my →
 * their, me → them, its time resolved), names capitalised as names, and the fact's shape.
 */
import type { Topic } from '../topics';
import { OBJECT_END, SUBJECT_START } from './lexicon';
import type { Token } from './tokens';
import { timeAt } from './when';

/** A fact read from one clause, before it becomes a candidate. */
export interface Draft {
  topic: Topic;
  content: string;
  confidence: number;
  /** Token indexes of the clause the fact covers, [first, last]. */
  first: number;
  last: number;
}

/** A draft of `topic` from tokens [first, last] of the clause. */
export function draft(topic: Topic, content: string, confidence: number, first: number, last: number): Draft {
  return { topic, content, confidence, first, last };
}

/** What a clause reader knows besides the clause: the message time, the hedge and greeting before the subject. */
export interface Reading {
  tokens: readonly Token[];
  at: number | undefined;
  hedge: boolean;
  greeted: boolean;
  /** A time said before the subject ("Last week I went …"), resolved: the fact's time when its object names none. */
  leadTime?: string | undefined;
}

export interface Phrase {
  text: string;
  /** Index of the last token used (the start index minus one when none was). */
  last: number;
  /** The resolved time phrase ("on 7 May 2023"), or the words as said when the message has no time. */
  time: string | undefined;
  future: boolean;
}

const NEW_SUBJECT = new Set(['i', "i'm", "i've", "i'll", "i'd", 'we', "we're", "we've"]);
const PRONOUNS: Readonly<Record<string, string>> = { my: 'their', me: 'them', myself: 'themselves', mine: 'theirs', i: 'they', "i'm": "they're", im: "they're", "i've": "they've", our: 'their', us: 'them' };
/** Words an object never ends on, as written into the fact ("my" and "our" are "their" by then). */
const TRAILING = new Set('and or to with the a an of for from in at on their so too really just very lately now though anyway yet like then anymore any more'.split(' '));
/** Longest object read: a fact is one claim, not a paragraph. */
const MAX_OBJECT = 14;

/** The object from `tokens[from]` on: up to the clause's end, a comma, or a word that starts another thought. */
export function objectAt(reading: Reading, from: number, limit = MAX_OBJECT): Phrase {
  const { tokens, at } = reading;
  const words = tokens.map((token) => token.w);
  const parts: string[] = [];
  let time: string | undefined;
  let future = false;
  let i = from;
  let last = from - 1;
  while (i < tokens.length && parts.length < limit) {
    const token = tokens[i]!;
    if (
      token.w === ',' &&
      parts.length > 0 &&
      seriesGoesOn(
        words,
        i,
        parts.some((part) => part.endsWith(',')),
      )
    ) {
      parts[parts.length - 1] += ',';
      i++;
      continue;
    }
    if (token.w === ',' || token.w === ':' || OBJECT_END.has(token.w)) break;
    if ((token.w === 'and' || token.w === 'but' || token.w === 'so') && SUBJECT_START.has(words[i + 1] ?? '')) break;
    // A new subject starts another clause the splitter could not see ("after we talked I finally …").
    if (parts.length > 0 && NEW_SUBJECT.has(token.w)) break;
    const when = timeAt(words, i, at);
    if (when !== undefined && time === undefined) {
      time =
        when.phrase ??
        tokens
          .slice(i, i + when.words)
          .map((t) => t.raw)
          .join(' ');
      future = when.future;
      last = i + when.words - 1;
      i += when.words;
      continue;
    }
    parts.push(PRONOUNS[token.w] ?? token.raw);
    last = i;
    i++;
  }
  while (parts.length > 0 && TRAILING.has(parts.at(-1)!.toLowerCase())) parts.pop();
  return { text: parts.join(' '), last, time: time ?? reading.leadTime, future };
}

/**
 * Whether the comma at `i` goes on a series of short items that ends in "and" or "or" ("Arabic,
 * German and English", "cats, dogs, or rabbits"; `inSeries`: a comma of it came before): each item one to three words, none that starts
 * a clause. Looks at most four words past the comma.
 */
function seriesGoesOn(words: readonly string[], i: number, inSeries: boolean): boolean {
  for (let k = i + 1; k <= i + 4 && k < words.length; k++) {
    const w = words[k]!;
    // ", and drums" ends a series already begun ("guitar, piano, and drums").
    if ((w === 'and' || w === 'or') && (k > i + 1 || inSeries)) return words[k + 1] !== undefined && !SUBJECT_START.has(words[k + 1]!);
    if (w === ',') return k > i + 1;
    if (SUBJECT_START.has(w) || OBJECT_END.has(w) || NEW_SUBJECT.has(w)) return false;
  }
  return false;
}

/** "sam" → "Sam"; a name typed with capitals keeps them ("McKenzie"). */
export function capitalised(raw: string): string {
  return raw === raw.toLowerCase() ? raw.charAt(0).toUpperCase() + raw.slice(1) : raw;
}

/** Words that never start a name ("my name is not important", "call me back"). */
const NOT_NAMES = new Set([
  'not',
  'a',
  'an',
  'the',
  'and',
  'but',
  'or',
  'so',
  'is',
  'was',
  'back',
  'later',
  'tomorrow',
  'today',
  'tonight',
  'anytime',
  'when',
  'if',
  'at',
  'on',
  'in',
  'maybe',
  'crazy',
  'old-fashioned',
  'whatever',
  'anything',
  'something',
  'that',
  'this',
  'it',
  'please',
  'pls',
  'now',
  'soon',
  'again',
  'sometime',
  'asap',
  'by',
  'after',
  'before',
  'too',
  'very',
  'also',
  'just',
  'really',
  'hard',
  'long',
  'weird',
  'funny',
  'unusual',
  'common',
  'different',
  'difficult',
  'easy',
  'short',
  'spelled',
  'spelt',
  'pronounced',
  'here',
  'there',
  'what',
  'who',
  'how',
  'why',
  'your',
  'my',
  'his',
  'her',
  'their',
  'our',
  'you',
  'me',
  'i',
  'we',
  'they',
  'he',
  'she',
  'from',
  'to',
  'for',
  'with',
  'of',
]);

/** A name of one to three words from `tokens[from]`, capitalised, or undefined. */
export function nameAt(tokens: readonly Token[], from: number, maxWords = 3): { name: string; last: number } | undefined {
  const parts: string[] = [];
  let i = from;
  while (i < tokens.length && parts.length < maxWords) {
    const token = tokens[i]!;
    if (!/^\p{L}[\p{L}\p{M}'’-]*$/u.test(token.raw) || NOT_NAMES.has(token.w) || SUBJECT_START.has(token.w) || OBJECT_END.has(token.w)) break;
    // A second word joins the name only when it is capitalised as one ("Mary Jane"), never a lower-case word after it.
    if (parts.length > 0 && !/^\p{Lu}/u.test(token.raw)) break;
    parts.push(capitalised(token.raw));
    i++;
  }
  return parts.length > 0 ? { name: parts.join(' '), last: i - 1 } : undefined;
}

/** A place of one to four words ("Berlin", "New York", "the Bay Area"), capitalised when typed in lower case. */
export function placeAt(reading: Reading, from: number): Phrase {
  const phrase = objectAt(reading, from, 5);
  const typedLower = phrase.text === phrase.text.toLowerCase();
  const text = typedLower ? phrase.text.replace(/(^|\s)(?!(?:the|of|de|la|le|del|da|and|a|my|their|in|near|outside|with)\b)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase()) : phrase.text;
  return { ...phrase, text };
}

/** The fact's sentence: "The user" + predicate (+ time) + full stop. */
export function sentence(subject: string, predicate: string, time: string | undefined): string {
  return `${subject} ${predicate}${time ? ` ${time}` : ''}.`.replace(/\s+/g, ' ');
}
