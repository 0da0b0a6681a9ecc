/**
 * The topic vocabulary every extractor writes (the offline one, and the LLM path's prompt and
 * schema): one word per kind of fact, with the kinds a user has one value of at a time marked
 * exclusive (a new one replaces the old: a name, a diet, a home city, an employer).
 * The seed's topics keep their meaning: `travel` is how the user likes to travel (its seat
 * rule), trips taken or planned are `trip`; `identity` is the name the user goes by.
 */

/** Each topic and what belongs under it (the LLM prompt quotes these). */
/** The topic every episode is stored on (src/episode/); reserved: never exclusive, never a fact's. */
export const EPISODE_TOPIC = 'episode';

/** Whether a memory (or candidate) is an episode. */
export function isEpisode(memory: { topic: string }): boolean {
  return memory.topic === EPISODE_TOPIC;
}

/** The topic of session summaries (src/session/); always exclusive (one summary per session). */
export const SESSION_SUMMARY_TOPIC = 'session-summary';

export const TOPIC_DESCRIPTIONS = Object.freeze({
  identity: 'the name the user goes by or how to address them',
  pronouns: "the user's pronouns",
  age: "the user's age or birth year",
  birthday: "the user's birthday",
  home: 'where the user lives now',
  origin: 'where the user is from or grew up',
  occupation: "the user's job or role",
  employer: 'who the user works for',
  work: "the user's field, work details and past jobs",
  education: 'what and where the user studies or studied',
  relationship: "the user's relationship status",
  family: "the user's family, partner, friends and other people in their life",
  pets: "the user's pets",
  diet: "the user's diet",
  allergy: "the user's allergies and intolerances",
  health: "the user's health, conditions and fitness",
  preference: 'what the user likes, dislikes or prefers',
  hobby: "the user's hobbies and activities",
  possession: 'what the user owns',
  routine: "the user's routines and schedule",
  plan: "the user's plans and goals",
  language: 'languages the user speaks or learns',
  belief: "the user's values, beliefs and religion",
  travel: 'how the user likes to travel (seats, airlines, ways of travelling)',
  trip: 'trips and places the user went to or will go to',
  event: "things that happened in the user's life, with their time",
  issue: 'problems the user reported with a product',
  general: 'a durable fact about the user that fits no other topic',
});

export type Topic = keyof typeof TOPIC_DESCRIPTIONS;

/** The vocabulary, in a fixed order. */
export const TOPICS: readonly Topic[] = Object.freeze(Object.keys(TOPIC_DESCRIPTIONS) as Topic[]);

/** Topics where the user has one value at a time: a new value replaces the old. */
export const EXCLUSIVE_TOPICS: readonly Topic[] = Object.freeze(['identity', 'pronouns', 'age', 'birthday', 'home', 'origin', 'occupation', 'employer', 'relationship', 'diet', 'travel'] as const);

/** Whether `topic` is one of the vocabulary's. */
export function isTopic(topic: string): topic is Topic {
  return Object.hasOwn(TOPIC_DESCRIPTIONS, topic);
}
