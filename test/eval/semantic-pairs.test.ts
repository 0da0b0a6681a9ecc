/**
 * The semantic pairs (scripts/semantic-pairs.ts): at least 150, both halves, every topic of the
 * extractor in DEV, and no pair whose memory and question share a lexical term (prefixes
 * included), so only meaning can connect them.
 */
import { describe, expect, it } from 'vitest';
import { DEV, VALIDATION } from '../../scripts/semantic-pairs';
import { lexicalTermStrings } from '../../src/embed/terms';
import { TOPICS } from '../../src/extract/topics';

describe('semantic pairs', () => {
  it('holds at least 150 pairs, dev covering every extractor topic and validation eight personas or more', () => {
    expect(DEV.length + VALIDATION.length).toBeGreaterThanOrEqual(150);
    expect(new Set(DEV.map((pair) => pair.group))).toEqual(new Set(TOPICS));
    expect(new Set(VALIDATION.map((pair) => pair.group)).size).toBeGreaterThanOrEqual(8);
  });

  it('never lets a memory and its question share a lexical term', () => {
    const shared = [...DEV, ...VALIDATION].flatMap(({ memory, question }) => {
      const terms = new Set(lexicalTermStrings(memory));
      return lexicalTermStrings(question)
        .filter((term) => terms.has(term))
        .map((term) => `${term}: ${memory} | ${question}`);
    });
    expect(shared).toEqual([]);
  });

  it('asks each question once and states each memory once per half', () => {
    for (const half of [DEV, VALIDATION]) {
      expect(new Set(half.map((pair) => pair.memory)).size).toBe(half.length);
      expect(new Set(half.map((pair) => pair.question)).size).toBe(half.length);
    }
  });
});
