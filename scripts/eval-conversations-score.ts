/**
 * The conversation suite's scorer (issue 42): what a store holds after a session against what
 * it should hold. Pure functions over plain items, so the unit test builds store states by hand.
 *
 * Matching: a fact item matches an expected fact when its content words hold at least
 * MATCH_SHARE of the expected fact's content words (strict: and the same topic; loose: any
 * topic); of several, the best share (ties: a current fact over a superseded one). An expected
 * fact's `a|b` is one word slot either word fills (factSlots). Content words: lower-cased runs of letters and digits, a possessive 's and a plural s dropped, less
 * STOP_WORDS (function words, "user", and verbs that say where or how a fact holds without
 * being the fact: lives, works, follows, …). An episode is scored by the turn it was kept from
 * (its source): the facts that turn states. An item kept from turns that state no fact is noise.
 */
export const MATCH_SHARE = 0.6;

const STOP_WORDS = new Set(
  (
    'a an the user users is are was were be been being am has have had having do does did to of in at on for with and or but by from as into about ' +
    'their they them his her he she it its this that these those my i me we our you your now currently still also very really just who which there here some any ' +
    'lives live living moved move based works work working job named called name diet follows follow eats eat goes go plans plan pretty quite'
  ).split(' '),
);

function normalizeWord(word: string): string {
  return word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word) ? word.slice(0, -1) : word;
}

function rawWords(text: string, keep = ''): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(new RegExp(`[^\\p{L}\\p{N}${keep}]+`, 'u'))
    .filter((word) => word.length > 0);
}

/** The words of `text` that carry a fact (see the module's comment). */
export function contentWords(text: string): Set<string> {
  return new Set(
    rawWords(text)
      .filter((word) => !STOP_WORDS.has(word))
      .map(normalizeWord)
      .filter((word) => !STOP_WORDS.has(word)),
  );
}

/**
 * The slots of an expected fact: its content words, where `a|b|c` is one slot any of whose words
 * fills it (the ways a user or an extractor says one thing: "quit|left the choir").
 */
export function factSlots(text: string): string[][] {
  return rawWords(text, '|')
    .map((token) =>
      token
        .split('|')
        .filter((word) => word.length > 0 && !STOP_WORDS.has(word))
        .map(normalizeWord)
        .filter((word) => !STOP_WORDS.has(word)),
    )
    .filter((slot) => slot.length > 0);
}

/** The share of `expected`'s slots that `item`'s words fill (0 when it has none). */
export function coverage(item: ReadonlySet<string>, expected: readonly (readonly string[])[]): number {
  if (expected.length === 0) return 0;
  return expected.filter((slot) => slot.some((word) => item.has(word))).length / expected.length;
}

export type Mode = 'strict' | 'loose';

/** A stored memory as the scorer sees it. */
export interface Item {
  id: string;
  topic: string;
  content: string;
  /** Source ids: the user turns it was read from. */
  sources: readonly string[];
}

export interface ExpectedFact {
  id: string;
  topic: string;
  content: string;
}

/** What the store should hold, and what each user turn said. */
export interface Expected {
  facts: readonly ExpectedFact[];
  current: ReadonlySet<string>;
  superseded: ReadonlySet<string>;
  /** Per user turn (source id): the facts it states, and whether it was aimed at the memory. */
  turns: ReadonlyMap<string, { states: readonly string[]; instruction: boolean }>;
}

/**
 * What an item is: `right` (a current fact, the first item to hold it), `duplicate` (a current
 * fact an item scored before already holds), `stale` (presents a superseded fact), `noise` (kept
 * from turns that state no fact), `wrong` (from a turn that states facts, but none it matches).
 */
export type Verdict = 'right' | 'duplicate' | 'stale' | 'noise' | 'wrong';

export interface Scored {
  item: Item;
  verdict: Verdict;
  /** The expected facts the item presents as current (a fact: its match; an episode: its turn's facts). */
  presents: string[];
  /** Whether it came from a turn aimed at the memory. */
  instruction: boolean;
}

const EPISODE = 'episode';
const wordsOf = new Map<string, Set<string>>();
function cachedWords(text: string): Set<string> {
  let words = wordsOf.get(text);
  if (!words) wordsOf.set(text, (words = contentWords(text)));
  return words;
}
const slotsOf = new Map<string, string[][]>();
function cachedSlots(text: string): string[][] {
  let slots = slotsOf.get(text);
  if (!slots) slotsOf.set(text, (slots = factSlots(text)));
  return slots;
}

/**
 * The expected facts (current or superseded) a fact item holds, best share first (ties: current
 * first). `among` limits them to the facts its own turns state, so a fact read from the wrong turn
 * ("my sister lives in Lagos" stored as the user's home) is wrong, not credited to another turn.
 */
export function matches(item: Item, expected: Expected, mode: Mode, among?: readonly string[]): string[] {
  const words = cachedWords(item.content);
  const found: { id: string; share: number; current: boolean }[] = [];
  for (const fact of expected.facts) {
    if (!expected.current.has(fact.id) && !expected.superseded.has(fact.id)) continue;
    if (among && !among.includes(fact.id)) continue;
    if (mode === 'strict' && fact.topic !== item.topic) continue;
    const share = coverage(words, cachedSlots(fact.content));
    if (share >= MATCH_SHARE) found.push({ id: fact.id, share, current: expected.current.has(fact.id) });
  }
  found.sort((a, b) => b.share - a.share || Number(b.current) - Number(a.current));
  return found.map((f) => f.id);
}

