/**
 * One clause to the facts it states about the user: past the fillers and hedges, the subject
 * ("I", "I'm", "my …", "me and my …") picks the reader. A clause whose subject is anyone
 * else, or that asks, requests or supposes, states nothing about the user.
 */
import { isReservedName } from '../../names';
import { beFacts } from './be';
import { changeFacts } from './change';
import { DIETS, FEELINGS, JOBS, MENTAL } from './lexicon';
import { myFacts, pairFacts } from './my';
import { nameAt, objectAt, placeAt, sentence, type Draft, type Reading } from './phrase';
import { openingOf } from './prefix';
import type { Clause } from './tokens';
import { verbFacts } from './verb';
import { type Verbal, verbalAt } from './verbal';
import { capitalisedName } from './typed-name';
import { isGerund, isPast } from './verbs';

/** Verbs of saying: what the user says they said (or did not) is about the talk; what they said is its own clause. */
const TALK = new Set(['mention', 'mentioned', 'say', 'said', 'tell', 'told', 'add', 'added', 'note', 'noted', 'explain', 'explained', 'ask', 'asked']);
const I_FORMS = new Set(['i', "i'm", 'im', "i've", 'ive', "i'll", 'iam', "i'am"]);
/** How much a hedge ("I think", "maybe") lowers a fact's confidence. */
const HEDGE_FACTOR = 0.6;

/** The facts of one clause, with the message time `at`. */
export function factsOfClause(clause: Clause, at: number | undefined): Draft[] {
  const opening = openingOf(clause.tokens, clause.question, at);
  if (opening === undefined) return [];
  const reading: Reading = { tokens: clause.tokens, at, hedge: opening.hedge, greeted: opening.greeted, leadTime: opening.leadTime };
  // A change said of a thing ("the gig is off", "we broke up") at the subject stands for the subject's reading.
  const changes = changeFacts(reading, opening.at);
  const drafts = [...(changes.some((change) => change.first === opening.at) ? [] : subjectFacts(reading, opening.at)), ...changes];
  const guessed = clause.tokens.some((token, k) => k > opening.at && k <= opening.at + 2 && (token.w === 'might' || token.w === 'may') && clause.tokens[k + 1]?.w === 'be');
  if (!opening.hedge && !guessed) return drafts;
  return drafts.map((draft) => ({ ...draft, confidence: Math.round(draft.confidence * HEDGE_FACTOR * 100) / 100 }));
}

