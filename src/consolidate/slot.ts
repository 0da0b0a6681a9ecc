/**
 * Slots: exclusivity of what a statement is about, not of a whole topic. "The user sings in a
 * choir" and "The user quit the choir" are about one thing (the choir, as something the user
 * does), so the later replaces the earlier, whatever topic each landed on (hobby, event); "The
 * user loves hiking" and "The user loves jazz" are about two things, and stay side by side.
 *
 * A slot is read from a fact's text (the canonical "The user …" sentence every extractor
 * writes), so any extractor's facts have one, and a replay reads the same slots:
 * - its kind, a verb family with a positive and a negative side: `like` (loves, enjoys ↔ hates,
 *   went off), `do` (plays, sings in, goes to, smokes ↔ quit, stopped, gave up on, dropped out
 *   of, is leaving), `have` (has, owns, drives ↔ sold, lost, "the user's dog … passed away") and
 *   `plan` (is planning, booked, signed up for ↔ cancelled, called off, decided not to). A verb
 *   phrase after "no longer", "used to", "doesn't", "is not" takes the other side ("no longer
 *   plays", "used to hate"), and adverbs before the verb ("really", "still") are read past;
 * - what it is about: the words after the verb, without articles, possessives, prepositions,
 *   "named"/"called", and words of time and degree ("on tuesdays", "in the week of 14 April",
 *   "too much", "obviously"), stemmed ("smokes", "smoking" and "smoke" are one word) and sorted.
 *   A positive `do` fact's own verb is part of it ("smokes too much" is about smoking, "plays
 *   volleyball" about playing and volleyball), so "quit smoking" and "stopped playing" find it;
 *   a stopping verb's gerund followed by what it is about is not ("stopped playing the guitar"
 *   is about the guitar);
 * - its polarity: +1 for the positive side, −1 for the negative one.
 *
 * A fact replaces a slot's memory ({@link changesMind}) when their kinds are one (or `do` and
 * `have`: "gave up my allotment" ends having it and doing it), their polarities differ, and the
 * negative side names nothing the positive one does not: "quit the choir" replaces "sings alto
 * in a community choir on tuesdays", "hates music festivals" does not replace "loves music".
 * The same side said again in other words ("likes jazz", "loves jazz") is no change of mind.
 *
 * Only these verbs open a slot: a fact they do not read ("The user works from home") has none
 * and consolidates as before. Exclusive topics keep their own rule (one memory per topic).
 */
import { EPISODE_TOPIC, SESSION_SUMMARY_TOPIC } from '../extract/topics';
import { stem } from '../text';

export type SlotKind = 'like' | 'do' | 'have' | 'plan';

export interface Slot {
  kind: SlotKind;
  /** What the statement is about: its content words, stemmed, sorted, joined by spaces. */
  about: string;
  polarity: 1 | -1;
}

/**
 * Verb phrases of each side of a kind, in the third person ("plays"); the longest one a fact
 * starts with is its verb, whatever its kind ("has booked" is a plan, not a possession).
 */
const VERBS: readonly [SlotKind, 1 | -1, readonly string[]][] = [
  ['like', -1, ['hates', 'dislikes', 'detests', "can't stand", 'cannot stand', 'went off', 'has gone off', 'is sick of', 'is tired of', 'is done with', 'is fed up with', 'is over']],
  ['like', 1, ['loves', 'likes', 'enjoys', 'adores', 'is into', 'is a fan of', 'is fond of', 'is passionate about', 'is obsessed with']],
  [
    'do',
    -1,
    [
      'gave up on',
      'gave up',
      'has given up on',
      'has given up',
      'is giving up',
      'dropped out of',
      'has dropped out of',
      'is dropping out of',
      'quit',
      'has quit',
      'is quitting',
      'stopped',
      'has stopped',
      'is stopping',
      'left',
      'has left',
      'is leaving',
      'retired from',
      'has retired from',
      'took a break from',
      'is taking a break from',
      'had to give up',
      'had to quit',
      'had to stop',
      'had to leave',
      'had to drop out of',
    ],
  ],
  ['do', 1, ['started', 'has started', 'took up', 'has taken up', 'joined', 'has joined', 'rejoined', 'went back to', 'is a member of', 'belongs to', 'is part of', 'attends', 'takes', 'volunteers at', 'volunteers with']],
  ['have', -1, ['got rid of', 'has got rid of', 'gave away', 'has given away', 'had to give away', 'sold', 'has sold', 'had to sell', 'is selling', 'lost', 'has lost']],
  ['have', 1, ['has got', 'has', 'owns', 'drives', 'rides']],
  [
    'plan',
    -1,
    [
      'decided not to',
      'has decided not to',
      'decided against',
      'has decided against',
      'called off',
      'has called off',
      'cancelled',
      'canceled',
      'has cancelled',
      'has canceled',
      'had to cancel',
      'pulled out of',
      'has pulled out of',
      'had to pull out of',
      'had to call off',
      'withdrew from',
    ],
  ],
  ['plan', 1, ['is planning', 'plans', 'is going to', 'intends to', 'booked', 'has booked', 'is booking', 'signed up for', 'has signed up for', 'is signing up for', 'is saving for', 'is organising', 'is organizing']],
];

