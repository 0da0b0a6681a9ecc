/**
 * Where a fact was said, inside the excerpt it was read from: the span `forget(id)` and `reject`
 * redact. An extractor keeps the whole sentence as a fact's excerpt, and one sentence can state
 * several facts ("I'm allergic to shrimp and I'm allergic to dust"): redacting the sentence
 * would take the other facts' words with it. So when other facts share the excerpt, the span is
 * the clauses that carry the fact's own words (the words of its content no other fact of the
 * sentence has), and the other clauses stay.
 *
 * Rules this code keeps:
 * - Pure, over text only: the same spans on every replay, in every backend.
 * - Alone in its excerpt, a fact's span is the whole excerpt (what it always was).
 * - When no clause carries a word of the fact's own (a paraphrase, a sentence with no clause
 *   breaks), or a clause that does is too short to stand alone (fewer than three words or ten
 *   characters: "art" of "I like tea, jazz and art"), the span is the whole excerpt: the fact goes, the other facts stay as candidates
 *   and memories, and the sentence's words go with it (docs/control.md, "forget").
 */

/** Words too common to tell two facts apart. */
const COMMON = new Set(['the', 'user', 'users', 'and', 'with', 'for', 'are', 'was', 'has', 'have', 'had', 'who', 'that', 'this', 'his', 'her', 'their', 'they', 'from', 'into', 'not']);

/** One form of a word for comparing a fact with a sentence: "plays" and "play", "drums" and "drum". */
function stem(word: string): string {
  return word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The words of `text` that can tell one fact from another (three letters or more, not {@link COMMON}), stemmed. */
export function factWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) if (word.length >= 3 && !COMMON.has(word)) words.add(stem(word));
  return words;
}

/**
 * Where one clause of a sentence ends and the next begins: a comma or semicolon, a dash, or a
 * joining word. A break starts where a run of whitespace starts (never inside one): tried from
 * every space of a long run, the leading whitespace would make the search quadratic.
 */
const CLAUSE_BREAK = /(?<!\s)(?:\s*[,;:]\s+(?:(?:and|but|or|so)\s+)?|\s+(?:and|but|or|while|whereas|although|though|because|plus)\s+|\s+[—–-]\s+)/giu;

/**
 * The least a clause span holds to stand on its own: a shorter one ("art", "a cat") is found as
 * words in unrelated speech of the same turn, so the fact's span is then the whole excerpt.
 */
const MIN_CLAUSE_WORDS = 3;
const MIN_CLAUSE_LENGTH = 10;

/** Whether `span` is long enough to be redacted apart from the rest of its sentence. */
function standsAlone(span: string): boolean {
  return span.length >= MIN_CLAUSE_LENGTH && (span.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) >= MIN_CLAUSE_WORDS;
}

/** The clauses of `text`: [start, end) ranges, trimmed, in order. */
function clauses(text: string): [number, number][] {
  const out: [number, number][] = [];
  let from = 0;
  const push = (start: number, end: number) => {
    const piece = text.slice(start, end);
    const lead = piece.length - piece.trimStart().length;
    const trail = piece.length - piece.trimEnd().length;
    if (end - trail > start + lead) out.push([start + lead, end - trail]);
  };
  for (const match of text.matchAll(CLAUSE_BREAK)) {
    push(from, match.index);
    from = match.index + match[0].length;
  }
  push(from, text.length);
  return out;
}

/**
 * The spans of `excerpt` that state `fact` (its content), apart from the `others` said in the
 * same excerpt: runs of adjacent clauses that hold a word of the fact's own. The whole excerpt
 * when nothing else was said there, when no clause can be told apart, or when a run is too short
 * to stand alone.
 */
export function factSpans(content: string, excerpt: string, others: readonly string[]): string[] {
  if (others.length === 0) return [excerpt];
  const theirs = new Set(others.flatMap((other) => [...factWords(other)]));
  const own = [...factWords(content)].filter((word) => !theirs.has(word));
  const pieces = clauses(excerpt);
  const holds = pieces.map(([start, end]) => {
    const words = factWords(excerpt.slice(start, end));
    return own.some((word) => words.has(word));
  });
  if (!holds.includes(true)) return [excerpt];
  const spans: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    if (!holds[i]) continue;
    let j = i;
    while (j + 1 < pieces.length && holds[j + 1]) j++;
    spans.push(excerpt.slice(pieces[i]![0], pieces[j]![1]));
    i = j;
  }
  return spans.every(standsAlone) ? spans : [excerpt];
}
