/**
 * The walkthrough card: the stepper (done steps can be revisited), the viewed step's result,
 * and the status line with the button's label. Rendering only: main.ts runs the steps.
 */
import { SEED_USER } from '../scripts/seed-sessions';
import { byId, h, mount } from './dom';
import { renderStepResult } from './render';
import type { WalkState } from './state';
import { SEED_OWNER, STEPS } from './walkthrough';

export interface WalkView {
  walk: WalkState;
  /** Index of the step whose result the card shows (this tab's own choice). */
  viewing: number;
}

/**
 * The introduction. Where the store panel is depends on the width (beside the walkthrough,
 * or under it on a narrow screen), so the copy says both and style.css shows the right one.
 */
function introduction() {
  return h(
    'p',
    { class: 'note', 'data-testid': 'walk-intro' },
    `Nine steps replay the seed's sessions for ${SEED_USER} in the app “${SEED_OWNER.appName}”: three conversations over six months, three queries, an isolation check, the injected context, and an erasure. Each step shows what went in and what engram did with it; the Store panel `,
    h('span', { class: 'when-wide' }, 'on the right'),
    h('span', { class: 'when-narrow' }, 'below'),
    ' follows along.',
  );
}

function renderStepper(view: WalkView, onView: () => void) {
  const done = view.walk.results.length;
  return STEPS.map((step, index) => {
    const viewing = index === view.viewing && done > 0;
    return h(
      'li',
      {},
      h(
        'button',
        {
          type: 'button',
          class: `pill${index < done ? ' done' : ''}${viewing ? ' viewing' : ''}${index === done ? ' next' : ''}`,
          disabled: index >= done,
          'aria-current': viewing ? 'step' : undefined,
          onclick: () => {
            view.viewing = index;
            onView();
          },
        },
        h('span', { class: 'num' }, String(index + 1)),
        step.label,
      ),
    );
  });
}

/** Draws the stepper, the card of the viewed step and the status line; `onView` runs when a done step is picked. */
export function renderWalk(view: WalkView, handlers: { onView(): void }) {
  const done = view.walk.results.length;
  const stepCard = byId('step');
  const next = byId('next-step');
  mount(byId('stepper'), renderStepper(view, handlers.onView));
  const result = view.walk.results[view.viewing];
  stepCard.dataset['step'] = result ? String(view.viewing + 1) : '0';
  if (!result) mount(stepCard, h('h3', { 'data-testid': 'step-title' }, 'Ready when you are'), introduction());
  else mount(stepCard, h('h3', { 'data-testid': 'step-title' }, result.title), h('p', { class: 'note' }, result.note), renderStepResult(result));
  byId('step-status').textContent = done === STEPS.length ? `All ${STEPS.length} steps done` : `Step ${done} of ${STEPS.length} done · next: ${STEPS[done]!.label}`;
  next.textContent = done === STEPS.length ? 'Start over' : done === 0 ? 'Start: session 1' : 'Next step';
  next.dataset['done'] = String(done);
}
