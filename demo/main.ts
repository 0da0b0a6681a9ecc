/**
 * The demo page: engram running for real in this tab (IndexedDB through Dexie, compute in a
 * module Web Worker). This file wires the parts: the simulated clock, the memory instance,
 * the walkthrough, the playground and the store panel. Every tab of the page shares the
 * walkthrough's progress and the clock (localStorage); a `storage` event brings this tab up
 * to date when another one moved them.
 */
import Dexie from 'dexie';
import { createMemory, type Memory } from '../src/index';
import { createDefaultExtractor } from '../src/extract/default-extractor';
import { OTHER_USER, SEED_USER } from '../scripts/seed-sessions';
import { createSimulatedClock, DAY_MS, formatTime } from './clock';
import { confirmInPage } from './confirm';
import { byId, h, mount } from './dom';
import { createMemoriesPanel, REVIEWED_SOURCES } from './memories-panel';
import { createPlayground } from './playground';
import { revokedSources, summarizeStore } from './inventory';
import { installModelSettings, modelOptions } from './settings';
import { createRunner, renderActionError, reportingExtractor } from './progress';
import { clearPageState, isPageStateEvent, loadOwner, loadUsers, loadWalk, saveOwner, saveUsers, saveWalk, withWalkLock } from './state';
import { arrowheadDefs, drawLineageWires, renderStore } from './store-view';
import type { Owner } from './views';
import { renderWalk, type WalkView } from './walk-view';
import { SEED_OWNER, STEPS } from './walkthrough';
import './style.css';

/** The page's own database, so it never touches an app's `'engram'` one on the same origin. */
export const DB_NAME = 'engram-demo';
const DEFAULT_USERS = [SEED_USER, OTHER_USER, 'u_carol'];

const clock = createSimulatedClock();
// Assigned by start() before any handler can run.
let memory!: Memory;
const walkView: WalkView = { walk: loadWalk(), viewing: 0 };
walkView.viewing = Math.max(0, walkView.walk.results.length - 1);
let owner: Owner = loadOwner(SEED_OWNER);
let users = loadUsers(DEFAULT_USERS);
/** Bumped by every store refresh: only the latest one may draw, so an older, slower read never overwrites a newer one. */
let storeGeneration = 0;

const ui = {
  compute: byId('compute'),
  clockDate: byId('clock-date'),
  clockOffset: byId('clock-offset'),
  next: byId<HTMLButtonElement>('next-step'),
  stepError: byId('step-error'),
  storeOwner: byId<HTMLSelectElement>('store-owner'),
  storeBody: byId('store-body'),
  error: byId('error'),
};

function showError(error: unknown) {
  ui.error.hidden = false;
  mount(ui.error, h('b', {}, error instanceof Error ? error.name : 'Error'), ': ', error instanceof Error ? error.message : String(error));
}

const runner = createRunner(showError);
const memoriesPanel = createMemoriesPanel({ memory: () => memory, owner: () => owner, run: runner.run });
const playground = createPlayground({ memory: () => memory, run: runner.run, phase: runner.phase, showOwner, users: () => users, appName: SEED_OWNER.appName });

/** Ends the store panel's subscription to the shown owner (see watchOwner). */
let unwatch: (() => void) | undefined;

/** Redraws the store panel whenever the shown owner's memories change, in this tab or another one. */
function watchOwner() {
  unwatch?.();
  unwatch = memory.subscribe(owner, () => void refreshStore());
  memoriesPanel.watch();
}

/**
 * `startOver` after this page deleted the database on purpose (Reset): without it, engram takes
 * the empty database for one the browser evicted and refuses it (StorageEvictedError).
 */
async function openMemory(startOver = false): Promise<Memory> {
  const models = modelOptions();
  const opened = await createMemory({
    name: DB_NAME,
    clock: clock.now,
    // The library's defaults (episodes on); the default extractor (offline) is only wrapped to report its progress.
    // The Memories panel's review inbox: writes of these source types wait for approval.
    review: { sources: [...REVIEWED_SOURCES] },
    ...models,
    extractor: reportingExtractor(models.extractor ?? createDefaultExtractor(), runner.phase),
    ...(startOver ? { onEviction: 'start-over' as const } : {}),
  });
  unwatch = undefined;
  memoriesPanel.detach();
  return opened;
}

function renderClock() {
  const days = clock.offset() / DAY_MS;
  ui.clockDate.textContent = `${formatTime(clock.now())} UTC`;
  ui.clockOffset.textContent = days < 0.01 ? 'real time' : `+${days.toFixed(days < 10 ? 1 : 0)} days ahead`;
}

