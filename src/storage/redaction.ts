/**
 * Redacting forgotten spans from stored text: the rule `forget(id)` (forget/take-out.ts), its
 * erasure plan and every backend's commit (`Commit.redactExcerpts`) share.
 *
 * - A span is matched with its whitespace folded and case ignored (an episode folds runs of
 *   spaces), and each occurrence becomes {@link FORGOTTEN_SPAN}.
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

const fold = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

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
  const kept = [...new Set(spans.map(fold).filter((span) => span.length >= MIN_SPAN))].sort((a, b) => b.length - a.length);
  const source = kept.map((span) => span.split(' ').map(escapeRegExp).join('\\s+')).join('|');
  const global = kept.length ? new RegExp(source, 'giu') : null;
  const once = kept.length ? new RegExp(source, 'iu') : null;
  const inside = (value: string) => {
    const key = fold(value);
    return key.length >= MIN_SPAN && kept.some((span) => span.includes(key));
  };
  const text = (value: string) => (global ? value.replace(global, FORGOTTEN_SPAN) : value);
  return {
    text,
    excerpt: (value) => (value !== '' && inside(value) ? FORGOTTEN_SPAN : text(value)),
    quotes: (value) => once?.test(value) === true || inside(value),
  };
}
