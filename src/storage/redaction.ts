/**
 * Redacting forgotten spans from stored text: the rule `forget(id)` (forget/take-out.ts), its
 * erasure plan and every backend's commit (`Commit.redactExcerpts`) share.
 *
 * - A span is matched with its whitespace folded and case ignored (an episode folds runs of
 *   spaces), and each occurrence is cut out with no mark in its place, with the joining word and
 *   punctuation it leaves dangling ({@link cutOut}), so the rest reads as sentences. Matching is a plain search
 *   (indexOf) in a folded copy of the text with a map back to the original's indices, never a
 *   pattern built from the span: an episode's span is a whole turn (up to 100,000 characters),
 *   and a pattern that long is refused by the engine. The map also keeps letters whose lower case
 *   is longer ("İ" becomes two code units) in place.
 * - A span is matched only as words of its own: an occurrence that starts or ends inside a word
 *   (a letter, digit or mark next to it) is not one ("art" is not in "startup").
 * - A span that ends in "…" (a cut text: an episode of a long turn, a capped excerpt) is matched
 *   by what comes before the "…": the stored message holds that much of it, then goes on (its
 *   end may fall inside a word).
 * - An excerpt that lies inside a span quotes the forgotten text: it is blanked whole ('').
 * - Spans shorter than {@link MIN_SPAN} are not looked for: a word or two would redact
 *   unrelated speech.
 */

/** What a redacted span read as in rows written by earlier releases (no redaction writes it now): {@link keepsNothing} still reads it. */
export const FORGOTTEN_SPAN = '[forgotten]';

const MIN_SPAN = 3;

/** A text folded for matching: whitespace runs as one space, each character in lower case; `from`/`to` map each folded code unit back to the original [from, to). */
interface Folded {
  text: string;
  from: number[];
  to: number[];
  /** The original text, for the word-edge checks. */
  source: string;
}

/** Folds `source` (whitespace runs to one space, lower case per character, "ς" as "σ"), keeping where each folded code unit came from. */
function foldWithMap(source: string): Folded {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  for (const match of source.matchAll(/\s+|[\s\S]/gu)) {
    const piece = match[0];
    const start = match.index;
    const folded = /^\s/u.test(piece) ? ' ' : piece.toLowerCase().replace('ς', 'σ');
    text += folded;
    for (let k = 0; k < folded.length; k++) {
      from.push(start);
      to.push(start + piece.length);
    }
  }
  return { text, from, to, source };
}

const WORD_END = /[\p{L}\p{N}\p{M}]$/u;
const WORD_START = /^[\p{L}\p{N}\p{M}]/u;

/** A span as it is looked for: folded, trimmed, a cut's "…" off. */
interface Needle {
  key: string;
  /** Whether the span must not start (end) inside a word: it starts (ends) with a letter or digit. */
  edgeBefore: boolean;
  edgeAfter: boolean;
}

function needleOf(span: string): Needle {
  const cut = /…\s*$/u.test(span);
  const key = foldWithMap(span.replace(/\s*…\s*$/u, '').trim()).text.trim();
  return { key, edgeBefore: WORD_START.test(key), edgeAfter: !cut && WORD_END.test(key) };
}

/** The first occurrence of `needle` in `hay` at or after folded index `at` that stands as words of its own: [start, end) in folded indices, or null. */
function findIn(hay: Folded, needle: Needle, at: number): [number, number] | null {
  for (let index = hay.text.indexOf(needle.key, at); index !== -1; index = hay.text.indexOf(needle.key, index + 1)) {
    const end = index + needle.key.length;
    const start = hay.from[index]!;
    const stop = hay.to[end - 1]!;
    // A match must begin and end on whole characters of the original (not inside a folded "İ").
    if ((index > 0 && hay.from[index - 1] === start) || (end < hay.text.length && hay.to[end] === stop)) continue;
    if (needle.edgeBefore && WORD_END.test(hay.source.slice(Math.max(0, start - 2), start))) continue;
    if (needle.edgeAfter && WORD_START.test(hay.source.slice(stop, stop + 2))) continue;
    return [index, end];
  }
  return null;
}

export interface Redactor {
  /** `text` with every occurrence of a span replaced. */
  text(text: string): string;
  /** An excerpt redacted: blank ('') when it lies inside a span, else its occurrences cut out. */
  excerpt(excerpt: string): string;
  /** Whether `text` holds a span or lies inside one. */
  quotes(text: string): boolean;
}

