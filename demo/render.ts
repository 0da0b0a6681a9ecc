/**
 * Renders what an action produced: the conversation fed in, the operations, the retrieval
 * picture (each score as a stacked bar of its weighted parts, the top-k marked) and the
 * injected context, and a forget report.
 */
import { formatTime } from './clock';
import { fixed, h } from './dom';
import { upgradeForgetView, type ForgetOutcome, type ForgetView, type HitView, type OperationView, type RetrievalView, type StepResult } from './views';
import type { ChatMessage } from '../src/index';

export function renderConversation(messages: readonly ChatMessage[]) {
  return h(
    'ol',
    { class: 'chat', 'data-testid': 'conversation' },
    messages.map((message) => h('li', { class: `bubble ${message.role}` }, h('span', { class: 'role' }, message.role), h('span', { class: 'text' }, message.content))),
  );
}

function renderOperation(operation: OperationView) {
  return h(
    'li',
    { class: 'operation', 'data-testid': 'operation', 'data-action': operation.action },
    h('span', { class: `action ${operation.action.toLowerCase()}` }, operation.action),
    h(
      'div',
      { class: 'operation-body' },
      h('div', { class: 'operation-content', 'data-testid': 'operation-content' }, operation.content),
      h('div', { class: 'operation-meta' }, operation.targetId ? h('span', {}, 'target ', h('code', {}, operation.targetId), ' · ') : null, 'memory ', h('code', {}, operation.memoryId)),
      h('div', { class: 'operation-reason', 'data-testid': 'operation-reason' }, operation.reason),
    ),
  );
}

/** A turn the write kept in the user's words (an episode): not a memory of its own to the reader, the words behind the facts. */
function renderKeptTurn(operation: OperationView) {
  const state = operation.pending ? 'waits for review' : operation.action === 'NOOP' ? 'already kept' : 'kept';
  return h('li', { 'data-testid': 'kept-turn', 'data-action': operation.action }, h('q', {}, operation.content), h('span', { class: 'muted' }, ` ${state} · `, h('code', {}, operation.memoryId)));
}

/**
 * The facts a write decided (each CREATE, UPDATE or NOOP with its reason), then the turns it
 * kept in the user's words; a write that kept neither says so.
 */
export function renderOperations(operations: readonly OperationView[]) {
  const facts = operations.filter((operation) => operation.kind !== 'episode');
  const turns = operations.filter((operation) => operation.kind === 'episode');
  if (operations.length === 0) {
    return h('p', { class: 'empty', 'data-testid': 'operations' }, 'Nothing to remember in that line.');
  }
  return h(
    'div',
    { 'data-testid': 'operations' },
    facts.length === 0 ? h('p', { class: 'empty', 'data-testid': 'no-fact' }, 'No fact in that line.') : h('ul', { class: 'operations' }, facts.map(renderOperation)),
    turns.length === 0
      ? null
      : h(
          'div',
          { class: 'kept-turns', 'data-testid': 'kept-turns' },
          h('p', { class: 'muted' }, turns.length === 1 ? 'The turn, kept in the user’s words (an episode):' : `${turns.length} turns, kept in the user’s words (episodes):`),
          h('ul', {}, turns.map(renderKeptTurn)),
        ),
  );
}

const PARTS = ['relevance', 'recency', 'importance'] as const;

/** The bar's segments: relevance split into its lexical and cosine parts, then recency and importance. */
function segmentsOf(hit: HitView, weights: RetrievalView['weights']) {
  const w = weights.relevance;
  return [
    { part: 'lexical', value: w * hit.lexicalPart, title: `lexical: ${fixed(w)} × ${fixed(hit.lexicalPart, 3)} of the relevance` },
    { part: 'relevance', value: w * (hit.relevance - hit.lexicalPart), title: `cosine: ${fixed(w)} × ${fixed(hit.relevance - hit.lexicalPart, 3)} of the relevance` },
    ...(['recency', 'importance'] as const).map((part) => ({ part, value: weights[part] * hit[part], title: `${part}: ${fixed(weights[part])} × ${fixed(hit[part], 3)}` })),
  ];
}

