/**
 * The verbs that write what a user says: ingest (extraction, episodes, consolidation), remember
 * and summarizeSession. One chunk, loaded by ./load.ts: createMemory starts loading it as soon as
 * the memory is open, so it arrives while the app makes its first retrieve and model call
 * instead of delaying the page's start.
 */
export { ingest } from './ingest';
export { remember } from './remember';
export { summarizeSession } from './summarize';
