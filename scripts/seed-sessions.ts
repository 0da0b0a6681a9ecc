/**
 * The seed's Part 7 and Part 8 conversations, shared by the terminal walkthrough, the demo
 * page and the scenario tests so all three replay exactly the same thing.
 */
import type { ChatMessage, SourceInput } from '../src/index';

export const SEED_USER = 'u_ada';
export const OTHER_USER = 'u_bob';
export const SEED_APP = 'solaris-trips';
export const SEED_START = Date.UTC(2026, 1, 6, 20, 11, 27);
export const DAY = 86_400_000;

export interface SeedSession {
  title: string;
  sessionId: string;
  source: SourceInput;
  /** Days after SEED_START at which the session happens. */
  day: number;
  messages: ChatMessage[];
}

export const SEED_SESSIONS: readonly SeedSession[] = [
  {
    title: 'SESSION 1  (source: user_implicit, session s1)',
    sessionId: 's1',
    source: { type: 'user_implicit', id: 's1' },
    day: 0,
    messages: [
      { role: 'user', content: "Hi! I'm vegetarian, so keep that in mind for any meal bookings. Call me Ada." },
      { role: 'assistant', content: "Noted, Ada. I'm a travel concierge; I prefer the window seat myself." },
      { role: 'user', content: 'For flights, I prefer the aisle seat.' },
    ],
  },
  {
    title: 'SESSION 2  (the same fact, said differently)',
    sessionId: 's2',
    source: { type: 'user_implicit', id: 's2' },
    day: 1,
    messages: [{ role: 'user', content: "As I said before, I'm a vegetarian." }],
  },
  {
    title: 'SESSION 3  (six months later -- a genuine contradiction)',
    sessionId: 's3',
    source: { type: 'user_explicit', id: 's3' },
    day: 182,
    messages: [{ role: 'user', content: "Quick update: I've started eating fish again." }],
  },
];

export const SEED_QUERIES: readonly string[] = ['any dietary restrictions I should know about?', 'what seat should I book on the flight?', 'what should we order for lunch?'];

export const SEED_SYSTEM = 'You are a travel concierge for Solaris Trips.';
