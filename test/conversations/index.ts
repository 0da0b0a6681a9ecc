/** The conversation suite (issue 42): the dev half, written directly as chat, and the validation half, written from persona sheets and timelines (docs/eval.md). */
import type { Conversation } from './suite';
import { DAVE } from './dev/dave';
import { INES } from './dev/ines';
import { KENJI } from './dev/kenji';
import { MAYA } from './dev/maya';
import { SAM } from './dev/sam';
import { TOM } from './dev/tom';
import { AOIFE } from './validation/aoife';
import { DIEGO } from './validation/diego';
import { HANNAH } from './validation/hannah';
import { MALIA } from './validation/malia';
import { PRI } from './validation/pri';
import { SEUN } from './validation/seun';
import { WALTER } from './validation/walter';

export const DEV: readonly Conversation[] = [MAYA, TOM, INES, DAVE, SAM, KENJI];
export const VALIDATION: readonly Conversation[] = [SEUN, HANNAH, DIEGO, PRI, WALTER, AOIFE, MALIA];

export const CONVERSATIONS = { dev: DEV, validation: VALIDATION } as const;
