/**
 * "My …" clauses: the user's name, pronouns, birthday, favourites, goals and native language,
 * and the people and pets in their life ("my sister Ana lives in Lisbon" is a fact about Ana,
 * kept as the user's: "The user's sister Ana lives in Lisbon."). Only verbs that state where
 * someone lives, what they do, how old they are or what happened to them are read: what a
 * relative prefers, says or thinks is theirs, not the user's.
 */
import { isReservedName } from '../../names';
import type { Topic } from '../topics';
import { isPet, LANGUAGES, RELATIVES } from './lexicon';
import { capitalised, draft, nameAt, objectAt, sentence, type Draft, type Reading } from './phrase';
import { isPlace, isVague } from './verb';

const RELATIVE_ADJECTIVES = new Set([
  'little',
  'big',
  'older',
  'younger',
  'baby',
  'best',
  'ex',
  'late',
  'oldest',
  'youngest',
  'eldest',
  'twin',
  'step',
  'new',
  'two',
  'three',
  'four',
  'grand',
  'old',
  'beloved',
  'dear',
  'lovely',
  'husband',
  'wife',
]);
/** What a relative's clause may say: the verb starts it. */
const OTHERS_VERBS = new Set([
  'lives',
  'live',
  'lived',
  'works',
  'work',
  'worked',
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'had',
  'studies',
  'studied',
  'moved',
  'passed',
  'died',
  'got',
  'turned',
  'turns',
  'just',
  'recently',
  'started',
  'graduated',
  'teaches',
  'runs',
  'owns',
  'plays',
  'goes',
  'went',
  'visited',
  'came',
  'comes',
  'adopted',
  'gave',
  'bought',
  'retired',
  'joined',
  'won',
  'broke',
  'lost',
  'finished',
  'left',
  'flew',
  'met',
  'took',
  'cooked',
  'made',
  'loves',
  'love',
  'likes',
  'like',
  'and',
]);
/** Verbs after "my <relative>" that report what they think or say: never stored. */
const REPORTING = new Set([
  'says',
  'said',
  'thinks',
  'thought',
  'believes',
  'told',
  'tells',
  'claims',
  'wants',
  'prefers',
  'asked',
  'asks',
  'insists',
  'wrote',
  'writes',
  'texted',
  'mentioned',
  'would',
  'could',
  'should',
  'might',
  'wishes',
  'hopes',
  'feels',
  'reckons',
  'swears',
]);
const LOVE = new Set(['loves', 'love', 'likes', 'like']);

function is(reading: Reading, i: number): number | undefined {
  const w = reading.tokens[i]?.w;
  if (w === 'is' || w === 'are' || w === "'s" || w === 'was' || w === 'include' || w === 'includes') return i + 1;
  return undefined;
}

/** Facts from a clause whose subject is "my …" at `tokens[i]`. */
export function myFacts(reading: Reading, i: number): Draft[] {
  const { tokens } = reading;
  const w = tokens[i + 1]?.w;
  if (w === undefined) return [];
  if (w === 'name' || w === "name's" || w === 'names' || w === 'nickname' || w === 'nick') {
    const at = w === "name's" || w === 'names' ? i + 2 : is(reading, i + 2);
    if (at === undefined) return [];
    const name = nameAt(tokens, at);
    if (name === undefined || isReservedName(name.name)) return [];
    const nick = w === 'nickname' || w === 'nick';
    return [draft('identity', sentence('The user', nick ? `goes by ${name.name}` : `'s name is ${name.name}`, undefined).replace("user 's", "user's"), 0.9, i, name.last)];
  }
  if (w === 'pronouns') {
    const at = is(reading, i + 2);
    const value = at === undefined ? undefined : tokens[at];
    if (value === undefined || !/^[a-z]+\/[a-z]+(?:\/[a-z]+)?$/.test(value.w)) return [];
    return [draft('pronouns', `The user's pronouns are ${value.w}.`, 0.9, i, at!)];
  }
  if (w === 'birthday' || w === 'bday' || w === 'b-day') {
    let at = is(reading, i + 2);
    if (at === undefined) return [];
    if (tokens[at]?.w === 'on' || tokens[at]?.w === 'in') at++;
    const date = objectAt(reading, at, 4);
    return date.text ? [draft('birthday', `The user's birthday is ${date.time ?? date.text}.`.replace(/is on /, 'is '), 0.85, i, date.last)] : [];
  }
  if (w === 'favorite' || w === 'favourite' || w === 'fav' || w === 'fave') {
    const verb = tokens.findIndex((token, k) => k > i + 1 && k < i + 6 && (token.w === 'is' || token.w === 'are'));
    if (verb < 0) return [];
    const value = objectAt(reading, verb + 1, 8);
    if (!value.text) return [];
    const kind = tokens
      .slice(i + 2, verb)
      .map((t) => t.raw)
      .join(' ');
    return [draft('preference', `The user's favorite ${kind} ${tokens[verb]!.w} ${value.text}.`, 0.85, i, value.last)];
  }
  if (w === 'hobby' || w === 'hobbies' || w === 'passion') {
    const at = is(reading, i + 2);
    const value = at === undefined ? undefined : objectAt(reading, at, 10);
    return value?.text ? [draft('hobby', `The user's ${w} ${tokens[i + 2]!.w} ${value.text}.`, 0.85, i, value.last)] : [];
  }
  if (w === 'goal' || w === 'plan' || w === 'dream' || w === 'resolution' || w === 'aim') {
    const at = is(reading, i + 2);
    if (at === undefined || tokens[at]?.w !== 'to') return [];
    const value = objectAt(reading, at + 1, 12);
    return value.text ? [draft('plan', `The user's ${w} is to ${value.text}${value.time ? ` ${value.time}` : ''}.`, 0.8, i, value.last)] : [];
  }
  if ((w === 'native' || w === 'first' || w === 'mother') && (tokens[i + 2]?.w === 'language' || tokens[i + 2]?.w === 'tongue')) {
    const at = is(reading, i + 3);
    const language = at === undefined ? undefined : tokens[at];
    if (language === undefined || !LANGUAGES.has(language.w)) return [];
    return [draft('language', `The user's ${w} language is ${capitalised(language.w)}.`, 0.9, i, at!)];
  }
  if (w === 'job' || w === 'profession' || w === 'occupation') {
    const at = is(reading, i + 2);
    if (at === undefined || (tokens[at]?.w !== 'a' && tokens[at]?.w !== 'an')) return [];
    const value = objectAt(reading, at, 6);
    return value.text ? [draft('occupation', `The user works as ${value.text}.`, 0.85, i, value.last)] : [];
  }
  return othersFacts(reading, i) ?? thingFacts(reading, i);
}

