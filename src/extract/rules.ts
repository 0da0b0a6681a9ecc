/**
 * The seed's offline rule extractor: five first-person patterns, one candidate per hit, the
 * sentence it came from kept as the excerpt. A hit counts only when it is the user's own
 * statement (see ./defences.ts: no quoted or reported speech, no instructions). Every pattern is linear (no nested quantifiers),
 * so adversarial input cannot make it backtrack catastrophically.
 */
import type { CandidateInput } from '../schema';
import { instructionSignal, normalizeApostrophes, ownStatementCheck, sentenceBounds } from '../defences';
import { CALL_ME, isReservedName } from '../names';
import { isLineBreak } from '../text';
import type { Extractor } from './extractor';

export interface Rule {
  pattern: RegExp;
  topic: string;
  /** `{0}` is replaced by the first capture group. */
  template: string;
  confidence: number;
  halfLifeDays: number;
  importance?: number;
  /** Lower-case the capture before it goes into the template ("Vegetarian" → "vegetarian"). */
  lowerCaseCapture?: boolean;
}

// The seed's RULES, in JavaScript syntax. All but the name rule ignore case; the name rule
// keeps its capital meaningful (a name starts with one), so only its verb ignores case.
export const SEED_RULES: readonly Rule[] = Object.freeze([
  {
    pattern: /\bi'?m (?:a )?(vegetarian|vegan|pescatarian)\b/i,
    topic: 'diet',
    template: 'The user follows a {0} diet.',
    confidence: 0.9,
    halfLifeDays: 365,
    lowerCaseCapture: true,
  },
  {
    pattern: /\bi(?:'ve| have)? (?:started|gone back to) eating (fish|meat|dairy)\b/i,
    topic: 'diet',
    template: 'The user eats {0} again.',
    confidence: 0.9,
    halfLifeDays: 365,
    lowerCaseCapture: true,
  },
  {
    pattern: /\bi (?:prefer|like|want) (?:the |a |an )?(window|aisle|middle) seat\b/i,
    topic: 'travel',
    template: 'The user prefers {0} seating on flights.',
    confidence: 0.85,
    halfLifeDays: 365,
    lowerCaseCapture: true,
  },
  {
    pattern: CALL_ME,
    topic: 'identity',
    template: 'The user goes by {0}.',
    confidence: 0.95,
    halfLifeDays: 3650,
  },
  {
    pattern: /\b(?:export|upload|sync) (?:keeps )?(?:failing|timed out|times out)\b/i,
    topic: 'issue',
    template: 'The user reported a failing export/upload.',
    confidence: 0.7,
    halfLifeDays: 30,
  },
]);

const MAX_EXCERPT = 280;

/** The sentence of `text` around [start, end), trimmed and capped. */
export function sentenceAround(text: string, start: number, end: number): string {
  const [from, stop] = sentenceBounds(text, start, end, MAX_EXCERPT);
  // Keep the sentence's own punctuation; a line break is not part of it.
  const to = stop < text.length && !isLineBreak(text.charCodeAt(stop)) ? stop + 1 : stop;
  const sentence = text.slice(from, to).trim();
  return sentence.length > MAX_EXCERPT ? sentence.slice(0, MAX_EXCERPT - 1) + '…' : sentence;
}

/** The rule's hits in one user message that are the user's own statements (`notOwn`: ownStatementCheck of `text`), as candidates; `spans` gets every match's span, own or not. */
function hitsOf(rule: Rule, content: string, text: string, notOwn: (start: number, end: number) => string | undefined, spans: [number, number][]): CandidateInput[] {
  // `d` gives each capture's own indexes: the value is read from the message as typed
  // ("O’Brien", "Zoe\u0308"), not from the apostrophe-normalised copy the rules match on.
  const flags = [...new Set([...rule.pattern.flags, 'g', 'd'])].join('');
  const candidates: CandidateInput[] = [];
  for (const match of text.matchAll(new RegExp(rule.pattern.source, flags))) {
    const [start, end] = [match.index, match.index + match[0].length];
    spans.push([start, end]);
    const span = match.indices?.[1];
    const capture = span ? content.slice(span[0], span[1]) : '';
    if (notOwn(start, end) !== undefined) continue;
    if (rule.topic === 'identity' && isReservedName(capture)) continue;
    const value = rule.lowerCaseCapture ? capture.toLowerCase() : capture;
    candidates.push({
      // A replacer function: a string replacement would expand "$&" and "$'" inside the value.
      content: rule.template.replace('{0}', () => value),
      topic: rule.topic,
      confidence: rule.confidence,
      excerpt: sentenceAround(content, start, end),
      importance: rule.importance ?? 0.5,
      halfLifeDays: rule.halfLifeDays,
    });
  }
  return candidates;
}

/**
 * Every rule against one message (`content` as typed, `text` its apostrophe-normalised copy):
 * the candidates, and the spans the rules matched (own statements or not), so a reader that
 * runs after the rules leaves what they matched to them.
 */
export function ruleCandidates(rules: readonly Rule[], content: string, text: string, notOwn: (start: number, end: number) => string | undefined): { candidates: CandidateInput[]; spans: [number, number][] } {
  const spans: [number, number][] = [];
  const candidates = rules.flatMap((rule) => hitsOf(rule, content, text, notOwn, spans));
  return { candidates, spans };
}

/** Fires every rule against every message (all of them user messages); one candidate per hit. */
export function createRuleExtractor(rules: readonly Rule[] = SEED_RULES): Extractor {
  return {
    extract(userMessages) {
      const candidates: CandidateInput[] = [];
      for (const message of userMessages) {
        const text = normalizeApostrophes(message.content);
        // A message carrying instructions, role markers or a request to write for everyone is
        // an attack on the store or the prompt, not a statement about the user: nothing from it.
        if (instructionSignal(text) !== undefined) continue;
        candidates.push(...ruleCandidates(rules, message.content, text, ownStatementCheck(text)).candidates);
      }
      return candidates;
    },
  };
}
