/**
 * The validation chat corpus (test/extract/validation/) is well formed: what `npm run
 * eval:extract` scores the reader on has to be a fair test. No figure is asserted here: the
 * corpus is held out, and a test with a threshold on it would become a target to tune to.
 */
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../src/extract/topics';
import { expectedKey } from './speech/corpus';
import { VALIDATION } from './validation/index';

describe('the validation chat corpus', () => {
  it('holds at least 350 distinct messages in at least 20 registers', () => {
    expect(VALIDATION.length).toBeGreaterThanOrEqual(350);
    expect(new Set(VALIDATION.map((entry) => entry.register)).size).toBeGreaterThanOrEqual(20);
    const seen = new Map<string, number>();
    for (const entry of VALIDATION) {
      const folded = entry.message.trim().toLowerCase();
      seen.set(folded, (seen.get(folded) ?? 0) + 1);
    }
    expect([...seen].filter(([, count]) => count > 1).map(([message]) => message)).toEqual([]);
  });

  it("labels every fact as 'topic: The user …' with a topic of the vocabulary, once per message", () => {
    const wrong: string[] = [];
    for (const entry of VALIDATION) {
      for (const fact of entry.facts) {
        const match = /^([a-z-]+): The user\b.*\.$/.exec(fact);
        if (!match || !TOPICS.includes(match[1] as never)) wrong.push(fact);
      }
      const keys = entry.facts.map(expectedKey);
      if (new Set(keys).size !== keys.length) wrong.push(`repeated in ${entry.message}`);
    }
    expect(wrong).toEqual([]);
  });

  it('has about a third of its messages with nothing durable, and facts in most registers', () => {
    const none = VALIDATION.filter((entry) => entry.facts.length === 0).length / VALIDATION.length;
    expect(none).toBeGreaterThanOrEqual(0.28);
    expect(none).toBeLessThanOrEqual(0.4);
    const withFacts = new Set(VALIDATION.filter((entry) => entry.facts.length > 0).map((entry) => entry.register));
    expect(withFacts.size).toBeGreaterThanOrEqual(19);
  });
});
