/**
 * Delete with a few seconds to take it back. `forget` erases (the memory's words leave the
 * conversation they came from too), so nothing restores a memory once it ran: the panel holds
 * the deletion back for {@link UNDO_MS} instead, the memory hidden meanwhile, and runs it when
 * the time is up, or at once when the page is left or the panel moves to another user. Undo
 * within that time cancels it before anything was erased.
 */
import type { Memory } from '../src/index';
import { h, mount } from './dom';
import type { Owner } from './views';

/** How long a confirmed Delete waits for Undo before it erases. */
export const UNDO_MS = 5000;

export interface DelayedDeleteDeps {
  memory(): Memory;
  /** The panel's action: runs `task` as one page action, says its outcome and redraws; resolves when done (or refused while another action runs). */
  act(title: string, task: () => Promise<string>): Promise<unknown>;
}

export interface DelayedDelete {
  /** The undo bar: empty while nothing waits. */
  node: HTMLElement;
  /** Whether memory `id` waits to be deleted (the panel does not show it meanwhile). */
  hides(id: string): boolean;
  /** Holds the deletion of `id` for UNDO_MS; `done` is what the status line says once it ran. A deletion already waiting runs now. */
  start(id: string, owner: Owner, what: string, done: string): void;
  /** Runs a waiting deletion now. */
  flush(): void;
}

interface Held {
  id: string;
  owner: Owner;
  what: string;
  done: string;
  timer: ReturnType<typeof setTimeout>;
}

export function createDelayedDelete(deps: DelayedDeleteDeps): DelayedDelete {
  const node = h('div', { class: 'mem-undo', role: 'status', 'data-testid': 'mem-undo-bar' });
  let held: Held | undefined;

  function take(): Held | undefined {
    const entry = held;
    held = undefined;
    if (entry) clearTimeout(entry.timer);
    mount(node);
    return entry;
  }

  /** Erases `entry`; while another action runs it waits its turn, so a deletion the user confirmed is never dropped. */
  function commit(entry: Held) {
    let ran = false;
    void deps
      .act('Delete', async () => {
        ran = true;
        await deps.memory().forget(entry.id, entry.owner);
        return entry.done;
      })
      .then(() => {
        if (!ran) setTimeout(() => commit(entry), 200);
      });
  }

  function undo() {
    const entry = take();
    if (entry) void deps.act('Undo', async () => `Undone: ${entry.what} is still remembered; nothing was erased.`);
  }

  function flush() {
    const entry = take();
    if (entry) commit(entry);
  }

  return {
    node,
    hides: (id) => held?.id === id,
    start(id, owner, what, done) {
      flush();
      held = { id, owner, what, done, timer: setTimeout(flush, UNDO_MS) };
      mount(
        node,
        h('span', { 'data-testid': 'mem-undo-text' }, `Deleting ${what} in ${UNDO_MS / 1000} seconds.`),
        ' ',
        h('button', { type: 'button', class: 'primary', 'data-testid': 'mem-undo', 'aria-label': `Undo deleting ${what}`, onclick: undo }, 'Undo'),
      );
    },
    flush,
  };
}
