/**
 * What the page remembers across reloads besides the IndexedDB store itself: the
 * walkthrough's progress and results, which user the page shows and acts as, the users seen,
 * and the playground's next session id and source type. All keys share one prefix so Reset
 * can clear exactly these. localStorage is shared by every tab of the page, so the
 * walkthrough's progress is one progress: a tab re-reads it under {@link withWalkLock}.
 */
import type { SourceType } from '../src/index';
import type { Owner, StepResult } from './views';

const PREFIX = 'engram-demo:';
const WALK_KEY = `${PREFIX}walkthrough`;
const OWNER_KEY = `${PREFIX}owner`;
const USERS_KEY = `${PREFIX}users`;
const PLAYGROUND_KEY = `${PREFIX}playground`;
/** The Web Lock every tab takes to run a walkthrough step or to reset. */
const WALK_LOCK = `${PREFIX}walkthrough`;

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
  return isObject(value) && typeof value['userId'] === 'string' && typeof value['appName'] === 'string' ? { userId: value['userId'], appName: value['appName'] } : fallback;
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

export interface PlaygroundState {
  /** The session id the next ingest uses (it is also the source id). */
  sessionId: string;
  sourceType: SourceType;
}

/** The saved playground fields, each checked; `fallback` for what is missing or unknown. */
export function loadPlayground(fallback: PlaygroundState, sourceTypes: readonly SourceType[]): PlaygroundState {
  const value = read(PLAYGROUND_KEY);
  if (!isObject(value)) return fallback;
  const { sessionId, sourceType } = value;
  return {
    sessionId: typeof sessionId === 'string' && sessionId.trim() !== '' ? sessionId : fallback.sessionId,
    sourceType: sourceTypes.find((type) => type === sourceType) ?? fallback.sourceType,
  };
}

export function savePlayground(state: PlaygroundState) {
  localStorage.setItem(PLAYGROUND_KEY, JSON.stringify(state));
}

/** True for a `storage` event (a write by another tab of this origin) to this page's state. */
export function isPageStateEvent(event: StorageEvent): boolean {
  return event.storageArea === localStorage && (event.key === null || event.key.startsWith(PREFIX));
}

/**
 * Runs `task` while holding the walkthrough lock, shared by every tab of this origin: two
 * tabs that click "Next step" at once run one step after the other, never the same one twice.
 */
export async function withWalkLock(task: () => Promise<void>): Promise<void> {
  await navigator.locks.request(WALK_LOCK, task);
}

/** Removes every key this page wrote (the clock offset included). */
export function clearPageState() {
  for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
}
