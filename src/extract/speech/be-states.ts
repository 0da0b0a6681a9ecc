/**
 * What the complement of "I am" says the user is, one reader per kind: an age, a diet, an
 * allergy, a health state, where from or where now, a relationship status, a faith, a
 * language, a work status. Each returns undefined when the complement is not its kind.
 */
import { DIET_SPELLING, DIETS, HEALTH_STATES, LANGUAGES, RELATIONSHIP_STATES, RELIGIONS } from './lexicon';
import { capitalised, draft, objectAt, placeAt, sentence, type Draft, type Reading } from './phrase';
import type { Verbal } from './verbal';
import { isGerund } from './verbs';

const USER = 'The user';
const NUMBER = /^(?:\d{1,3})$/;
const NUMBER_WORDS = new Set(['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']);

/** The complement being read: its first word `w` at `i`, the word after it, the verb group, and the clause's first token. */
export interface Complement {
  reading: Reading;
  i: number;
  w: string;
  next: string | undefined;
  verbal: Verbal;
  first: number;
}

/** "is", "was", "has been", "is not", "is no longer" for the user. */
export function beWord(verbal: Verbal): string {
  const base = verbal.tense === 'past' ? 'was' : verbal.tense === 'perfect' ? 'has been' : 'is';
  if (!verbal.negated) return base;
  if (verbal.noLonger) return verbal.tense === 'past' ? 'was no longer' : 'is no longer';
  return verbal.tense === 'past' ? 'was not' : verbal.tense === 'perfect' ? 'has not been' : 'is not';
}

/** Languages capitalised inside a phrase ("french and german" → "French and German"). */
export function capitalisedLanguages(text: string): string {
  return text.replace(/\p{L}+/gu, (word) => (LANGUAGES.has(word.toLowerCase()) ? capitalised(word.toLowerCase()) : word));
}

/** "I'm 34", "I am 34 years old", "im 34 yo", "I'm thirty"; "I'm 5 months pregnant" is health. */
function age({ reading, i, w, next, verbal, first }: Complement): Draft[] | undefined {
  if (!(NUMBER.test(w) || NUMBER_WORDS.has(w)) || verbal.negated || verbal.tense !== 'present') return undefined;
  const { tokens } = reading;
  if (NUMBER.test(w) && (Number(w) < 5 || Number(w) > 110)) return [];
  if ((next === 'months' || next === 'weeks') && tokens[i + 2]?.w === 'pregnant') return [draft('health', `The user is ${w} ${next} pregnant.`, 0.85, first, i + 2)];
  const unit = next === 'years' || next === 'yrs' || next === 'yo' || next === 'y/o' ? (tokens[i + 2]?.w === 'old' ? 2 : 1) : 0;
  if (unit === 0 && next !== undefined && next !== ',' && next !== 'and' && next !== 'lol' && next !== 'now' && next !== 'rn' && next !== 'atm') return [];
  return [draft('age', sentence(USER, `is ${w} years old`, undefined), 0.85, first, i + unit)];
}

/** "I'm vegan", "I'm a vegetarian", "I'm not vegan any more", "I was vegan". */
function diet({ i, w, next, verbal, first }: Complement): Draft[] | undefined {
  const word = w === 'a' || w === 'an' ? next : w;
  if (word === undefined || !(DIETS.has(word) || DIET_SPELLING[word] !== undefined)) return undefined;
  const kind = DIET_SPELLING[word] ?? word;
  const end = word === w ? i : i + 1;
  if (verbal.tense === 'past') return [draft('diet', sentence(USER, `used to follow a ${kind} diet`, undefined), 0.8, first, end)];
  if (verbal.negated) return [draft('diet', sentence(USER, `${verbal.noLonger ? 'no longer follows' : 'does not follow'} a ${kind} diet`, undefined), 0.85, first, end)];
  return [draft('diet', sentence(USER, `follows a ${kind} diet`, undefined), 0.9, first, end)];
}

/** "I'm allergic to peanuts", "im lactose intolerant", "I'm gluten-free". */
function allergy({ reading, i, w, next, verbal, first }: Complement): Draft[] | undefined {
  const be = beWord(verbal);
  if (w === 'allergic' || w === 'alergic' || (w === 'intolerant' && next === 'to')) {
    if (next !== 'to' && next !== 'for') return [draft('allergy', sentence(USER, `${be} allergic`, undefined), 0.8, first, i)];
    const object = objectAt(reading, i + 2, 6);
    return object.text ? [draft('allergy', sentence(USER, `${be} ${w === 'intolerant' ? 'intolerant' : 'allergic'} ${next} ${object.text}`, undefined), 0.9, first, object.last)] : [];
  }
  const pair = next === 'intolerant' || next === 'free';
  if (!pair && w !== 'gluten-free' && w !== 'dairy-free' && w !== 'celiac' && w !== 'coeliac') return undefined;
  const end = pair ? i + 1 : i;
  return [
    draft(
      'allergy',
      sentence(
        USER,
        `${be} ${reading.tokens
          .slice(i, end + 1)
          .map((t) => t.w)
          .join(' ')}`,
        undefined,
      ),
      0.85,
      first,
      end,
    ),
  ];
}

