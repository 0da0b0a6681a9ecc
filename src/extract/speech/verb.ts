/**
 * "I <verb> …": the verb says the topic (live → home, work as → occupation, speak → language,
 * love hiking → hobby, adopted a dog → pets, went to Rome → trip), the rest is the object
 * rewritten for "the user" with its time resolved.
 */
import type { Topic } from '../topics';
import { CONDITIONS, DIETS, FREQUENCY, HABIT_VERBS, isPet, LANGUAGES, MENTAL, RELATIVES } from './lexicon';
import { draft, objectAt, placeAt, sentence, type Draft, type Phrase, type Reading } from './phrase';
import type { Verbal } from './verbal';
import { isGerund, isPast, lemmaOf, thirdPerson } from './verbs';

const USER = 'The user';
/** Typed shortcuts, typos and agreement slips of the verbs the frames read. */
const SPELLING: Readonly<Record<string, string>> = {
  luv: 'love',
  lov: 'love',
  lyk: 'like',
  lik: 'like',
  liek: 'like',
  wrk: 'work',
  wok: 'work',
  wrok: 'work',
  liv: 'live',
  lve: 'live',
  stdy: 'study',
  enjoi: 'enjoy',
  prefere: 'prefer',
  hav: 'have',
  hv: 'have',
  speek: 'speak',
  spek: 'speak',
  has: 'have',
  likes: 'like',
  loves: 'love',
  works: 'work',
  lives: 'live',
  working: 'work',
  speaks: 'speak',
  plays: 'play',
  enjoys: 'enjoy',
  hates: 'hate',
  wants: 'want',
  studies: 'study',
  born: 'born',
};
/** Verbs of liking: with an activity ("love hiking") a hobby, with a thing a preference. */
const LIKES = new Set(['like', 'love', 'enjoy', 'adore', 'hate', 'dislike', 'prefer', 'detest', 'despise', 'loathe']);
const FOND = new Set(['like', 'love', 'enjoy', 'adore']);
const TRAVEL = new Set(['visit', 'travel', 'fly', 'go', 'backpack', 'tour', 'explore', 'return', 'head']);
/** Where one goes that is no trip: "went to the gym", "went to bed", "go to work". */
const NOT_PLACES = new Set([
  'the',
  'a',
  'an',
  'my',
  'our',
  'their',
  'his',
  'her',
  'bed',
  'work',
  'school',
  'church',
  'sleep',
  'class',
  'college',
  'uni',
  'university',
  'gym',
  'store',
  'shop',
  'party',
  'concert',
  'bar',
  'beach',
  'park',
  'doctor',
  'dentist',
  'hospital',
  'office',
  'lunch',
  'dinner',
  'breakfast',
  'see',
  'get',
  'buy',
  'visit',
  'meet',
  'watch',
  'town',
  'mass',
  'therapy',
  'practice',
  'rehab',
  'jail',
  'court',
  'this',
  'that',
  'some',
  'one',
  'two',
  'it',
  'there',
  'here',
  'home',
]);
/** Verbs of ending something a user "had to" do, with their past: "had to cancel the gig" is "cancelled the gig". */
const FORCED: Readonly<Record<string, string>> = { cancel: 'cancelled', quit: 'quit', stop: 'stopped', sell: 'sold', leave: 'left', give: 'gave', drop: 'dropped', pull: 'pulled', call: 'called', postpone: 'postponed' };
const PARTICLES = new Set(['up', 'out', 'off', 'away']);
const DEGREE = new Set(['degree', 'masters', "master's", 'phd', 'diploma', 'bachelors', "bachelor's", 'ba', 'bsc', 'msc', 'mba', 'doctorate']);

/** The verb as the user's fact says it: "likes", "does not like", "liked", "has liked", "plans to like", "used to like". */
function predicate(verbal: Verbal, verb: string, typed: string): string {
  const adverbs = verbal.adverbs.filter((adverb) => adverb !== 'never' || !verbal.negated);
  const lead = adverbs.length ? `${adverbs.join(' ')} ` : '';
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
      if (verbal.noLonger) return `no longer ${thirdPerson(verb)}`;
      return verbal.negated ? `does not ${verb}` : `${lead}${thirdPerson(verb)}`;
  }
}

/** Whether the words at `at` name a place one travels to ("Rome", "the Alps", "miami" typed in lower case). */
export function isPlace(reading: Reading, at: number): boolean {
  const token = reading.tokens[at];
  if (token === undefined) return false;
  if (/^\p{Lu}/u.test(token.raw)) return true;
  if (token.w === 'the') return /^\p{Lu}/u.test(reading.tokens[at + 1]?.raw ?? '');
  const typedLower = reading.tokens.every((t) => t.raw === t.w);
  return typedLower && /^\p{L}{3,}$/u.test(token.w) && !NOT_PLACES.has(token.w) && !isGerund(token.w) && !HABIT_VERBS.has(token.w) && !isPast(token.w);
}

