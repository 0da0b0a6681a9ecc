/**
 * The verb group after "I": auxiliaries, negation, tense, the adverbs worth keeping, and where
 * the main verb (or the complement of "am") starts. "I'm not vegan any more" → be, present,
 * negated, no longer; "I've been painting" → be, perfect; "I didn't go" → past, negated.
 */
import type { Token } from './tokens';

export type Tense = 'present' | 'past' | 'perfect' | 'future';

export interface Verbal {
  tense: Tense;
  negated: boolean;
  /** "no longer", "not … any more": the fact stopped holding. */
  noLonger: boolean;
  usedTo: boolean;
  /** The verb is "be": `at` is the complement. */
  be: boolean;
  /** "can" / "can't" before the verb. */
  can: boolean;
  /** Frequency adverbs the fact keeps ("usually", "never"), in order. */
  adverbs: string[];
  /** Index of the main verb (or of be's complement). */
  at: number;
  /** "might be", "may be": the fact is a guess. */
  hedged?: boolean;
}

const DROPPED = new Set([
  'really',
  'also',
  'just',
  'actually',
  'totally',
  'absolutely',
  'definitely',
  'literally',
  'seriously',
  'truly',
  'honestly',
  'personally',
  'kinda',
  'sorta',
  'so',
  'finally',
  'recently',
  'currently',
  'now',
  'even',
  'already',
  'officially',
  'mostly',
  'generally',
  'still',
  'basically',
  'def',
  'legit',
  'realy',
  'rly',
  'relly',
  'reeally',
  'lowkey',
  'highkey',
  'genuinely',
  'kind',
  'sort',
  'of',
  'simply',
  'only',
  'first',
]);
const KEPT = new Set(['usually', 'always', 'often', 'sometimes', 'never', 'rarely', 'occasionally', 'normally', 'regularly', 'frequently', 'seldom']);
/** Modal and hypothetical words: what follows is not a fact about the user. */
const MODAL = new Set(['would', 'could', 'might', 'should', 'may', 'must', 'shall', 'wish', "wouldn't", "couldn't", "shouldn't", 'wud', 'cud', 'shud']);
const NEGATIONS = new Set(["don't", 'dont', "doesn't", "didn't", 'didnt', "haven't", 'havent', "hasn't", "hadn't", "ain't", "aren't", "isn't", "wasn't", 'wasnt', "won't", 'wont', 'not', 'never', "can't", 'cant', 'cannot']);

/**
 * The verb group starting at `tokens[from]`, right after the subject; `subject` is how the user
 * was named ("i", "i'm", "i've", "i'll"). Undefined when it is modal or hypothetical.
 */