/** A diabetes type as said ("1", "ii", "two"), as a figure. */
const TYPE_NUMBER: Readonly<Record<string, string>> = { '1': '1', '2': '2', i: '1', ii: '2', one: '1', two: '2' };

/** "I'm pregnant", "I'm diabetic", "I'm type 1 diabetic", "I'm recovering from surgery". */
function health(complement: Complement): Draft[] | undefined {
  const { reading, verbal, first } = complement;
  // "(as) a diabetic", "an epileptic": the state with an article.
  let i = complement.w === 'a' || complement.w === 'an' ? complement.i + 1 : complement.i;
  // "type 1 diabetic", "a type 2 diabetic": the state with its type.
  const type = reading.tokens[i]?.w === 'type' ? TYPE_NUMBER[reading.tokens[i + 1]?.w ?? ''] : undefined;
  if (type !== undefined) i += 2;
  const w = reading.tokens[i]?.w ?? '';
  if (!HEALTH_STATES.has(w)) return undefined;
  const object = w === 'recovering' ? objectAt(reading, i + 1, 8) : undefined;
  const state = type === undefined ? w : `type ${type} ${w}`;
  return [draft('health', sentence(USER, `${beWord(verbal)} ${state}${object?.text ? ` ${object.text}` : ''}`, object?.time), 0.8, first, object?.last ?? i)];
}

/** "I'm from Brazil", "I'm based in Berlin", "I'm living alone with my cat". */
function place({ reading, i, w, next, verbal, first }: Complement): Draft[] | undefined {
  if (verbal.tense === 'past') return undefined;
  if (w === 'from' || w === 'frm' || (w === 'coming' && next === 'from')) {
    const where = placeAt(reading, w === 'coming' ? i + 2 : i + 1);
    if (/^(?:here|there|around here|nowhere)$/i.test(where.text)) return [];
    return where.text ? [draft('origin', sentence(USER, `${verbal.negated ? 'is not' : 'is'} from ${where.text}`, undefined), 0.85, first, where.last)] : [];
  }
  if (!((w === 'based' || w === 'living' || w === 'located') && (next === 'in' || (w === 'living' && (next === 'alone' || next === 'with' || next === 'near'))))) return undefined;
  const where = next === 'in' ? placeAt(reading, i + 2) : objectAt(reading, i + 2, 8);
  const phrase = next === 'alone' ? `alone${where.text ? ` ${where.text}` : ''}` : `${next} ${where.text}`;
  return where.text || next === 'alone' ? [draft(next === 'with' ? 'family' : 'home', sentence(USER, `${verbal.negated ? 'does not live' : 'lives'} ${phrase}`, undefined), 0.85, first, Math.max(where.last, i + 1))] : [];
}

/** "I'm not eating meat": what the user does not eat or drink. */
function abstaining({ reading, i, w, next, verbal, first }: Complement): Draft[] | undefined {
  if ((w !== 'eating' && w !== 'drinking') || next === undefined || !verbal.negated) return undefined;
  const object = objectAt(reading, i + 1, 6);
  return object.text ? [draft('preference', sentence(USER, `does not ${w === 'eating' ? 'eat' : 'drink'} ${object.text}`, undefined), 0.75, first, object.last)] : [];
}

/** "I'm married", "I'm single", "I'm engaged to Tom", "im in a relationship with Sam", "I'm a widower". */
function relationship({ reading, i, w, next, verbal, first }: Complement): Draft[] | undefined {
  const { tokens } = reading;
  const be = beWord(verbal);
  if (w === 'a' && (next === 'widow' || next === 'widower')) return [draft('relationship', sentence(USER, `${be} a ${next}`, undefined), 0.85, first, i + 1)];
  const inOne = w === 'in' && next === 'a' && tokens[i + 2]?.w === 'relationship';
  if (!RELATIONSHIP_STATES.has(w) && !inOne) return undefined;
  const partner = (w === 'married' || w === 'engaged' || w === 'dating') && (next === 'to' || w === 'dating') ? objectAt(reading, w === 'dating' ? i + 1 : i + 2, 4) : undefined;
  const companion = inOne && tokens[i + 3]?.w === 'with' ? objectAt(reading, i + 4, 4) : undefined;
  const state = inOne ? 'in a relationship' : w === 'maried' ? 'married' : w;
  const tail = partner?.text ? `${w === 'dating' ? '' : ' to'} ${partner.text}` : companion?.text ? ` with ${companion.text}` : '';
  return [draft('relationship', sentence(USER, `${be} ${state}${tail}`, undefined), 0.85, first, partner?.last ?? companion?.last ?? (inOne ? i + 2 : i))];
}

