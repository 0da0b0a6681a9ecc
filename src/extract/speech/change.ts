/**
 * Changes of mind said of a thing rather than by the user's own verb: "the half marathon is
 * off", "the band split up", "my bike got stolen", "somebody stole my bike", "we broke up",
 * "we're engaged". Each is written in the form the consolidation's slot rule reads
 * (src/consolidate/slot.ts `ENDED`: "The user's <thing> is cancelled / split up / was stolen /
 * passed away"), so it replaces what the user said of that thing before ("is signing up for
 * the half marathon", "plays bass in a band", "goes everywhere with their bike").
 *
 * A thing that ended is read where its determiner ("the", "my", "our") opens the clause or
 * follows a conjunction inside it ("pulled my calf so the half marathon is off"); what follows
 * the ending ("obviously", "on friday") is not part of the fact.
 */
import type { Topic } from '../topics';
import { isPet, RELATIVES } from './lexicon';
import { draft, objectAt, sentence, type Draft, type Reading } from './phrase';
import type { Token } from './tokens';

type Ending = { words: readonly string[]; as: string; kind: 'plan' | 'have' | 'do' };

/** How a thing of the user's ends, as typed, and as the fact writes it. */
const ENDINGS: readonly Ending[] = [
  ...[
    'is off',
    "'s off",
    'is cancelled',
    'is canceled',
    'was cancelled',
    'was canceled',
    'got cancelled',
    'got canceled',
    'has been cancelled',
    'has been canceled',
    'is called off',
    'was called off',
    'got called off',
    'fell through',
    'has fallen through',
    'is not happening',
    "isn't happening",
    'isnt happening',
    'is no longer happening',
    'is not going ahead',
    "isn't going ahead",
    'is not going to happen',
    "isn't going to happen",
  ].map((typed): Ending => ({ words: typed.split(' '), as: 'is cancelled', kind: 'plan' })),
  ...['passed away', 'has passed away', 'died', 'has died', 'was put down', 'had to be put down'].map((typed): Ending => ({ words: typed.split(' '), as: 'passed away', kind: 'have' })),
  ...['was stolen', 'got stolen', 'has been stolen', 'got nicked', 'was nicked'].map((typed): Ending => ({ words: typed.split(' '), as: 'was stolen', kind: 'have' })),
  ...['was written off', 'got written off', 'has been written off'].map((typed): Ending => ({ words: typed.split(' '), as: 'was written off', kind: 'have' })),
  ...['split up', 'has split up', 'broke up', 'has broken up', 'disbanded', 'has disbanded', 'folded', 'shut down', 'has shut down', 'closed down', 'has closed down'].map(
    (typed): Ending => ({ words: typed.split(' '), as: typed.replace(/^has /u, '').replace('broken', 'broke'), kind: 'do' }),
  ),
];

const OWNERS: Readonly<Record<string, string>> = { the: "The user's", my: "The user's", our: "The user's" };
/** Where inside a clause a new statement starts: after these a determiner opens one ("… so the gig is off"). */
const JOINS = new Set([',', 'and', 'but', 'so', 'because', 'cause', 'cos', 'coz', 'cuz', 'bc', 'plus', 'now', 'then', 'sadly', 'unfortunately', 'anyway']);
/** Words no name of a thing holds: verbs, pronouns, negations. */
const NOT_THING = new Set(['is', 'was', 'are', 'were', "'s", 'has', 'have', 'had', 'got', 'i', 'you', 'he', 'she', 'it', 'we', 'they', 'not', 'no', 'and', 'or', 'but', 'so', 'to', 'of', 'that', 'which', 'who', ',', ':']);
/** Things that are no one's own: "the weather is off", "the power is off". */
const NOT_OWN = new Set(['weather', 'power', 'electricity', 'wifi', 'internet', 'heating', 'water', 'light', 'lights', 'tv', 'phone', 'game', 'match', 'milk', 'news', 'world', 'sun', 'rain']);
/** Where a thing was stolen from ends its name: "stole my bike from outside the library". */
const PLACE_WORDS = new Set(['from', 'outside', 'at', 'in', 'on', 'off', 'out', 'while', 'when', 'last', 'yesterday', 'today']);
const THIEVES = new Set(['someone', 'somebody', 'they', 'thieves', 'burglars', 'some']);
const MAX_THING = 4;

/** The topic of a thing that ended: a pet, a plan, a possession, or something the user did. */
function topicOf(kind: Ending['kind'], thing: readonly string[]): Topic {
  if (kind === 'have') return thing.some(isPet) ? 'pets' : thing.some((w) => RELATIVES.has(w)) ? 'family' : 'possession';
  return kind === 'plan' ? 'plan' : 'hobby';
}

function endingAt(reading: Reading, at: number): Ending | undefined {
  const { tokens } = reading;
  return ENDINGS.filter((ending) => ending.words.every((word, k) => tokens[at + k]?.w === word)).sort((a, b) => b.words.length - a.words.length)[0];
}

