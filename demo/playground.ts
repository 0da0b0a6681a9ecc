/**
 * "Try your own": ingest your own messages as any user, session and source type; ask
 * queries; revoke a source. Uses the same public calls as the walkthrough. It acts as the
 * user the store panel shows (typing another id switches both); the next session id and the
 * source type are kept across reloads. Missing input is said next to its field before any
 * library call; a failed call replaces the result below, so no stale result stays on screen.
 */
import { SourceType, type ChatMessage, type Memory } from '../src/index';
import { SEED_SYSTEM } from '../scripts/seed-sessions';
import { h, mount } from './dom';
import { renderActionError } from './progress';
import { renderForget, renderOperations, renderRetrieval } from './render';
import { loadPlayground, savePlayground, type PlaygroundState } from './state';
import { forgetView, retrieveView, viewOperations, type Owner } from './views';

export interface PlaygroundDeps {
  memory(): Memory;
  run(title: string, task: () => Promise<void>, onError?: (error: unknown) => void): Promise<boolean>;
  phase(text: string): void;
  /** Shows `owner` in the store panel (and makes it the page's current user). */
  showOwner(owner: Owner): Promise<void>;
  users(): readonly string[];
  appName: string;
}

export interface Playground {
  nodes: Node[];
  /** The store panel switched to `userId`: act as that user from now on. */
  setUser(userId: string): void;
  /** Re-reads the saved session and source type (defaults after Reset) and clears the result. */
  restore(): void;
}

const EXAMPLES = ['im allergic to peanuts', "I've gone back to eating meat", 'I prefer the window seat', 'Call me Sam', 'the export keeps failing'];
const SOURCE_TYPES = SourceType.options.filter((type) => type !== 'bootstrapped');
const DEFAULTS: PlaygroundState = { sessionId: 'p1', sourceType: 'user_explicit' };

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

interface Field<T extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement> {
  control: T;
  /** The label, the control and the line that says what is missing. */
  node: HTMLElement;
  /** Shows `problem` next to the control (null clears it); true when there is none. */
  check(problem: string | null): boolean;
}

function field<T extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(label: string, control: T, grow = false): Field<T> {
  const testId = control.dataset['testid'] ?? control.name;
  const message = h('p', { class: 'field-error', id: `${testId}-error`, 'data-testid': `${testId}-error`, hidden: true });
  control.setAttribute('aria-describedby', message.id);
  const check = (problem: string | null) => {
    message.hidden = problem === null;
    message.textContent = problem ?? '';
    if (problem === null) control.removeAttribute('aria-invalid');
    else control.setAttribute('aria-invalid', 'true');
    return problem === null;
  };
  control.addEventListener('input', () => check(null));
  return { control, check, node: h('div', { class: `field${grow ? ' grow' : ''}` }, h('label', {}, label, control), message) };
}

/** Checks every field (so each says what it misses) and focuses the first that misses something. */
function valid(checks: readonly [Field<HTMLInputElement | HTMLTextAreaElement>, string | null][]): boolean {
  const failed = checks.filter(([entry, problem]) => !entry.check(problem));
  failed[0]?.[0].control.focus();
  return failed.length === 0;
}

const needText = (value: string, problem: string) => (value.trim() === '' ? problem : null);

function messagesProblem(messages: readonly ChatMessage[]): string | null {
  if (messages.length === 0) return 'Type at least one message, one per line: there is nothing to ingest yet.';
  if (!messages.some((message) => message.role === 'user')) return 'Every line is an assistant turn, and engram reads only what the user says: add a line of your own.';
  return null;
}

function createFields() {
  const input = (name: string, testId: string, placeholder: string) => h('input', { name, placeholder, autocomplete: 'off', 'data-testid': testId });
  return {
    user: field('user', h('input', { name: 'user', list: 'known-users', autocomplete: 'off', 'data-testid': 'pg-user' })),
    session: field('session id', input('session', 'pg-session', 'e.g. p1')),
    type: field(
      'source type',
      h(
        'select',
        { name: 'source-type', 'data-testid': 'pg-source-type' },
        SOURCE_TYPES.map((type) => h('option', { value: type }, type)),
      ),
    ),
    messages: field('messages', h('textarea', { name: 'messages', rows: 3, placeholder: 'One message per line, e.g.\nCall me Sam. I prefer the window seat.\nassistant: (assistant lines are ignored)', 'data-testid': 'pg-messages' })),
    query: field('ask as this user', input('query', 'pg-query', 'e.g. which seat should I book?'), true),
    revoke: field('revoke a source of this user', input('source-id', 'pg-revoke-id', 'source id, e.g. p1'), true),
  };
}

type Fields = ReturnType<typeof createFields>;

function userCheck(fields: Fields): [Field<HTMLInputElement>, string | null] {
  return [fields.user, needText(fields.user.control.value, 'Enter a user id, e.g. u_carol: every memory belongs to one user.')];
}

/** What the three forms share: the fields, the result area, and the page around them. */
interface Context {
  deps: PlaygroundDeps;
  fields: Fields;
  output: HTMLElement;
}

const ownerOf = ({ deps, fields }: Context): Owner => ({ userId: fields.user.control.value.trim(), appName: deps.appName });
const showResult = ({ output }: Context, title: string, ...body: Node[]) => mount(output, h('h4', {}, title), ...body);

