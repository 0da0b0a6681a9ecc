import { describe, expect, it } from 'vitest';
import { splitEvidence } from '../../scripts/eval-data';
import { createBm25, mergeByScore, recallAt } from '../../scripts/eval-metrics';
import { speakersOf, turnsOf, TURN_GAP_MS } from '../../scripts/eval-turns';

describe('recallAt', () => {
  it('counts a question found at k when any of its first k hits came from an evidence turn', () => {
    const ranked = [[['D1:1'], ['D1:2', 'D2:5'], ['D3:3']], [['D9:9'], ['D9:8']], []];
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

describe('mergeByScore', () => {
  it("keeps the k best of several speakers' lists by score, ties in list order", () => {
    const a = [
      { item: 'a1', score: 0.9 },
      { item: 'a2', score: 0.5 },
    ];
    const b = [
      { item: 'b1', score: 0.7 },
      { item: 'b2', score: 0.5 },
    ];
    expect(mergeByScore([a, b], 3)).toEqual(['a1', 'b1', 'a2']);
    expect(mergeByScore([a, b], 10)).toEqual(['a1', 'b1', 'a2', 'b2']);
  });
});

describe('speakersOf', () => {
  const turnSpeaker = new Map([['D1:1', 'Melanie']]);
  it('names every speaker the question names, in its order, and only whole names', () => {
    expect(speakersOf('Did Melanie and Caroline meet?', ['Caroline', 'Melanie'], turnSpeaker, [])).toEqual(['Melanie', 'Caroline']);
    expect(speakersOf("What is Caroline's job?", ['Caroline', 'Melanie'], turnSpeaker, [])).toEqual(['Caroline']);
    expect(speakersOf('Who is Melanies friend?', ['Caroline', 'Melanie'], turnSpeaker, ['D1:1'])).toEqual(['Melanie']);
  });

  it('falls back to the speaker of the first evidence turn when the question names no one', () => {
    expect(speakersOf('When was the trip?', ['Caroline', 'Melanie'], turnSpeaker, ['D9:9', 'D1:1'])).toEqual(['Melanie']);
  });
});

describe('turnsOf', () => {
  it('times each turn at its session date plus one minute per turn before it, sessions in order', () => {
    const turns = turnsOf({
      session_2_date_time: '1:00 pm on 9 May, 2023',
      session_2: [{ speaker: 'B', dia_id: 'D2:1', text: 'z' }],
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'A', dia_id: 'D1:1', text: 'x' },
        { speaker: 'B', dia_id: 'D1:2', text: 'y' },
      ],
    });
    const start = Date.UTC(2023, 4, 8, 13, 56);
    expect(turns.map((turn) => [turn.id, turn.session, turn.at])).toEqual([
      ['D1:1', 1, start],
      ['D1:2', 1, start + TURN_GAP_MS],
      ['D2:1', 2, Date.UTC(2023, 4, 9, 13, 0)],
    ]);
  });
});