function renderHit(hit: HitView, rank: number, view: RetrievalView) {
  const total = view.weights.relevance + view.weights.recency + view.weights.importance;
  const inTop = rank < view.k;
  const segments = segmentsOf(hit, view.weights).map(({ part, value, title }) => h('span', { class: `segment ${part}`, style: `width: ${((Math.max(0, value) / total) * 100).toFixed(2)}%`, title: `${title} = ${fixed(value, 3)}` }));
  return h(
    'li',
    { class: `hit${inTop ? ' top' : ''}`, 'data-testid': 'hit', 'data-rank': rank + 1, 'data-top': inTop ? 'true' : 'false', 'data-topic': hit.topic },
    h(
      'div',
      { class: 'hit-head' },
      h('span', { class: 'rank' }, `#${rank + 1}`),
      h('span', { class: 'hit-content', 'data-testid': 'hit-content' }, hit.content),
      inTop ? h('span', { class: 'badge top-k' }, `top ${view.k}`) : null,
      h('span', { class: 'score', 'data-testid': 'hit-score' }, fixed(hit.score, 3)),
    ),
    h('div', { class: 'bar', role: 'img', 'aria-label': `score ${fixed(hit.score, 3)}` }, segments),
    h('div', { class: 'hit-parts' }, [
      ...PARTS.map((part) => h('span', { class: `part ${part}` }, `${part} ${fixed(view.weights[part])}×${fixed(hit[part], 3)}`)),
      h('span', { class: 'part lexical' }, `of which lexical ${fixed(hit.lexicalPart, 3)}`),
    ]),
  );
}

export function renderRetrieval(view: RetrievalView, options: { showContext?: boolean } = {}) {
  const { weights } = view;
  const hits = view.hits.map((hit, rank) => renderHit(hit, rank, view));
  // The cut line sits after the k-th hit, so what goes to the model is visibly above it.
  if (view.hits.length > view.k) hits.splice(view.k, 0, h('li', { class: 'cut', 'aria-hidden': 'true' }, `top-k cut (k = ${view.k}): below here is not injected`));
  return h(
    'div',
    { class: 'retrieval', 'data-testid': 'retrieval' },
    h('p', { class: 'query' }, h('span', { class: 'label' }, `${view.userId} asks`), ` “${view.query}”`),
    view.hits.length === 0
      ? null
      : [
          h('p', { class: 'scale' }, 'Bar length is the score on a 0 to 1 scale (the weights sum to 1); each segment is one weighted part.'),
          h('div', { class: 'legend' }, [...PARTS.map((part) => h('span', { class: `key ${part}` }, h('i', {}), `${fixed(weights[part])} × ${part}`)), h('span', { class: 'key lexical' }, h('i', {}), 'lexical part of relevance')]),
        ],
    view.hits.length === 0
      ? h('p', { class: 'empty nothing', 'data-testid': 'no-hits' }, `Nothing retrieved: ${view.userId} has no memories in this app, and nobody else's are visible.`)
      : h('ol', { class: 'hits', 'data-testid': 'hits' }, hits),
    options.showContext === false ? null : renderContext(view.context),
  );
}