/** Nouns after "my" that start no statement about the user's life ("my bad", "my god"). */
const NOT_THINGS = new Set([
  'bad',
  'god',
  'goodness',
  'gosh',
  'pleasure',
  'apologies',
  'turn',
  'question',
  'answer',
  'point',
  'guess',
  'opinion',
  'thoughts',
  'mind',
  'head',
  'heart',
  'phone',
  'battery',
  'internet',
  'wifi',
  'computer',
  'laptop',
  'screen',
  'message',
  'last',
]);
const THING_VERBS = new Set(['is', 'are', 'was', 'has', 'have', 'means', 'gives', 'helps', 'keeps', 'brings', 'makes']);

/**
 * "My art is about expressing my experience", "my garden is full of roses": what the user's own
 * things are, kept under `general` at a low confidence (a reader's guess at a durable fact).
 */
function thingFacts(reading: Reading, i: number): Draft[] {
  const { tokens } = reading;
  let k = i + 1;
  while (k < i + 3 && tokens[k + 1] !== undefined && !THING_VERBS.has(tokens[k + 1]!.w) && /^\p{L}+$/u.test(tokens[k]!.raw)) k++;
  const verb = tokens[k + 1]?.w;
  if (verb === undefined || !THING_VERBS.has(verb) || NOT_THINGS.has(tokens[i + 1]!.w) || !/^\p{L}+$/u.test(tokens[k]!.raw)) return [];
  const rest = objectAt(reading, k + 2, 12);
  if (!rest.text || rest.text.split(' ').length < 2 || /(?:^|\s)(?:you|your)(?:\s|$)/i.test(rest.text)) return [];
  const thing = tokens
    .slice(i + 1, k + 1)
    .map((t) => t.raw)
    .join(' ');
  return [draft('general', sentence(`The user's ${thing}`, `${verb} ${rest.text}`, rest.time), 0.5, i, rest.last)];
}

