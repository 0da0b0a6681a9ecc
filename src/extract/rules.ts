/**
 * The seed's offline rule extractor: five first-person patterns, one candidate per hit, the
 * sentence it came from kept as the excerpt. A hit counts only when it is the user's own
 * statement (see ./defences.ts: no quoted or reported speech, no instructions). Every pattern is linear (no nested quantifiers),
 * so adversarial input cannot make it backtrack catastrophically.
 */
import type { CandidateInput } from '../schema';
import { instructionSignal, isReservedName, normalizeApostrophes, notTheUsersOwn, sentenceBounds } from '../defences';
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
// keeps "[A-Z]" meaningful (a name starts with a capital), so only its verb ignores case.
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
    pattern: /\b[Cc][Aa][Ll][Ll] [Mm][Ee] ([A-Z][A-Za-z0-9_]*)\b/,
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
  const to = stop < text.length && text[stop] !== '\n' && text[stop] !== '\r' ? stop + 1 : stop;
  const sentence = text.slice(from, to).trim();
  return sentence.length > MAX_EXCERPT ? sentence.slice(0, MAX_EXCERPT - 1) + '…' : sentence;
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
        for (const rule of rules) {
          const flags = rule.pattern.flags.includes('g') ? rule.pattern.flags : rule.pattern.flags + 'g';
          for (const match of text.matchAll(new RegExp(rule.pattern.source, flags))) {
            const capture = match[1] ?? '';
            if (notTheUsersOwn(text, match.index, match.index + match[0].length) !== undefined) continue;
            if (rule.topic === 'identity' && isReservedName(capture)) continue;
            const value = rule.lowerCaseCapture ? capture.toLowerCase() : capture;
            candidates.push({
              content: rule.template.replace('{0}', value),
              topic: rule.topic,
              confidence: rule.confidence,
              excerpt: sentenceAround(message.content, match.index, match.index + match[0].length),
              importance: rule.importance ?? 0.5,
              halfLifeDays: rule.halfLifeDays,
            });
          }
        }
      }
      return candidates;
    },
  };
}