function subjectFacts(reading: Reading, i: number): Draft[] {
  const { tokens } = reading;
  const w = tokens[i]!.w;
  // "My job is pharmacist", "my profession is nursing": what "I am" would say of a job.
  if (w === 'my' && JOB_WORDS.has(tokens[i + 1]?.w ?? '') && (tokens[i + 2]?.w === 'is' || tokens[i + 1]!.w.endsWith("'s"))) {
    const at = tokens[i + 2]?.w === 'is' ? i + 3 : i + 2;
    return beFacts(reading, at, { ...PLAIN_BE, at }, i).filter((draft) => draft.topic === 'occupation');
  }
  if (w === 'my') return myFacts(reading, i);
  const introduced = introduction(reading, i);
  if (introduced !== undefined) return introduced;
  // "As a diabetic, what can I snack on?", "As a nurse, I …": the user says what they are.
  if (w === 'as' && (tokens[i + 1]?.w === 'a' || tokens[i + 1]?.w === 'an')) return beFacts(reading, i + 1, { ...PLAIN_BE, at: i + 1 }, i);
  const valued = valueFacts(reading, i);
  if (valued.length > 0) return valued;
  if (w === 'me' && tokens[i + 1]?.w === 'and' && tokens[i + 2]?.w === 'my') {
    const relation = tokens[i + 3];
    return relation ? pairFacts(reading, i, i + 4, `The user and their ${relation.raw}`) : [];
  }
  if ((w === 'call' && tokens[i + 1]?.w === 'me') || ((w === 'people' || w === 'everyone' || w === 'friends' || w === 'everybody') && tokens[i + 1]?.w.startsWith('call') && tokens[i + 2]?.w === 'me')) {
    const at = w === 'call' ? i + 2 : i + 3;
    return goesBy(reading, i, at);
  }
  if (w === 'we' || w === "we've" || w === "we're") return weFacts(reading, i);
  if (!I_FORMS.has(w)) return droppedSubject(reading, i);
  if (w === 'i' && tokens[i + 1]?.w === 'go' && tokens[i + 2]?.w === 'by') return goesBy(reading, i, i + 3);
  if (w === 'i' && (tokens[i + 1]?.w === 'use' || tokens[i + 1]?.w === 'go') && /\//.test(tokens[i + 2]?.w ?? '') && tokens[i + 3]?.w?.startsWith('pronoun')) {
    return [{ topic: 'pronouns', content: `The user's pronouns are ${tokens[i + 2]!.w}.`, confidence: 0.9, first: i, last: i + 3 }];
  }
  const verbal = verbalAt(tokens, i + 1, w);
  if (verbal === undefined) return [];
  // "I didn't mention", "I should have said": talk about the conversation, no fact of the user's.
  if (!verbal.be && TALK.has(tokens[verbal.at]?.w ?? '')) return [];
  if (verbal.be) return greetingName(reading, verbal.at, i) ?? beFacts(reading, verbal.at, verbal, i);
  return verbFacts(reading, verbal, i);
}

/** "We went camping last week", "we live in Oslo": the user's own doing or home, with others. */
function weFacts(reading: Reading, i: number): Draft[] {
  const { tokens } = reading;
  const w = tokens[i]!.w;
  if (w !== 'we') return [];
  let at = i + 1;
  while (['even', 'also', 'just', 'finally', 'recently', 'really', 'all', 'both', 'actually', 'always', 'usually', 'often'].includes(tokens[at]?.w ?? '')) at++;
  const verb = tokens[at]?.w ?? '';
  if (verb === 'live' && tokens[at + 1]?.w === 'in') {
    const place = placeAt(reading, at + 2);
    return place.text ? [{ topic: 'home', content: `The user lives in ${place.text}.`, confidence: 0.7, first: i, last: place.last }] : [];
  }
  if ((!isPast(verb) && !WE_PRESENT.has(verb)) || MENTAL.has(verb)) return [];
  return pairFacts(reading, i, at, 'The user and others');
}

/** Verbs a chat message starts with when it drops its "I": "just adopted a puppy", "finally finished my thesis". */
/** Gerunds that open a clause without saying what the user does ("According to Sam", "Speaking of which"). */
const NOT_DOING = new Set([
  'according',
  'regarding',
  'concerning',
  'considering',
  'including',
  'assuming',
  'supposing',
  'speaking',
  'talking',
  'being',
  'having',
  'wondering',
  'thinking',
  'hoping',
  'feeling',
  'seeing',
  'hearing',
  'knowing',
  'saying',
  'asking',
  'following',
  'judging',
  'excluding',
  'given',
  'during',
  'nothing',
  'something',
  'anything',
  'everything',
  'bring',
  'growing',
  'coming',
]);
/** Finite verbs that show a gerund opening a clause is its subject ("Taking a risk is scary"). */
const FINITE = new Set([
  'is',
  'was',
  'are',
  'were',
  "'s",
  'makes',
  'helps',
  'builds',
  'gives',
  'keeps',
  'brings',
  'means',
  'feels',
  'will',
  'can',
  'could',
  'would',
  'should',
  'must',
  'has',
  'does',
  'takes',
  'teaches',
  'shows',
  'lets',
  'pushes',
  'matters',
  'seems',
  'sounds',
  'looks',
]);
const WE_PRESENT = new Set(['love', 'like', 'enjoy', 'go', 'play', 'have']);
const DROPPED_SUBJECT = new Set([
  'gonna',
  'wanna',
  'been',
  'adopted',
  'got',
  'went',
  'started',
  'finished',
  'bought',
  'moved',
  'visited',
  'joined',
  'booked',
  'ran',
  'made',
  'tried',
  'painted',
  'baked',
  'saw',
  'met',
  'watched',
  'took',
  'graduated',
  'won',
  'signed',
  'passed',
  'built',
  'cooked',
  'launched',
  'completed',
  'quit',
  'sold',
  'cancelled',
  'canceled',
  'stopped',
]);
/** Dropped-subject openings that need the word after them: "gave up coffee", "had to cancel the gig". */
const DROPPED_WITH: Readonly<Record<string, string>> = { gave: 'up', had: 'to' };

