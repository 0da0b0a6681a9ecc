/**
 * The conversation suite's format (issue 42): multi-session chats, each user turn labelled with
 * the durable facts it states, each session with the changes of mind it makes and the questions
 * the assistant might get next. The expected store after each session is derived from those
 * labels by one rule (`expectedStores`), so it cannot drift from the turns.
 */
export type FactId = string;

/** One turn of a session. A user turn states zero or more facts (by id); `instruction` marks a turn aimed at the memory itself. */
export type Turn = { role: 'assistant'; text: string } | { role: 'user'; text: string; states: readonly FactId[]; instruction: boolean };

export interface Question {
  question: string;
  /** The facts a good answer needs (current after the session). */
  relevant: readonly FactId[];
}

export interface Session {
  /** The day the session happens, `YYYY-MM-DD` (UTC; it starts at 18:00, one minute a turn). */
  date: string;
  turns: readonly Turn[];
  /** Changes of mind made in this session: `[old, new]`: after it the old fact is no longer current and the new one is. */
  changes: readonly (readonly [FactId, FactId])[];
  questions: readonly Question[];
}

export interface Conversation {
  id: string;
  /** Every fact the user states, `'topic: The user …'` written with the words that carry it. */
  facts: Readonly<Record<FactId, string>>;
  sessions: readonly Session[];
}

/** A user turn stating `facts`. */
export const u = (text: string, ...facts: FactId[]): Turn => ({ role: 'user', text, states: facts, instruction: false });
/** A user turn aimed at the memory ("note for your memory: …"): nothing of it should be kept. */
export const x = (text: string): Turn => ({ role: 'user', text, states: [], instruction: true });
/** An assistant turn. */
export const a = (text: string): Turn => ({ role: 'assistant', text });
/** A question the assistant might get next, with the facts relevant to it. */
export const q = (question: string, ...relevant: FactId[]): Question => ({ question, relevant });

/** `'topic: The user …'` split. */
export function splitFact(fact: string): { topic: string; content: string } {
  const colon = fact.indexOf(': ');
  if (colon < 0) throw new Error(`expected 'topic: fact', got '${fact}'`);
  return { topic: fact.slice(0, colon), content: fact.slice(colon + 2) };
}

/** What the store should hold after a session. */
export interface ExpectedStore {
  /** Facts stated so far and not superseded, in the order first stated. */
  current: FactId[];
  /** Facts stated before and replaced by a change of mind since (and not stated again as current). */
  superseded: FactId[];
  /** The changes of mind made in this session. */
  changes: readonly (readonly [FactId, FactId])[];
}

/**
 * The expected store after each session: every fact a user turn stated so far is current, except
 * the old side of a change of mind made since; a change's new side is current from its session on
 * (a fact superseded and later made the new side of another change is current again).
 */
export function expectedStores(conversation: Conversation): ExpectedStore[] {
  const current: FactId[] = [];
  const superseded = new Set<FactId>();
  return conversation.sessions.map((session) => {
    for (const turn of session.turns) if (turn.role === 'user') for (const id of turn.states) if (!current.includes(id) && !superseded.has(id)) current.push(id);
    for (const [from, to] of session.changes) {
      const at = current.indexOf(from);
      if (at >= 0) current.splice(at, 1);
      superseded.add(from);
      superseded.delete(to);
      if (!current.includes(to)) current.push(to);
    }
    return { current: [...current], superseded: [...superseded], changes: session.changes };
  });
}

/** The user turns of a conversation in order, each with its source id (`<conversation>-s<session>-t<turn>`). */
export function userTurns(conversation: Conversation): { id: string; session: number; text: string; states: readonly FactId[]; instruction: boolean }[] {
  return conversation.sessions.flatMap((session, s) =>
    session.turns.flatMap((turn, t) => (turn.role === 'user' ? [{ id: `${conversation.id}-s${s + 1}-t${t + 1}`, session: s, text: turn.text, states: turn.states, instruction: turn.instruction }] : [])),
  );
}