function rememberUser(userId: string) {
  if (users.includes(userId)) return;
  users = [...users, userId];
  saveUsers(users);
}

/**
 * Makes `next` the page's user: the store panel shows it and the playground acts as it. It is
 * kept (for the user list and the next reload) only once the library accepted it.
 */
async function showOwner(next: Owner) {
  owner = next;
  playground.setUser(owner.userId);
  if (!(await refreshStore())) return;
  watchOwner();
  saveOwner(owner);
  rememberUser(owner.userId);
  renderOwnerOptions();
}

/** Ids can be 512 characters long: the picker shows the start of a long one. */
const shortId = (id: string) => (id.length > 40 ? `${id.slice(0, 39)}…` : id);

function renderOwnerOptions() {
  const ids = users.includes(owner.userId) ? users : [...users, owner.userId];
  mount(
    ui.storeOwner,
    ids.map((userId) => h('option', { value: userId, selected: userId === owner.userId }, shortId(userId))),
  );
}

/** Redraws the store panel; a failed read marks what is shown as out of date instead of throwing. Resolves to whether the read worked. */
async function refreshStore(): Promise<boolean> {
  const generation = ++storeGeneration;
  renderOwnerOptions();
  byId('store-app').textContent = owner.appName;
  try {
    const records = await memory.list({ ...owner, includeInvalid: true });
    const revoked = await revokedSources(memory, owner, records);
    if (generation !== storeGeneration) return true;
    mount(ui.storeBody, renderStore(records, clock.now(), revoked));
    ui.storeBody.dataset['owner'] = owner.userId;
    delete ui.storeBody.dataset['stale'];
    requestAnimationFrame(() => drawLineageWires(ui.storeBody));
    return true;
  } catch (error) {
    if (generation !== storeGeneration) return false;
    ui.storeBody.querySelector('.stale-banner')?.remove();
    ui.storeBody.dataset['stale'] = 'true';
    ui.storeBody.dataset['owner'] = owner.userId;
    ui.storeBody.prepend(h('div', { class: 'stale-banner', 'data-testid': 'store-stale' }, renderActionError(`Reading ${shortId(owner.userId)}'s store`, error), h('p', {}, 'What is shown below may be out of date.')));
    return false;
  }
}

const drawWalk = () => renderWalk(walkView, { onView: drawWalk });

/**
 * Runs step `expected` (the count of done steps this tab showed when clicked). Under the
 * walkthrough lock the progress is re-read: if another tab ran that step meanwhile, this
 * click only brings the page up to date, it never runs the next step unasked.
 */
async function nextStep(expected: number) {
  runner.phase('Waiting for the other tabs of this page…');
  await withWalkLock(async () => {
    syncFromStorage();
    const { walk } = walkView;
    if (walk.results.length !== expected) return;
    const step = STEPS[expected]!;
    runner.phase(`${step.label}…`);
    const start = walk.start ?? clock.now();
    const result = await step.run({ memory, clock, start });
    walkView.walk = { start, results: [...walk.results, result] };
    saveWalk(walkView.walk);
    walkView.viewing = expected;
    drawWalk();
    runner.phase('Updating the store panel…');
    await showOwner(step.owner);
  });
}

/** Closes the memory, deletes its database and the page's saved state (for every tab), and starts fresh. */
async function reset() {
  await withWalkLock(async () => {
    await memory.close();
    runner.phase(`Deleting the IndexedDB database ${DB_NAME}…`);
    await Dexie.delete(DB_NAME);
    clearPageState();
    clock.reset();
    walkView.walk = loadWalk();
    walkView.viewing = 0;
    users = loadUsers(DEFAULT_USERS);
    memory = await openMemory(true);
    playground.restore();
    drawWalk();
    await showOwner(SEED_OWNER);
  });
}

