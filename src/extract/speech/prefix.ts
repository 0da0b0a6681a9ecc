/**
 * What comes before a clause's subject: fillers ("so", "btw", "as I said"), greetings, and
 * hedges ("I think", "maybe") that lower the fact's confidence. And the clauses that state
 * nothing about the user: questions, requests to the assistant, hypotheticals.
 */
import { FILLERS, HEDGE_WORDS, NON_STATEMENT_START } from './lexicon';
import type { Token } from './tokens';
import { timeAt } from './when';

export interface Opening {
  /** Index of the subject's first token. */
  at: number;
  hedge: boolean;
  greeted: boolean;
  /** A time phrase before the subject ("Last week, I …"), resolved against `at`. */
  leadTime?: string | undefined;
}

const GREETINGS = new Set(['hi', 'hello', 'hey', 'hiya', 'yo', 'greetings', 'howdy', 'heya', 'hallo', 'hola', 'ciao', 'salut']);
/** Phrases that open a clause and say nothing: matched word by word. */
const FILLER_PHRASES: readonly (readonly string[])[] = [
  ['as', 'i', 'said', 'before'],
  ['as', 'i', 'said'],
  ['like', 'i', 'said'],
  ['as', 'i', 'mentioned', 'before'],
  ['as', 'i', 'mentioned'],
  ['as', 'mentioned'],
  ['by', 'the', 'way'],
  ['to', 'be', 'honest'],
  ['just', 'so', 'you', 'know'],
  ['you', 'know'],
  ['for', 'the', 'record'],
  ['fun', 'fact'],
  ['in', 'fact'],
  ['of', 'course'],
  ['to', 'be', 'fair'],
  ['truth', 'be', 'told'],
  ['long', 'story', 'short'],
  ['i', 'have', 'to', 'say'],
  ['i', 'must', 'say'],
  ['i', 'gotta', 'say'],
  ['that', 'said'],
  ['for', 'what', "it's", 'worth'],
  ['good', 'news'],
  ['guess', 'what'],
  ['a', 'little', 'about', 'me'],
  ['about', 'me'],
  ['quick', 'update'],
  ['oh', 'and'],
  ['and', 'also'],
  ['please', 'note', 'that'],
  ['please', 'note'],
  ['note', 'that'],
  ['i', 'would', 'like', 'to', 'note', 'that'],
  ['i', 'would', 'like', 'to', 'mention', 'that'],
  ['i', 'should', 'mention', 'that'],
  ['i', 'should', 'mention'],
  ['i', 'should', 'say'],
  ['just', 'to', 'let', 'you', 'know'],
  ['i', 'wanted', 'to', 'let', 'you', 'know', 'that'],
  ['i', 'want', 'to', 'let', 'you', 'know', 'that'],
  ['let', 'me', 'tell', 'you'],
  ['for', 'your', 'records'],
  ['for', 'your', 'information'],
  ['for', 'the', 'avoidance', 'of', 'doubt'],
  ['i', 'told', 'you'],
  ['i', 'always', 'say'],
  ['since', 'you', 'asked'],
  ['you', 'asked', 'about', 'my', 'diet'],
  ['nice', 'to', 'meet', 'you'],
];
/** Hedges that take a subject after them: "I think (that) I'm …", "I'm pretty sure my …". */
const HEDGE_PHRASES: readonly (readonly string[])[] = [
  ['i', 'think'],
  ['think'],
  ['i', 'guess'],
  ['i', 'believe'],
  ['i', 'suppose'],
  ['i', 'reckon'],
  ['i', 'feel', 'like'],
  ["i'm", 'pretty', 'sure'],
  ['im', 'pretty', 'sure'],
  ["i'm", 'fairly', 'sure'],
  ['pretty', 'sure'],
  ["i'm", 'not', 'sure', 'but'],
  ['im', 'not', 'sure', 'but'],
  ['i', 'think', 'that'],
  ['not', 'sure', 'but'],
  ['kind', 'of'],
  ['sort', 'of'],
  ['i', 'dunno'],
  ["i'd", 'say'],
  ['i', 'would', 'say'],
  ['idk'],
];
/** Words of degree that soften "sure" or "certain" ("fairly sure", "almost certain"): a hedge. */
const SOFTENING = new Set(['pretty', 'fairly', 'quite', 'almost', 'reasonably', 'mostly']);
/** Words of degree that make "sure" firmer ("100% sure", "totally sure"): no hedge. */
const FIRM = new Set(['very', '100%', 'totally', 'absolutely', 'completely', 'really', 'dead']);
const SURE = new Set(['sure', 'certain', 'positive', 'convinced']);

