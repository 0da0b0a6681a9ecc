/** How long a fact of each topic is expected to hold, and how much it matters, by topic. */
import type { Topic } from '../topics';

export const TOPIC_HALF_LIFE_DAYS: Readonly<Record<Topic, number>> = {
  identity: 3650, pronouns: 3650, age: 365, birthday: 3650, home: 730, origin: 3650, occupation: 730, employer: 730, work: 730, education: 730,
  relationship: 1825, family: 3650, pets: 1825, diet: 365, allergy: 3650, health: 180, preference: 365, hobby: 365, possession: 365, routine: 180,
  plan: 90, language: 3650, belief: 1825, travel: 365, trip: 180, event: 180, issue: 30, general: 180,
};

export const TOPIC_IMPORTANCE: Readonly<Record<Topic, number>> = {
  identity: 0.8, pronouns: 0.8, age: 0.5, birthday: 0.5, home: 0.6, origin: 0.5, occupation: 0.6, employer: 0.5, work: 0.5, education: 0.5,
  relationship: 0.6, family: 0.6, pets: 0.5, diet: 0.7, allergy: 0.9, health: 0.7, preference: 0.5, hobby: 0.5, possession: 0.4, routine: 0.4,
  plan: 0.5, language: 0.5, belief: 0.5, travel: 0.5, trip: 0.4, event: 0.4, issue: 0.5, general: 0.4,
};
