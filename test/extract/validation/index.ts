/** The validation chat corpus (README.md): every register, in one list. Scored, never tuned on. */
import type { LabelledCase } from '../speech/corpus-a';
import { CHAT_ONLY, IN_QUESTIONS, NOT_MEANT, PASSING, SMALL_TALK } from './chat';
import { CHANGES, CONTRACTED, EVENTS, HEDGED, INTRODUCTIONS, NUMBER_WORDS, PEOPLE, RAMBLING, SEVERAL } from './shapes';
import { CASUAL, EMOJI, FORMAL, NON_NATIVE, PLAIN, SHORTHAND, TYPOS } from './statements';

export const VALIDATION: readonly LabelledCase[] = [
  ...PLAIN,
  ...CASUAL,
  ...TYPOS,
  ...SHORTHAND,
  ...EMOJI,
  ...NON_NATIVE,
  ...FORMAL,
  ...RAMBLING,
  ...INTRODUCTIONS,
  ...HEDGED,
  ...SEVERAL,
  ...NUMBER_WORDS,
  ...CONTRACTED,
  ...CHANGES,
  ...EVENTS,
  ...PEOPLE,
  ...PASSING,
  ...NOT_MEANT,
  ...IN_QUESTIONS,
  ...CHAT_ONLY,
  ...SMALL_TALK,
];
