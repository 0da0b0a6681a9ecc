/** The reader's dev chat corpus (parts a-e): what the speech reader is tuned on, with the project's corpora. */
import type { LabelledCase } from '../speech/corpus-a';
import { DEV_CASUAL, DEV_PLAIN, DEV_SLANG, DEV_TYPOS } from './chat-a';
import { DEV_EMOJI, DEV_HEDGED, DEV_LONG, DEV_NAMES, DEV_SEVERAL } from './chat-b';
import { DEV_IN_QUESTION, DEV_OTHERS, DEV_PASSING, DEV_PLAY, DEV_QUESTIONS } from './chat-c';
import { DEV_LASTING, DEV_MOMENT } from './chat-d';
import { DEV_CERTAINTY, DEV_REASONS } from './chat-e';

export const DEV: readonly LabelledCase[] = [
  ...DEV_PLAIN,
  ...DEV_CASUAL,
  ...DEV_TYPOS,
  ...DEV_SLANG,
  ...DEV_EMOJI,
  ...DEV_LONG,
  ...DEV_NAMES,
  ...DEV_HEDGED,
  ...DEV_SEVERAL,
  ...DEV_PASSING,
  ...DEV_PLAY,
  ...DEV_OTHERS,
  ...DEV_QUESTIONS,
  ...DEV_IN_QUESTION,
  ...DEV_MOMENT,
  ...DEV_LASTING,
  ...DEV_CERTAINTY,
  ...DEV_REASONS,
];
