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

const PAST_OF: Readonly<Record<string, string>> = {
  went: 'go', got: 'get', saw: 'see', met: 'meet', took: 'take', made: 'make', ran: 'run', bought: 'buy', found: 'find', won: 'win', lost: 'lose', began: 'begin',
  wrote: 'write', ate: 'eat', gave: 'give', left: 'leave', flew: 'fly', drove: 'drive', rode: 'ride', had: 'have', did: 'do', came: 'come', became: 'become',
  spent: 'spend', taught: 'teach', sold: 'sell', built: 'build', grew: 'grow', held: 'hold', kept: 'keep', sent: 'send', brought: 'bring', caught: 'catch',
  drank: 'drink', swam: 'swim', sang: 'sing', threw: 'throw', broke: 'break', quit: 'quit', paid: 'pay', fell: 'fall', slept: 'sleep', heard: 'hear', read: 'read',
};
/** Verbs whose base form a regular past is checked against ("graduated" → "graduate", "stopped" → "stop"). */
const BASES = new Set(['graduate', 'move', 'live', 'love', 'like', 'adopt', 'start', 'visit', 'travel', 'join', 'finish', 'stop', 'plan', 'study', 'marry', 'retire', 'celebrate', 'decide', 'arrive', 'return', 'change', 'create', 'share', 'hate', 'dance', 'bake', 'race', 'hike', 'bike', 'skate', 'use', 'close', 'manage', 'practice', 'practise', 'believe', 'continue', 'receive', 'complete', 'prepare', 'explore', 'rescue', 'volunteer', 'shop', 'jog', 'drop', 'plan', 'chat', 'hug', 'nap', 'grab', 'hop', 'trip', 'tap', 'ship', 'swap']);

/** The base form of a past-tense verb: "went" → "go", "studied" → "study", "graduated" → "graduate", "stopped" → "stop". */
export function lemmaOf(word: string): string {
  const irregular = PAST_OF[word];
  if (irregular !== undefined) return irregular;
  if (!word.endsWith('ed')) return word;
  if (word.endsWith('ied')) return `${word.slice(0, -3)}y`;
  for (const base of [word.slice(0, -1), word.slice(0, -2), word.slice(0, -3)]) if (BASES.has(base)) return base;
  return word.slice(0, -2);
}
