/**
 * The reader's dev chat corpus, part five (see chat-a.ts): hedges of certainty ("fairly sure",
 * "almost certain that") and the reason a user gives before a question or a request ("since
 * I'm …, what …?"), with the sentences of the same words that carry no fact.
 */
import { labelled } from '../speech/corpus-a';

export const DEV_CERTAINTY = labelled('hedged, certainty', [
  ['fairly sure i have a mild nut allergy', 'allergy: The user has a mild nut allergy.'],
  ["quite sure I'm allergic to shellfish", 'allergy: The user is allergic to shellfish.'],
  ["I'm almost certain that I'm lactose intolerant.", 'allergy: The user is lactose intolerant.'],
  ["I am pretty sure I'm gluten intolerant.", 'allergy: The user is gluten intolerant.'],
  ['pretty sure i live in zone 2 now', 'home: The user lives in zone 2.'],
  ["fairly certain I'm a lefty", 'general: The user is a lefty.'],
  ["I'm sure I'm fine."],
  ['pretty sure that was a joke'],
  ["I'm not sure."],
]);

export const DEV_REASONS = labelled('fact before a request', [
  ['since im vegetarian, any good curry recipes?', 'diet: The user follows a vegetarian diet.'],
  ["because I'm allergic to peanuts, can you check this menu?", 'allergy: The user is allergic to peanuts.'],
  ['as i live in Leeds, which parks are near me?', 'home: The user lives in Leeds.'],
  ['since my husband is diabetic, what desserts can I make?', "family: The user's husband is diabetic."],
  ["cause i'm lactose intolerant, what milk should i buy?", 'allergy: The user is lactose intolerant.'],
  ['bc I work nights, when should I go to the gym?', 'work: The user works nights.'],
  ['since when do you remember things?'],
  ['because you asked, here it is'],
  ['as you said, the film was long'],
]);
