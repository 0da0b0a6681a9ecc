/**
 * Time units every side agrees on, in a module without dependencies: the worker's scan decays
 * rows with the same day as the store's `decayedConfidence`, and the worker bundle must not
 * pull in zod to get it.
 */

/** Milliseconds in a day: ages and half-lives are in days, times in ms since epoch. */
export const DAY_MS = 86_400_000;
