/**
 * Text rules that several stages must agree on: what ends a line (for the prompt renderers
 * in inject/ and extract/llm.ts) and what makes two facts "the same" (the decider, the
 * extractor's per-conversation dedupe, the erasure plan and the store's identical-fact index).
 */

/**
 * Every line terminator a model, a tokenizer or a renderer might honour (CR, LF, VT, FF, NEL,
 * LINE SEPARATOR, PARAGRAPH SEPARATOR), so one piece of user text can never start a line of its
 * own in a prompt ("SYSTEM: …").
 */
export const LINE_BREAK_CHARS = '\r\n\u000B\u000C\u0085\u2028\u2029';
const LINE_BREAKS = new RegExp(`[${LINE_BREAK_CHARS}]+`, 'g');
/** C0 and C1 controls other than the breaks above, and the bidi/format overrides that can hide text. */
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Whether the UTF-16 code `code` is one of {@link LINE_BREAK_CHARS} (for walks that test one
 * character at a time: range checks, not a lookup, because they run for every character).
 */
export function isLineBreak(code: number): boolean {
  return (code >= 0x0a && code <= 0x0d) || code === 0x85 || code === 0x2028 || code === 0x2029;
}

/** `text` as one line: every line break becomes a space, control characters are dropped. */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(CONTROL, '');
}

/** The key under which two fact texts are the same fact: trimmed, case-folded. */
export function sameFactKey(content: string): string {
  return content.trim().toLowerCase();
}

/**
 * The key under which two facts make the same claim: the same topic and the same fact
 * ({@link sameFactKey}). The extractor's per-conversation dedupe and the erasure plan's
 * support lookup both use it, so what counts as "said again" is one rule.
 */
export function sameClaimKey(fact: { topic: string; content: string }): string {
  return JSON.stringify([fact.topic, sameFactKey(fact.content)]);
}

/**
 * A word, for every stage that counts words (the hash embedder, the lexical channel, the eval's
 * BM25 baseline): letters with their combining marks, and digits. Marks belong to the word, so
 * Devanagari keeps its vowel signs ("नमस्ते" is one word) and a decomposed "é" stays in it.
 */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * The words of `text`, lower-cased, in order and repeated as they occur. NFC first, so the
 * composed and the decomposed spelling of a word ("José" typed either way) are the same word.
 */
export function wordsOf(text: string): string[] {
  return Array.from(text.normalize('NFC').toLowerCase().matchAll(WORD), (match) => match[0]);
}

/** FNV-1a over UTF-16 code units, then murmur3's finaliser (FNV-1a's low bits avalanche poorly): a 32-bit id of `text`. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/**
 * The 32-bit index key of a fact on a topic: equal for two facts that are the same fact
 * ({@link sameFactKey}) on the same topic. A collision only adds a memory to a sweep, whose
 * decider compares the keys themselves.
 */
export function factHash(topic: string, content: string): number {
  return hash32(`${topic}\u0000${sameFactKey(content)}`);
}

/**
 * One form of a word, for the stages that compare facts by their words (episode/read.ts, which
 * decides whether a turn is read, and consolidate/slot.ts, which decides what a fact is about), so
 * a pair of words matches alike in both: "olives" and "olive", "smokes", "smoking" and "smoke",
 * "running" and "run", "lived", "lives", "living" and "live", "glasses" and "glass". Takes a
 * lower-cased word.
 */
export function stem(word: string): string {
  let w = word;
  const undoubled = (bare: string) => (/([b-df-hj-np-tv-z])\1$/u.test(bare) && !/(?:ss|ll|ff|zz)$/u.test(bare) ? bare.slice(0, -1) : bare);
  if (w.length >= 5 && w.endsWith('ing')) return undoubled(w.slice(0, -3));
  // "lived", "stopped"; not "speed", "freed"; "married" is "marry" below.
  if (w.length >= 5 && w.endsWith('ed') && !/(?:eed|ied)$/u.test(w)) return undoubled(w.slice(0, -2)).replace(/e$/u, '');
  if (w.length > 4 && /ie[sd]$/u.test(w)) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}