export function verbalAt(tokens: readonly Token[], from: number, subject: string): Verbal | undefined {
  const verbal: Verbal = { tense: 'present', negated: false, noLonger: false, usedTo: false, be: false, can: false, adverbs: [], at: from };
  if (subject === "i'm" || subject === 'im' || subject === 'iam' || subject === "i'am") verbal.be = true;
  if (subject === "i've" || subject === 'ive') verbal.tense = 'perfect';
  if (subject === "i'll") verbal.tense = 'future';
  let i = from;
  let haveAux = verbal.tense === 'perfect';
  for (let guard = 0; guard < 8 && i < tokens.length; guard++) {
    const w = tokens[i]!.w;
    // "I might be allergic to cats": a hedged state, read as one (the clause's hedge lowers it).
    if ((w === 'might' || w === 'may') && tokens[i + 1]?.w === 'be' && verbal.tense === 'present' && !verbal.be) {
      verbal.be = true;
      verbal.hedged = true;
      i += 2;
      continue;
    }
    if (MODAL.has(w)) return undefined;
    if (!verbal.be && (w === 'am' || w === 'm')) {
      verbal.be = true;
      i++;
      continue;
    }
    if (!verbal.be && (w === 'was' || w === 'wasnt' || w === "wasn't")) {
      verbal.be = true;
      verbal.tense = 'past';
      verbal.negated ||= w !== 'was';
      i++;
      continue;
    }
    if (w === 'been' && haveAux) {
      verbal.be = true;
      i++;
      continue;
    }
    if ((w === 'have' || w === 'has' || w === "haven't" || w === 'havent' || w === "hasn't") && isParticipleAhead(tokens, i + 1)) {
      haveAux = true;
      verbal.tense = 'perfect';
      verbal.negated ||= w.includes('n');
      i++;
      continue;
    }
    // "I was going to go to the gym", "I was gonna buy a car": an intention the user had, no plan now.
    if (verbal.be && verbal.tense === 'past' && (w === 'gonna' || (w === 'going' && tokens[i + 1]?.w === 'to'))) return undefined;
    if (w === 'gonna' && verbal.be) {
      verbal.be = false;
      verbal.tense = 'future';
      i++;
      continue;
    }
    if (w === 'will' || w === 'gonna' || w === "won't" || w === 'wont') {
      verbal.tense = 'future';
      verbal.negated ||= w !== 'will' && w !== 'gonna';
      i++;
      continue;
    }
    if (w === 'used' && tokens[i + 1]?.w === 'to') {
      verbal.usedTo = true;
      verbal.tense = 'past';
      i += 2;
      if (tokens[i]?.w === 'be') {
        verbal.be = true;
        i++;
        break;
      }
      continue;
    }
    if (w === 'no' && tokens[i + 1]?.w === 'longer') {
      verbal.negated = true;
      verbal.noLonger = true;
      i += 2;
      continue;
    }
    if (w === 'can' || w === "can't" || w === 'cant' || w === 'cannot') {
      verbal.can = true;
      verbal.negated ||= w !== 'can';
      i++;
      continue;
    }
    // "I do love jazz" (emphasis) or "I do not"; "I do yoga" has "do" for its verb.
    if ((w === 'do' || w === 'does') && (tokens[i + 1]?.w === 'not' || AFTER_DO.has(tokens[i + 1]?.w ?? ''))) {
      i++;
      continue;
    }
    if (w === 'did') {
      verbal.tense = 'past';
      i++;
      continue;
    }
    if (w === "didn't" || w === 'didnt') {
      verbal.tense = 'past';
      verbal.negated = true;
      i++;
      continue;
    }
    if (w === 'never') {
      verbal.adverbs.push('never');
      i++;
      continue;
    }
    if (NEGATIONS.has(w)) {
      verbal.negated = true;
      i++;
      continue;
    }
    if (KEPT.has(w)) {
      verbal.adverbs.push(w);
      i++;
      continue;
    }
    if (DROPPED.has(w)) {
      i++;
      continue;
    }
    break;
  }
  verbal.at = i;
  // "not … any more" / "anymore" later in the clause
  if (verbal.negated && tokens.some((token, k) => k > i && (token.w === 'anymore' || (token.w === 'any' && tokens[k + 1]?.w === 'more')))) verbal.noLonger = true;
  return verbal;
}

/** Verbs "do" can stand before as emphasis ("I do love jazz"). */
const AFTER_DO = new Set(['love', 'like', 'enjoy', 'have', 'hate', 'live', 'work', 'speak', 'eat', 'drink', 'want', 'prefer', 'believe', 'need', 'think', 'know', 'miss']);

const PARTICIPLES = new Set([
  'been',
  'gone',
  'seen',
  'done',
  'eaten',
  'taken',
  'written',
  'driven',
  'given',
  'flown',
  'known',
  'grown',
  'begun',
  'swum',
  'run',
  'won',
  'got',
  'gotten',
  'made',
  'met',
  'had',
  'lost',
  'found',
  'bought',
  'read',
  'started',
  'tried',
  'lived',
  'worked',
  'visited',
  'moved',
  'always',
  'never',
  'just',
  'recently',
  'finally',
  'also',
  'already',
  'not',
  'really',
  'ridden',
  'become',
  'come',
  'left',
  'kept',
  'taught',
  'spent',
  'built',
  'sold',
  'broken',
  'chosen',
  'fallen',
  'felt',
  'heard',
  'held',
  'paid',
  'quit',
  'sung',
  'slept',
  'spoken',
  'stolen',
  'thrown',
  'worn',
  'drawn',
  'drunk',
  'flown',
]);

function isParticipleAhead(tokens: readonly Token[], i: number): boolean {
  const w = tokens[i]?.w ?? '';
  return PARTICIPLES.has(w) || /^[a-z]{3,}ed$/.test(w);
}
