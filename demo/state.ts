/**
 * What the page remembers across reloads besides the IndexedDB store itself: the
 * walkthrough's progress and results, which user the store panel shows, and the users seen.
 * All keys share one prefix so Reset can clear exactly these.
 */
import type { Owner, StepResult } from './views';

const PREFIX = 'engram-demo:';
const WALK_KEY = `${PREFIX}walkthrough`;
const OWNER_KEY = `${PREFIX}owner`;
const USERS_KEY = `${PREFIX}users`;

export interface WalkState {
  /** Simulated time of session 1, once it ran. */
  start: number | null;
  results: StepResult[];
}

function read(key: string): unknown {
  const text = localStorage.getItem(key);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Written by an older page or edited by hand: start that part over rather than fail.
    localStorage.removeItem(key);
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function loadWalk(): WalkState {
  const value = read(WALK_KEY);
  if (isObject(value) && Array.isArray(value['results']) && (typeof value['start'] === 'number' || value['start'] === null)) {
    return { start: value['start'], results: value['results'] as StepResult[] };
  }
  return { start: null, results: [] };
}

export function saveWalk(state: WalkState) {
  localStorage.setItem(WALK_KEY, JSON.stringify(state));
}

export function loadOwner(fallback: Owner): Owner {
  const value = read(OWNER_KEY);
  return isObject(value) && typeof value['userId'] === 'string' && typeof value['appName'] === 'string'
    ? { userId: value['userId'], appName: value['appName'] }
    : fallback;
}

export function saveOwner(owner: Owner) {
  localStorage.setItem(OWNER_KEY, JSON.stringify(owner));
}

export function loadUsers(defaults: readonly string[]): string[] {
  const value = read(USERS_KEY);
  const stored = Array.isArray(value) ? value.filter((user): user is string => typeof user === 'string') : [];
  return [...new Set([...defaults, ...stored])];
}

export function saveUsers(users: readonly string[]) {
  localStorage.setItem(USERS_KEY, JSON.stringify(users));
}

/** Removes every key this page wrote (the clock offset included). */
export function clearPageState() {
  for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
}
