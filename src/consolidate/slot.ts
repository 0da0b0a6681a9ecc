/**
 * Slots: exclusivity of what a statement is about, not of a whole topic. "The user sings in a
 * choir" and "The user quit the choir" are about one thing (the choir, as something the user
 * does), so the later replaces the earlier, whatever topic each landed on (hobby, event); "The
 * user loves hiking" and "The user loves jazz" are about two things, and stay side by side.
 *
 * A slot is read from a fact's text (the canonical "The user …" sentence every extractor
 * writes), so any extractor's facts have one, and a replay reads the same slots:
 * - its kind, a verb family with a positive and a negative side: `like` (loves, enjoys ↔ hates,
 *   no longer likes, used to love), `do` (plays, sings in, goes to ↔ quit, stopped, gave up on,
 *   dropped out of), `have` (has, owns ↔ sold, lost, "the user's dog … passed away") and `plan`
 *   (is planning, plans to ↔ cancelled, called off, decided not to);
 * - what it is about: the words after the verb, without articles, possessives, prepositions
 *   and "named"/"called", stemmed and sorted, so "has a dog named Rex" and "the user's dog Rex
 *   passed away" name one thing;
 * - its polarity: +1 for the positive side, −1 for the negative one. Only a fact of the other
 *   polarity replaces a slot's memory ({@link changesMind}): "loves jazz" after "likes jazz" is
 *   the same side said again, and both stay.
 *
 * Only these verbs open a slot: a fact they do not read ("The user works from home") has none
 * and consolidates as before. Exclusive topics keep their own rule (one memory per topic).
 */
import { EPISODE_TOPIC, SESSION_SUMMARY_TOPIC } from '../extract/topics';

export type SlotKind = 'like' | 'do' | 'have' | 'plan';

export interface Slot {
  kind: SlotKind;
  /** What the statement is about: its content words, stemmed, sorted, joined by spaces. */
  about: string;
  polarity: 1 | -1;
}

/** Verb phrases of each side of a kind, longest first where one begins another. */
const VERBS: readonly [SlotKind, 1 | -1, readonly string[]][] = [
  [
    'like',
    -1,
    [
      'no longer likes',
      'no longer loves',
      'no longer enjoys',
      "doesn't like",
      'does not like',
      "doesn't enjoy",
      'does not enjoy',
      "can't stand",
      'cannot stand',
      'used to like',
      'used to love',
      'used to enjoy',
      'is no longer into',
      'hates',
      'dislikes',
      'detests',
    ],
  ],
  ['like', 1, ['no longer hates', 'no longer dislikes', 'used to hate', 'used to dislike', 'really likes', 'really loves', 'loves', 'likes', 'enjoys', 'adores', 'is into', 'is a fan of', 'is fond of', 'is passionate about']],
  [
    'do',
    -1,
    [
      'gave up on',
      'gave up',
      'dropped out of',
      'quit',
      'stopped',
      'left',
      'no longer plays',
      'no longer sings in',
      'no longer goes to',
      'no longer does',
      'no longer practices',
      'is no longer in',
      'is no longer a member of',
      'used to play',
      'used to sing in',
      'used to go to',
      'used to do',
      'used to practice',
      'retired from',
    ],
  ],
  [
    'do',
    1,
    [
      'plays',
      'sings in',
      'sings with',
      'goes to',
      'practices',
      'practises',
      'does',
      'is learning',
      'learns',
      'takes',
      'attends',
      'volunteers at',
      'volunteers with',
      'is a member of',
      'belongs to',
      'is part of',
      'joined',
      'rejoined',
      'went back to',
      'started',
      'took up',
    ],
  ],
  ['have', -1, ['no longer has', 'no longer owns', 'got rid of', 'gave away', 'sold', 'lost']],
  ['have', 1, ['has got', 'has', 'owns']],
  ['plan', -1, ['is no longer planning', 'no longer plans', 'decided not to', 'decided against', 'called off', 'cancelled', 'canceled']],
  ['plan', 1, ['is planning', 'plans', 'is going to', 'intends to']],
];

/** A thing the user had that is gone: "The user's <thing> passed away / died / was sold". */
const GONE = /^the user's (.+?) (?:passed away|died|was put down|was sold|was stolen)$/u;

