/**
 * "I <verb> …": the verb says the topic (live → home, work as → occupation, speak → language,
 * love hiking → hobby, adopted a dog → pets, went to Rome → trip), the rest is the object
 * rewritten for "the user" with its time resolved.
 */
import type { Topic } from '../topics';
import { CONDITIONS, FREQUENCY, HABIT_VERBS, LANGUAGES, MENTAL, PETS, RELATIVES } from './lexicon';
import { objectAt, placeAt, sentence, type Draft, type Phrase, type Reading } from './phrase';
import type { Verbal } from './verbal';
import { isGerund, isPast, thirdPerson } from './verbs';

const USER = 'The user';
/** Typed shortcuts and typos of the verbs the frames read. */
const SPELLING: Readonly<Record<string, string>> = { luv: 'love', lov: 'love', lyk: 'like', lik: 'like', liek: 'like', wrk: 'work', wok: 'work', wrok: 'work', liv: 'live', lve: 'live', stdy: 'study', enjoi: 'enjoy', prefere: 'prefer', hav: 'have', hv: 'have', plz: 'please', speek: 'speak', spek: 'speak', playing: 'play' };
const LIKES = new Set(['like', 'love', 'enjoy', 'adore', 'hate', 'dislike', 'prefer', 'detest', 'despise', 'loathe', 'liked', 'loved', 'enjoyed', 'hated']);
const PAST_OF: Readonly<Record<string, string>> = { went: 'go', got: 'get', saw: 'see', met: 'meet', took: 'take', made: 'make', ran: 'run', bought: 'buy', found: 'find', won: 'win', lost: 'lose', began: 'begin', wrote: 'write', ate: 'eat', gave: 'give', left: 'leave', flew: 'fly', drove: 'drive', rode: 'ride', had: 'have', did: 'do', came: 'come', became: 'become', spent: 'spend', taught: 'teach', sold: 'sell', built: 'build' };
const TRAVEL = new Set(['visit', 'visited', 'travel', 'traveled', 'travelled', 'fly', 'flew', 'flown', 'went', 'go', 'gone', 'been', 'drove', 'road-tripped', 'backpacked', 'toured', 'explored', 'hiked']);

function draft(topic: Topic, content: string, confidence: number, first: number, last: number): Draft {
  return { topic, content, confidence, first, last };
}

/** The verb as the user's fact says it: "likes", "does not like", "liked", "has liked", "plans to like", "used to like". */
function predicate(verbal: Verbal, verb: string, typed: string): string {
  const adverbs = verbal.adverbs.filter((adverb) => adverb !== 'never' || !verbal.negated);
  const lead = adverbs.length ? `${adverbs.join(' ')} ` : '';
  const never = adverbs.includes('never');
  if (verbal.usedTo) return `used to ${verb}`;
  if (verbal.can) return `${verbal.negated ? 'cannot' : 'can'} ${verb}`;
  switch (verbal.tense) {
    case 'future':
      return verbal.negated ? `does not plan to ${verb}` : `plans to ${verb}`;
    case 'perfect':
      return verbal.negated ? `has not ${typed}` : `has ${lead}${typed}`;
    case 'past':
      return verbal.negated ? `did not ${verb}` : `${lead}${typed}`;
    default:
      if (never) return `${lead}${thirdPerson(verb)}`;
      return verbal.negated ? `does not ${verb}` : `${lead}${thirdPerson(verb)}`;
  }
}

function isPlace(reading: Reading, at: number): boolean {
  const raw = reading.tokens[at]?.raw ?? '';
  return /^\p{Lu}/u.test(raw) || raw === 'the' && /^\p{Lu}/u.test(reading.tokens[at + 1]?.raw ?? '');
}

/** A short object that only points back at something ("about it for months", "that"): no fact on its own. */
function isVague(text: string): boolean {
  return /(?:^|\s)(?:it|that|this|them|those|these|one|stuff|things?)(?:\s|$)/i.test(text) && text.split(' ').length <= 4;
}

/** The topic of what the user has: a pet, a relative, a condition, an allergy, or a thing. */
function haveTopic(object: Phrase, reading: Reading, from: number): Topic {
  for (let k = from; k <= Math.min(object.last, from + 4); k++) {
    const w = reading.tokens[k]!.w;
    if (PETS.has(w)) return 'pets';
    if (RELATIVES.has(w)) return 'family';
    if (w === 'allergy' || w === 'allergies' || w === 'intolerance') return 'allergy';
    if (CONDITIONS.has(w)) return 'health';
  }
  return 'possession';
}

