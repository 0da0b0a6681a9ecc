/**
 * One user action at a time, and what it is doing. Buttons and selects are disabled the
 * moment an action starts. The progress line (spinner, action, phase, elapsed time) is put up
 * at once but fades in only after PROGRESS_DELAY_MS, so a quick action does not flash it. The
 * fade, the spinner and the bar are CSS animations of opacity and transform: the compositor
 * runs those even while the main thread is busy, and the rule extractor runs there, in one
 * synchronous call.
 */
import type { Extractor } from '../src/index';
import { byId, h, mount } from './dom';

/** Actions shorter than this never show the progress line (style.css fades it in after it). */
export const PROGRESS_DELAY_MS = 300;

export interface Runner {
  /**
   * Runs `task` unless another action is running. A failure goes to `onError` (the panel the
   * action writes to), else to the page's toast. Resolves to whether the task ran and succeeded.
   */
  run(title: string, task: () => Promise<void>, onError?: (error: unknown) => void): Promise<boolean>;
  /** What the running action does now ("Consolidating 12 candidates…"); ignored when idle. */
  phase(text: string): void;
}

/** Disables every enabled button and select outside dialogs; returns the undo. */
function disableControls(): () => void {
  const focused = document.activeElement;
  const controls = [...document.querySelectorAll<HTMLButtonElement | HTMLSelectElement>('button:not(:disabled), select:not(:disabled)')].filter((control) => !control.closest('dialog'));
  for (const control of controls) control.disabled = true;
  return () => {
    for (const control of controls) control.disabled = false;
    if (focused instanceof HTMLElement && controls.includes(focused as HTMLButtonElement)) focused.focus();
  };
}

/** The page's runner, drawing into index.html's `#progress`; failures without a panel of their own go to `showError`. */
export function createRunner(showError: (error: unknown) => void): Runner {
  const indicator = byId('progress');
  const phaseText = byId('progress-phase');
  const elapsed = byId('progress-elapsed');
  let running = false;

  function show(title: string): () => void {
    const started = performance.now();
    mount(byId('progress-title'), title);
    phaseText.textContent = 'Working…';
    elapsed.textContent = '';
    indicator.hidden = false;
    const ticker = setInterval(() => {
      elapsed.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`;
    }, 100);
    return () => {
      clearInterval(ticker);
      indicator.hidden = true;
    };
  }

  return {
    async run(title, task, onError = showError) {
      if (running) return false;
      running = true;
      document.body.classList.add('busy');
      byId('error').hidden = true;
      const enable = disableControls();
      const hide = show(title);
      try {
        await task();
        return true;
      } catch (error) {
        onError(error);
        return false;
      } finally {
        hide();
        enable();
        running = false;
        document.body.classList.remove('busy');
      }
    },
    phase(text) {
      if (running) phaseText.textContent = text;
    },
  };
}

/** A paint before a long synchronous stretch, so the phase shown is the one that runs; never hangs in a background tab, where frames stop. */
function nextPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve));
    setTimeout(resolve, 100);
  });
}

/** Below this many messages extraction is quick, and waiting for a paint would cost more than it shows. */
const PAINT_BEFORE_EXTRACTING = 100;

const count = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The extractor `createMemory` gets, reporting the two phases of a write: extraction (here, on
 * the main thread) and consolidation (embedding in the worker, the candidate sweep, the
 * transaction), which starts when extraction returns.
 */
export function reportingExtractor(base: Extractor, phase: (text: string) => void): Extractor {
  return {
    async extract(userMessages, context) {
      phase(`Extracting facts from ${count(userMessages.length, 'user message')}…`);
      if (userMessages.length >= PAINT_BEFORE_EXTRACTING) await nextPaint();
      const candidates = await base.extract(userMessages, context);
      phase(`Consolidating ${count(candidates.length, 'candidate')}: embedding, comparing with stored memories, writing…`);
      return candidates;
    },
  };
}

/** The error of an action, for the panel the action writes to: it replaces that panel's result. */
export function renderActionError(title: string, error: unknown) {
  return h(
    'div',
    { class: 'action-error', role: 'alert', 'data-testid': 'action-error' },
    h('h4', {}, `${title} failed`),
    h('p', {}, h('b', {}, error instanceof Error ? error.name : 'Error'), ': ', error instanceof Error ? error.message : String(error)),
  );
}