/** A short object that only points back at something ("about it for months", "that"): no fact on its own. */
export function isVague(text: string): boolean {
  const words = text.split(' ');
  // What the user says of the person they talk to ("your idea", "for you") is not about the user.
  if (/(?:^|\s)(?:you|your|yours|u|ur)(?:\s|$)/i.test(text)) return true;
  if (words.length <= 3 && /(?:^|\s)(?:it|them)(?:\s|$)/i.test(text)) return true;
  return words.length <= 2 && /(?:^|\s)(?:that|this|those|these|one|stuff|things?)(?:\s|$)/i.test(text);
}

/** The topic of what the user has: a pet, a relative, a condition, an allergy, a degree, or a thing. */
function haveTopic(object: Phrase, reading: Reading, from: number): Topic {
  for (let k = from; k <= Math.min(object.last, from + 4); k++) {
    const w = reading.tokens[k]!.w;
    if (isPet(w)) return 'pets';
    if (RELATIVES.has(w)) return 'family';
    if (w === 'allergy' || w === 'allergies' || w === 'intolerance') return 'allergy';
    if (CONDITIONS.has(w)) return 'health';
    if (DEGREE.has(w)) return 'education';
  }
  return 'possession';
}

/** Facts from "I <verb> …" with the verb at `verbal.at`. */
export function verbFacts(reading: Reading, verbal: Verbal, first: number): Draft[] {
  const { tokens } = reading;
  const typed = tokens[verbal.at]?.w;
  if (typed === undefined) return [];
  if (typed === 'wanna') return plans(reading, { ...verbal, at: verbal.at - 1 }, 'want', first, verbal.at + 1) ?? [];
  const verb = SPELLING[typed] ?? typed;
  const wasPast = isPast(verb) && !HABIT_VERBS.has(verb);
  const lemma = wasPast ? lemmaOf(verb) : verb;
  // "I don't live here any more" and "I won't eat sugar" say how things stand now.
  let tensed: Verbal = wasPast && verbal.tense === 'present' ? { ...verbal, tense: 'past' } : verbal;
  if (tensed.tense === 'future' && tensed.negated) tensed = { ...tensed, tense: 'present' };
  if (MENTAL.has(wasPast ? verb : lemma) && !(lemma === 'believe' && tokens[verbal.at + 1]?.w === 'in')) return plans(reading, tensed, lemma, first) ?? [];
  const from = verbal.at + 1;
  const next = tokens[from]?.w === 'w' ? 'with' : tokens[from]?.w;
  const say = (topic: Topic, words: string, object: Phrase, confidence: number) =>
    !isVague(object.text) && (object.text || words) ? [draft(topic, sentence(USER, `${words}${object.text ? ` ${object.text}` : ''}`, object.time), confidence, first, Math.max(object.last, verbal.at))] : [];
  const verbWord = predicate(tensed, lemma, verb);
  const recurring =
    FREQUENCY.test(
      tokens
        .slice(first, Math.min(tokens.length, verbal.at + 16))
        .map((t) => t.w)
        .join(' '),
    ) || tensed.adverbs.some((adverb) => adverb !== 'never');

  if (lemma === 'born') return bornFacts(reading, from, first, 'was born');
  if (tensed.tense === 'future' && !TRAVEL.has(lemma) && lemma !== 'move') return say('plan', verbWord, objectAt(reading, from), 0.7);
  if (lemma === 'live' || lemma === 'reside' || lemma === 'stay') {
    if (next !== 'in' && next !== 'near' && next !== 'outside' && next !== 'with' && next !== 'alone' && next !== 'by') return [];
    const place = next === 'alone' || next === 'with' || next === 'by' ? objectAt(reading, from + 1, 6) : placeAt(reading, from + 1);
    const topic: Topic = next === 'with' ? 'family' : tensed.tense === 'present' ? 'home' : 'event';
    return say(topic, `${verbWord} ${next}`, place, 0.85);
  }
  // "I rent a room in Bristol": where the user lives.
  if (lemma === 'rent' && tensed.tense === 'present' && !tensed.negated) return say('home', verbWord, objectAt(reading, from, 8), 0.75);
  // "I can't stand coriander": a dislike.
  if (lemma === 'stand' && tensed.can && tensed.negated) return say('preference', verbWord, objectAt(reading, from, 8), 0.8);
  // "I keep kosher", "I keep halal": a diet.
  if (lemma === 'keep' && DIETS.has(next ?? '')) return say('diet', verbWord, objectAt(reading, from, 3), 0.85);
  if (lemma === 'move' && next === 'from' && tensed.tense !== 'future') return say('origin', `${verbWord} from`, placeAt(reading, from + 1), 0.75);
  if (lemma === 'move' && next === 'to') return say(tensed.tense === 'future' ? 'plan' : 'home', `${verbWord} to`, placeAt(reading, from + 1), 0.8);
  if (lemma === 'grow' && next === 'up') return say('origin', `${verbWord} up`, objectAt(reading, from + 1, 6), 0.8);
  if (lemma === 'come' && next === 'from') return say('origin', 'comes from', placeAt(reading, from + 1), 0.8);
  if (lemma === 'work') {
    const preposition = next === 'as' || next === 'at' || next === 'for' || next === 'in' || next === 'on' || next === 'from';
    const object = objectAt(reading, preposition ? from + 1 : from, 8);
    const current = tensed.tense === 'present' && !recurring;
    const topic: Topic = next === 'from' ? 'routine' : !current ? 'work' : next === 'as' ? 'occupation' : next === 'at' || next === 'for' ? 'employer' : 'work';
    return say(topic, preposition ? `${verbWord} ${next}` : verbWord, object, 0.85);
  }
  if (lemma === 'study' || lemma === 'major' || lemma === 'graduate') return say('education', verbWord, objectAt(reading, from), 0.8);
  if (lemma === 'hold' && DEGREE.has(tokens[from + 1]?.w ?? tokens[from]?.w ?? '')) return say('education', verbWord, objectAt(reading, from), 0.8);
  if (lemma === 'drive' && (next === 'a' || next === 'an') && tensed.tense === 'present') return say('possession', verbWord, objectAt(reading, from), 0.7);
  if (lemma === 'suffer') return say('health', verbWord, objectAt(reading, from), 0.8);
  if (lemma === 'teach') return say('work', verbWord, objectAt(reading, from), 0.75);
  if (lemma === 'speak' || (lemma === 'learn' && LANGUAGES.has(next ?? ''))) return say('language', verbWord, objectAt(reading, from, 8), 0.85);
  if (lemma === 'believe' || lemma === 'value' || (lemma === 'care' && next === 'about')) return say('belief', verbWord, objectAt(reading, from), 0.75);
  if (LIKES.has(lemma)) {
    if (next === 'it' || next === 'that' || next === 'this' || next === 'you' || next === 'when' || next === 'how' || (next === 'the' && tokens[from + 1]?.w === 'idea')) return [];
    const object = objectAt(reading, from, 10);
    const activity = isGerund(next ?? '') || (next === 'to' && HABIT_VERBS.has(tokens[from + 1]?.w ?? ''));
    return say(activity && FOND.has(lemma) ? 'hobby' : 'preference', verbWord, object, 0.8);
  }
  // "I had to cancel the gig", "I've had to give up running": what the user did, however unwillingly.
  const forced = lemma === 'have' && next === 'to' && tensed.tense !== 'present' && tensed.tense !== 'future' && !tensed.negated ? FORCED[tokens[from + 1]?.w ?? ''] : undefined;
  if (forced !== undefined) {
    const particle = PARTICLES.has(tokens[from + 2]?.w ?? '') ? ` ${tokens[from + 2]!.w}` : '';
    return say('event', `${forced}${particle}`, objectAt(reading, from + (particle ? 3 : 2)), 0.7);
  }
  if (lemma === 'have' || lemma === 'own' || (lemma === 'get' && (tensed.tense === 'perfect' || isPet(tokens[from + 1]?.w ?? '') || isPet(next ?? '')))) {
    if (lemma === 'get' && tensed.tense !== 'perfect') return say('pets', verbWord, objectAt(reading, from), 0.8);
    return haveFacts(reading, tensed, lemma === 'get' ? 'have' : lemma, first, from);
  }
  if (lemma === 'adopt' || lemma === 'rescue') {
    const object = objectAt(reading, from);
    return say(haveTopic(object, reading, from) === 'pets' ? 'pets' : 'event', verbWord, object, 0.8);
  }
  if (lemma === 'marry' || (lemma === 'get' && (next === 'married' || next === 'engaged' || next === 'divorced'))) return say('relationship', verbWord, objectAt(reading, from), 0.8);
  if (lemma === 'want' || lemma === 'plan' || lemma === 'hope' || lemma === 'intend' || lemma === 'aim' || lemma === 'dream') return plans(reading, tensed, lemma, first) ?? [];
  if (TRAVEL.has(lemma)) {
    const to = next === 'to' || next === 'back' ? from + 1 : from;
    const object = objectAt(reading, from);
    if (!object.text) return [];
    const trip = isPlace(reading, to) || (lemma === 'visit' && !NOT_PLACES.has(next ?? ''));
    if (tensed.tense === 'present' && !tensed.negated) return say(recurring || !trip ? 'routine' : 'trip', verbWord, object, 0.75);
    return say(trip ? 'trip' : tensed.tense === 'future' ? 'plan' : 'event', verbWord, object, 0.75);
  }
  if (tensed.tense === 'past' || tensed.tense === 'perfect') {
    if (!wasPast && tensed.tense === 'perfect' && !isPast(verb)) return [];
    const object = objectAt(reading, from);
    const topic: Topic = (lemma === 'start' || lemma === 'begin') && isGerund(next ?? '') ? 'hobby' : 'event';
    return say(topic, verbWord, object, 0.7);
  }
  if (!HABIT_VERBS.has(lemma)) return [];
  const object = objectAt(reading, from);
  if (lemma === 'eat' || lemma === 'drink' || lemma === 'consume' || lemma === 'smoke') return say(recurring && !tensed.adverbs.includes('never') ? 'routine' : 'preference', verbWord, object, 0.75);
  return say(recurring ? 'routine' : 'hobby', verbWord, object, 0.75);
}

