/**
 * A user message as the speech extractor reads it: sentences, then clauses, then words, each
 * word with its place in the message (so a fact quotes the user's own characters and the
 * poisoning defences check the span it came from). One pass of a linear regex per level.
 */
import { chatTokens } from './chat';
import { elidedSubject, namedOpening, subjectTokens, userClause } from './elision';
import { FILLERS, NON_STATEMENT_START, RELATIVES, SUBJECT_START } from './lexicon';
import type { Token } from './token';

export type { Token } from './token';

export interface Clause {
  tokens: Token[];
  /** The clause ends its sentence with a question mark. */
  question: boolean;
}

/** A sentence ends at . ! ? (followed by a space or the end), a line break or a semicolon. */
const SENTENCE_END = /[.!?。！？]+(?=[\s"'”’)\]]|$)|[\n\r\u2028\u2029\u0085\u000B\u000C;]+/gu;
/** A word (letters, marks, digits; joined by an apostrophe, hyphen or slash), a comma, a colon, or a heart (read as a verb after "I", ./chat.ts). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’\-/][\p{L}\p{M}\p{N}]+)*|[,:—–]|(?<=\s)-(?=\s)|[\u2764\u2665]\uFE0F?|[\u{1F494}-\u{1F49C}\u{1F60D}\u{1F970}]/gu;
const CONJUNCTION = new Set(['and', 'but', 'so', 'plus', 'because', 'cause', "'cause", 'though', 'although', 'while', 'then', 'also', 'as', 'bc', 'cuz', 'coz', 'n', '&', 'since', 'after', 'before', 'when', 'until', 'till', 'once']);

function tokensOf(text: string, from: number, to: number): Token[] {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  const slice = text.slice(from, to);
  for (const match of slice.matchAll(WORD)) {
    const raw = match[0];
    // A dash between spaces breaks a clause as a comma does ("Researching agencies — it's been a dream").
    const w = raw === '—' || raw === '–' || raw === '-' ? ',' : raw.toLowerCase().replace(/’/g, "'");
    tokens.push({ w, raw, start: from + match.index, end: from + match.index + raw.length });
  }
  return chatTokens(tokens);
}

/** What joins the items of a list or a coordination (not "as", "because", "when": those subordinate). */
const HAVING = new Set(['have', 'has', "i've", 'ive']);
const LIST_JOINS = new Set([',', 'and', 'but', 'plus', 'also']);

function isBoundary(token: Token): boolean {
  return token.w === ',' || token.w === ':' || CONJUNCTION.has(token.w);
}

/** Whether a clause may start at `tokens[i]`: a new subject, or a question or request. */
function opensClause(tokens: readonly Token[], i: number): boolean {
  const next = tokens[i];
  if (next === undefined) return false;
  // "… but everyone calls me Bo"
  if (CALLERS.has(next.w) && tokens[i + 1]?.w.startsWith('call') && tokens[i + 2]?.w === 'me') return true;
  return SUBJECT_START.has(next.w) || NON_STATEMENT_START.has(next.w);
}

const CALLERS = new Set(['everyone', 'everybody', 'people', 'friends', 'most']);

/**
 * Whether a clause may end before `tokens[j]`: not when all it holds so far is fillers ("Hi, I'm
 * Sam"), nor when it is the first half of a joint subject ("me and my wife went", "my sister and I").
 */
function mayEnd(current: readonly Token[], tokens: readonly Token[], i: number, j: number): boolean {
  if (current.every((token) => FILLERS.has(token.w) || token.w === ',' || token.w === ':')) return false;
  const next = tokens[j]?.w;
  if (tokens[i]!.w !== 'and') return true;
  if (current.length === 1 && (current[0]!.w === 'me' || current[0]!.w === 'i') && next === 'my') return false;
  return !(current[0]!.w === 'my' && current.length <= 3 && RELATIVES.has(current.at(-1)!.w) && (next === 'i' || next === 'me'));
}

/** The clauses of one sentence: split at a comma or conjunction that a new subject follows. */
function clausesOf(tokens: Token[], question: boolean): Clause[] {
  const clauses: Clause[] = [];
  let current: Token[] = listOpening(tokens);
  // Whether the clause so far is a "have" clause: a later count of pets is part of its object.
  let having = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const boundary = isBoundary(token);
    // Only the first of a run of commas and conjunctions looks ahead: the look-ahead skips the
    // whole run, so looking again from inside it would make a run of n cost n².
    if (boundary && current.length > 0 && (i === 0 || !isBoundary(tokens[i - 1]!))) {
      let j = i + 1;
      while (j < tokens.length && (isBoundary(tokens[j]!) || tokens[j]!.w === 'now')) j++;
      if (opensClause(tokens, j) && mayEnd(current, tokens, i, j)) {
        clauses.push({ tokens: current, question: false });
        current = [];
        having = false;
        i = j - 1;
        continue;
      }
      // "I live in Berlin and work as a nurse", "i'm 35, married, one kid": the item gets its subject back.
      const elided: string[] | undefined =
        LIST_JOINS.has(token.w) && userClause(current, FILLERS)
          ? elidedSubject(
              tokens,
              j,
              tokens.slice(i, j).some((t) => t.w === ','),
              having,
            )
          : undefined;
      if (elided !== undefined && tokens[j] !== undefined) {
        clauses.push({ tokens: current, question: false });
        current = subjectTokens(elided, tokens[j]!);
        having = elided.includes('have');
        i = j - 1;
        continue;
      }
    }
    current.push(token);
    having ||= HAVING.has(token.w);
  }
  if (current.length > 0) clauses.push({ tokens: current, question: false });
  if (question && clauses.length > 0) clauses.at(-1)!.question = true;
  return clauses;
}

/**
 * A sentence that is a list about the user from its first word ("vegan, 42, two cats",
 * "married, 2 kids, work in IT", "23 y/o"): its first item gets its subject back as the later
 * ones do. Only a short sentence or one with a comma after that first item.
 */
function listOpening(tokens: readonly Token[]): Token[] {
  let j = 0;
  while (j < tokens.length && (FILLERS.has(tokens[j]!.w) || tokens[j]!.w === ',')) j++;
  const first = tokens[j];
  if (first === undefined || SUBJECT_START.has(first.w) || NON_STATEMENT_START.has(first.w)) return [];
  if (namedOpening(tokens, j)) return subjectTokens(["i'm"], first);
  const comma = tokens.findIndex((token, k) => k > j && token.w === ',');
  if (comma < 0 ? tokens.length - j > 4 : comma - j > 4) return [];
  const words = elidedSubject(tokens, j, true, false);
  return words === undefined ? [] : subjectTokens(words, first);
}

/** Longest stretch read as one sentence: a wall of text without a full stop is read in pieces of this size, cut at a space. */
const MAX_SENTENCE = 600;

/** The clauses of a message, in order. */
export function clausesOfMessage(text: string): Clause[] {
  const clauses: Clause[] = [];
  let from = 0;
  const add = (to: number, question: boolean) => {
    let start = from;
    while (to - start > MAX_SENTENCE) {
      // Back to a space within the piece only: lastIndexOf would walk a spaceless text to its start.
      let cut = start + MAX_SENTENCE;
      while (cut > start + MAX_SENTENCE / 2 && text.charCodeAt(cut) !== 0x20) cut--;
      if (cut <= start + MAX_SENTENCE / 2) cut = start + MAX_SENTENCE;
      clauses.push(...clausesOf(tokensOf(text, start, cut), false));
      start = cut;
    }
    if (to > start) clauses.push(...clausesOf(tokensOf(text, start, to), question));
  };
  SENTENCE_END.lastIndex = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    add(match.index, /[?？]/.test(match[0]));
    from = match.index + match[0].length;
  }
  add(text.length, false);
  return clauses;
}
