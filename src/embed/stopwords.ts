/**
 * Words that carry no topic. "user" is here on purpose: every stored memory starts with
 * "The user …", so the word would make all memories look alike.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by do does did for from had has have how i if in into is it its ' +
    'me my of on or our so that the their them then there these they this to too us was we were what ' +
    'when where which who whom why will with would you your yours should could can about any just ' +
    'know also very user'
  ).split(' '),
);
