/**
 * The guided walkthrough: the seed's Parts 7 and 8 as steps. The conversations and queries
 * come from scripts/seed-sessions.ts, the same file the terminal walkthrough and the
 * scenario tests replay, so all three show exactly the same thing.
 */
import type { Memory } from '../src/index';
import { DAY, OTHER_USER, SEED_APP, SEED_QUERIES, SEED_SESSIONS, SEED_SYSTEM, SEED_USER, type SeedSession } from '../scripts/seed-sessions';
import type { SimulatedClock } from './clock';
import { forgetView, retrieveView, viewOperations, type Owner, type StepResult } from './views';

export const SEED_OWNER: Owner = { userId: SEED_USER, appName: SEED_APP };
/** The walkthrough injects the top 3, as the seed does. */
export const WALK_K = 3;
export { SEED_SYSTEM };

export interface StepContext {
  memory: Memory;
  clock: SimulatedClock;
  /** Simulated time of session 1; later sessions happen `session.day` days after it. */
  start: number;
}

export interface Step {
  /** Short label for the stepper. */
  label: string;
  /** Whose store the side panel shows after this step. */
  owner: Owner;
  run(context: StepContext): Promise<StepResult>;
}

const SESSION_NOTES = [
  'Ada mentions her diet, her name and her seat preference. Only the user messages are read: the assistant also says "window seat", and nothing comes of it. Each of her turns is also kept in her words (an episode), behind the facts read from it.',
  'The same fact, said differently: no new memory, the existing one is corroborated (+0.05 confidence) and gains s2 as a source. The turn is kept behind it as a restatement.',
  'Six months later, an explicit contradiction on the exclusive topic "diet". The vegetarian memory is tombstoned, and the fish memory replaces it, inheriting its sources. The two turns that said she is vegetarian retire with it.',
];

function sessionStep(session: SeedSession, index: number): Step {
  return {
    label: `Session ${index + 1}`,
    owner: SEED_OWNER,
    async run({ memory, clock, start }) {
      clock.advanceTo(start + session.day * DAY);
      const operations = await memory.ingest(session.messages, { ...SEED_OWNER, sessionId: session.sessionId, source: session.source });
      return {
        kind: 'ingest',
        title: session.title
          .replace(/\s+/g, ' ')
          .replace(' -- ', ': ')
          .replace(/^SESSION/, 'Session'),
        note: SESSION_NOTES[index] ?? '',
        at: clock.now(),
        userId: SEED_USER,
        sessionId: session.sessionId,
        source: session.source,
        messages: session.messages,
        operations: await viewOperations(memory, SEED_OWNER, operations),
      };
    },
  };
}

const QUERY_NOTES = [
  'The diet memory ranks first. Its text shares few words with the query, but it is fresh (recency 1.0 after the update).',
  'The seat memory ranks first on relevance, despite six months of decay.',
  'Nothing is about lunch: the scores are close and recency decides. This is where a real embedder beats the offline hash embedder.',
];

function queryStep(query: string, index: number): Step {
  return {
    label: `Query ${index + 1}`,
    owner: SEED_OWNER,
    async run({ memory, clock }) {
      return {
        kind: 'retrieve',
        title: `Retrieval: “${query}”`,
        note: QUERY_NOTES[index] ?? '',
        at: clock.now(),
        retrieval: await retrieveView(memory, query, SEED_OWNER, WALK_K, SEED_SYSTEM),
      };
    },
  };
}

const BOB: Owner = { userId: OTHER_USER, appName: SEED_APP };

export const STEPS: readonly Step[] = [
  ...SEED_SESSIONS.map(sessionStep),
  ...SEED_QUERIES.map(queryStep),
  {
    label: 'Isolation',
    owner: BOB,
    async run({ memory, clock }) {
      return {
        kind: 'retrieve',
        title: `Isolation check: ${OTHER_USER} asks “${SEED_QUERIES[0]}”`,
        note: `Same app, same database, another user: ${OTHER_USER} sees nothing of ${SEED_USER}'s memories. Isolation lives in the query layer.`,
        at: clock.now(),
        retrieval: await retrieveView(memory, SEED_QUERIES[0]!, BOB, WALK_K, SEED_SYSTEM),
      };
    },
  },
  {
    label: 'Context',
    owner: SEED_OWNER,
    async run({ memory, clock }) {
      return {
        kind: 'context',
        title: 'Context for the next turn',
        note: 'memory.inject() output, exactly as it goes into the system prompt: each memory with the band of its decayed confidence and its latest source type, escaped so it cannot break out of the block.',
        at: clock.now(),
        retrieval: await retrieveView(memory, SEED_QUERIES[1]!, SEED_OWNER, WALK_K, SEED_SYSTEM),
      };
    },
  },
  {
    label: 'Revoke s1',
    owner: SEED_OWNER,
    async run({ memory, clock }) {
      return {
        kind: 'forget',
        title: 'Right to erasure: revoking source s1',
        note: 'Of the three active memories, the two that only s1 supported are erased (the tombstone keeps id, times and topic, no text), and the fish memory is rebuilt from the remaining sources, s2 and s3. The vegetarian memory, superseded since session 3, stays superseded; s1 leaves its sources too. Her seat turn, the one of s1 still kept in her words, is erased with it.',
        at: clock.now(),
        forget: await forgetView(memory, 's1', SEED_OWNER),
      };
    },
  },
];