/**
 * The end of a statement of certainty at `i` ("fairly sure", "I'm almost certain that", "I'm
 * positive that"), with or without its "I'm", when a subject follows, and whether it hedges: only
 * a softening degree does ("fairly sure"); "I'm certain", "I'm positive", "totally sure" say the
 * fact at full confidence. Else undefined.
 */
function certaintyEnd(tokens: readonly Token[], i: number): { end: number; hedge: boolean } | undefined {
  let j = i;
  if (tokens[j]?.w === "i'm" || tokens[j]?.w === 'im') j++;
  else if (tokens[j]?.w === 'i' && tokens[j + 1]?.w === 'am') j += 2;
  const softened = SOFTENING.has(tokens[j]?.w ?? '');
  if (softened || FIRM.has(tokens[j]?.w ?? '')) j++;
  if (!SURE.has(tokens[j]?.w ?? '') || j === i) return undefined;
  j++;
  if (tokens[j]?.w === 'that') j++;
  return SUBJECTS.has(tokens[j]?.w ?? '') ? { end: j, hedge: softened } : undefined;
}

/** Words that open a reason before its subject ("since I'm vegan, …", "because im allergic to nuts, can you …"): the reason is the user's statement. */
const REASONS = new Set(['since', 'because', 'cause', "'cause", 'bc', 'cuz', 'coz', 'as', 'given']);

/** Words in -ly that are no adverb: "family I love", "Italy I …". */
const NOT_ADVERBS = new Set([
  'family',
  'italy',
  'july',
  'ally',
  'belly',
  'bully',
  'holly',
  'lily',
  'emily',
  'molly',
  'sally',
  'billy',
  'kelly',
  'jelly',
  'rally',
  'reply',
  'supply',
  'assembly',
  'anomaly',
  'folly',
  'butterfly',
  'early',
  'only',
  'daily',
  'weekly',
  'monthly',
  'yearly',
  'likely',
  'friendly',
  'lonely',
  'ugly',
  'silly',
]);
const SUBJECTS = new Set(['i', "i'm", 'im', "i've", 'ive', "i'll", 'my', 'me', 'iam', "i'am"]);

/** Words that make an opening a telling: "I would like to inform you that", "please be advised that", "I want you to know that". */
const TELLING = new Set(['inform', 'informing', 'advise', 'advised', 'note', 'noted', 'mention', 'tell', 'telling', 'know', 'say', 'point', 'add', 'share', 'clarify', 'confirm', 'state', 'notify', 'aware', 'update', 'remind']);
/** Who may open a telling: the user, or the request form ("please", "kindly"); "my wife says that I …" is hers. */
const TELLER = new Set(['i', "i'd", 'please', 'kindly', 'just']);
const NEGATING = new Set(['not', 'never', "don't", 'dont', "didn't", 'didnt', "won't", "can't", 'cannot', 'no', 'if']);

/**
 * Where the clause goes on after an opening that tells the listener something about the user
 * ("I would like to inform you that I am …", "please be advised that my …"): the index after
 * "that" when a subject of the user follows it, or undefined. At most eight words before "that",
 * one of them a word of telling, none a negation or an "if".
 */
function toldThat(tokens: readonly Token[], i: number): number | undefined {
  if (!TELLER.has(tokens[i]?.w ?? '')) return undefined;
  let telling = false;
  for (let k = i + 1; k < tokens.length && k <= i + 8; k++) {
    const w = tokens[k]!.w;
    if (NEGATING.has(w)) return undefined;
    if (w === 'that') return telling && SUBJECTS.has(tokens[k + 1]?.w ?? '') ? k + 1 : undefined;
    telling ||= TELLING.has(w);
  }
  return undefined;
}

/** Prepositions that open a phrase of place or time a clause may start with. */
const LEAD_PREPOSITIONS = new Set(['in', 'on', 'at', 'after', 'during', 'outside', 'besides', 'on', 'for']);
/** The user as subject: what a leading phrase must end at. */
const I_SUBJECTS = new Set(['i', "i'm", 'im', "i've", 'ive']);

