/**
 * "Try your own": ingest your own messages as any user, session and source type; ask
 * queries; revoke a source. Uses the same public calls as the walkthrough.
 */
import { SourceType, type ChatMessage, type Memory } from '../src/index';
import { SEED_SYSTEM } from '../scripts/seed-sessions';
import type { SimulatedClock } from './clock';
import { h, mount } from './dom';
import { renderForget, renderOperations, renderRetrieval } from './render';
import { forgetView, retrieveView, viewOperation, type Owner } from './views';

export interface PlaygroundDeps {
  memory(): Memory;
  clock: SimulatedClock;
  run(task: () => Promise<void>): Promise<boolean>;
  showOwner(owner: Owner): Promise<void>;
  users(): readonly string[];
  appName: string;
}

const EXAMPLES = ["I'm vegan", "I've gone back to eating meat", 'I prefer the window seat', 'Call me Sam', 'the export keeps failing'];

/** One message per line; a line starting with "assistant:" is an assistant turn (engram ignores those). */
export function parseMessages(text: string): ChatMessage[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const assistant = /^assistant:\s*/i.exec(line);
      return assistant ? { role: 'assistant', content: line.slice(assistant[0].length) || line } : { role: 'user', content: line.replace(/^user:\s*/i, '') };
    });
}

/** `s7` → `s8`, so consecutive ingests are distinct sources unless you say otherwise. */
function nextSessionId(id: string): string {
  const match = /^(.*?)(\d+)$/.exec(id);
  return match ? `${match[1]}${Number(match[2]) + 1}` : `${id}-2`;
}

export function createPlayground(deps: PlaygroundDeps) {
  const userInput = h('input', { name: 'user', value: 'u_carol', list: 'known-users', required: true, autocomplete: 'off', 'data-testid': 'pg-user' });
  const sessionInput = h('input', { name: 'session', value: 'p1', required: true, autocomplete: 'off', 'data-testid': 'pg-session' });
  const typeSelect = h(
    'select',
    { name: 'source-type', 'data-testid': 'pg-source-type' },
    SourceType.options.filter((type) => type !== 'bootstrapped').map((type) => h('option', { value: type, selected: type === 'user_explicit' }, type)),
  );
  const messagesInput = h('textarea', {
    name: 'messages',
    rows: 3,
    required: true,
    placeholder: "One message per line, e.g.\nCall me Sam. I prefer the window seat.\nassistant: (assistant lines are ignored)",
    'data-testid': 'pg-messages',
  });
  const queryInput = h('input', { name: 'query', placeholder: 'e.g. which seat should I book?', required: true, autocomplete: 'off', 'data-testid': 'pg-query' });
  const revokeInput = h('input', { name: 'source-id', placeholder: 'source id, e.g. p1', required: true, autocomplete: 'off', 'data-testid': 'pg-revoke-id' });
  const output = h('div', { class: 'pg-output', 'data-testid': 'pg-result', 'aria-live': 'polite' });
  const datalist = h('datalist', { id: 'known-users' });

  const owner = (): Owner => ({ userId: userInput.value.trim(), appName: deps.appName });
  const show = (title: string, ...body: Node[]) => mount(output, h('h4', {}, title), ...body);

  function submit(form: HTMLFormElement, task: () => Promise<void>) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void deps.run(task);
    });
    return form;
  }

  const ingestForm = submit(
    h(
      'form',
      { class: 'pg-form', 'data-testid': 'pg-ingest-form' },
      h('div', { class: 'row' }, h('label', {}, 'user', userInput), h('label', {}, 'session id', sessionInput), h('label', {}, 'source type', typeSelect)),
      h('label', { class: 'wide' }, 'messages', messagesInput),
      h('p', { class: 'hint' }, 'The offline rule extractor understands: ', EXAMPLES.flatMap((example, i) => [i ? ', ' : '', h('q', {}, example)])),
      h('button', { type: 'submit', class: 'primary', 'data-testid': 'pg-ingest' }, 'Ingest'),
    ),
    async () => {
      const who = owner();
      const sessionId = sessionInput.value.trim();
      const operations = await deps.memory().ingest(parseMessages(messagesInput.value), {
        ...who,
        sessionId,
        source: { type: SourceType.parse(typeSelect.value), id: sessionId },
      });
      show(`Ingested as ${who.userId}, source ${typeSelect.value} ${sessionId}`, renderOperations(operations.map(viewOperation)));
      messagesInput.value = '';
      sessionInput.value = nextSessionId(sessionId);
      await deps.showOwner(who);
    },
  );

  const queryForm = submit(
    h('form', { class: 'pg-form inline', 'data-testid': 'pg-query-form' }, h('label', { class: 'grow' }, 'ask as this user', queryInput), h('button', { type: 'submit', 'data-testid': 'pg-ask' }, 'Retrieve')),
    async () => {
      const who = owner();
      const view = await retrieveView(deps.memory(), queryInput.value, who, 3, SEED_SYSTEM);
      show('Retrieval', renderRetrieval(view));
      await deps.showOwner(who);
    },
  );

  const revokeForm = submit(
    h('form', { class: 'pg-form inline', 'data-testid': 'pg-revoke-form' }, h('label', { class: 'grow' }, 'revoke a source of this user', revokeInput), h('button', { type: 'submit', class: 'danger', 'data-testid': 'pg-revoke' }, 'Revoke')),
    async () => {
      const who = owner();
      const view = await forgetView(deps.memory(), revokeInput.value.trim(), who);
      show('Revoked', renderForget(view));
      await deps.showOwner(who);
    },
  );

  userInput.addEventListener('focus', () => mount(datalist, deps.users().map((user) => h('option', { value: user }))));
  return [datalist, ingestForm, queryForm, revokeForm, output];
}