/** Words that say nothing of what a statement is about. */
const FILLER = new Set(['the', 'a', 'an', 'their', 'his', 'her', 'its', 'my', 'our', 'your', 'in', 'of', 'on', 'at', 'to', 'for', 'with', 'from', 'named', 'called', 'again', 'anymore', 'any', 'more', 'now', 'some']);

/** One form of a word: "olives" and "olive", "plays" and "play". */
function stem(word: string): string {
  return word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The words a statement is about (see the module comment); '' when none. A first word in -ing after a stopping verb ("stopped playing the guitar") is that verb, not the thing. */
function aboutOf(rest: string, dropGerund: boolean): string {
  let words: string[] = rest.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (dropGerund && words.length > 1 && words[0]!.endsWith('ing')) words = words.slice(1);
  return [...new Set(words.filter((word) => !FILLER.has(word)).map(stem))].sort().join(' ');
}

/** The slot `fact` fills, or undefined (see the module comment). Episodes and session summaries have none. */
export function slotOf(fact: { topic: string; content: string }): Slot | undefined {
  if (fact.topic === EPISODE_TOPIC || fact.topic === SESSION_SUMMARY_TOPIC) return undefined;
  const text = fact.content
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(/[.!\s]+$/u, '')
    .trim();
  const gone = GONE.exec(text);
  if (gone) {
    const about = aboutOf(gone[1]!, false);
    return about === '' ? undefined : { kind: 'have', about, polarity: -1 };
  }
  if (!text.startsWith('the user ')) return undefined;
  const said = text.slice('the user '.length);
  for (const [kind, polarity, verbs] of VERBS) {
    const verb = verbs.find((phrase) => said.startsWith(`${phrase} `));
    if (verb === undefined) continue;
    const about = aboutOf(said.slice(verb.length + 1), polarity === -1 || kind === 'like' || verb === 'started' || verb === 'went back to');
    return about === '' ? undefined : { kind, about, polarity };
  }
  return undefined;
}

/** The topics a slot's facts may be on (an extractor files "quit the choir" under event, "sings in a choir" under hobby): what the sweep reads for one. */
export const SLOT_TOPICS: Readonly<Record<SlotKind, readonly string[]>> = Object.freeze({
  like: ['preference', 'hobby', 'event', 'general'],
  do: ['hobby', 'routine', 'event', 'education', 'work', 'health', 'general'],
  have: ['possession', 'pets', 'family', 'health', 'event', 'general'],
  plan: ['plan', 'trip', 'event', 'general'],
});

/** The slot a fact on a topic that is not exclusive fills (exclusive topics have their own rule), or undefined. */
export function sharedSlot(fact: { topic: string; content: string }, exclusiveTopics: ReadonlySet<string>): Slot | undefined {
  return exclusiveTopics.has(fact.topic) ? undefined : slotOf(fact);
}

/** The key two facts of one slot share: its kind and what it is about ('' for no slot), whatever the fact's topic. */
export function anySlotKey(fact: { topic: string; content: string }): string {
  const slot = slotOf(fact);
  return slot === undefined ? '' : `${slot.kind}:${slot.about}`;
}

/** {@link anySlotKey} of a fact on a topic that is not exclusive ('' on an exclusive one). */
export function slotKey(fact: { topic: string; content: string }, exclusiveTopics: ReadonlySet<string>): string {
  return exclusiveTopics.has(fact.topic) ? '' : anySlotKey(fact);
}

/** How a reason names a slot: "what the user does: choir". */
export function describeSlot(fact: { topic: string; content: string }): string {
  const slot = slotOf(fact);
  if (slot === undefined) return '';
  const kinds: Record<SlotKind, string> = { like: 'what the user likes', do: 'what the user does', have: 'what the user has', plan: "the user's plans" };
  return `${kinds[slot.kind]}: ${slot.about}`;
}

/**
 * Whether `later` changes the user's mind on what `earlier` said: the same slot (on topics that
 * are not exclusive) with the other polarity ("quit the choir" after "sings in a choir"). The same
 * side said again in other words ("likes jazz", "loves jazz") is no change of mind.
 */
export function changesMind(later: { topic: string; content: string }, earlier: { topic: string; content: string }, exclusiveTopics: ReadonlySet<string>): boolean {
  if (exclusiveTopics.has(later.topic) || exclusiveTopics.has(earlier.topic)) return false;
  const a = slotOf(later);
  const b = slotOf(earlier);
  return a !== undefined && b !== undefined && a.kind === b.kind && a.about === b.about && a.polarity !== b.polarity;
}
