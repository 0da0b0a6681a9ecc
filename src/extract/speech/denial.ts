/**
 * What the user denies having said is no statement of theirs: in "I never said that I'm vegan"
 * or "i didn't tell anyone im vegan" the clause after the speech verb is reported speech the
 * user disowns. src/defences.ts already drops what someone else says; this is the user's own
 * denied saying, which it lets through (the speaker is the user).
 */

/**
 * The user, a negation, a verb of saying, then who was told and "that": the end of the words before a clause.
 * The clause follows the verb (or its "that") directly, or opens a quotation: after a comma or a colon
 * with no quote ("I never told you, I'm allergic to peanuts") the user discloses what they had not said.
 */
const DENIED_SAYING =
  /(?:^|[^\p{L}\p{N}'])(?:i|i've|ive)[ \t]+(?:(?:never|not|ever|have|has|had|really|actually|once)[ \t]+)*(?:never|didn't|didnt|did[ \t]+not|don't|dont|do[ \t]+not|haven't|havent|have[ \t]+not|wouldn't|would[ \t]+not)[ \t]+(?:(?:ever|once|actually|really)[ \t]+)?(?:said|say|told|tell|claimed|claim|wrote|write|mentioned|mention)(?:[ \t]+(?:to[ \t]+)?(?:you|anyone|anybody|them|him|her|nobody|that|it|so))*(?:[ \t]*[,:]?[ \t]*["“'][ \t]*|[ \t]+)$/iu;

/** How far back the denial is looked for: a bounded window, so each clause of a long message costs a constant. */
const WINDOW = 120;

/** Whether the words of `text` before `start` (within its sentence) deny the user said what follows. */
export function deniedSaying(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - WINDOW), start);
  const sentenceEnd = Math.max(before.lastIndexOf('.'), before.lastIndexOf('!'), before.lastIndexOf('?'), before.lastIndexOf('\n'));
  return DENIED_SAYING.test(before.slice(sentenceEnd + 1));
}
