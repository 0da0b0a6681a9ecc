/**
 * What the user denies having said is no statement of theirs: in "I never said that I'm vegan"
 * or "i didn't tell anyone im vegan" the clause after the speech verb is reported speech the
 * user disowns. src/defences.ts already drops what someone else says; this is the user's own
 * denied saying, which it lets through (the speaker is the user).
 */

/** The user, a negation, a verb of saying, then who was told and "that": the end of the words before a clause. */
const DENIED_SAYING =
  /(?:^|[^\p{L}\p{N}'])(?:i|i've|ive)[ \t]+(?:(?:never|not|ever|have|has|had|really|actually|once)[ \t]+)*(?:never|didn't|didnt|did[ \t]+not|don't|dont|do[ \t]+not|haven't|havent|have[ \t]+not|wouldn't|would[ \t]+not)[ \t]+(?:(?:ever|once|actually|really)[ \t]+)?(?:said|say|told|tell|claimed|claim|wrote|write|mentioned|mention)(?:[ \t]+(?:to[ \t]+)?(?:you|anyone|anybody|them|him|her|nobody|that|it|so))*[ \t]*(?:that[ \t]+)?[,:]?[ \t]*["“']?[ \t]*$/iu;

/** Whether the words of `text` before `start` (within its sentence) deny the user said what follows. */
export function deniedSaying(text: string, start: number): boolean {
  const sentenceStart = Math.max(text.lastIndexOf('.', start - 1), text.lastIndexOf('!', start - 1), text.lastIndexOf('?', start - 1), text.lastIndexOf('\n', start - 1)) + 1;
  return DENIED_SAYING.test(text.slice(Math.max(sentenceStart, start - 120), start));
}
