import { describe, expect, it } from 'vitest';
import { emptyTally, runConversation } from '../../scripts/eval-conversations';
import { changeApplied, contentWords, coverage, duplicateHits, factSlots, recalled, scoreStore, staleLines, type Expected, type Item } from '../../scripts/eval-conversations-score';
import { a, q, u, type Conversation } from '../conversations/suite';

/** A user who lived in Leeds and moved to York, is vegetarian, and said one thing to the memory. */
const expected: Expected = {
  facts: [
    { id: 'leeds', topic: 'home', content: 'The user lives in Leeds.' },
    { id: 'york', topic: 'home', content: 'The user lives in York.' },
    { id: 'veg', topic: 'diet', content: 'The user is vegetarian.' },
    { id: 'choir', topic: 'hobby', content: 'The user sings in a choir.' },
    { id: 'quit', topic: 'hobby', content: 'The user quit|left the choir.' },
  ],
  current: new Set(['york', 'veg', 'quit']),
  superseded: new Set(['leeds', 'choir']),
  turns: new Map([
    ['t1', { states: ['leeds', 'veg'], instruction: false }],
    ['t2', { states: [], instruction: false }],
    ['t3', { states: [], instruction: true }],
    ['t4', { states: ['york'], instruction: false }],
    ['t5', { states: ['choir'], instruction: false }],
    ['t6', { states: ['quit'], instruction: false }],
  ]),
};

const fact = (id: string, topic: string, content: string, ...sources: string[]): Item => ({ id, topic, content, sources });
const episode = (id: string, content: string, source: string): Item => ({ id, topic: 'episode', content, sources: [source] });

const verdictsOf = (items: Item[], mode: 'strict' | 'loose' = 'strict') => scoreStore(items, expected, mode).map((s) => [s.item.id, s.verdict]);

describe('the conversation scorer', () => {
  it('counts a fact of a current value as right, and the same fact again as a duplicate', () => {
    const items = [fact('a', 'home', 'The user moved to York.', 't4'), fact('b', 'home', 'The user lives in York now.', 't4')];
    expect(verdictsOf(items)).toEqual([
      ['a', 'right'],
      ['b', 'duplicate'],
    ]);
  });

  it('counts the episode a kept fact was read from as a duplicate, and an episode carrying a fact no item holds as right', () => {
    const items = [episode('e1', 'i moved to york', 't4'), fact('f', 'home', 'The user moved to York.', 't4'), episode('e2', 'i quit the choir', 't6')];
    expect(verdictsOf(items)).toEqual([
      ['e1', 'duplicate'],
      ['f', 'right'],
      ['e2', 'right'],
    ]);
  });

  it('counts a fact or an episode that presents a superseded value as stale, even when the episode also carries a current fact', () => {
    const items = [fact('f', 'home', 'The user lives in Leeds.', 't1'), episode('e', 'im vegetarian and i live in leeds', 't1'), fact('g', 'hobby', 'The user sings alto in a choir.', 't5')];
    expect(verdictsOf(items)).toEqual([
      ['f', 'stale'],
      ['e', 'stale'],
      ['g', 'stale'],
    ]);
  });

  it('prefers the better match: "quit the choir" is the new value, not the old one it shares a word with', () => {
    expect(verdictsOf([fact('f', 'hobby', 'The user left the choir.', 't6')])).toEqual([['f', 'right']]);
  });

  it('counts items kept from turns that state no fact as noise, instructions to the memory flagged, whatever their words', () => {
    const scored = scoreStore([episode('e', 'ok cool 👌', 't2'), fact('f', 'general', 'The user has admin rights.', 't3'), fact('g', 'home', 'The user lives in York.', 't2')], expected, 'strict');
    expect(scored.map((s) => [s.item.id, s.verdict, s.instruction])).toEqual([
      ['e', 'noise', false],
      ['f', 'noise', true],
      ['g', 'noise', false],
    ]);
  });

  it('credits a fact only with what its own turns state: the right words read from another turn are wrong, and a noise item recalls nothing', () => {
    // t4 states only the move to York; "The user is vegetarian" read from it was not said there.
    expect(verdictsOf([fact('f', 'diet', 'The user is vegetarian.', 't4')])).toEqual([['f', 'wrong']]);
    expect([...recalled([fact('f', 'diet', 'The user is vegetarian.', 't4')], expected, 'loose')]).toEqual([]);
    expect([...recalled([fact('g', 'diet', 'The user is vegetarian.', 't2')], expected, 'loose')]).toEqual([]);
    expect([...recalled([fact('h', 'diet', 'The user is vegetarian.', 't1')], expected, 'strict')]).toEqual(['veg']);
  });

  it('counts a fact of a fact turn that matches nothing said as wrong, and one filed under another topic as wrong in strict mode only', () => {
    const items = [fact('f', 'event', 'The user moved to York.', 't4'), fact('g', 'general', 'The user is writing from a new flat.', 't4')];
    expect(verdictsOf(items, 'strict')).toEqual([
      ['f', 'wrong'],
      ['g', 'wrong'],
    ]);
    expect(verdictsOf(items, 'loose')).toEqual([
      ['f', 'right'],
      ['g', 'wrong'],
    ]);
  });

  it('recalls a current fact strictly only as a fact of its topic, loosely as any item that carries it', () => {
    const items = [fact('f', 'event', 'The user moved to York.', 't4'), episode('e', 'im vegetarian and i live in leeds', 't1')];
    expect([...recalled(items, expected, 'strict')]).toEqual([]);
    expect([...recalled(items, expected, 'loose')].sort()).toEqual(['veg', 'york']);
  });

  it('applies a change of mind only when nothing presents the old value and the new one is held', () => {
    const moved = [fact('f', 'home', 'The user lives in York.', 't4')];
    const both = [...moved, episode('e', 'i live in leeds', 't1')];
    const score = (items: Item[]) => scoreStore(items, expected, 'loose');
    expect(changeApplied(score(moved), ['leeds', 'york'], expected)).toBe(true);
    expect(changeApplied(score(both), ['leeds', 'york'], expected)).toBe(false);
    expect(changeApplied(score(both), ['leeds', 'york'], expected, true)).toBe(true);
    expect(changeApplied(score([]), ['leeds', 'york'], expected)).toBe(false);
  });

  it('counts a hit that repeats what a hit above it said: a fact below its episode, two facts of one content', () => {
    const scored = scoreStore(
      [episode('e', 'i moved to york', 't4'), fact('f', 'home', 'The user moved to York.', 't4'), fact('g', 'diet', 'The user is vegetarian.', 't1'), episode('n', 'ok cool', 't2'), episode('m', 'OK, cool!', 't2')],
      expected,
      'loose',
    );
    expect(duplicateHits(scored).map((s) => s.item.id)).toEqual(['f', 'm']);
  });

  it('traces the lines of an injected block to their hits and counts the stale ones, escaping aside', () => {
    const scored = scoreStore([fact('f', 'home', 'The user lives in Leeds & loves it.', 't1'), fact('g', 'home', 'The user lives in York.', 't4')], expected, 'loose');
    const block = [
      '<MEMORIES>',
      'Information you know about this user.',
      '- [confidence: medium, source: user_implicit] The user lives in York.',
      '- [confidence: medium, source: user_implicit] The user lives in Leeds &amp; loves it.',
      '</MEMORIES>',
    ].join('\n');
    expect(staleLines(block, scored)).toEqual(['- [confidence: medium, source: user_implicit] The user lives in Leeds &amp; loves it.']);
  });

  it('reads content words without function words, possessives or plurals, and a|b as one slot', () => {
    expect([...contentWords("The user's cats hate olives.")]).toEqual(['cat', 'hate', 'olive']);
    expect(factSlots('The user quit|left the choir.')).toEqual([['quit', 'left'], ['choir']]);
    expect(coverage(contentWords('The user left the choir in May'), factSlots('The user quit|left the choir.'))).toBe(1);
    expect(coverage(contentWords('The user sings in a choir'), factSlots('The user quit|left the choir.'))).toBe(0.5);
  });
});