/**
 * What the user does, in verbs whose own meaning is the activity: a positive `do` fact opened by
 * one is about the verb too ("smokes too much" is about smoking; "plays volleyball" about playing
 * volleyball), so a stop named by the gerund alone ("quit smoking", "stopped playing") finds it.
 */
const ACTIVITIES = [
  'plays',
  'sings in',
  'sings with',
  'sings',
  'goes to',
  'goes',
  'practices',
  'practises',
  'does',
  'is doing',
  'is learning',
  'learns',
  'studies',
  'is studying',
  'grows',
  'smokes',
  'drinks',
  'vapes',
  'runs',
  'swims',
  'cycles',
  'climbs',
  'boulders',
  'hikes',
  'surfs',
  'skis',
  'snowboards',
  'skates',
  'dances',
  'paints',
  'draws',
  'knits',
  'sews',
  'bakes',
  'cooks',
  'gardens',
  'fishes',
  'jogs',
  'meditates',
  'writes',
  'gambles',
  'volunteers',
  'trains',
  'works out',
];

/** A time said after an ending: "passed away in 2022", "was cancelled on 3 March 2025". */
const WHEN = String.raw`(?: (?:in|on|at|during|over|since|last|this|earlier|back|yesterday|today)(?: .*)?)?$`;

/** A thing of the user's that ended, by how it ended: "The user's <thing> passed away / split up / was cancelled", with the time it happened or none. */
const ENDED: readonly [SlotKind, RegExp][] = [
  ['have', new RegExp(String.raw`^the user's (.+?) (?:passed away|died|was put down|was sold|has been sold|was stolen|got stolen|has been stolen|was written off|was lost)` + WHEN, 'u')],
  ['do', new RegExp(String.raw`^the user's (.+?) (?:split up|broke up|has split up|has broken up|disbanded|folded|shut down|closed down)` + WHEN, 'u')],
  ['plan', new RegExp(String.raw`^the user's (.+?) (?:was cancelled|was canceled|got cancelled|has been cancelled|is cancelled|is off|was called off|fell through)` + WHEN, 'u')],
];

/** Openings that put the verb after them on its other side: "no longer plays", "used to hate", "doesn't like", "is not planning". */
const FLIPS: readonly [prefix: string, rest: 'third' | 'base' | 'is'][] = [
  ['is no longer ', 'is'],
  ['is not ', 'is'],
  ["isn't ", 'is'],
  ['no longer ', 'third'],
  ['used to ', 'base'],
  ["doesn't ", 'base'],
  ['does not ', 'base'],
  ['never ', 'third'],
];

/** Adverbs read past before the verb: "really loves", "still plays", "now hates". */
const ADVERB = /^(?:really|actually|also|still|now|currently|absolutely|totally|genuinely|truly|just|finally|recently|officially) /u;

/** Words that say nothing of what a statement is about: function words, "named", and words of time and degree. */
const FILLER = new Set(
  (
    'the a an their his her its my our your them they it this that these those in of on at to for with from by about into as and or but so ' +
    'named called again anymore any more now some still too much many lot lots very really obviously actually currently rn btw lol haha tho though tbh sadly anyway ' +
    'every each most all day days daily week weeks weekly weekend weekends weekday weekdays month months monthly year years yearly ago ' +
    'morning mornings evening evenings afternoon afternoons tonight today tomorrow yesterday next last first ' +
    'monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays sunday sundays ' +
    'january february march april may june july august september october november december'
  ).split(' '),
);

/** Words for the user's partner, one thing however named: "has a boyfriend" and "is single" are about it. */
const PARTNER = new Set(['partner', 'boyfriend', 'girlfriend', 'bf', 'gf', 'wife', 'husband', 'fiance', 'fiancee', 'fiancé', 'fiancée', 'spouse']);

