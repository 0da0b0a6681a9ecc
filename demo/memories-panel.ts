/**
 * "Your memories": a chat app's memory settings screen for the page's current user. Their
 * active facts grouped by topic, each with the turns it was read from as "said on <date>" and
 * with edit (`correct`; given another topic, the new text
 * is remembered there and the old memory forgotten), delete (`forget`, after a confirmation:
 * an erasure cannot be undone), pin/unpin and "why" (`why`'s steps and sources); above them the review inbox (`pending`) with approve
 * and reject. It redraws on every change of the owner's memories (`subscribe`), in this tab or
 * another, and after each of its own actions. Every action says what it did on the status line;
 * a failure is said there as text. Turns kept in the user's words that no fact stands on are
 * listed apart, each with delete. What it draws is in memories-view.ts.
 */
import type { ListedMemory, Memory, MemoryRecord, PendingMemory, WhyReport } from '../src/index';
import { confirmInPage } from './confirm';
import { createDelayedDelete, UNDO_MS } from './delayed-delete';
import { h, mount } from './dom';
import { byTopic, describeCounts, factsAndTurns, heldWrites, renderSaidOn, renderTurnsBehind, renderWhy, type HeldWrites } from './memories-view';
import type { Owner } from './views';

export interface MemoriesPanelDeps {
  memory(): Memory;
  owner(): Owner;
  run(title: string, task: () => Promise<void>, onError?: (error: unknown) => void): Promise<boolean>;
}

export interface MemoriesPanel {
  /** The panel's section, for index.html's column. */
  node: HTMLElement;
  /** Subscribes to the current owner on the current memory (ending the last subscription) and redraws. */
  watch(): void;
  /** Re-reads the owner's memories and review inbox and redraws; a failed read goes to the status line. */
  refresh(): Promise<void>;
  /** The memory it watched was closed: forget its subscription without calling it. */
  detach(): void;
}

/** The source types whose writes wait for review in this demo (the walkthrough writes none of them). */
export const REVIEWED_SOURCES = ['tool_output'] as const;

