import { describe, expect, it } from 'vitest';
import { splitEvidence } from '../../scripts/eval-data';
import { createBm25, recallAt } from '../../scripts/eval-metrics';

describe('recallAt', () => {
  it('counts a question found at k when any of its first k hits came from an evidence turn', () => {
    const ranked = [
      [['D1:1'], ['D1:2', 'D2:5'], ['D3:3']],
      [['D9:9'], ['D9:8']],
      [],
    ];
    const evidence = [['D2:5'], ['D1:1'], ['D1:1']];
    expect(recallAt(ranked, evidence, [1, 2, 10])).toEqual([0, 100 / 3, 100 / 3]);
  });

  it('throws a RangeError when result lists and questions differ in number', () => {
    expect(() => recallAt([[]], [], [1])).toThrow(RangeError);
  });
});

describe('splitEvidence', () => {
  it('splits evidence strings that hold several turn ids', () => {
    expect(splitEvidence(['D8:6; D9:17', 'D1:3', 'D2:1,D2:2'])).toEqual(['D8:6', 'D9:17', 'D1:3', 'D2:1', 'D2:2']);
  });
});

describe('createBm25', () => {
  it('ranks the document holding the rare query term first when a common term is everywhere', () => {
    const bm25 = createBm25(['Caroline likes tea', 'Caroline likes coffee', 'Caroline adopted a dog', 'Caroline likes tea and cake']);
    expect(bm25.search('Caroline dog', 2)[0]).toBe(2);
    expect(bm25.scores('nothing matches')).toEqual([0, 0, 0, 0]);
  });
});
