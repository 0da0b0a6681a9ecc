/**
 * `npm run eval:extract`'s scorer: the corpus tally (strict and loose), the LoCoMo observation
 * matcher, the corpus loader, and the "before" reader built from a git revision.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baselineReader, currentReader } from '../../scripts/eval-extract-baseline';
import { casesIn } from '../../scripts/eval-extract-corpora';
import { contentWords, coverage, stem } from '../../scripts/eval-extract-observations';
import { countMatches, rates, scoreMessage } from '../../scripts/eval-extract-score';
import { SPOKEN_AT } from '../extract/speech/corpus';
import { VALIDATION } from '../extract/validation/index';

describe('the corpus scorer', () => {
  it('matches a read fact on topic and normalised words (strict), or on the words alone (loose)', () => {
    const labels = ['home: The user lives in Berlin.', 'diet: The user follows a vegan diet.'];
    const read = [
      { topic: 'home', content: 'The user lives in berlin' },
      { topic: 'preference', content: 'The user follows a vegan diet.' },
      { topic: 'pets', content: 'The user has a dog.' },
    ];
    expect(scoreMessage(read, labels)).toEqual({ messages: 1, expected: 2, read: 3, strict: 1, loose: 2 });
  });

  it('counts each expected fact once, however often it is read', () => {
    expect(countMatches(['a', 'a', 'b'], ['a', 'c'])).toBe(1);
    expect(countMatches(['a', 'a'], ['a', 'a'])).toBe(2);
  });

  it('gives precision, recall and F1, NaN where nothing was read or expected', () => {
    expect(rates(3, 4, 6)).toEqual({ precision: 0.75, recall: 0.5, f1: 0.6 });
    const none = rates(0, 0, 0);
    expect([none.precision, none.recall, none.f1].every(Number.isNaN)).toBe(true);
  });
});

describe('the observation matcher', () => {
  const names = ['Caroline', 'Melanie'];

  it('matches a fact holding the observation content words, whatever the filler around them', () => {
    const match = coverage('Caroline recently started a new job as a financial analyst.', 'The user started a new job as a financial analyst on 7 May 2023.', names);
    expect(match).toEqual({ share: 1, carried: true });
  });

  it('does not match a fact about something else from the same turn', () => {
    expect(coverage('Caroline started a new job as a financial analyst.', 'The user loves hiking with their dog.', names).carried).toBe(false);
  });

  it("removes the speakers' names, possessive too, before counting", () => {
    expect(contentWords("Caroline's sister visited Melanie and Caroline", names)).toEqual(['sister', 'visit']);
    expect(coverage("Caroline adopted Melanie's old dog.", 'The user adopted an old dog.', names).share).toBe(1);
  });

  it('stems lightly, so inflections of one word match', () => {
    expect(new Set(['hiking', 'hikes', 'hike', 'hiked'].map(stem))).toEqual(new Set(['hik']));
    expect(new Set(['running', 'runs', 'run'].map(stem))).toEqual(new Set(['run']));
    expect(new Set(['stories', 'story'].map(stem))).toEqual(new Set(['story']));
    expect(new Set(['married', 'marries', 'marry'].map(stem))).toEqual(new Set(['marry']));
    expect(coverage('Melanie adopts dogs', 'The user adopted a dog.', names).carried).toBe(true);
  });

  it('needs two shared words when the observation has two or more, so one common word does not match', () => {
    expect(coverage('Gina has been to Rome once.', 'The user has been to Paris once.', ['Gina']).carried).toBe(false);
    expect(coverage('Gina has been to Rome once.', 'The user has been to Rome once.', ['Gina']).carried).toBe(true);
  });
});

describe('the corpora and readers', () => {
  it('reads every exported case of a directory once, even when an index re-exports them, and none from a missing one', async () => {
    const cases = await casesIn(new URL('../extract/validation/', import.meta.url), /^[^.]+\.ts$/);
    expect(cases).toHaveLength(VALIDATION.length);
    expect(new Set(cases)).toEqual(new Set(VALIDATION));
    expect(await casesIn(new URL('../extract/no-such-directory/', import.meta.url), /\.ts$/)).toEqual([]);
  });

  it("builds the reader of a git revision from a temporary copy that it removes, reading as this tree's reader at HEAD", async () => {
    const baseline = await baselineReader('HEAD');
    try {
      const message = 'My name is Sam and I live in Berlin.';
      expect(await baseline.reader(message, SPOKEN_AT)).toEqual(await (await currentReader())(message, SPOKEN_AT));
      expect(baseline.label).toMatch(/^HEAD \([0-9a-f]{10}\)$/);
      expect(existsSync(`${baseline.dir}/src/extract/default-extractor.ts`)).toBe(true);
    } finally {
      baseline.dispose();
    }
    expect(existsSync(baseline.dir)).toBe(false);
  });

  it('says git is needed, and how to run without it, when git is not on PATH', async () => {
    const path = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      await expect(baselineReader('HEAD')).rejects.toThrow('eval:extract needs git on PATH to build the "before" reader; install git, or pass --no-baseline to score this tree alone');
    } finally {
      process.env['PATH'] = path;
    }
  });

  it('refuses a ref that names no commit, saying which', async () => {
    await expect(baselineReader('no-such-ref-xyz')).rejects.toThrow('--baseline no-such-ref-xyz: no such commit in this repository');
  });
});
