import { describe, expect, it } from 'vitest';
import { EXCLUSIVE_TOPICS, TOPICS } from '../../src/index';
import { CONVERSATIONS } from './index';
import { expectedStores, splitFact, userTurns, type Conversation } from './suite';

const ALL: readonly Conversation[] = [...CONVERSATIONS.dev, ...CONVERSATIONS.validation];
const topicOf = (conversation: Conversation, id: string) => splitFact(conversation.facts[id]!).topic;

describe('the conversation suite is well-formed', () => {
  it('holds at least 12 conversations, 6 a half, and 400 user turns', () => {
    expect(CONVERSATIONS.dev.length).toBeGreaterThanOrEqual(6);
    expect(CONVERSATIONS.validation.length).toBeGreaterThanOrEqual(6);
    expect(ALL.length).toBeGreaterThanOrEqual(12);
    expect(ALL.flatMap(userTurns).length).toBeGreaterThanOrEqual(400);
  });

  it('names no person and no home of one half in the other', () => {
    const valuesOf = (half: readonly Conversation[]) =>
      new Set(
        half.flatMap((c) =>
          Object.values(c.facts)
            .filter((fact) => /^(identity|home):/.test(fact))
            .map((fact) => fact.replace(/^.*(name is|goes by|lives in) /, '').replace(/\.$/, '')),
        ),
      );
    const dev = valuesOf(CONVERSATIONS.dev);
    expect([...valuesOf(CONVERSATIONS.validation)].filter((value) => dev.has(value))).toEqual([]);
  });

  it('gives every conversation its own id', () => {
    expect(new Set(ALL.map((c) => c.id)).size).toBe(ALL.length);
  });

  describe.each(ALL.map((conversation) => [conversation.id, conversation] as const))('%s', (_, conversation) => {
    const stores = expectedStores(conversation);

    it("writes every fact as 'topic: The user …' with a topic of the vocabulary (never an episode's)", () => {
      for (const fact of Object.values(conversation.facts)) {
        const { topic, content } = splitFact(fact);
        expect(TOPICS, fact).toContain(topic);
        expect(content, fact).toMatch(/^The user/);
      }
    });

    it('refers only to facts it defines, and states every fact it defines in a user turn', () => {
      const stated = new Set(userTurns(conversation).flatMap((turn) => turn.states));
      const referred = conversation.sessions.flatMap((session) => [...session.changes.flat(), ...session.questions.flatMap((question) => question.relevant)]);
      for (const id of [...stated, ...referred]) expect(conversation.facts, id).toHaveProperty(id);
      for (const id of Object.keys(conversation.facts)) expect(stated, id).toContain(id);
    });

    it('has sessions in date order, each with user turns, an expected store and questions whose facts are current', () => {
      const dates = conversation.sessions.map((session) => session.date);
      expect([...dates].sort()).toEqual(dates);
      for (const [s, session] of conversation.sessions.entries()) {
        expect(session.turns.some((turn) => turn.role === 'user')).toBe(true);
        expect(stores[s]!.current.length).toBeGreaterThan(0);
        expect(session.questions.length).toBeGreaterThan(0);
        for (const question of session.questions) {
          expect(question.relevant.length, question.question).toBeGreaterThan(0);
          for (const id of question.relevant) expect(stores[s]!.current, `${question.question}: ${id}`).toContain(id);
        }
      }
    });

    it('changes a mind only from a value held before to one a turn of that session states', () => {
      for (const [s, session] of conversation.sessions.entries()) {
        const stated = new Set(session.turns.flatMap((turn) => (turn.role === 'user' ? turn.states : [])));
        for (const [from, to] of session.changes) {
          const before = s === 0 ? [] : stores[s - 1]!.current;
          expect([...before, ...stated], `${from} → ${to}`).toContain(from);
          expect(stated, `${from} → ${to}`).toContain(to);
        }
      }
    });

    it('expects at most one current value of an exclusive topic', () => {
      for (const store of stores) {
        const exclusive = store.current.map((id) => topicOf(conversation, id)).filter((topic) => EXCLUSIVE_TOPICS.includes(topic as never));
        expect(new Set(exclusive).size, exclusive.join(', ')).toBe(exclusive.length);
      }
    });

    it('holds noise and an instruction aimed at the memory', () => {
      const turns = userTurns(conversation);
      expect(turns.some((turn) => turn.instruction)).toBe(true);
      expect(turns.filter((turn) => !turn.instruction && turn.states.length === 0).length).toBeGreaterThanOrEqual(3);
    });
  });

  it('changes minds on exclusive topics and on others, and supersedes what a change replaces', () => {
    const topics = ALL.flatMap((conversation) => conversation.sessions.flatMap((session) => session.changes.map(([from]) => topicOf(conversation, from))));
    expect(topics.filter((topic) => EXCLUSIVE_TOPICS.includes(topic as never)).length).toBeGreaterThanOrEqual(10);
    expect(topics.filter((topic) => !EXCLUSIVE_TOPICS.includes(topic as never)).length).toBeGreaterThanOrEqual(10);
    const [store] = expectedStores({
      id: 'x',
      facts: { a: 'home: The user lives in A.', b: 'home: The user lives in B.' },
      sessions: [{ date: '2025-01-01', turns: [{ role: 'user', text: '', states: ['a', 'b'], instruction: false }], changes: [['a', 'b']], questions: [] }],
    });
    expect(store).toEqual({ current: ['b'], superseded: ['a'], changes: [['a', 'b']] });
  });
});