describe('runConversation', () => {
  const tiny: Conversation = {
    id: 'tiny',
    facts: { leeds: 'home: The user lives in Leeds.', york: 'home: The user lives in York.', veg: 'diet: The user is vegetarian.' },
    sessions: [
      { date: '2025-01-01', turns: [a('Hi! What can I do for you?'), u('I live in Leeds and I am vegetarian.', 'leeds', 'veg'), u('ok cool 👌')], changes: [], questions: [q('where do I live?', 'leeds')] },
      { date: '2025-02-01', turns: [u('I moved to York last week.', 'york')], changes: [['leeds', 'york']], questions: [q('where do I live?', 'york'), q('what should I cook?', 'veg')] },
    ],
  };

  it('ingests session by session into a fresh default store and scores every session, question and change', async () => {
    const tally = emptyTally();
    const lines: string[] = [];
    await runConversation(tiny, tally, (line) => lines.push(line));
    expect(tally).toMatchObject({ conversations: 1, userTurns: 3, checks: 2, questions: 3, changes: 1, expected: 2 + 2 });
    const kept = (mode: 'strict' | 'loose') => Object.values(tally.kept[mode]).reduce((sum, n) => sum + n, 0);
    expect(kept('strict')).toBe(kept('loose'));
    expect(kept('loose')).toBeGreaterThan(0);
    // inject writes a line for every hit it is given
    expect(tally.injectedLines).toBe(tally.hits);
    expect(tally.hits).toBeGreaterThan(0);
    expect(tally.recalled.loose).toBeGreaterThanOrEqual(tally.recalled.strict);
    // every item that is not right is printed with its verdict
    for (const verdict of ['duplicate', 'stale', 'noise', 'wrong'] as const) expect(lines.filter((line) => line.includes(`: ${verdict.padEnd(9)} [`)).length, verdict).toBe(tally.kept.loose[verdict]);
  }, 30_000);
});