export function renderContext(context: string) {
  return h('figure', { class: 'context' }, h('figcaption', {}, 'Injected context (memory.inject)'), h('pre', { 'data-testid': 'injected-context' }, context));
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** One memory that was active, and what became of it. */
function renderActiveOutcome(outcome: ForgetOutcome, sourceId: string) {
  const id = h('code', {}, outcome.id);
  switch (outcome.outcome) {
    case 'erased':
      return h('li', { 'data-testid': 'erased' }, h('span', { class: 'action erased' }, 'ERASED'), h('span', {}, `[${outcome.topic}] `, id, ` only ${sourceId} supported it: its text is gone (the tombstone keeps id, times and topic).`));
    case 'dropped':
      return h('li', { 'data-testid': 'dropped' }, h('span', { class: 'action erased' }, 'REMOVED'), h('span', {}, `[${outcome.topic}] `, id, ` the remaining sources no longer support it.`));
    case 'rebuilt':
      return h(
        'li',
        { 'data-testid': 'regenerated' },
        h('span', { class: 'action regenerated' }, 'REBUILT'),
        h(
          'span',
          {},
          `[${outcome.topic}] `,
          outcome.content ? `“${outcome.content}” ` : null,
          `rebuilt without ${sourceId}`,
          outcome.sources.length ? ` from ${outcome.sources.join(', ')}` : '',
          outcome.toActive ? ', still active: ' : ': ',
          id,
          ' → ',
          h('code', {}, outcome.to),
        ),
      );
  }
}

/** The memories that were already superseded: never retrieved, kept for lineage; the source leaves their sources too. */
function renderSupersededOutcomes(view: ForgetView) {
  if (view.superseded.length === 0) return null;
  return h(
    'div',
    { class: 'report-superseded', 'data-testid': 'superseded-outcomes' },
    h('p', { class: 'muted' }, `Also cleaned: ${plural(view.superseded.length, 'fact')} already superseded before (never retrieved, kept for lineage) no longer ${view.superseded.length === 1 ? 'lists' : 'list'} ${view.sourceId}:`),
    h(
      'ul',
      { class: 'report' },
      view.superseded.map((outcome) =>
        h(
          'li',
          { 'data-testid': 'superseded-outcome', 'data-outcome': outcome.outcome },
          h('span', { class: 'action superseded' }, outcome.outcome === 'rebuilt' ? 'LINEAGE' : 'ERASED'),
          h(
            'span',
            {},
            `[${outcome.topic}] `,
            outcome.outcome === 'rebuilt' && outcome.was ? `“${outcome.was}” ` : null,
            h('code', {}, outcome.id),
            outcome.outcome === 'rebuilt' ? [' stays superseded; its lineage now leads to ', h('code', {}, outcome.to), outcome.toActive ? ', the active memory' : ''] : ' its text is gone.',
          ),
        ),
      ),
    ),
  );
}

export function renderForget(saved: ForgetView) {
  const view = upgradeForgetView(saved);
  const before = view.active.length + view.untouched;
  const turns = view.turnsErased ?? 0;
  const nothing = view.active.length === 0 && view.superseded.length === 0 && turns === 0;
  return h(
    'div',
    { class: 'forget', 'data-testid': 'forget-report' },
    h('h4', {}, `memory.forgetSource('${view.sourceId}', { userId: '${view.userId}' })`),
    nothing
      ? h('p', { 'data-testid': 'forget-summary' }, `No memory of ${view.userId} came from ${view.sourceId}: nothing changed.`)
      : h('p', { 'data-testid': 'forget-summary' }, `${view.userId} had ${plural(before, 'active fact')}; ${view.sourceId} supported ${view.active.length} of them. What became of each:`),
    view.active.length || view.untouched
      ? h(
          'ul',
          { class: 'report' },
          view.active.map((outcome) => renderActiveOutcome(outcome, view.sourceId)),
          view.untouched && !nothing ? h('li', { 'data-testid': 'untouched' }, h('span', { class: 'action noop' }, 'KEPT'), h('span', {}, `${plural(view.untouched, 'other active fact')}: unchanged.`)) : null,
        )
      : null,
    turns
      ? h('p', { 'data-testid': 'turns-erased' }, `${plural(turns, 'turn')} kept in ${view.userId}'s words (${turns === 1 ? 'an episode' : 'episodes'}) came from ${view.sourceId}: ${turns === 1 ? 'it is' : 'they are'} erased with it.`)
      : null,
    renderSupersededOutcomes(view),
  );
}

/** One step's full output, for the walkthrough card. */
export function renderStepResult(result: StepResult) {
  const time = h('p', { class: 'when' }, `simulated time ${formatTime(result.at)} UTC`);
  switch (result.kind) {
    case 'ingest':
      return [
        time,
        h('p', { class: 'source-line' }, `ingest as ${result.userId} · session ${result.sessionId} · source ${result.source.type} ${result.source.id}`),
        renderConversation(result.messages),
        h('h4', {}, 'Operations'),
        renderOperations(result.operations),
      ];
    case 'retrieve':
      return [time, renderRetrieval(result.retrieval)];
    case 'context':
      return [time, renderContext(result.retrieval.context), h('details', {}, h('summary', {}, 'How these were chosen'), renderRetrieval(result.retrieval, { showContext: false }))];
    case 'forget':
      return [time, renderForget(result.forget)];
  }
}
