import { describe, expect, it } from 'vitest';
import { expectLinearGrowth } from '../helpers/growth';
import { factSpans } from '../../src/forget/fact-span';
import { createRedactor, FORGOTTEN_SPAN, keepsNothing } from '../../src/storage/redaction';

describe('factSpans (where one fact of a sentence was said)', () => {
  it('is the whole excerpt when no other fact shares it', () => {
    expect(factSpans('The user is allergic to shrimp.', "I'm allergic to shrimp and I'm allergic to dust.", [])).toEqual(["I'm allergic to shrimp and I'm allergic to dust."]);
  });

  it("is the clause with the fact's own words when another fact shares the sentence", () => {
    const sentence = 'My aunt Rosa lives in Porto and my uncle Jim lives in Faro.';
    expect(factSpans("The user's aunt Rosa lives in Porto.", sentence, ["The user's uncle Jim lives in Faro."])).toEqual(['My aunt Rosa lives in Porto']);
    expect(factSpans("The user's uncle Jim lives in Faro.", sentence, ["The user's aunt Rosa lives in Porto."])).toEqual(['my uncle Jim lives in Faro.']);
  });

  it('joins adjacent clauses of one fact and leaves the clauses between', () => {
    const sentence = 'Honestly, I live in Berlin, Germany, and I play squash.';
    expect(factSpans('The user lives in Berlin, Germany.', sentence, ['The user plays squash.'])).toEqual(['I live in Berlin, Germany']);
  });

  it('is the whole excerpt when no clause holds a word of its own (the documented fallback)', () => {
    expect(factSpans('The user eats no meat.', "I'm vegetarian and I play squash.", ['The user plays squash.'])).toEqual(["I'm vegetarian and I play squash."]);
  });

  it('is the whole excerpt when a clause is too short to stand alone (one or two words would match unrelated speech)', () => {
    expect(factSpans('The user likes art.', 'I like tea, jazz and art', ['The user likes tea.', 'The user likes jazz.'])).toEqual(['I like tea, jazz and art']);
    expect(factSpans('The user has a cat.', 'I have a dog, a cat', ['The user has a dog.'])).toEqual(['I have a dog, a cat']);
  });

  it('splits an excerpt with a long run of spaces, and redacts a span of thousands of words, in linear time', async () => {
    const words = ['river', 'grey', 'morning', 'rain'];
    const long = (n: number) => Array.from({ length: n }, (_, i) => words[i % 4]).join('  \n ');
    await expectLinearGrowth(
      [
        { label: 'factSpans over a run of n spaces', run: (n) => factSpans('The user plays chess.', `I play chess${' '.repeat(n)}x, and I play squash.`, ['The user plays squash.']) },
        { label: 'redactor over a span of n/8 words', run: (n) => createRedactor([long(n / 8)]).text(`Before. ${long(n / 8).toUpperCase()} after.`) },
      ],
      8_000,
      2,
    );
  });
});

describe('the redactor', () => {
  it('redacts a span only where it stands as words of its own, not inside longer words', () => {
    const redact = createRedactor(['art', 'a cat']);
    expect(redact.text('I work at a startup that plans parties, and I love art.')).toBe('I work at a startup that plans parties, and I love.');
    expect(redact.text('In a category of its own: a cat.')).toBe('In a category of its own.');
    expect(redact.quotes('a startup party planner')).toBe(false);
    expect(redact.excerpt('party')).toBe('party');
  });

  it('redacts a span of thousands of words (an episode of a long turn)', () => {
    const turn = Array.from({ length: 5_000 }, (_, i) => `word${i}`).join(' ');
    const redact = createRedactor([turn]);
    expect(redact.text(`Before. ${turn.replace(/ /g, '\n  ')} After.`)).toBe('Before. After.');
    expect(redact.quotes(turn.toUpperCase())).toBe(true);
  });

  it('matches "İ" whatever the case, and a cut span by what precedes its "…"', () => {
    expect(createRedactor(['I live in İstanbul.']).text('Well. I LIVE in İstanbul. Yes.')).toBe('Well. Yes.');
    expect(createRedactor(['I walked to the café by the river…']).text('I walked to the café by the river and back.')).toBe('Back.');
  });

  it('takes a span out with the joining word and punctuation it leaves dangling, and leaves no mark', () => {
    const sentence = "I live in Berlin and I'm vegetarian.";
    expect(createRedactor(['I live in Berlin']).text(sentence)).toBe("I'm vegetarian.");
    expect(createRedactor(["I'm vegetarian"]).text(sentence)).toBe('I live in Berlin.');
    expect(createRedactor(["I'm vegetarian."]).text(sentence)).toBe('I live in Berlin.');
    expect(createRedactor(['My aunt Rosa lives in Porto']).text('My aunt Rosa lives in Porto and my uncle Jim lives in Faro.')).toBe('My uncle Jim lives in Faro.');
    expect(createRedactor(['I play squash']).text('I like tea, I play squash, and I like jazz.')).toBe('I like tea, and I like jazz.');
    expect(createRedactor(["I'm allergic to shrimp."]).text("Hi! I'm allergic to shrimp. Thanks.")).toBe('Hi! Thanks.');
    expect(createRedactor(['I play squash']).text('I play squash.\nI like jazz.')).toBe('I like jazz.');
    // An excerpt inside a span goes whole: it quotes nothing else.
    expect(createRedactor([sentence]).excerpt('I live in Berlin')).toBe('');
    for (const text of [sentence, 'I play squash, Berlin and I live in Berlin!']) expect(createRedactor(['I live in Berlin', 'squash']).text(text)).not.toContain(FORGOTTEN_SPAN);
  });

  it('says a text of marks, punctuation and joining words keeps nothing', () => {
    expect(keepsNothing(`${FORGOTTEN_SPAN}.`)).toBe(true);
    expect(keepsNothing(`${FORGOTTEN_SPAN} and ${FORGOTTEN_SPAN}!`)).toBe(true);
    expect(keepsNothing(`${FORGOTTEN_SPAN} and I play squash.`)).toBe(false);
    expect(keepsNothing('🦊 42')).toBe(false);
    expect(keepsNothing(createRedactor(["I'm allergic to shrimp"]).text("I'm allergic to shrimp."))).toBe(true);
    expect(keepsNothing(createRedactor(['I play the drums']).text('I play the drums and also.'))).toBe(true);
  });
});