/** Facts from "I <verb> …" with the verb at `verbal.at`. */
export function verbFacts(reading: Reading, verbal: Verbal, first: number): Draft[] {
  const { tokens } = reading;
  const typed = tokens[verbal.at]?.w;
  if (typed === undefined) return [];
  const verb = SPELLING[typed] ?? typed;
  const base = PAST_OF[verb] ?? verb.replace(/(?:ied)$/, 'y').replace(/([^aeiou])ed$/, '$1').replace(/ed$/, '');
  const past = verbal.tense === 'past' || (isPast(verb) && verbal.tense === 'present' && !verbal.negated && !HABIT_VERBS.has(verb));
  const tensed: Verbal = past && verbal.tense === 'present' ? { ...verbal, tense: 'past' } : verbal;
  const lemma = past && verbal.tense === 'present' ? base : verb;
  if (MENTAL.has(lemma) && !(lemma === 'believe' && tokens[verbal.at + 1]?.w === 'in')) return plans(reading, tensed, lemma, first) ?? [];
  const from = verbal.at + 1;
  const next = tokens[from]?.w;
  const say = (topic: Topic, words: string, object: Phrase, confidence: number) =>
    !isVague(object.text) && (object.text || words) ? [draft(topic, sentence(USER, `${words}${object.text ? ` ${object.text}` : ''}`, object.time), confidence, first, Math.max(object.last, verbal.at))] : [];
  const verbWord = predicate(tensed, lemma, verb);
  const recurring = FREQUENCY.test(tokens.slice(first, Math.min(tokens.length, verbal.at + 16)).map((t) => t.w).join(' ')) || tensed.adverbs.length > 0;

  if (lemma === 'live' || lemma === 'reside' || lemma === 'stay') {
    if (next !== 'in' && next !== 'near' && next !== 'outside' && next !== 'with') return [];
    const place = placeAt(reading, from + 1);
    const topic: Topic = tensed.tense === 'present' && next !== 'with' ? 'home' : next === 'with' ? 'family' : 'event';
    return say(topic, `${verbWord} ${next}`, place, 0.85);
  }
  if (lemma === 'move' && next === 'to') return say(tensed.tense === 'future' ? 'plan' : 'home', `${verbWord} to`, placeAt(reading, from + 1), 0.8);
  if (lemma === 'grow' && next === 'up') return say('origin', `${verbWord} up`, objectAt(reading, from + 1, 6), 0.8);
  if (lemma === 'come' && next === 'from') return say('origin', 'comes from', placeAt(reading, from + 1), 0.8);
  if (lemma === 'work' && (next === 'as' || next === 'at' || next === 'for' || next === 'in' || next === 'on' || next === 'from')) {
    const object = objectAt(reading, from + 1, 8);
    const current = tensed.tense === 'present' && !tensed.negated && !recurring;
    const topic: Topic = next === 'from' ? 'routine' : !current ? 'work' : next === 'as' ? 'occupation' : next === 'at' || next === 'for' ? 'employer' : 'work';
    return say(topic, `${verbWord} ${next}`, object, 0.85);
  }
  if (lemma === 'study' || lemma === 'major' || lemma === 'graduate') return say('education', verbWord, objectAt(reading, from), 0.8);
  if (lemma === 'teach') return say('work', verbWord, objectAt(reading, from), 0.75);
  if (lemma === 'speak' || (lemma === 'learn' && LANGUAGES.has(next ?? ''))) return say('language', verbWord, objectAt(reading, from, 8), 0.85);
  if (lemma === 'believe' || lemma === 'value' || (lemma === 'care' && next === 'about')) return say('belief', verbWord, objectAt(reading, from), 0.75);
  if (LIKES.has(lemma) || LIKES.has(verb)) {
    if (next === 'it' || next === 'that' || next === 'this' || next === 'you' || next === 'when' || next === 'how' || next === 'the' && tokens[from + 1]?.w === 'idea') return [];
    const object = objectAt(reading, from, 10);
    const hobby = isGerund(next ?? '') || (next === 'to' && HABIT_VERBS.has(tokens[from + 1]?.w ?? ''));
    return say(hobby ? 'hobby' : 'preference', verbWord, object, 0.8);
  }
  if (lemma === 'have' || lemma === 'own' || (lemma === 'get' && tensed.tense === 'perfect' && verb === 'got')) return haveFacts(reading, tensed, lemma, first, from);
  if (lemma === 'adopt' || lemma === 'rescue') {
    const object = objectAt(reading, from);
    return say(haveTopic(object, reading, from) === 'pets' ? 'pets' : 'event', verbWord, object, 0.8);
  }
  if (lemma === 'marry' || (lemma === 'get' && (next === 'married' || next === 'engaged' || next === 'divorced'))) return say('relationship', verbWord, objectAt(reading, from), 0.8);
  if (lemma === 'want' || lemma === 'plan' || lemma === 'hope' || lemma === 'intend' || lemma === 'aim' || lemma === 'dream') return plans(reading, tensed, lemma, first) ?? [];
  if (TRAVEL.has(verb) || TRAVEL.has(lemma)) {
    const to = next === 'to' || next === 'back' ? from + 1 : from;
    const object = objectAt(reading, from);
    if (!object.text) return [];
    if (tensed.tense === 'present' && !tensed.negated) return say(recurring ? 'routine' : 'trip', verbWord, object, 0.75);
    return say(isPlace(reading, to) || lemma === 'visit' ? 'trip' : 'event', verbWord, object, 0.75);
  }
  if (tensed.tense === 'future') return say('plan', verbWord, objectAt(reading, from), 0.7);
  if (tensed.tense === 'past' || tensed.tense === 'perfect') {
    if (!isPast(verb) && tensed.tense === 'perfect') return [];
    const object = objectAt(reading, from);
    const topic: Topic = lemma === 'start' || lemma === 'join' || lemma === 'begin' ? (isGerund(next ?? '') ? 'hobby' : 'event') : 'event';
    return say(topic, verbWord, object, 0.7);
  }
  if (!HABIT_VERBS.has(lemma)) return [];
  const object = objectAt(reading, from);
  if (lemma === 'eat' || lemma === 'drink') return say(recurring ? 'routine' : 'preference', verbWord, object, 0.75);
  return say(recurring ? 'routine' : 'hobby', verbWord, object, 0.75);
}

