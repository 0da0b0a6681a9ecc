/**
 * The working set's slot index against what it stands for: a walk of every memory asking
 * slotsMeet (and the side), over random slot keys of one to thirteen words (past ten the index
 * reads every word's memories instead of each subset of them), repeated and reordered words, two
 * families, and removals.
 */
import { describe, expect, it } from 'vitest';
import { SlotIndex, type Slotted } from '../../src/consolidate/slot-index';
import { slotsMeet } from '../../src/consolidate/slot';
import { createRandom } from '../helpers/random';

const WORDS = ['tea', 'green', 'chess', 'jazz', 'music', 'dog', 'number', 'at', 'the', 'old', 'club', 'by', 'river', 'a'];

interface Held extends Slotted {
  id: number;
}

function slotKeyOf(random: () => number): string {
  if (random() < 0.05) return '';
  const family = random() < 0.7 ? 'like' : 'do';
  const length = random() < 0.1 ? 11 + Math.floor(random() * 3) : 1 + Math.floor(random() * 4);
  return `${family}:${Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}`;
}

describe('SlotIndex', () => {
  it('finds the memories whose slot meets a slot, on the sides asked, as a walk of every one does', () => {
    let found = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const random = createRandom(seed);
      const index = new SlotIndex<Held>();
      const held: Held[] = [];
      for (let step = 0; step < 400; step++) {
        const entry: Held = { id: step, slot: slotKeyOf(random), polarity: random() < 0.5 ? 1 : -1 };
        index.add(entry);
        held.push(entry);
        if (random() < 0.2) {
          const gone = held.splice(Math.floor(random() * held.length), 1)[0]!;
          index.remove(gone);
        }
        const slot = slotKeyOf(random);
        const sides: (1 | -1)[][] = [[1, -1], [1], [-1]];
        const wanted = sides[step % 3]!;
        const ids = (entries: Iterable<Held>) => [...entries].map((entry) => entry.id).sort((a, b) => a - b);
        const expected = held.filter((entry) => wanted.includes(entry.polarity) && slotsMeet(entry.slot, slot));
        expect(ids(index.meeting(slot, wanted)), `seed ${seed}, step ${step}, ${slot}`).toEqual(ids(expected));
        found += expected.length;
      }
    }
    // Most look-ups find something: the walk is not trivially empty.
    expect(found).toBeGreaterThan(4000);
  });
});