/** A redactor of `spans`. */
export function createRedactor(spans: readonly string[]): Redactor {
  const needles = [...new Map(spans.map(needleOf).map((needle) => [needle.key, needle] as const)).values()].filter((needle) => needle.key.length >= MIN_SPAN).sort((a, b) => b.key.length - a.key.length);
  // The spans folded with their maps, for containment: built on first use (text and quotes need only the keys).
  let folds: Folded[] | undefined;
  /** The occurrences of the spans in `value`, leftmost first, the longest span first at one index, none overlapping: original [start, end). */
  const occurrences = (value: string): [number, number][] => {
    if (needles.length === 0) return [];
    const hay = foldWithMap(value);
    const out: [number, number][] = [];
    const next = needles.map((needle) => findIn(hay, needle, 0));
    for (;;) {
      let best = -1;
      for (let i = 0; i < needles.length; i++) if (next[i] && (best === -1 || next[i]![0] < next[best]![0])) best = i;
      if (best === -1) return out;
      const [start, end] = next[best]!;
      out.push([hay.from[start]!, hay.to[end - 1]!]);
      for (let i = 0; i < needles.length; i++) if (next[i] && next[i]![0] < end) next[i] = findIn(hay, needles[i]!, end);
    }
  };
  const inside = (value: string) => {
    const needle = needleOf(value);
    if (needle.key.length < MIN_SPAN) return false;
    folds ??= needles.map((span) => foldWithMap(span.key));
    return folds.some((span) => findIn(span, needle, 0) !== null);
  };
  return {
    text: (value) => cutOut(value, occurrences(value)),
    excerpt: (value) => (value !== '' && inside(value) ? '' : cutOut(value, occurrences(value))),
    quotes: (value) => {
      if (needles.length === 0) return false;
      const hay = foldWithMap(value);
      return needles.some((needle) => findIn(hay, needle, 0) !== null) || inside(value);
    },
  };
}

/** The words that join one clause to the next. */
const JOINING = 'and|but|or|so|also|plus|then|while|whereas|although|though|because';

/** What a span that opened its sentence leaves dangling after it: spaces, a comma or dash, a joining word ("… and I'm vegetarian"). */
const DANGLING_AFTER = new RegExp(`^[\\s,;:—–-]*(?:(?:${JOINING})(?![\\p{L}\\p{N}])[\\s,]*)?`, 'iu');

/** A joining word at the end of a text (looked for in its last few characters only). */
const JOINING_AT_END = new RegExp(`(?<![\\p{L}\\p{N}])(?:${JOINING})$`, 'iu');

/** Spaces, commas and dashes: what is trimmed around a joining word a span left dangling. */
const LOOSE = /[\s,;:—–-]/u;

/** `text` less its trailing {@link LOOSE} characters (a loop, not a pattern anchored at the end: linear on a long run of spaces). */
function trimLoose(text: string): string {
  let end = text.length;
  while (end > 0 && LOOSE.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** What a span inside its sentence leaves dangling before it goes: a joining word, a comma or dash, spaces ("I live in Berlin and …"). */
function dropDanglingBefore(text: string): string {
  const trimmed = trimLoose(text);
  const joint = JOINING_AT_END.exec(trimmed.slice(-10))?.[0];
  return joint === undefined ? trimmed : trimLoose(trimmed.slice(0, -joint.length));
}

/** Whether what follows `text` starts a sentence: it is empty, or ends a sentence or a line (then spaces). */
function sentenceEnded(text: string): boolean {
  const head = text.trimEnd();
  return head === '' || /[.!?…]$/u.test(head) || text.slice(head.length).includes('\n');
}

/**
 * `value` with the [start, end) `spans` (in order, not overlapping) taken out, and with each the
 * joining word and punctuation it leaves dangling, so the rest reads as sentences: "I live in
 * Berlin and I'm vegetarian." less "I live in Berlin" is "I'm vegetarian.", less "I'm vegetarian"
 * it is "I live in Berlin.". A span that was a sentence of its own goes with its end (". ").
 */
function cutOut(value: string, spans: readonly (readonly [number, number])[]): string {
  let out = '';
  let from = 0;
  let capitalize = false;
  spans.forEach(([start, end], i) => {
    const between = value.slice(from, start);
    out += capitalize ? upperFirst(between) : between;
    capitalize = false;
    const rest = value.slice(end, spans[i + 1]?.[0] ?? value.length);
    if (sentenceEnded(out)) {
      // It opened a sentence: its own end goes with it, or what joined it to the rest of the sentence.
      const stop = /^\s*[.!?…]+\s*/u.exec(rest)?.[0];
      const joint = stop === undefined ? DANGLING_AFTER.exec(rest)![0] : stop;
      capitalize = stop === undefined && /\S/u.test(joint);
      from = end + joint.length;
      if (from === value.length) out = out.trimEnd();
      return;
    }
    // Inside a sentence: what joined it to the words before goes; the sentence's end stays (the span's own, when it took it).
    out = dropDanglingBefore(out);
    const ending = /[.!?…]+$/u.exec(value.slice(start, end))?.[0];
    if (ending !== undefined && !/^\s*[.!?…]/u.test(rest)) out += ending;
    from = end;
    if (/^[\p{L}\p{N}]/u.test(rest)) out += ' ';
  });
  const tail = value.slice(from);
  return out + (capitalize ? upperFirst(tail) : tail);
}

/** `text` with its first letter in upper case (the start of a sentence a span's removal made). */
function upperFirst(text: string): string {
  return text.replace(/^(\s*)(\p{Ll})/u, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** Words that join clauses: what is left of a redacted text when only they remain holds nothing of what was said. */
const JOINERS = new Set(['and', 'but', 'or', 'so', 'also', 'then', 'too', 'plus', 'while', 'because']);

/**
 * Whether a redacted text keeps nothing durable: no word is left but joiners ("and", "but"), only
 * punctuation, marks and spaces (and the {@link FORGOTTEN_SPAN}s of rows from earlier releases). A memory (an
 * episode, a summary) whose text is that is not kept: it would list and inject the marks alone.
 */
export function keepsNothing(text: string): boolean {
  const rest = text.split(FORGOTTEN_SPAN).join(' ');
  const words = rest.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.every((word) => JOINERS.has(word));
}
