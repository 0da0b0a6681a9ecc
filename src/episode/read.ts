/**
 * What of a turn the extractor read: an episode is kept only for a turn that says something its
 * facts do not (one statement, one memory). A turn's personal sentence (./small-talk.ts) is read
 * when the facts taken from that turn (those whose excerpt is the turn's own words) hold its
 * content words: at least {@link READ_SHARE} of them, compared by {@link contentStems}. A turn
 * all of whose personal sentences are read keeps no episode: its facts carry what it said, each
 * with the turn's words and date in its provenance (`sources[].excerpt`, `at`). A sentence the
 * extractor took nothing from, or only part of ("I live in Berlin and my cat hates the vet":
 * the cat is not read), keeps the episode, so nothing the user said is lost.
 *
 * The rule reads the candidates, not the extractor's internals, so it holds for any extractor
 * (an LLM's excerpt that is not the turn's words reads nothing, and the episode stays); it runs
 * where the episodes are made (verbs/write-input.ts `candidatesOf`), so a replay rebuilds the
 * same episodes.
 */
import type { Candidate } from '../schema';
import { wordsOf } from '../text';

/**
 * The least share of a personal sentence's content words the turn's facts must hold for it to
 * count as read. Tuned on the conversation suite's dev half (docs/extraction.md, "Episodes"): a
 * fact rewrites the user's words ("im a nurse" → "The user works as a nurse"), so not all of
 * them come back, but a clause left unread leaves most of its own out.
 */
export const READ_SHARE = 0.7;

/**
 * Words that carry no statement of their own: function words, pronouns, auxiliaries, chat
 * fillers, and the words a fact's template adds ("the user"). Stems, as {@link stem} makes them.
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but so if then than as at by for from in into of on onto to up with without about over under after before since until while ' +
    'i im me my mine myself we our ours us you your u ur he him his she her they them their it its this that these those there here who whom which what ' +
    'is are was were be been being am do did does doing have had has having will would can could should shall may might must gonna wanna gotta ' +
    'not no nor yes yeah yep ok okay just really very so too also still even quite pretty bit lot lots kinda sorta well now then today ' +
    'lol haha hah omg tbh btw ngl idk imo oh ah um hmm like user'
  )
    .split(' ')
    .map(stem),
);

/** A word's stem for comparison: lower-cased, a trailing -ing, -ed, -es or -s dropped, then a trailing -e ("lives", "lived", "living", "live" → "liv"). */
function stem(word: string): string {
  if (word.length <= 3) return word;
  const bare = word.replace(/(?:ing|ed|es|s)$/, '');
  return (bare.length > 2 ? bare : word).replace(/e$/, '');
}

/** The content words of `text`, stemmed, without {@link FUNCTION_WORDS}. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  // A contraction's tail is no word of its own ("I'm" is "I", "don't" is "do not").
  const plain = text
    .replace(/[\u2018\u2019\u02BC]/g, "'")
    .replace(/n't\b/gi, ' not')
    .replace(/'(?:s|m|re|ve|d|ll)\b/gi, '');
  for (const word of wordsOf(plain)) {
    const stemmed = stem(word);
    if (!FUNCTION_WORDS.has(stemmed)) out.add(stemmed);
  }
  return out;
}

/** `text` folded as an episode and an excerpt compare: whitespace runs to one space, lower-cased. */
function folded(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The facts of `facts` read from `turn`: those whose excerpt (its "…" off) is the turn's own words. */
export function factsOfTurn(turn: string, facts: readonly Candidate[]): Candidate[] {
  const said = folded(turn);
  return facts.filter((fact) => {
    const excerpt = folded(fact.excerpt.replace(/…$/, ''));
    return excerpt.length > 0 && said.includes(excerpt);
  });
}

/** The share of `words` that `held` holds (1 for no words: a sentence of function words says nothing more). */
export function heldShare(words: ReadonlySet<string>, held: ReadonlySet<string>): number {
  if (words.size === 0) return 1;
  let count = 0;
  for (const word of words) if (held.has(word)) count++;
  return count / words.size;
}

/**
 * Whether every one of `sentences` (a turn's personal sentences) is read into `facts` (the
 * facts taken from that turn, {@link factsOfTurn}); false when the turn yielded no fact.
 */
export function allRead(sentences: readonly string[], facts: readonly Candidate[]): boolean {
  if (facts.length === 0) return false;
  const held = new Set<string>();
  for (const fact of facts) for (const word of contentStems(fact.content)) held.add(word);
  return sentences.every((sentence) => heldShare(contentStems(sentence), held) >= READ_SHARE);
}