/** "I have two dogs", "I don't have a car", "I've got a sister named Ana", "I own a bakery". */
function haveFacts(reading: Reading, verbal: Verbal, lemma: string, first: number, from: number): Draft[] {
  const next = reading.tokens[from]?.w;
  if (next === 'to' || next === 'a' && reading.tokens[from + 1]?.w === 'question') return [];
  const object = objectAt(reading, from, 10);
  if (!object.text) return [];
  const topic = haveTopic(object, reading, from);
  const verb = lemma === 'own' ? 'own' : 'have';
  const tense = verbal.tense === 'perfect' ? { ...verbal, tense: 'present' as const } : verbal;
  const words = predicate(tense, verb, verbal.tense === 'past' ? (verb === 'own' ? 'owned' : 'had') : verb === 'own' ? 'owns' : 'has');
  const finalTopic: Topic = verbal.tense === 'past' && topic === 'possession' ? 'event' : object.future ? 'plan' : topic;
  return [draft(finalTopic, sentence(USER, `${words} ${object.text}`, object.time), topic === 'possession' ? 0.7 : 0.85, first, object.last)];
}

/** "I want to learn Japanese", "I plan to run a marathon", "I hope to visit Peru": a goal. */
function plans(reading: Reading, verbal: Verbal, lemma: string, first: number): Draft[] | undefined {
  const { tokens } = reading;
  const to = tokens[verbal.at + 1]?.w === 'to' ? verbal.at + 2 : tokens[verbal.at + 1]?.w === 'on' && lemma === 'plan' ? verbal.at + 2 : undefined;
  if (to === undefined || (lemma !== 'want' && lemma !== 'plan' && lemma !== 'hope' && lemma !== 'intend' && lemma !== 'aim' && lemma !== 'dream')) return undefined;
  // "I want to know …", "I want to ask …": a request, not a goal.
  const goal = tokens[to]?.w ?? '';
  if (MENTAL.has(goal) || goal === 'make' && tokens[to + 1]?.w === 'sure' || goal === 'be' && tokens[to + 1]?.w === 'sure') return [];
  const object = objectAt(reading, to);
  if (!object.text || verbal.tense === 'past') return [];
  const verb = lemma === 'want' ? 'wants' : lemma === 'hope' ? 'hopes' : lemma === 'dream' ? 'dreams' : lemma === 'aim' ? 'aims' : lemma === 'intend' ? 'intends' : 'plans';
  const words = verbal.negated ? `does not ${verb.replace(/s$/, '')} to` : `${verb} to`;
  const travel = TRAVEL.has(goal) && isPlace(reading, tokens[to + 1]?.w === 'to' ? to + 2 : to + 1);
  return [draft(travel ? 'trip' : 'plan', sentence(USER, `${words} ${object.text}`, object.time), 0.75, first, object.last)];
}