/** The end of a clause: of the text, at a stop or a comma, or before a conjunction. */
const CLAUSE_END = '(?=$|[,;:]| (?:and|but|so|who|which) )';
/** A time said after a status: "now", "last year", "since 2019", "for two years", "in May", "three years ago". */
const STATUS_TIME = String.raw`(?:now|again|recently|today|this year|last (?:year|month|week|summer|winter|spring|autumn|fall)|(?:since|in|for) [\p{L}\p{N}]+(?: [\p{L}\p{N}]+)?|[\p{L}\p{N}]+ (?:years?|months?|weeks?) ago)`;
/** The partner said after a status: "to Sam", "with their high school sweetheart". */
const STATUS_PARTNER = String.raw`(?:to|with) [\p{L}\p{N}'-]+(?: [\p{L}\p{N}'-]+){0,3}`;

/**
 * "the user <said>" a relationship status: `said` ends the clause, or is followed only by a time
 * or the partner. "is engaged in a research project", "is single-handedly running the shop", "is
 * separated from the team" are no statuses.
 */
function statusPattern(said: string): RegExp {
  return new RegExp(`^the user ${said}(?: ${STATUS_TIME}| ${STATUS_PARTNER})?${CLAUSE_END}`, 'u');
}

/**
 * Relationship statuses, each a side of having a partner: "is single", "broke up with their
 * boyfriend" ↔ "is married", "is dating Sam". A status ends its clause ({@link statusPattern});
 * a break-up is one with a partner ({@link PARTNER}), not with "their band" or "their business
 * partner". On the default exclusive topic `relationship` the topic's rule governs them; where
 * `relationship` is not exclusive, or the extractor filed one elsewhere, "is single" ends "has a
 * boyfriend" by this slot.
 */
const STATUSES: readonly [RegExp, 1 | -1][] = [
  [statusPattern('(?:is|has been|is now) (?:single|divorced|separated|widowed|a widow|a widower)'), -1],
  [statusPattern(`(?:broke|split|has broken|has split) up with (?:their|his|her) (?:long-term |longtime |long-distance )?(?:${[...PARTNER].join('|')})`), -1],
  [statusPattern('(?:is|got|has got|is now) (?:married|engaged|in a relationship)'), 1],
  [/^the user is dating /u, 1],
];

/** Nouns any plan is: "trip", "holiday". */
const PLAN_NOUNS = new Set(['trip', 'trips', 'plan', 'plans', 'holiday', 'holidays', 'vacation', 'journey', 'visit']);

/** The base form of a third-person verb phrase: "plays" → "play", "goes to" → "go to", "has" → "have", "is into" → "be into". */
function baseForm(phrase: string): string {
  const [first = '', ...rest] = phrase.split(' ');
  const irregular: Record<string, string> = { is: 'be', has: 'have', does: 'do', goes: 'go' };
  let base = irregular[first];
  if (base === undefined) {
    if (/(?:ches|shes|sses|xes)$/u.test(first)) base = first.slice(0, -2);
    else if (/[^aeiou]ies$/u.test(first)) base = `${first.slice(0, -3)}y`;
    else if (first.endsWith('s') && !first.endsWith('ss')) base = first.slice(0, -1);
    else base = first;
  }
  return [base, ...rest].join(' ');
}

interface Verb {
  phrase: string;
  kind: SlotKind;
  polarity: 1 | -1;
  /** The verb's own stem, part of what the fact is about (ACTIVITIES), or ''. */
  activity: string;
}

function verbTable(form: (phrase: string) => string): Verb[] {
  const verbs: Verb[] = VERBS.flatMap(([kind, polarity, phrases]) => phrases.map((phrase) => ({ phrase: form(phrase), kind, polarity, activity: '' })));
  for (const phrase of ACTIVITIES) verbs.push({ phrase: form(phrase), kind: 'do', polarity: 1, activity: stem(baseForm(phrase).replace(/^be /u, '').split(' ')[0]!) });
  // Longest first: the verb a fact opens with is the longest phrase it starts with.
  return verbs.sort((a, b) => b.phrase.length - a.phrase.length);
}

const THIRD_PERSON = verbTable((phrase) => phrase);
const BASE = verbTable(baseForm);

/** The words a statement is about (see the module comment), stemmed and sorted; '' when none. */
function aboutOf(rest: string, verb: Verb, polarity: 1 | -1): string {
  let words = (rest.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !FILLER.has(word) && !/^\d/u.test(word));
  // "stopped playing the guitar" is about the guitar; "quit smoking" is about smoking.
  if (polarity === -1 && words.length > 1 && words[0]!.endsWith('ing')) words = words.slice(1);
  // "cancelled the Japan trip" is about what "is going to Japan" is: a plan's generic nouns name no plan.
  if (verb.kind === 'plan' && words.some((word) => !PLAN_NOUNS.has(word))) words = words.filter((word) => !PLAN_NOUNS.has(word));
  const stems = words.map((word) => (PARTNER.has(word) ? 'partner' : stem(word)));
  // "no longer smokes" is about smoking, as "smokes too much" is.
  if (verb.activity !== '' && (polarity === 1 || stems.length === 0)) stems.push(verb.activity);
  return [...new Set(stems)].sort().join(' ');
}

