/** How a verb the user said of themselves is written for "the user": third person, past, base. */
import { IRREGULAR_PAST, IRREGULAR_THIRD } from './lexicon';

/** "like" → "likes", "watch" → "watches", "study" → "studies", "have" → "has". */
export function thirdPerson(verb: string): string {
  const irregular = IRREGULAR_THIRD[verb];
  if (irregular !== undefined) return irregular;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  return `${verb}s`;
}

/** Whether `word` reads as a past-tense verb ("visited", "went"). */
export function isPast(word: string): boolean {
  return IRREGULAR_PAST.has(word) || (/^[a-z]{3,}ed$/.test(word) && !NOT_PAST.has(word));
}

const NOT_PAST = new Set(['need', 'bed', 'red', 'shed', 'speed', 'feed', 'seed', 'weed', 'bleed', 'breed', 'proceed', 'succeed', 'exceed', 'sacred', 'hundred', 'tired', 'bored', 'excited', 'interested', 'scared', 'married', 'engaged', 'divorced', 'worried', 'used', 'supposed', 'allowed', 'based', 'obsessed', 'retired', 'stressed', 'amazed', 'pleased', 'confused', 'annoyed', 'embarrassed', 'exhausted', 'satisfied', 'disappointed', 'relieved', 'surprised', 'impressed', 'shocked', 'blessed', 'involved', 'related', 'qualified', 'vaccinated', 'injured', 'inspired', 'motivated', 'attached', 'committed', 'dedicated', 'determined', 'talented', 'experienced', 'educated', 'limited', 'detailed', 'biased', 'concerned', 'overwhelmed', 'thrilled', 'stuck']);

/** Whether `word` reads as an "-ing" form ("hiking", "painting"); "thing" and "king" are not. */
export function isGerund(word: string): boolean {
  return /^[a-z]{2,}ing$/.test(word) && !NOT_GERUND.has(word);
}

const NOT_GERUND = new Set(['thing', 'things', 'king', 'ring', 'spring', 'string', 'sing', 'wing', 'bring', 'sting', 'swing', 'nothing', 'something', 'anything', 'everything', 'morning', 'evening', 'ceiling', 'building', 'wedding', 'pudding', 'clothing', 'during', 'darling', 'ping', 'bling', 'sibling', 'offspring', 'duckling', 'earring', 'viking', 'beijing', 'wyoming', 'sterling', 'stirling']);