/** "my sister Ana lives in Lisbon", "my dog is 3", "my parents are from Peru", "my wife's name is Ana"; undefined when "my …" names no one. */
function othersFacts(reading: Reading, i: number): Draft[] | undefined {
  const { tokens } = reading;
  let k = i + 1;
  while (k < i + 4 && RELATIVE_ADJECTIVES.has(tokens[k]?.w ?? '') && !RELATIVES.has(tokens[k]!.w)) k++;
  let head = tokens[k]?.w ?? '';
  const possessive = head.endsWith("'s") ? head.slice(0, -2) : undefined;
  if (possessive !== undefined) head = possessive;
  const pet = isPet(head);
  if (!pet && !RELATIVES.has(head)) return undefined;
  const relation = tokens
    .slice(i + 1, k + 1)
    .map((t) => t.raw)
    .join(' ')
    .replace(/['’]s$/, '');
  // "my wife's name is Ana" → "The user's wife is named Ana."
  // "my brother's a pilot", "my daughter's at university in York": the 's is "is".
  if (possessive !== undefined && tokens[k + 1]?.w !== 'name') return contractedIs(reading, i, k, possessive, pet);
  if (possessive === undefined && /s$/.test(head) && RELATIVES.has(head.slice(0, -1)) && (tokens[k + 1]?.w === 'a' || tokens[k + 1]?.w === 'an')) return contractedIs(reading, i, k, head.slice(0, -1), false);
  if (possessive !== undefined) {
    if (is(reading, k + 2) === undefined) return [];
    const name = nameAt(tokens, k + 3);
    return name ? [draft(pet ? 'pets' : 'family', `The user's ${relation} is named ${name.name}.`, 0.85, i, name.last)] : [];
  }
  let at = k + 1;
  let name: string | undefined;
  const named = tokens[at]?.w === 'named' || tokens[at]?.w === 'called' ? at + 1 : at;
  const candidate = nameAt(tokens, named, 2);
  if (candidate && (named !== at || /^\p{Lu}/u.test(tokens[at]!.raw) || OTHERS_VERBS.has(tokens[candidate.last + 1]?.w ?? ''))) {
    name = candidate.name;
    at = candidate.last + 1;
  }
  // "My wife she is from Peru": the subject said again as a pronoun.
  if (['she', 'he', 'they', 'it'].includes(tokens[at]?.w ?? '') && OTHERS_VERBS.has(tokens[at + 1]?.w ?? '')) at++;
  while (['just', 'recently', 'finally', 'also', 'really', 'actually'].includes(tokens[at]?.w ?? '') && OTHERS_VERBS.has(tokens[at + 1]?.w ?? '')) at++;
  const verb = tokens[at]?.w;
  if (verb === undefined) return [];
  if (REPORTING.has(verb) || !OTHERS_VERBS.has(verb)) return [];
  if (verb === 'and' && (tokens[at + 1]?.w === 'i' || tokens[at + 1]?.w === 'me')) return pairFacts(reading, i, at + 2, `The user and their ${relation}${name ? ` ${name}` : ''}`);
  if (verb === 'and') return [];
  // What a relative loves is theirs; only what they love about the user's life would be ours, and that is not read.
  if (LOVE.has(verb)) return [];
  const rest = objectAt(reading, at + 1, 12);
  if ((!rest.text && verb !== 'died' && verb !== 'retired') || /^(?:not|too|so|also)$/i.test(rest.text)) return [];
  const subject = `The user's ${relation}${name ? ` ${name}` : ''}`;
  return [draft(pet ? 'pets' : 'family', sentence(subject, `${tokens[at]!.w}${rest.text ? ` ${rest.text}` : ''}`, rest.time), 0.8, i, Math.max(rest.last, at))];
}

/** "my brother's a pilot" (or typed "my brothers a pilot"): what the relative `relation` at `tokens[k]` is. */
function contractedIs(reading: Reading, i: number, k: number, relation: string, pet: boolean): Draft[] {
  const { tokens } = reading;
  const next = tokens[k + 1]?.w;
  if (next === undefined || (!['a', 'an', 'at', 'in', 'from', 'married', 'engaged', 'retired', 'pregnant'].includes(next) && !/^\d{1,3}$/.test(next))) return [];
  const rest = objectAt(reading, k + 1, 10);
  if (!rest.text || isVague(rest.text)) return [];
  const words = tokens
    .slice(i + 1, k)
    .map((t) => `${t.raw} `)
    .join('');
  return [draft(pet ? 'pets' : 'family', sentence(`The user's ${words}${relation}`, `is ${rest.text}`, rest.time), 0.8, i, rest.last)];
}

/** "me and my wife went to Rome", "my sister and I moved to Oslo": the user's fact, with them. */
export function pairFacts(reading: Reading, first: number, verbAt: number, subject: string): Draft[] {
  const { tokens } = reading;
  let at = verbAt;
  while (['just', 'recently', 'finally', 'also', 'really', 'even', 'both', 'all', 'always', 'often'].includes(tokens[at]?.w ?? '')) at++;
  verbAt = at;
  const verb = tokens[verbAt]?.w;
  if (verb === undefined || REPORTING.has(verb) || !/^[a-z]{2,}$/.test(verb)) return [];
  const past = /ed$/.test(verb) || verb === 'made' || verb === 'did' || ['went', 'got', 'saw', 'met', 'took', 'made', 'ran', 'bought', 'found', 'won', 'flew', 'drove', 'had', 'spent', 'ate', 'left'].includes(verb);
  const present = ['live', 'have', 'love', 'like', 'go', 'play', 'run', 'own', 'enjoy'].includes(verb);
  if (!past && !present && verb !== 'are' && verb !== 'were') return [];
  const rest = objectAt(reading, verbAt + 1, 12);
  if (!rest.text || isVague(rest.text)) return [];
  const topic: Topic =
    verb === 'live' || verb === 'moved'
      ? 'home'
      : verb === 'are' && /\bmarried|engaged\b/.test(rest.text)
        ? 'relationship'
        : (verb === 'went' || verb === 'flew' || verb === 'visited' || verb === 'drove') && (verb === 'visited' || isPlace(reading, verbAt + (tokens[verbAt + 1]?.w === 'to' ? 2 : 1)))
          ? 'trip'
          : present
            ? 'hobby'
            : 'event';
  return [draft(topic, sentence(subject, `${verb} ${rest.text}`, rest.time), 0.75, first, Math.max(rest.last, verbAt))];
}