/** What Reset deletes, in the words of what the page shows: whose memories, how many, and the walkthrough. */
async function resetWarning(): Promise<(string | Node)[]> {
  const { owners, records } = await summarizeStore(memory, users, owner.appName);
  const steps = walkView.walk.results.length;
  const walk = steps ? `the walkthrough's progress (${steps} of ${STEPS.length} steps)` : "the walkthrough's progress";
  if (owners.length === 0) return ['The IndexedDB database ', h('code', {}, DB_NAME), ` holds no memories yet. Reset starts ${walk} and the simulated clock over, in every tab of this page.`];
  const facts = owners.reduce((sum, entry) => sum + entry.facts, 0);
  const turns = owners.reduce((sum, entry) => sum + entry.turns, 0);
  const who = owners.length === 1 ? shortId(owners[0]!.userId) : `${owners.length} users (${owners.map((entry) => `${shortId(entry.userId)} ${entry.facts}`).join(', ')})`;
  const held = [`${facts} active ${facts === 1 ? 'fact' : 'facts'}`, ...(turns ? [`${turns} ${turns === 1 ? 'turn' : 'turns'} kept in their words`] : []), ...(records - facts - turns ? [`${records - facts - turns} invalidated`] : [])];
  return [
    'This deletes the IndexedDB database ',
    h('code', {}, DB_NAME),
    `: ${held.length > 1 ? `${held.slice(0, -1).join(', ')} and ${held.at(-1)}` : held[0]} of ${who}, with their sources and the conversations they came from; also ${walk} and the simulated clock, in every tab of this page. It cannot be undone.`,
  ];
}

async function confirmReset() {
  // The store may be unreadable (that is when people reach for Reset): then say it plainly.
  const warning = await resetWarning().catch(() => [
    'This deletes the IndexedDB database ',
    h('code', {}, DB_NAME),
    " with everything stored in it, the walkthrough's progress and the simulated clock, in every tab of this page. It cannot be undone.",
  ]);
  const confirmed = await confirmInPage('confirm-reset', ...warning);
  if (confirmed) await runner.run('Reset', reset);
}

/** Takes over what another tab saved: walkthrough progress, clock. The viewed step follows only if it was the newest. */
/**
 * Another tab moved the page's state. When it was a Reset (the walkthrough went back to the
 * start), that tab deleted the database under this tab's memory, which now refuses every call
 * (StorageEvictedError): open the new store first (starting it over, if this tab is first).
 */
async function followOtherTab() {
  const wasReset = walkView.walk.results.length > 0 && loadWalk().results.length === 0;
  if (wasReset) {
    await memory.close();
    memory = await openMemory(true);
    watchOwner();
  }
  users = loadUsers(DEFAULT_USERS);
  syncFromStorage();
  await refreshStore();
}

function syncFromStorage() {
  clock.refresh();
  const followed = walkView.viewing >= walkView.walk.results.length - 1;
  walkView.walk = loadWalk();
  const last = Math.max(0, walkView.walk.results.length - 1);
  walkView.viewing = followed ? last : Math.min(walkView.viewing, last);
  drawWalk();
}

function wireControls() {
  ui.next.addEventListener('click', () => {
    const done = walkView.walk.results.length;
    if (done === STEPS.length) return void confirmReset();
    mount(ui.stepError);
    void runner.run(
      `Walkthrough: ${STEPS[done]!.label}`,
      () => nextStep(done),
      (error) => mount(ui.stepError, renderActionError(STEPS[done]!.label, error)),
    );
  });
  byId('reset').addEventListener('click', () => void confirmReset());
  for (const [id, days] of [
    ['clock-month', 30],
    ['clock-half-year', 182],
  ] as const) {
    byId(id).addEventListener(
      'click',
      () =>
        void runner.run(`Clock +${days} days`, async () => {
          clock.advance(days * DAY_MS);
          await refreshStore();
        }),
    );
  }
  ui.storeOwner.addEventListener('change', () => void runner.run(`Showing ${ui.storeOwner.value}`, () => showOwner({ ...owner, userId: ui.storeOwner.value })));
  window.addEventListener('resize', () => drawLineageWires(ui.storeBody));
  window.addEventListener('storage', (event) => {
    if (!isPageStateEvent(event)) return;
    void followOtherTab();
  });
}

async function start() {
  memory = await openMemory();
  ui.compute.textContent = memory.computeLocation === 'worker' ? 'Web Worker' : 'in-process';
  ui.compute.dataset['location'] = memory.computeLocation;
  document.body.append(arrowheadDefs());
  mount(byId('playground-body'), playground.nodes);
  byId('playground').after(memoriesPanel.node);
  playground.setUser(owner.userId);
  wireControls();
  installModelSettings(() =>
    runner.run('Switching models', async () => {
      await memory.close();
      memory = await openMemory();
      watchOwner();
    }),
  );
  renderClock();
  drawWalk();
  await refreshStore();
  watchOwner();
  document.body.dataset['ready'] = 'true';
}

clock.onChange(renderClock);
// A failure to open (IndexedDB disabled, a private window that refuses storage) is shown, not thrown.
start().catch(showError);
