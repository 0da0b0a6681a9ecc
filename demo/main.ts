/**
 * The demo page: engram running for real in this tab (IndexedDB through Dexie, compute in a
 * module Web Worker). This file wires the parts: the simulated clock, the memory instance,
 * the walkthrough, the playground and the store panel.
 */
import Dexie from 'dexie';
import { createMemory, type Memory } from '../src/index';
import { OTHER_USER, SEED_USER } from '../scripts/seed-sessions';
import { createSimulatedClock, DAY_MS, formatTime } from './clock';
import { byId, h, mount } from './dom';
import { createPlayground } from './playground';
import { installModelSettings, modelOptions } from './settings';
import { renderStepResult } from './render';
import { clearPageState, loadOwner, loadUsers, loadWalk, saveOwner, saveUsers, saveWalk, type WalkState } from './state';
import { arrowheadDefs, drawLineageWires, renderStore } from './store-view';
import type { Owner } from './views';
import { SEED_OWNER, STEPS } from './walkthrough';
import './style.css';

/** The page's own database, so it never touches an app's `'engram'` one on the same origin. */
export const DB_NAME = 'engram-demo';

const clock = createSimulatedClock();
// Assigned by start() before any handler can run.
let memory!: Memory;
let walk: WalkState = loadWalk();
let viewing = Math.max(0, walk.results.length - 1);
let owner: Owner = loadOwner(SEED_OWNER);
let users = loadUsers([SEED_USER, OTHER_USER, 'u_carol']);
let busy = false;

function openMemory(): Promise<Memory> {
  return createMemory({ name: DB_NAME, clock: clock.now, ...modelOptions() });
}

const ui = {
  compute: byId('compute'),
  clockDate: byId('clock-date'),
  clockOffset: byId('clock-offset'),
  stepper: byId('stepper'),
  step: byId('step'),
  stepStatus: byId('step-status'),
  next: byId<HTMLButtonElement>('next-step'),
  storeOwner: byId<HTMLSelectElement>('store-owner'),
  storeBody: byId('store-body'),
  error: byId('error'),
};

/** Runs one user action at a time; a failure is shown on the page, not thrown into the console. */
async function run(task: () => Promise<void>): Promise<boolean> {
  if (busy) return false;
  busy = true;
  document.body.classList.add('busy');
  ui.error.hidden = true;
  try {
    await task();
    return true;
  } catch (error) {
    showError(error);
    return false;
  } finally {
    busy = false;
    document.body.classList.remove('busy');
  }
}

function showError(error: unknown) {
  ui.error.hidden = false;
  mount(ui.error, h('b', {}, error instanceof Error ? error.name : 'Error'), ': ', error instanceof Error ? error.message : String(error));
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

async function showOwner(next: Owner) {
  owner = next;
  saveOwner(owner);
  rememberUser(owner.userId);
  await refreshStore();
}

async function refreshStore() {
  mount(
    ui.storeOwner,
    users.map((userId) => h('option', { value: userId, selected: userId === owner.userId }, userId)),
  );
  const records = await memory.list({ ...owner, includeInvalid: true });
  mount(ui.storeBody, renderStore(records, clock.now()));
  ui.storeBody.dataset['owner'] = owner.userId;
  byId('store-app').textContent = owner.appName;
  requestAnimationFrame(() => drawLineageWires(ui.storeBody));
}

function renderWalk() {
  const done = walk.results.length;
  mount(
    ui.stepper,
    STEPS.map((step, index) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: `pill${index < done ? ' done' : ''}${index === viewing && done > 0 ? ' viewing' : ''}${index === done ? ' next' : ''}`,
            disabled: index >= done,
            'aria-current': index === viewing && done > 0 ? 'step' : undefined,
            onclick: () => {
              viewing = index;
              renderWalk();
            },
          },
          h('span', { class: 'num' }, String(index + 1)),
          step.label,
        ),
      ),
    ),
  );
  const result = walk.results[viewing];
  ui.step.dataset['step'] = result ? String(viewing + 1) : '0';
  if (!result) {
    mount(
      ui.step,
      h('h3', { 'data-testid': 'step-title' }, 'Ready when you are'),
      h('p', { class: 'note' }, `Nine steps replay the seed's sessions for ${SEED_USER} in the app “${SEED_OWNER.appName}”: three conversations over six months, three queries, an isolation check, the injected context, and an erasure. Each step shows what went in and what engram did with it; the store on the right follows along.`),
    );
  } else {
    mount(ui.step, h('h3', { 'data-testid': 'step-title' }, result.title), h('p', { class: 'note' }, result.note), renderStepResult(result));
  }
  ui.stepStatus.textContent = done === STEPS.length ? `All ${STEPS.length} steps done` : `Step ${done} of ${STEPS.length} done · next: ${STEPS[done]!.label}`;
  ui.next.textContent = done === STEPS.length ? 'Start over' : done === 0 ? 'Start: session 1' : 'Next step';
  ui.next.dataset['done'] = String(done);
}

async function nextStep() {
  if (walk.results.length === STEPS.length) {
    await reset();
    return;
  }
  const step = STEPS[walk.results.length]!;
  const start = walk.start ?? clock.now();
  const result = await step.run({ memory, clock, start });
  walk = { start, results: [...walk.results, result] };
  saveWalk(walk);
  viewing = walk.results.length - 1;
  renderWalk();
  await showOwner(step.owner);
}

/** Closes the memory, deletes its database and this page's saved state, and starts fresh. */
async function reset() {
  await memory.close();
  await Dexie.delete(DB_NAME);
  clearPageState();
  clock.reset();
  walk = loadWalk();
  viewing = 0;
  users = loadUsers([SEED_USER, OTHER_USER, 'u_carol']);
  memory = await openMemory();
  renderWalk();
  await showOwner(SEED_OWNER);
}

async function start() {
  memory = await openMemory();
  ui.compute.textContent = memory.computeLocation === 'worker' ? 'Web Worker' : 'in-process';
  ui.compute.dataset['location'] = memory.computeLocation;
  document.body.append(arrowheadDefs());
  ui.next.addEventListener('click', () => void run(nextStep));
  byId('reset').addEventListener('click', () => void run(reset));
  for (const [id, days] of [['clock-month', 30], ['clock-half-year', 182]] as const) {
    byId(id).addEventListener('click', () =>
      void run(async () => {
        clock.advance(days * DAY_MS);
        await refreshStore();
      }),
    );
  }
  ui.storeOwner.addEventListener('change', () => void run(() => showOwner({ ...owner, userId: ui.storeOwner.value })));
  window.addEventListener('resize', () => drawLineageWires(ui.storeBody));

  mount(
    byId('playground-body'),
    createPlayground({
      memory: () => memory,
      clock,
      run,
      showOwner,
      users: () => users,
      appName: SEED_OWNER.appName,
    }),
  );

  installModelSettings(() =>
    run(async () => {
      await memory.close();
      memory = await openMemory();
    }),
  );
  renderClock();
  renderWalk();
  await refreshStore();
  document.body.dataset['ready'] = 'true';
}

clock.onChange(renderClock);
// A failure to open (IndexedDB disabled, a private window that refuses storage) is shown, not thrown.
start().catch(showError);
