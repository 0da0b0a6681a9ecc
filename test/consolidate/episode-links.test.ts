/**
 * EpisodeLinks in one long write: every turn shares the excerpt's inner words ("I love my dog
 * number N."), so only the last word tells the turns apart, and the look-up must not walk every
 * earlier episode holding them (issue 41 item 13).
 */
import { describe, expect, it } from 'vitest';
import { EpisodeLinks } from '../../src/consolidate/episodes';
import { EPISODE_TOPIC } from '../../src/extract/topics';
import type { Candidate } from '../../src/schema';
import { expectLinearGrowth } from '../helpers/growth';
import { createRandom } from '../helpers/random';

function episode(text: string): Candidate {
  return { content: text, topic: EPISODE_TOPIC, confidence: 0.9, excerpt: text, importance: 0.3, halfLifeDays: 120 };
}

function fact(excerpt: string): Candidate {
  return { content: 'a fact', topic: 'general', confidence: 0.9, excerpt, importance: 0.5, halfLifeDays: 180 };
}

/** A write of n turns, each its episode then its fact, as plan.ts links them; the ids linked. */
function linkWrite(n: number, excerpt: (i: number) => string): (string | undefined)[] {
  const links = new EpisodeLinks();
  const linked: (string | undefined)[] = [];
  for (let i = 0; i < n; i++) {
    links.add(episode(`i love my dog number ${i}.`), `e${i}`);
    linked.push(links.of(fact(excerpt(i))));
  }
  return linked;
}

describe('EpisodeLinks in one long write', () => {
  it('links each fact to its own turn when every turn shares the inner words', () => {
    expect(linkWrite(300, (i) => `i love my dog number ${i}.`)).toEqual(Array.from({ length: 300 }, (_, i) => `e${i}`));
    // Without the full stop a number is a prefix of later turns' ("number 1" in "number 10."): the first holder still wins.
    const links = new EpisodeLinks();
    for (let i = 0; i < 30; i++) links.add(episode(`i love my dog number ${i}.`), `e${i}`);
    expect(['love my dog number 1', 'my dog number 2…', 'dog number 21', 'number 3.'].map((excerpt) => links.holding(excerpt))).toEqual(['e1', 'e2', 'e21', 'e3']);
  });

  it('grows linearly with the turns that share those words', async () => {
    await expectLinearGrowth([{ label: 'shared inner words', run: (n) => linkWrite(n, (i) => `i love my dog number ${i}.`) }], 4_000);
  });

  it('finds the first episode holding the excerpt, as a walk of every episode does, where words share prefixes', () => {
    const random = createRandom(41);
    const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
    const words = ['1', '12', '12.', '123', '1234567', '1234568', 'dog', 'dogs', 'do', 'my', 'number', 'ice-cream', 'ice'];
    const slice = (text: string): string => {
      const start = Math.floor(random() * text.length);
      return text.slice(start, start + 1 + Math.floor(random() * 20));
    };
    for (let round = 0; round < 300; round++) {
      const texts = Array.from({ length: 1 + (round % 15) }, () => Array.from({ length: 1 + Math.floor(random() * 7) }, () => pick(words)).join(' '));
      const links = new EpisodeLinks();
      texts.forEach((text, i) => links.add(episode(text), `e${i}`));
      // Slices of a turn (parts of words included), "…" on a third of them, and pairs of words at random.
      const excerpts = Array.from({ length: 20 }, (_, probe) => (random() < 0.8 ? slice(pick(texts)) : `${pick(words)} ${pick(words)}`) + (probe % 3 === 0 ? '…' : ''));
      const walked = excerpts.map((excerpt) => {
        const said = excerpt.replace(/…$/, '').trim();
        const holder = said.length > 0 ? texts.findIndex((t) => t.includes(said)) : -1;
        return holder >= 0 ? `e${holder}` : undefined;
      });
      expect(
        excerpts.map((excerpt) => links.holding(excerpt)),
        JSON.stringify(texts),
      ).toEqual(walked);
    }
  });
});