/** "I was born in Glasgow" (origin), "… in 1990" (age), "… on 3 March" (birthday). */
export function bornFacts(reading: Reading, from: number, first: number, words: string): Draft[] {
  const { tokens } = reading;
  const preposition = tokens[from]?.w;
  if (preposition !== 'in' && preposition !== 'on') return [];
  const object = objectAt(reading, from + 1, 5);
  if (!object.text) return [];
  const year = /^\d{4}$/.test(tokens[from + 1]?.w ?? '');
  const topic: Topic = year ? 'age' : preposition === 'on' || /^\d/.test(tokens[from + 1]?.w ?? '') ? 'birthday' : 'origin';
  const text = topic === 'origin' ? placeAt(reading, from + 1).text : object.text;
  return [draft(topic, sentence(USER, `${words} ${preposition} ${text}`, undefined), 0.85, first, object.last)];
}

/** "I have two dogs", "I don't have a car", "I've got a sister named Ana", "I own a bakery", "I have 32 years". */
function haveFacts(reading: Reading, verbal: Verbal, lemma: string, first: number, from: number): Draft[] {
  const { tokens } = reading;
  const next = tokens[from]?.w;
  if (next === 'to' || (next === 'a' && tokens[from + 1]?.w === 'question')) return [];
  if (/^\d{1,3}$/.test(next ?? '') && tokens[from + 1]?.w === 'years' && !verbal.negated) {
    return [draft('age', `The user is ${next} years old.`, 0.8, first, from + 1)];
  }
  const object = objectAt(reading, from, 14);
  if (!object.text) return [];
  const topic = haveTopic(object, reading, from);
  const verb = lemma === 'own' ? 'own' : 'have';
  const tense = verbal.tense === 'perfect' ? { ...verbal, tense: 'present' as const } : verbal;
  const words = predicate(tense, verb, verbal.tense === 'past' ? (verb === 'own' ? 'owned' : 'had') : verb === 'own' ? 'owns' : 'has');
  const finalTopic: Topic = verbal.tense === 'past' && topic === 'possession' ? 'event' : object.future ? 'plan' : topic;
  return [draft(finalTopic, sentence(USER, `${words} ${object.text}`, object.time), topic === 'possession' ? 0.7 : 0.85, first, object.last)];
}

