/** One word of a message as the speech reader reads it (./tokens.ts cuts them, ./chat.ts normalises them). */
export interface Token {
  /** The word in lower case, apostrophes straight ("I’m" → "i'm"). */
  w: string;
  /** The word as typed. */
  raw: string;
  start: number;
  end: number;
}