const short = (text: string, length = 48) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The Memories panel; main.ts wires it to the page's memory, owner and runner. */
export function createMemoriesPanel(deps: MemoriesPanelDeps): MemoriesPanel {
  const status = h('p', { class: 'mem-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'mem-status' }, 'Loading…');
  const inbox = h('div', { 'data-testid': 'mem-inbox' });
  const list = h('div', { 'data-testid': 'mem-list' });
  const who = h('code', { 'data-testid': 'mem-owner' });
  const delayed = createDelayedDelete({ memory: () => deps.memory(), act: (title, task) => act(title, task) });
  const node = h(
    'section',
    { class: 'panel', id: 'memories', 'aria-labelledby': 'memories-title' },
    h(
      'header',
      { class: 'panel-head' },
      h('h2', { id: 'memories-title' }, 'Your memories'),
      h('p', {}, 'What the app remembers about ', who, ', as its memory settings would show it: edit, delete, pin, or ask why. Writes of source type ', h('code', {}, REVIEWED_SOURCES.join(', ')), ' wait in the review inbox.'),
    ),
    status,
    delayed.node,
    h('h3', { class: 'mem-heading' }, 'Review inbox'),
    inbox,
    h('h3', { class: 'mem-heading' }, 'Remembered'),
    list,
  );
  // Leaving the page runs a deletion still waiting for Undo (as far as the page gets before it unloads).
  window.addEventListener('pagehide', () => delayed.flush());
  let unwatch: (() => void) | undefined;
  /** The user the panel last subscribed to. */
  let watched: string | undefined;
  let generation = 0;
  /** Memory ids whose "why" is open, and what it said: kept across redraws. */
  const openWhy = new Map<string, WhyReport>();
  /** The memory being edited and its draft, if any. */
  let editing: { id: string; text: string; topic: string } | undefined;

  function say(text: string, failed = false) {
    status.textContent = text;
    status.classList.toggle('failed', failed);
    status.setAttribute('role', failed ? 'alert' : 'status');
    status.dataset['state'] = failed ? 'error' : 'ok';
  }

  /** Runs one action through the page's runner: its outcome, or its error, goes to the status line, then the panel redraws. */
  function act(title: string, task: () => Promise<string>): Promise<boolean> {
    return deps.run(
      title,
      async () => {
        const done = await task();
        await refresh();
        say(done);
      },
      (error) => {
        say(`${title} failed: ${describeError(error)}`, true);
        void refresh();
      },
    );
  }

  function button(label: string, testId: string, ariaLabel: string, onClick: () => void, className?: string) {
    return h('button', { type: 'button', class: className, 'data-testid': testId, 'aria-label': ariaLabel, onclick: onClick }, label);
  }

  /**
   * Approves or rejects a held fact with the held turns it was read from: approving keeps the
   * turn (the user's words behind the fact); rejecting drops a turn no other held fact stands on.
   * A turn the library settled with the fact (a reject that left its write with nothing) is not
   * pending any more and is left alone.
   */
  async function settleHeld(item: PendingMemory, held: HeldWrites, approve: boolean) {
    const memory = deps.memory();
    const owner = deps.owner();
    await (approve ? memory.approve(item.id, owner) : memory.reject(item.id, owner));
    const still = new Set((await memory.pending(owner)).map((pending) => pending.id));
    const others = held.facts.filter((fact) => fact.id !== item.id && still.has(fact.id));
    for (const turn of held.turnsOf.get(item.id) ?? []) {
      if (!still.has(turn.id)) continue;
      if (approve) await memory.approve(turn.id, owner);
      else if (!others.some((fact) => held.turnsOf.get(fact.id)?.some((other) => other.id === turn.id))) await memory.reject(turn.id, owner);
    }
  }

  function renderPending(item: PendingMemory, held: HeldWrites) {
    const what = `“${short(item.content)}”`;
    const turns = held.turnsOf.get(item.id) ?? [];
    return h(
      'li',
      { class: 'mem-item pending', 'data-testid': 'pending-memory', 'data-id': item.id },
      h('p', { class: 'mem-text' }, h('span', { class: 'badge' }, item.action === 'UPDATE' ? 'would update' : 'new'), ' ', h('span', { 'data-testid': 'pending-content' }, item.content)),
      turns.length
        ? h(
            'ul',
            { class: 'mem-said' },
            turns.map((turn) => renderSaidOn(turn.source.at, turn.content, 'pending-said-on', turn.id)),
          )
        : null,
      h('p', { class: 'mem-meta' }, `[${item.topic}] from ${item.source.type} ${item.source.id}`),
      h(
        'div',
        { class: 'mem-actions' },
        button('Approve', 'mem-approve', `Approve ${what}`, () => act('Approve', async () => (await settleHeld(item, held, true), `Approved ${what}: it is remembered now.`)), 'primary'),
        button('Reject', 'mem-reject', `Reject ${what}`, () => act('Reject', async () => (await settleHeld(item, held, false), `Rejected ${what}: it was not kept.`)), 'danger'),
      ),
    );
  }

  /** A held turn no held fact was read from: kept in the user's words once approved. */
  function renderPendingTurn(turn: PendingMemory) {
    const what = `your words “${short(turn.content)}”`;
    return h(
      'li',
      { class: 'mem-item pending', 'data-testid': 'pending-episode', 'data-id': turn.id },
      h('p', { class: 'mem-text' }, h('span', { class: 'badge' }, 'your words'), ' ', h('span', { 'data-testid': 'pending-content' }, turn.content)),
      h('p', { class: 'mem-meta' }, `no fact read from it · from ${turn.source.type} ${turn.source.id}`),
      h(
        'div',
        { class: 'mem-actions' },
        button('Approve', 'mem-approve', `Approve ${what}`, () => act('Approve', async () => (await deps.memory().approve(turn.id, deps.owner()), `Approved ${what}: it is kept now.`)), 'primary'),
        button('Reject', 'mem-reject', `Reject ${what}`, () => act('Reject', async () => (await deps.memory().reject(turn.id, deps.owner()), `Rejected ${what}: it was not kept.`)), 'danger'),
      ),
    );
  }

  /**
   * The edit of `record` to `content` on `topic`: a correction on its own topic; on another, the
   * text is remembered there from the same kind of source a correction has (so
   * `forgetSource('correction:<id>')` still reverts it), keeping the pin, and then the old memory
   * is forgotten: engram keeps a memory's topic through every update.
   */
  async function edit(record: MemoryRecord, content: string, topic: string): Promise<string> {
    const memory = deps.memory();
    const owner = deps.owner();
    if (topic === record.topic) {
      const operation = await memory.correct(record.id, content, owner);
      return operation.action === 'NOOP' ? `Edit: the memory already says “${short(content)}”.` : `Edited: it now says “${short(content)}”.`;
    }
    const fact = { content, topic, importance: record.importance, halfLifeDays: record.halfLifeDays };
    const operation = await memory.remember(fact, { ...owner, source: { type: 'user_explicit', id: `correction:${record.id}` } });
    if (record.pinned) await memory.pin(operation.memoryId, owner);
    await memory.forget(record.id, owner);
    return `Edited: it now says “${short(content)}” under ${topic}.`;
  }

  /** The editor of `record`, in place of its text and buttons; its draft survives a redraw (another tab's change). */
  function renderEditor(record: MemoryRecord, draft: { id: string; text: string; topic: string }) {
    const input = h('textarea', { rows: 2, 'aria-label': `New text for “${short(record.content)}”`, 'data-testid': 'mem-edit-input' });
    input.value = draft.text;
    input.addEventListener('input', () => {
      draft.text = input.value;
    });
    const topicInput = h('input', { type: 'text', 'aria-label': `Topic of “${short(record.content)}”`, 'data-testid': 'mem-edit-topic', list: 'mem-topics', autocomplete: 'off' });
    topicInput.value = draft.topic;
    topicInput.addEventListener('input', () => {
      draft.topic = topicInput.value;
    });
    const cancel = () => {
      editing = undefined;
      act('Cancel edit', async () => 'Edit cancelled.');
    };
    const save = () => {
      const content = input.value.trim();
      const topic = topicInput.value.trim();
      if (content === '') return say('Edit: the new text is empty; type what the memory should say, or cancel.', true);
      if (topic === '') return say('Edit: the topic is empty; name what the memory is about, or cancel.', true);
      act('Edit', async () => {
        const done = await edit(record, content, topic);
        editing = undefined;
        return done;
      });
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        save();
      } else if (event.key === 'Escape') cancel();
    };
    input.addEventListener('keydown', onKey);
    topicInput.addEventListener('keydown', onKey);
    queueMicrotask(() => input.focus());
    return h(
      'div',
      { class: 'mem-editor' },
      input,
      h('label', { class: 'mem-topic-field' }, 'Topic ', topicInput),
      h('div', { class: 'mem-actions' }, button('Save', 'mem-save', 'Save the new text', save, 'primary'), button('Cancel', 'mem-cancel', 'Cancel the edit', cancel)),
    );
  }

  /**
   * Delete erases (`forget`): nothing brings the text back once it ran, so it asks first, saying
   * so (and that the memory is pinned, when it is), then holds the erasure for UNDO_MS with an
   * Undo (delayed-delete.ts). A turn is the user's own words.
   */
  async function confirmDelete(record: ListedMemory) {
    const turn = record.kind === 'episode';
    const what = turn ? `your words “${short(record.content)}”` : `“${short(record.content)}”`;
    const confirmed = await confirmInPage(
      'confirm-delete',
      h('b', {}, `“${record.content}”`),
      record.pinned ? ' is pinned: you asked to keep it.' : '',
      turn ? ' Deleting erases these words of yours from the memory.' : ' Deleting erases it from the memory and its words from the conversation it came from.',
      ` You can undo it for ${UNDO_MS / 1000} seconds; after that it cannot be undone.`,
    );
    if (!confirmed) return void act('Delete', async () => `Delete cancelled: ${what} ${turn ? 'are' : 'is'} still remembered.`);
    const gone = turn ? 'they are gone from the memory and from the conversation they came from' : 'it is gone from the memory and from the conversation it came from';
    delayed.start(record.id, deps.owner(), what, `Deleted ${what}: ${gone}.`);
    void act('Delete', async () => `Deleting ${what} in ${UNDO_MS / 1000} seconds: Undo keeps it.`);
  }

  /** A turn no fact stands on, in the user's words, with delete. */
  function renderTurn(turn: ListedMemory) {
    return h(
      'li',
      { class: 'mem-item', 'data-testid': 'mem-episode', 'data-id': turn.id },
      h('ul', { class: 'mem-said' }, renderSaidOn(turn.createdAt, turn.content, 'mem-episode-said', turn.id)),
      h(
        'div',
        { class: 'mem-actions' },
        button('Delete', 'mem-delete', `Delete your words “${short(turn.content)}”`, () => void confirmDelete(turn), 'danger'),
      ),
    );
  }

  function renderRecord(record: ListedMemory, turns: readonly ListedMemory[]) {
    const what = `“${short(record.content)}”`;
    const pinned = record.pinned === true;
    const why = openWhy.get(record.id);
    const item = h('li', { class: `mem-item${pinned ? ' pinned' : ''}`, 'data-testid': 'user-memory', 'data-id': record.id, 'data-pinned': String(pinned) });
    const toggleWhy = () => {
      if (openWhy.delete(record.id)) return act('Hide why', async () => `Closed why for ${what}.`);
      act('Why', async () => {
        openWhy.set(record.id, await deps.memory().why(record.id, deps.owner()));
        return `Why ${what}: its steps and sources are below it.`;
      });
    };
    if (editing?.id === record.id) {
      item.append(renderEditor(record, editing));
      return item;
    }
    mount(
      item,
      h('p', { class: 'mem-text' }, pinned ? h('span', { class: 'badge pin', 'data-testid': 'mem-pinned' }, 'pinned') : null, pinned ? ' ' : null, h('span', { 'data-testid': 'mem-content' }, record.content)),
      renderTurnsBehind(turns),
      h(
        'div',
        { class: 'mem-actions' },
        button('Edit', 'mem-edit', `Edit ${what}`, () => {
          editing = { id: record.id, text: record.content, topic: record.topic };
          item.replaceWith(renderRecord(record, turns));
        }),
        pinned
          ? button('Unpin', 'mem-unpin', `Unpin ${what}`, () => act('Unpin', async () => (await deps.memory().unpin(record.id, deps.owner()), `Unpinned ${what}: it ages like the others again.`)))
          : button('Pin', 'mem-pin', `Pin ${what}`, () => act('Pin', async () => (await deps.memory().pin(record.id, deps.owner()), `Pinned ${what}: it is kept and never fades.`))),
        h('button', { type: 'button', 'data-testid': 'mem-why', 'aria-label': `Why ${what}`, 'aria-expanded': String(why !== undefined), onclick: toggleWhy }, why ? 'Hide why' : 'Why?'),
        button('Delete', 'mem-delete', `Delete ${what}`, () => void confirmDelete(record), 'danger'),
      ),
      ...(why ? [renderWhy(why)] : []),
    );
    return item;
  }

  function draw(records: readonly ListedMemory[], held: HeldWrites) {
    const waiting = [...held.facts.map((item) => renderPending(item, held)), ...held.unlinked.map(renderPendingTurn)];
    mount(inbox, waiting.length === 0 ? h('p', { class: 'muted', 'data-testid': 'inbox-empty' }, 'Nothing waits for review.') : h('ul', { class: 'mem-items' }, waiting));
    const { facts, behind, unlinked } = factsAndTurns(records.filter((record) => !delayed.hides(record.id)));
    const groups = byTopic(facts);
    mount(
      list,
      groups.length === 0 && unlinked.length === 0
        ? h('p', { class: 'muted', 'data-testid': 'mem-empty' }, 'Nothing remembered yet.')
        : groups.map(([topic, members]) =>
            h(
              'section',
              { class: 'mem-topic', 'data-testid': 'mem-topic', 'data-topic': topic },
              h('h4', {}, topic),
              h(
                'ul',
                { class: 'mem-items' },
                members.map((fact) => renderRecord(fact, behind.get(fact.id) ?? [])),
              ),
            ),
          ),
      unlinked.length === 0
        ? null
        : h(
            'section',
            { class: 'mem-topic', 'data-testid': 'mem-episodes' },
            h('h4', {}, 'Other things you said'),
            h('p', { class: 'muted' }, 'Kept in your words; no fact stands on them.'),
            h('ul', { class: 'mem-items' }, unlinked.map(renderTurn)),
          ),
      // The editor's topic suggestions: the topics the user's facts are on.
      h(
        'datalist',
        { id: 'mem-topics' },
        groups.map(([topic]) => h('option', { value: topic })),
      ),
    );
    node.dataset['owner'] = deps.owner().userId;
  }

  /** `quiet`: a redraw after a failure keeps the failure on the status line. */
  async function refresh(quiet = true) {
    const current = ++generation;
    const owner = deps.owner();
    who.textContent = owner.userId;
    try {
      const [records, pending] = await Promise.all([deps.memory().list(owner), deps.memory().pending(owner)]);
      if (current !== generation) return;
      for (const id of openWhy.keys()) if (!records.some((record) => record.id === id)) openWhy.delete(id);
      if (editing && !records.some((record) => record.id === editing?.id)) editing = undefined;
      const held = heldWrites(pending);
      draw(records, held);
      if (!quiet || status.textContent === 'Loading…') say(describeCounts(records, held));
    } catch (error) {
      if (current === generation) say(`Reading ${owner.userId}'s memories failed: ${describeError(error)}`, true);
    }
  }

  return {
    node,
    refresh: () => refresh(),
    watch() {
      unwatch?.();
      // Another user: what was open or being edited was the last user's.
      if (watched !== deps.owner().userId) {
        // A deletion waiting for Undo was the last user's: it runs now, before the panel moves on.
        delayed.flush();
        openWhy.clear();
        editing = undefined;
        watched = deps.owner().userId;
      }
      unwatch = deps.memory().subscribe(deps.owner(), () => void refresh());
      void refresh(false);
    },
    detach() {
      unwatch = undefined;
    },
  };
}