/** Where "I" starts after a leading phrase at `i` ("in my free time", "at work,"): at most six words, none a subject or a word that starts a clause. */
function leadPhraseEnd(tokens: readonly Token[], i: number): number | undefined {
  for (let k = i + 1; k < tokens.length && k <= i + 7; k++) {
    const w = tokens[k]!.w;
    if (I_SUBJECTS.has(w)) return k > i + 1 ? k : undefined;
    if (w === 'that' || w === 'which' || w === 'who' || w === 'if' || w === 'you' || w === 'we' || w === 'he' || w === 'she' || w === 'they') return undefined;
  }
  return undefined;
}

function phraseAt(tokens: readonly Token[], i: number, phrase: readonly string[]): boolean {
  return phrase.every((word, k) => tokens[i + k]?.w === word);
}

/** Where the subject starts after fillers and hedges, or undefined when the clause states no fact (a question, a request, a hypothetical). */
export function openingOf(tokens: readonly Token[], question: boolean, at?: number): Opening | undefined {
  if (question) return undefined;
  let i = 0;
  let hedge = false;
  let greeted = false;
  let leadTime: string | undefined;
  const words = tokens.map((token) => token.w);
  // Each step consumes at least one token: linear in the clause.
  for (let guard = 0; guard < tokens.length && i < tokens.length; guard++) {
    const w = tokens[i]!.w;
    if (w === ',' || w === ':') {
      i++;
      continue;
    }
    const filler = FILLER_PHRASES.find((phrase) => phraseAt(tokens, i, phrase));
    if (filler) {
      i += filler.length;
      continue;
    }
    const told = toldThat(tokens, i);
    if (told !== undefined) {
      i = told;
      continue;
    }
    const hedgePhrase = HEDGE_PHRASES.find((phrase) => phraseAt(tokens, i, phrase) && SUBJECTS.has(tokens[i + phrase.length]?.w === 'that' ? (tokens[i + phrase.length + 1]?.w ?? '') : (tokens[i + phrase.length]?.w ?? '')));
    if (hedgePhrase) {
      hedge = true;
      i += hedgePhrase.length + (tokens[i + hedgePhrase.length]?.w === 'that' ? 1 : 0);
      continue;
    }
    const sure = certaintyEnd(tokens, i);
    if (sure !== undefined) {
      hedge ||= sure.hedge;
      i = sure.end;
      continue;
    }
    if (REASONS.has(w) && SUBJECTS.has(tokens[i + 1]?.w ?? '') && tokens[i + 1]!.w !== 'me') {
      i++;
      continue;
    }
    if (HEDGE_WORDS.has(w)) {
      hedge = true;
      i++;
      continue;
    }
    if (GREETINGS.has(w)) {
      greeted = true;
      i++;
      continue;
    }
    const when = leadTime === undefined ? timeAt(words, i, at) : undefined;
    if (when !== undefined && when.phrase !== undefined) {
      leadTime = when.phrase;
      i += when.words;
      continue;
    }
    // "In my free time I play bass", "At work, I'm the only vegan": a phrase of place or time before "I".
    const after = LEAD_PREPOSITIONS.has(w) ? leadPhraseEnd(tokens, i) : undefined;
    if (after !== undefined) {
      i = after;
      continue;
    }
    // "Me, I am vegetarian": the subject said twice.
    if (w === 'me' && SUBJECTS.has(tokens[i + 1]?.w ?? '') && tokens[i + 1]!.w !== 'my' && tokens[i + 1]!.w !== 'me') {
      i++;
      continue;
    }
    if (FILLERS.has(w) && !SUBJECTS.has(w)) {
      i++;
      continue;
    }
    // "weirdly I went off olives", "sadly my dog …": a sentence adverb before the subject.
    if (/^[a-z]{3,}ly$/u.test(w) && !NOT_ADVERBS.has(w) && SUBJECTS.has(tokens[i + 1]?.w ?? '')) {
      i++;
      continue;
    }
    break;
  }
  const first = tokens[i];
  if (first === undefined || NON_STATEMENT_START.has(first.w)) return undefined;
  return { at: i, hedge, greeted, leadTime };
}