/** "I'm Christian", "I am a practising Catholic", "I'm not religious". */
function faith({ reading, i, w, verbal, first }: Complement): Draft[] | undefined {
  const { tokens } = reading;
  const at = RELIGIONS.has(w) ? i : w === 'a' || w === 'an' ? [i + 1, i + 2].find((k) => RELIGIONS.has(tokens[k]?.w ?? '')) : undefined;
  if (at === undefined) return undefined;
  const word = tokens[at]!.w;
  const proper = !/^(?:religious|spiritual|atheist|agnostic)$/.test(word);
  return [draft('belief', sentence(USER, `${beWord(verbal)} ${proper ? capitalised(word) : word}`, undefined), 0.8, first, at)];
}

/** "I'm fluent in French", "I'm a native Spanish speaker", "I'm bilingual". */
function language({ reading, i, w, next, verbal, first }: Complement): Draft[] | undefined {
  const { tokens } = reading;
  const be = beWord(verbal);
  if (w === 'fluent' && next === 'in') {
    const spoken = objectAt(reading, i + 2, 5);
    return spoken.text ? [draft('language', sentence(USER, `${be} fluent in ${capitalisedLanguages(spoken.text)}`, undefined), 0.85, first, spoken.last)] : [];
  }
  if (w === 'bilingual' || w === 'trilingual') return [draft('language', sentence(USER, `${be} ${w}`, undefined), 0.8, first, i)];
  if ((w === 'a' || w === 'an') && next === 'native' && LANGUAGES.has(tokens[i + 2]?.w ?? '') && tokens[i + 3]?.w === 'speaker') {
    return [draft('language', sentence(USER, `${be} a native ${capitalised(tokens[i + 2]!.w)} speaker`, undefined), 0.85, first, i + 3)];
  }
  return undefined;
}

/** "I'm retired", "I'm self-employed", "I'm between jobs". */
function workStatus({ i, w, next, verbal, first }: Complement): Draft[] | undefined {
  const between = w === 'between' && next === 'jobs';
  if (!between && w !== 'retired' && w !== 'unemployed' && w !== 'self-employed') return undefined;
  return [draft('occupation', sentence(USER, `${beWord(verbal)} ${between ? 'between jobs' : w}`, undefined), 0.8, first, between ? i + 1 : i)];
}

/** What "I'm over …" says nothing of: "over the moon", "over 18", "over here", "over it". */
const NOT_OVER = new Set(['the', 'here', 'there', 'it', 'that', 'this', 'them', 'you', 'a', 'an']);

/**
 * "I'm sick of running", "im done with tinder", "I'm so over football", "I'm fed up with my
 * commute": the user no longer likes it (src/consolidate/slot.ts reads these as the negative
 * side of what the user likes). Read before the health states, where "sick" alone is one.
 */
function fedUp({ reading, i, w, next, verbal, first }: Complement): Draft[] | undefined {
  const { tokens } = reading;
  let words: string | undefined;
  let at = i + 2;
  if ((w === 'sick' || w === 'tired') && next === 'of') words = `${w} of`;
  else if (w === 'done' && next === 'with') words = 'done with';
  else if (w === 'fed' && next === 'up' && tokens[i + 2]?.w === 'with') [words, at] = ['fed up with', i + 3];
  else if (w === 'over' && next !== undefined && !NOT_OVER.has(next) && !/^\d/u.test(next)) [words, at] = ['over', i + 1];
  if (words === undefined) return undefined;
  if (verbal.negated || verbal.tense !== 'present') return [];
  const object = objectAt(reading, at, 6);
  if (!object.text || /^(?:it|this|that|them|you|u|everything|everyone|people|work|life)$/iu.test(object.text)) return [];
  return [draft('preference', sentence(USER, `is ${words} ${object.text}`, undefined), 0.75, first, object.last)];
}

/** "I'm not doing yoga anymore", "I'm no longer playing football": the user has stopped it. */
function stoppedDoing({ reading, i, w, verbal, first }: Complement): Draft[] | undefined {
  if (!verbal.noLonger || verbal.tense === 'past' || !isGerund(w)) return undefined;
  const object = objectAt(reading, i + 1, 6);
  if (!object.text || /^(?:it|this|that|them|anything|anyone|you)$/iu.test(object.text)) return [];
  return [draft('hobby', sentence(USER, `has stopped ${w} ${object.text}`, undefined), 0.75, first, object.last)];
}

/** The readers in the order they are tried: the first that recognises the complement answers. */
export const STATE_READERS: readonly ((complement: Complement) => Draft[] | undefined)[] = [fedUp, stoppedDoing, age, diet, allergy, health, place, abstaining, relationship, faith, language, workStatus];
