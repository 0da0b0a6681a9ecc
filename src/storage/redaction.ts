/**
 * Redacting forgotten spans from stored text: the rule `forget(id)` (forget/take-out.ts), its
 * erasure plan and every backend's commit (`Commit.redactExcerpts`) share.
 *
 * - A span is matched with its whitespace folded and case ignored (an episode folds runs of
 *   spaces), and each occurrence becomes {@link FORGOTTEN_SPAN}. Case is ignored by the
 *   pattern's flag, never by lower-casing the span: lower-casing changes the length of some
 *   letters ("İ" becomes two code units), and a pattern built from it no longer matches the text.
 * - A span that ends in "…" (a cut text: an episode of a long turn, a capped excerpt) is matched
 *   by what comes before the "…": the stored message holds that much of it, then goes on.
 * - An excerpt that lies inside a span quotes the forgotten text: it is redacted whole.
 * - Spans shorter than {@link MIN_SPAN} are not looked for: a word or two would redact
 *   unrelated speech.
 */

/** What a redacted span of a stored message reads as. */
export const FORGOTTEN_SPAN = '[forgotten]';

const MIN_SPAN = 3;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A span as it is looked for: whitespace folded, a cut's "…" off, the case as written. */
const shape = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\s*…$/u, '');
/** The key two spellings of a text share when they differ only in case and whitespace (for containment, not for patterns). */
const fold = (text: string) => shape(text).toLowerCase();

export interface Redactor {
  /** `text` with every occurrence of a span replaced. */
  text(text: string): string;
  /** An excerpt redacted: whole when it lies inside a span, else its occurrences. */
  excerpt(excerpt: string): string;
  /** Whether `text` holds a span or lies inside one. */
  quotes(text: string): boolean;
}

/** A redactor of `spans`. */
export function createRedactor(spans: readonly string[]): Redactor {
  const kept = [...new Map(spans.map(shape).map((span) => [span.toLowerCase(), span] as const)).values()].filter((span) => span.length >= MIN_SPAN).sort((a, b) => b.length - a.length);
  const keys = kept.map((span) => span.toLowerCase());
  const source = kept.map((span) => span.split(' ').map(escapeRegExp).join('\\s+')).join('|');
  const global = kept.length ? new RegExp(source, 'giu') : null;
  const once = kept.length ? new RegExp(source, 'iu') : null;
  const inside = (value: string) => {
    const key = fold(value);
    return key.length >= MIN_SPAN && keys.some((span) => span.includes(key));
  };
  const text = (value: string) => (global ? value.replace(global, FORGOTTEN_SPAN) : value);
  return {
    text,
    excerpt: (value) => (value !== '' && inside(value) ? FORGOTTEN_SPAN : text(value)),
    quotes: (value) => once?.test(value) === true || inside(value),
  };
}

/** Words that join clauses: what is left of a redacted text when only they remain holds nothing of what was said. */
const JOINERS = new Set(['and', 'but', 'or', 'so', 'also', 'then', 'too', 'plus', 'while', 'because']);

/**
 * Whether a redacted text keeps nothing durable: once its {@link FORGOTTEN_SPAN}s are out, no
 * word is left but joiners ("and", "but"), only punctuation, marks and spaces. A memory (an
 * episode, a summary) whose text is that is not kept: it would list and inject the marks alone.
 */
export function keepsNothing(text: string): boolean {
  const rest = text.split(FORGOTTEN_SPAN).join(' ');
  const words = rest.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.every((word) => JOINERS.has(word));
}