function fromTurns(item: Item, expected: Expected): { states: string[]; instruction: boolean; known: boolean } {
  const turns = item.sources.map((id) => expected.turns.get(id)).filter((turn) => turn !== undefined);
  return { states: [...new Set(turns.flatMap((turn) => turn.states))], instruction: turns.some((turn) => turn.instruction), known: turns.length > 0 };
}

/** Scores every item of a store: facts first (in the given order), then episodes, so an episode whose facts a kept fact holds is the duplicate. */
export function scoreStore(items: readonly Item[], expected: Expected, mode: Mode): Scored[] {
  const claimed = new Set<string>();
  const scored = new Map<Item, Scored>();
  for (const item of items.filter((i) => i.topic !== EPISODE)) {
    const turns = fromTurns(item, expected);
    // An item read from turns that state no fact is noise whatever its words (sarcasm: "i love working nights 🙄").
    const best = turns.states.length === 0 ? undefined : matches(item, expected, mode, turns.states)[0];
    let verdict: Verdict;
    if (turns.states.length === 0) verdict = 'noise';
    else if (best === undefined) verdict = 'wrong';
    else if (expected.superseded.has(best)) verdict = 'stale';
    else if (claimed.has(best)) verdict = 'duplicate';
    else verdict = 'right';
    if (best !== undefined) claimed.add(best);
    scored.set(item, { item, verdict, presents: best === undefined ? [] : [best], instruction: turns.instruction });
  }
  for (const item of items.filter((i) => i.topic === EPISODE)) {
    const turns = fromTurns(item, expected);
    const presents = turns.states.filter((id) => expected.current.has(id) || expected.superseded.has(id));
    const carried = presents.filter((id) => expected.current.has(id));
    let verdict: Verdict;
    if (presents.length === 0) verdict = turns.states.length === 0 ? 'noise' : 'wrong';
    else if (presents.some((id) => expected.superseded.has(id))) verdict = 'stale';
    else if (carried.every((id) => claimed.has(id))) verdict = 'duplicate';
    else verdict = 'right';
    for (const id of carried) claimed.add(id);
    scored.set(item, { item, verdict, presents, instruction: turns.instruction });
  }
  return items.map((item) => scored.get(item)!);
}

/**
 * The current facts the store holds: strict, as a fact item of the same topic; loose, as any item
 * (a fact of any topic, or an episode of a turn that states it). Only facts the item's own turns
 * state count: an item of a noise turn recalls nothing.
 */
export function recalled(items: readonly Item[], expected: Expected, mode: Mode): Set<string> {
  const held = new Set<string>();
  for (const item of items) {
    const { states } = fromTurns(item, expected);
    if (item.topic === EPISODE) {
      if (mode === 'loose') for (const id of states) held.add(id);
    } else if (states.length > 0) for (const id of matches(item, expected, mode, states)) held.add(id);
  }
  return new Set([...held].filter((id) => expected.current.has(id)));
}

/**
 * Whether a change of mind is applied: no item presents the old fact, and an item holds the new
 * one (loose). `factsOnly` looks at the fact items alone (episodes left out of both sides).
 */
export function changeApplied(scored: readonly Scored[], change: readonly [string, string], expected: Expected, factsOnly = false): boolean {
  const looked = factsOnly ? scored.filter((s) => s.item.topic !== EPISODE) : scored;
  const stillPresented = looked.some((s) => s.presents.includes(change[0]));
  return (
    !stillPresented &&
    recalled(
      looked.map((s) => s.item),
      expected,
      'loose',
    ).has(change[1])
  );
}

/**
 * The hits of a ranked list that repeat a statement ranked above them: a hit whose statements
 * (the expected facts it presents, or else its own content words) are all among the statements
 * of the hits above it: a fact and the episode it was read from, two facts of one content.
 */
export function duplicateHits(hits: readonly Scored[]): Scored[] {
  const seen = new Set<string>();
  const repeated: Scored[] = [];
  for (const hit of hits) {
    const statements = hit.presents.length > 0 ? hit.presents : [`text:${[...cachedWords(hit.item.content)].sort().join(' ')}`];
    if (statements.every((s) => seen.has(s))) repeated.push(hit);
    for (const s of statements) seen.add(s);
  }
  return repeated;
}

/**
 * The memory lines of an injected block that present a superseded fact: each line of the
 * `<MEMORIES>` block is traced to the hit whose content it writes (words compared, so the
 * block's escaping does not matter) and counted when that hit is stale.
 */
export function staleLines(block: string, hits: readonly Scored[]): string[] {
  const plain = (text: string) =>
    text
      .replace(/&(amp|lt|gt|#\d+);/g, ' ')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0)
      .join(' ');
  const lines = block.split('\n').filter((line) => line.startsWith('- ['));
  return lines.filter((line) => {
    const text = plain(line.replace(/^- \[[^\]]*\] (\(\d{4}-\d{2}-\d{2}\) )?/, ''));
    const hit = hits.find((h) => plain(h.item.content) === text);
    return hit?.verdict === 'stale';
  });
}