/** "<the|my|our> <thing> <ending>" at `at`, or undefined. */
function thingEnded(reading: Reading, at: number, first: number): Draft | undefined {
  const { tokens } = reading;
  const owner = OWNERS[tokens[at]?.w ?? ''];
  if (owner === undefined) return undefined;
  for (let end = at + 1; end <= at + MAX_THING && end < tokens.length; end++) {
    const w = tokens[end]!.w;
    // "the trip's off": the thing's last word carries the "is".
    const carried = w.endsWith("'s") && tokens[end + 1]?.w === 'off' ? w.slice(0, -2) : undefined;
    const thing = [...tokens.slice(at + 1, end).map((token) => token.w), ...(carried === undefined ? [] : [carried])];
    const ending = carried === undefined ? endingAt(reading, end) : ENDINGS[0];
    if (ending !== undefined && thing.length > 0) {
      if (thing.some((word) => NOT_THING.has(word) || !/^[\p{L}\p{N}][\p{L}\p{N}'-]*$/u.test(word)) || (tokens[at]!.w === 'the' && thing.some((word) => NOT_OWN.has(word)))) return undefined;
      // "my girlfriend broke up (with me)": a person who split up is the relationship's (couple), no thing of the user's.
      if (ending.kind === 'do' && thing.some((word) => RELATIVES.has(word) || PARTNERS.has(word))) return undefined;
      const last = carried === undefined ? end + ending.words.length - 1 : end + 1;
      const named = tokens.slice(at + 1, end + (carried === undefined ? 0 : 1)).map((token) => token.raw);
      if (carried !== undefined) named[named.length - 1] = named.at(-1)!.slice(0, -2);
      // "my grandmother passed away last year": the time said after the ending is the fact's.
      const when = objectAt(reading, last + 1, 6).time;
      return draft(topicOf(ending.kind, thing), sentence(`${owner} ${named.join(' ')}`, ending.as, when), 0.75, first, last);
    }
    if (NOT_THING.has(w)) return undefined;
  }
  return undefined;
}

/** "somebody stole my bike", "someone nicked my phone": the user's thing was stolen. */
function stolen(reading: Reading, i: number): Draft | undefined {
  const { tokens } = reading;
  let at = i;
  if (!THIEVES.has(tokens[at]?.w ?? '')) return undefined;
  if (tokens[at]!.w === 'some') at++;
  const verb = tokens[at + 1]?.w;
  if ((verb !== 'stole' && verb !== 'nicked' && verb !== 'took') || tokens[at + 2]?.w !== 'my') return undefined;
  const thing: Token[] = [];
  for (const token of tokens.slice(at + 3, at + 3 + MAX_THING)) {
    if (NOT_THING.has(token.w) || PLACE_WORDS.has(token.w)) break;
    thing.push(token);
  }
  if (thing.length === 0) return undefined;
  return draft(
    topicOf(
      'have',
      thing.map((token) => token.w),
    ),
    `The user's ${thing.map((token) => token.raw).join(' ')} was stolen.`,
    0.75,
    i,
    at + 2 + thing.length,
  );
}

const PARTNERS = new Set(['partner', 'boyfriend', 'girlfriend', 'bf', 'gf', 'wife', 'husband', 'fiance', 'fiancee', 'fiancé', 'fiancée', 'spouse', 'ex']);
const WE = new Set(['we', "we're", "we've"]);
const COUPLE_STATES = new Set(['engaged', 'married', 'divorced', 'separated']);

/**
 * The user and their partner, as one: "we broke up", "me and my girlfriend split up", "we're
 * engaged", "we got married". A relationship status (an exclusive topic), so it replaces the last.
 */
function couple(reading: Reading, i: number): Draft | undefined {
  const { tokens } = reading;
  const w = tokens[i]?.w;
  let at: number;
  let partner = 'partner';
  if (WE.has(w ?? '')) at = i + 1;
  else if (w === 'me' && tokens[i + 1]?.w === 'and' && tokens[i + 2]?.w === 'my' && PARTNERS.has(tokens[i + 3]?.w ?? '')) {
    partner = tokens[i + 3]!.raw;
    at = i + 4;
  } else return undefined;
  while (['just', 'finally', 'officially', 'actually', 'have', 'are', 'got', 'recently'].includes(tokens[at]?.w ?? '')) {
    if (tokens[at]!.w === 'got' && COUPLE_STATES.has(tokens[at + 1]?.w ?? '')) break;
    at++;
  }
  const state = tokens[at]?.w === 'got' ? tokens[at + 1]?.w : w === "we're" || tokens[at - 1]?.w === 'are' ? tokens[at]?.w : undefined;
  if (state !== undefined && COUPLE_STATES.has(state)) return draft('relationship', `The user is ${state}.`, 0.8, i, tokens[at]?.w === 'got' ? at + 1 : at);
  const verb = tokens[at]?.w;
  if ((verb === 'broke' || verb === 'broken' || verb === 'split') && tokens[at + 1]?.w === 'up') return draft('relationship', `The user broke up with their ${partner}.`, 0.8, i, at + 1);
  return undefined;
}

/** The changes of mind of one clause whose statement starts at `from` (see the module comment). */
export function changeFacts(reading: Reading, from: number): Draft[] {
  const { tokens } = reading;
  const drafts: Draft[] = [];
  const opening = couple(reading, from) ?? stolen(reading, from);
  if (opening !== undefined) drafts.push(opening);
  for (let k = from; k < tokens.length; k++) {
    // "… and i said yes we are engaged": "we" starts a statement of its own.
    const together = k > from && WE.has(tokens[k]!.w) ? couple(reading, k) : undefined;
    if (together !== undefined) drafts.push(together);
    if (k !== from && !JOINS.has(tokens[k - 1]!.w)) continue;
    const ended = thingEnded(reading, k, k);
    if (ended !== undefined) drafts.push(ended);
  }
  return drafts;
}