/** A clause without "I" that starts with what the user did ("just adopted a puppy"): read as "I …". */
function droppedSubject(reading: Reading, i: number): Draft[] {
  const { tokens } = reading;
  const at = ['just', 'finally', 'recently'].includes(tokens[i]!.w) ? i + 1 : i;
  const w = tokens[at]?.w ?? '';
  // "Researching adoption agencies", "Heading to Rome tomorrow": what the user is doing.
  if (isGerund(w) && at === i && tokens.length - at >= 3 && !MENTAL.has(w.slice(0, -3)) && !NOT_DOING.has(w)) {
    // "Overcoming challenges builds strength": the gerund is the subject of another verb, not what the user does.
    if (tokens.some((token, k) => k > at && FINITE.has(token.w))) return [];
    const object = objectAt(reading, at + 1);
    return object.text && !/^(?:you|it|that|this)\b/i.test(object.text)
      ? [{ topic: object.future ? 'plan' : 'event', content: sentence('The user', `is ${w} ${object.text}`, object.time), confidence: 0.6, first: i, last: object.last }]
      : [];
  }
  if ((!DROPPED_SUBJECT.has(w) && DROPPED_WITH[w] !== tokens[at + 1]?.w) || tokens.length - at < 3) return [];
  if (w === 'been') {
    const verbal = verbalAt(tokens, at, "i've");
    return verbal === undefined ? [] : beFacts(reading, verbal.at, verbal, i);
  }
  const verbal = verbalAt(tokens, at, 'i');
  return verbal === undefined ? [] : verbFacts(reading, verbal, i);
}

const MATTERS = new Set(['important', 'special', 'precious', 'dear', 'everything', 'vital', 'essential']);

/** "Family's super important to me", "Pottery means a lot to me": what the user values. */
function valueFacts(reading: Reading, i: number): Draft[] {
  const { tokens } = reading;
  const n = tokens.length;
  if (n < 4 || tokens[n - 1]!.w !== 'me' || tokens[n - 2]!.w !== 'to') return [];
  const subjectEnd = tokens.findIndex((t, k) => k > i && k < i + 5 && (t.w === 'is' || t.w === 'are' || t.w === 'means' || t.w === 'mean' || t.w === 'matters' || t.w === 'matter'));
  const cut = subjectEnd > i ? subjectEnd : tokens.findIndex((t, k) => k >= i && k < i + 5 && t.w.endsWith("'s"));
  if (cut < i) return [];
  const own = cut === subjectEnd ? tokens.slice(i, cut) : [...tokens.slice(i, cut), { ...tokens[cut]!, raw: tokens[cut]!.raw.slice(0, -2), w: tokens[cut]!.w.slice(0, -2) }];
  const says = tokens.slice(cut + 1, n - 2).map((t) => t.w);
  if (own.length === 0 || own.some((t) => ['it', 'that', 'this', 'you', 'your', 'which', 'what', 'there'].includes(t.w)) || !says.some((w) => MATTERS.has(w) || w === 'lot' || w === 'world' || w === 'matters')) return [];
  const thing = own.map((t) => (t.w === 'my' ? 'their' : t.raw)).join(' ');
  return [{ topic: 'belief', content: `The user values ${thing}.`, confidence: 0.6, first: i, last: n - 1 }];
}