/** "I want to learn Japanese", "I plan to run a marathon", "I hope to visit Peru": a goal. */
function plans(reading: Reading, verbal: Verbal, lemma: string, first: number, goalAt?: number): Draft[] | undefined {
  const { tokens } = reading;
  const to = goalAt ?? (tokens[verbal.at + 1]?.w === 'to' ? verbal.at + 2 : tokens[verbal.at + 1]?.w === 'on' && lemma === 'plan' ? verbal.at + 2 : undefined);
  if (to === undefined || (lemma !== 'want' && lemma !== 'plan' && lemma !== 'hope' && lemma !== 'intend' && lemma !== 'aim' && lemma !== 'dream')) return undefined;
  // "I want to know …", "I want to ask …": a request, not a goal.
  const goal = tokens[to]?.w ?? '';
  if (MENTAL.has(goal) || ((goal === 'make' || goal === 'be') && tokens[to + 1]?.w === 'sure')) return [];
  const object = objectAt(reading, to);
  if (!object.text || verbal.tense === 'past') return [];
  const verb = lemma === 'want' ? 'wants' : lemma === 'hope' ? 'hopes' : lemma === 'dream' ? 'dreams' : lemma === 'aim' ? 'aims' : lemma === 'intend' ? 'intends' : 'plans';
  const words = verbal.negated ? `does not ${verb.replace(/s$/, '')} to` : `${verb} to`;
  const travel = TRAVEL.has(goal) && isPlace(reading, tokens[to + 1]?.w === 'to' ? to + 2 : to + 1);
  return [draft(travel ? 'trip' : 'plan', sentence(USER, `${words} ${object.text}`, object.time), 0.75, first, object.last)];
}