function saveFields({ fields }: Context) {
  savePlayground({ sessionId: fields.session.control.value.trim() || DEFAULTS.sessionId, sourceType: SourceType.parse(fields.type.control.value) });
}

/** Submitting `form` checks its fields, then runs `task` as one page action; a failure replaces the result. */
function action(context: Context, form: HTMLFormElement, title: () => string, check: () => boolean, task: () => Promise<void>) {
  form.noValidate = true;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!check()) return;
    const name = title();
    void context.deps.run(name, task, (error) => mount(context.output, renderActionError(name, error)));
  });
  return form;
}

function ingestForm(context: Context) {
  const { deps, fields } = context;
  const form = h(
    'form',
    { class: 'pg-form', 'data-testid': 'pg-ingest-form' },
    h('div', { class: 'row' }, fields.user.node, fields.session.node, fields.type.node),
    fields.messages.node,
    h(
      'p',
      { class: 'hint' },
      'The offline extractor reads ordinary first-person speech, e.g. ',
      EXAMPLES.flatMap((example, i) => [i ? ', ' : '', h('q', {}, example)]),
    ),
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'pg-ingest' }, 'Ingest'),
  );
  const check = () =>
    valid([
      userCheck(fields),
      [fields.session, needText(fields.session.control.value, 'Enter a session id, e.g. p1: it is also the source id you can revoke later.')],
      [fields.messages, messagesProblem(parseMessages(fields.messages.control.value))],
    ]);
  return action(
    context,
    form,
    () => `Ingest as ${ownerOf(context).userId}`,
    check,
    async () => {
      const who = ownerOf(context);
      const sessionId = fields.session.control.value.trim();
      const type = SourceType.parse(fields.type.control.value);
      const operations = await deps.memory().ingest(parseMessages(fields.messages.control.value), { ...who, sessionId, source: { type, id: sessionId } });
      showResult(context, `Ingested as ${who.userId}, source ${type} ${sessionId}`, renderOperations(await viewOperations(deps.memory(), who, operations)));
      fields.messages.control.value = '';
      fields.session.control.value = nextSessionId(sessionId);
      saveFields(context);
      deps.phase('Updating the store panel…');
      await deps.showOwner(who);
    },
  );
}

function queryForm(context: Context) {
  const { deps, fields } = context;
  const form = h('form', { class: 'pg-form inline', 'data-testid': 'pg-query-form' }, fields.query.node, h('button', { type: 'submit', 'data-testid': 'pg-ask' }, 'Retrieve'));
  const check = () => valid([userCheck(fields), [fields.query, needText(fields.query.control.value, 'Type a question to retrieve with, e.g. which seat should I book?')]]);
  return action(
    context,
    form,
    () => `Retrieve as ${ownerOf(context).userId}`,
    check,
    async () => {
      const who = ownerOf(context);
      deps.phase('Embedding the query and ranking this user’s memories in the worker…');
      const view = await retrieveView(deps.memory(), fields.query.control.value, who, 3, SEED_SYSTEM);
      showResult(context, 'Retrieval', renderRetrieval(view));
      deps.phase('Updating the store panel…');
      await deps.showOwner(who);
    },
  );
}

function revokeForm(context: Context) {
  const { deps, fields } = context;
  const form = h('form', { class: 'pg-form inline', 'data-testid': 'pg-revoke-form' }, fields.revoke.node, h('button', { type: 'submit', class: 'danger', 'data-testid': 'pg-revoke' }, 'Revoke'));
  const check = () => valid([userCheck(fields), [fields.revoke, needText(fields.revoke.control.value, 'Enter the source id to revoke: the session id you ingested with, e.g. p1.')]]);
  return action(
    context,
    form,
    () => `Revoke ${fields.revoke.control.value.trim()} of ${ownerOf(context).userId}`,
    check,
    async () => {
      const who = ownerOf(context);
      deps.phase('Erasing and replaying the remaining sources…');
      const view = await forgetView(deps.memory(), fields.revoke.control.value.trim(), who);
      showResult(context, 'Revoked', renderForget(view));
      deps.phase('Updating the store panel…');
      await deps.showOwner(who);
    },
  );
}

export function createPlayground(deps: PlaygroundDeps): Playground {
  const context: Context = { deps, fields: createFields(), output: h('div', { class: 'pg-output', 'data-testid': 'pg-result', 'aria-live': 'polite' }) };
  const { fields } = context;
  const datalist = h('datalist', { id: 'known-users' });
  const restore = () => {
    const saved = loadPlayground(DEFAULTS, SOURCE_TYPES);
    fields.session.control.value = saved.sessionId;
    fields.type.control.value = saved.sourceType;
    for (const entry of Object.values(fields)) entry.check(null);
    mount(context.output);
  };
  fields.session.control.addEventListener('change', () => saveFields(context));
  fields.type.control.addEventListener('change', () => saveFields(context));
  // A committed user id (blur, Enter, a pick from the list) switches the store panel too.
  fields.user.control.addEventListener('change', () => {
    const who = ownerOf(context);
    if (who.userId !== '') void deps.showOwner(who);
  });
  fields.user.control.addEventListener('focus', () =>
    mount(
      datalist,
      deps.users().map((user) => h('option', { value: user })),
    ),
  );
  restore();
  return {
    nodes: [datalist, ingestForm(context), queryForm(context), revokeForm(context), context.output],
    setUser(userId) {
      fields.user.control.value = userId;
      fields.user.check(null);
    },
    restore,
  };
}