function goesBy(reading: Reading, first: number, at: number): Draft[] {
  const name = nameAt(reading.tokens, at);
  if (name === undefined || isReservedName(name.name)) return [];
  return [{ topic: 'identity', content: `The user goes by ${name.name}.`, confidence: 0.9, first, last: name.last }];
}

const JOB_WORDS = new Set(['job', "job's", 'profession', 'occupation']);
const CONTRACTED = new Set(["i'm", 'im']);

/**
 * "Hi, I'm Sam", "I'm Wei from Xi'an", "I'm Lena, 31": a name after "I'm" when a greeting
 * came first or the word is typed as a name after the contracted "I'm", and only one that
 * reads as a name.
 */
function greetingName(reading: Reading, at: number, first: number): Draft[] | undefined {
  const token = reading.tokens[at];
  // Without a greeting, only the contracted "I'm Anna": "I am José", "I am Batman" claim to be someone rather than introduce.
  const introducing = reading.greeted || (capitalisedName(token ?? reading.tokens[first]!) && CONTRACTED.has(reading.tokens[first]!.w));
  if (token === undefined || !introducing || FEELINGS.has(token.w) || DIETS.has(token.w) || JOBS.has(token.w)) return undefined;
  const after = reading.tokens[at + 1]?.w;
  if (after !== undefined && after !== ',' && after !== 'and' && after !== 'from' && after !== 'here') return undefined;
  const name = nameAt(reading.tokens, at, 1);
  if (name === undefined || isReservedName(name.name)) return undefined;
  const named: Draft = { topic: 'identity', content: `The user's name is ${name.name}.`, confidence: 0.85, first, last: name.last };
  if (after !== 'from') return [named];
  const place = placeAt(reading, at + 2);
  return place.text ? [named, { topic: 'origin', content: `The user is from ${place.text}.`, confidence: 0.8, first, last: place.last }] : [named];
}

/** The verb group of a plain "I am" (what "as a nurse" stands for). */
const PLAIN_BE: Verbal = { tense: 'present', negated: false, noLonger: false, usedTo: false, be: true, can: false, adverbs: [], at: 0 };

/**
 * A self-introduction without "my name is": "Dmitri here", "Name's Inés", "The name is Olu",
 * "This is Grace", "hey it's Farah". The clause must end at the name, and the name read as one
 * (typed with a capital, or after a greeting).
 */
function introduction(reading: Reading, i: number): Draft[] | undefined {
  const { tokens } = reading;
  const w = tokens[i]!.w;
  let at: number | undefined;
  if (tokens[i + 1]?.w === 'here' && (tokens[i + 2] === undefined || tokens[i + 2]!.w === ',')) at = i;
  else if (w === "name's") at = i + 1;
  else if (w === 'the' && tokens[i + 1]?.w === 'name' && tokens[i + 2]?.w === 'is') at = i + 3;
  else if (w === 'the' && tokens[i + 1]?.w === "name's") at = i + 2;
  else if ((w === 'this' && tokens[i + 1]?.w === 'is') || w === "it's") at = w === "it's" ? i + 1 : i + 2;
  if (at === undefined) return undefined;
  const token = tokens[at];
  if (token === undefined || (!reading.greeted && !capitalisedName(token) && at === i)) return undefined;
  if ((w === 'this' || w === "it's") && !capitalisedName(token)) return undefined;
  const name = nameAt(tokens, at, at === i ? 1 : 2);
  if (name === undefined || isReservedName(name.name)) return undefined;
  const end = at === i ? name.last + 1 : name.last;
  if (tokens[end + 1] !== undefined && tokens[end + 1]!.w !== ',') return undefined;
  return [{ topic: 'identity', content: `The user's name is ${name.name}.`, confidence: 0.8, first: i, last: end }];
}