/** The verb `said` opens with in `table`, or undefined. */
function verbOf(said: string, table: readonly Verb[]): Verb | undefined {
  return table.find((verb) => said === verb.phrase || said.startsWith(`${verb.phrase} `));
}

/**
 * What follows "is over" when it says no dislike: a number ("over 40", "over forty", "over six
 * feet tall"), a measure or an idiom ("over the age of 18", "over the moon", "over the top", "over
 * the limit"), or a pronoun that names nothing ("over it"). "is over true crime", "is over their
 * ex" read as dislikes.
 */
const NOT_OVER =
  /^ (?:\d|(?:a |one |two |three |four |five |six |seven |eight |nine |ten )?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|half|dozen)\b|the (?:moon|age|top|limit|hill|hump|worst)\b|(?:here|there|it|this|that|them|you)$)/u;

/** The slot of "the user <said>" (lower-cased, no final stop), reading past adverbs and flips. */
function readSaid(said: string, opening: readonly Verb[] = THIRD_PERSON): Slot | undefined {
  let text = said;
  while (ADVERB.test(text)) text = text.replace(ADVERB, '');
  let flip = false;
  let table = opening;
  const flipped = FLIPS.find(([prefix]) => text.startsWith(prefix));
  if (flipped) {
    const [prefix, rest] = flipped;
    flip = true;
    text = `${rest === 'is' ? 'is ' : ''}${text.slice(prefix.length)}`;
    table = rest === 'base' ? BASE : THIRD_PERSON;
    while (ADVERB.test(text)) text = text.replace(ADVERB, '');
  }
  const verb = verbOf(text, table);
  if (verb === undefined) return undefined;
  // "stopped by the shop", "stopped off in Leeds": a visit, no stop.
  if (verb.polarity === -1 && /^(?:stopped|has stopped|is stopping) (?:by|at|off|in|over)\b/u.test(text)) return undefined;
  // "is over 40", "is over the moon", "is over six feet tall": no dislike (NOT_OVER).
  if (verb.phrase === 'is over' && NOT_OVER.test(text.slice('is over'.length))) return undefined;
  const polarity = (flip ? -verb.polarity : verb.polarity) as 1 | -1;
  const about = aboutOf(text.slice(verb.phrase.length), verb, polarity);
  return about === '' ? undefined : { kind: verb.kind, about, polarity };
}

/**
 * What {@link slotOf} read of a fact object, kept while the object lives (a WeakMap holds no text
 * the object does not): a decider compares one candidate with each memory of its sweep, and the
 * reading (verb tables, stemming) cost more than the rest of a long ingest together.
 */
const read = new WeakMap<object, { topic: string; content: string; slot: Slot | undefined }>();

/** The slot `fact` fills, or undefined (see the module comment). Episodes and session summaries have none. */
export function slotOf(fact: { topic: string; content: string }): Slot | undefined {
  const known = read.get(fact);
  if (known !== undefined && known.topic === fact.topic && known.content === fact.content) return known.slot;
  const slot = readSlot(fact);
  read.set(fact, { topic: fact.topic, content: fact.content, slot });
  return slot;
}

function readSlot(fact: { topic: string; content: string }): Slot | undefined {
  if (fact.topic === EPISODE_TOPIC || fact.topic === SESSION_SUMMARY_TOPIC) return undefined;
  const text = fact.content
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(/[.!\s]+$/u, '')
    .trim();
  for (const [kind, pattern] of ENDED) {
    const ended = pattern.exec(text);
    if (!ended) continue;
    const about = aboutOf(ended[1]!, { phrase: '', kind, polarity: -1, activity: '' }, -1);
    return about === '' ? undefined : { kind, about, polarity: -1 };
  }
  const status = STATUSES.find(([pattern]) => pattern.test(text));
  if (status !== undefined) return { kind: 'have', about: 'partner', polarity: status[1] };
  if (!text.startsWith('the user ')) return undefined;
  const said = text.slice('the user '.length);
  // "The user and others play covers at bars", "The user and their gf are going to Japan": the user's doing too.
  const together = /^and (?:others|their [\p{L}\p{N}'-]+|[\p{L}\p{N}'-]+) (.+)$/u.exec(said);
  if (together === null) return readSaid(said);
  const rest = together[1]!.replace(/^are /u, 'is ').replace(/^were /u, 'was ');
  return readSaid(rest) ?? readSaid(rest, BASE);
}

