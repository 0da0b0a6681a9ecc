/**
 * What the default extractor reads in the ordinary corpus beyond the seed rules' facts: other
 * facts the same messages state (the corpus itself, messages and seed facts, is unchanged).
 * The corpus test expects exactly the seed facts plus these, so a fact lost or a new one
 * misread still fails it.
 */
export const ORDINARY_MORE: Readonly<Record<string, readonly string[]>> = {
  "I cook for other people all the time but I'm vegan.": ['The user cooks for other people all the time.'],
  "My grandmother was from Kerala and my grandfather from Lyon, which is why my name confuses everyone at airports, so I'll make it easy: call me Anaïs. And for what it's worth, I'm a vegetarian, like her.": [
    "The user's grandmother was from Kerala.",
  ],
  "Long story short, my doctor said my iron was low, I argued about it for months, I read far too many articles, and in the end I've started eating fish again, mostly salmon, twice a week.": ['The user argued about it for months.'],
  'Hello, I am from Brazil, please call me João, is more easy for me.': ['The user is from Brazil.'],
};