/** Kinds whose facts can be about one thing: `do` and `have` ("gave up my allotment" after "has an allotment"). */
function family(kind: SlotKind): string {
  return kind === 'have' ? 'do' : kind;
}

/** The topics a slot's facts may be on (an extractor files "quit the choir" under event, "sings in a choir" under hobby): what the sweep reads for one. */
const HELD_TOPICS = ['hobby', 'routine', 'event', 'education', 'work', 'health', 'preference', 'possession', 'pets', 'family', 'trip', 'general'] as const;
export const SLOT_TOPICS: Readonly<Record<SlotKind, readonly string[]>> = Object.freeze({
  like: ['preference', 'hobby', 'routine', 'event', 'general'],
  // One family: "gave up my allotment" (do) ends "has an allotment" (have), on whichever topic.
  do: HELD_TOPICS,
  have: HELD_TOPICS,
  plan: ['plan', 'trip', 'event', 'hobby', 'general'],
});

/** The slot a fact on a topic that is not exclusive fills (exclusive topics have their own rule), or undefined. */
export function sharedSlot(fact: { topic: string; content: string }, exclusiveTopics: ReadonlySet<string>): Slot | undefined {
  return exclusiveTopics.has(fact.topic) ? undefined : slotOf(fact);
}

/** The key of a fact's slot: its kind's family and what it is about ('' for no slot), whatever the fact's topic. Two keys are one slot when {@link slotsMeet}. */
export function anySlotKey(fact: { topic: string; content: string }): string {
  const slot = slotOf(fact);
  return slot === undefined ? '' : `${family(slot.kind)}:${slot.about}`;
}

/** {@link anySlotKey} of a fact on a topic that is not exclusive ('' on an exclusive one). */
export function slotKey(fact: { topic: string; content: string }, exclusiveTopics: ReadonlySet<string>): string {
  return exclusiveTopics.has(fact.topic) ? '' : anySlotKey(fact);
}

/** Whether every word of `part` is a word of `whole` (both as {@link Slot} `about`). */
function within(part: string, whole: string): boolean {
  const words = new Set(whole.split(' '));
  return part.split(' ').every((word) => words.has(word));
}

/** Whether two slot keys ({@link anySlotKey}) may be one slot: one family, and what one is about is within what the other is about. What the sweep gathers; {@link changesMind} decides. */
export function slotsMeet(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const [familyA, aboutA = ''] = a.split(':');
  const [familyB, aboutB = ''] = b.split(':');
  return familyA === familyB && (within(aboutA, aboutB) || within(aboutB, aboutA));
}

/**
 * The index keys of a slot key ({@link anySlotKey}, "family:about"): its family with each word of
 * what it is about. Two slots that meet ({@link slotsMeet}: one family, one's words within the
 * other's) share at least one such key, so an index or a partition by these keys holds every slot that meets it
 * (a superset: the working set filters it with slotsMeet).
 */
export function slotWords(slot: string): string[] {
  if (slot === '') return [];
  const [family, about = ''] = slot.split(':');
  return [...new Set(about.split(' '))].map((word) => `${family}:${word}`);
}

/** How a reason names a slot: "what the user does: choir". */
export function describeSlot(fact: { topic: string; content: string }): string {
  const slot = slotOf(fact);
  if (slot === undefined) return '';
  const kinds: Record<SlotKind, string> = { like: 'what the user likes', do: 'what the user does', have: 'what the user has', plan: "the user's plans" };
  return `${kinds[slot.kind]}: ${slot.about}`;
}

/**
 * Whether `later` changes the user's mind on what `earlier` said (on topics that are not
 * exclusive): one kind (or `do` and `have`), the other polarity, and the negative side about
 * nothing the positive side is not ("quit the choir" after "sings alto in a choir on tuesdays").
 * The same side said again in other words ("likes jazz", "loves jazz") is no change of mind.
 */
export function changesMind(later: { topic: string; content: string }, earlier: { topic: string; content: string }, exclusiveTopics: ReadonlySet<string>): boolean {
  if (exclusiveTopics.has(later.topic) || exclusiveTopics.has(earlier.topic)) return false;
  const a = slotOf(later);
  const b = slotOf(earlier);
  if (a === undefined || b === undefined || family(a.kind) !== family(b.kind) || a.polarity === b.polarity) return false;
  const [negative, positive] = a.polarity === -1 ? [a, b] : [b, a];
  return within(negative.about, positive.about);
}
