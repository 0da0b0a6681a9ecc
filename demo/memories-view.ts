/**
 * What "Your memories" draws, apart from its actions: the facts grouped by topic, the turns
 * behind each fact ("said on <date>"), the turns behind no fact, the review inbox's held turns
 * beside the held facts read from them, and `why`'s report. A turn kept in the user's words (an
 * episode) is what a fact was read from, not a memory of its own: nothing here counts it as one.
 */
import { EPISODE_TOPIC, type ListedMemory, type MemoryRecord, type PendingMemory, type WhyReport } from '../src/index';
import { formatTime } from './clock';
import { h } from './dom';

/** The user's facts, the turns behind each (oldest first), and the turns behind no fact. */
export interface FactsAndTurns {
  facts: ListedMemory[];
  behind: Map<string, ListedMemory[]>;
  unlinked: ListedMemory[];
}

/**
 * Links each fact to the turns it was read from (`episodeId`) or restated in (`restatedIn`).
 * A turn no fact names (its facts were forgotten, or it was approved apart from them) is
 * `unlinked`.
 */
export function factsAndTurns(records: readonly ListedMemory[]): FactsAndTurns {
  const turns = new Map(records.filter((record) => record.kind === 'episode').map((record) => [record.id, record]));
  const facts = records.filter((record) => record.kind === 'fact');
  const behind = new Map<string, ListedMemory[]>();
  const linked = new Set<string>();
  for (const fact of facts) {
    const ids = new Set([...(fact.episodeId === undefined ? [] : [fact.episodeId]), ...(fact.restatedIn ?? [])]);
    const found = [...ids].flatMap((id) => turns.get(id) ?? []).sort((a, b) => a.createdAt - b.createdAt);
    for (const turn of found) linked.add(turn.id);
    behind.set(fact.id, found);
  }
  return { facts, behind, unlinked: [...turns.values()].filter((turn) => !linked.has(turn.id)) };
}

/** Groups `records` by topic, topics in alphabetical order, pinned memories first in each. */
export function byTopic<T extends MemoryRecord>(records: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const record of records) groups.set(record.topic, [...(groups.get(record.topic) ?? []), record]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([topic, list]) => [topic, list.sort((a, b) => Number(b.pinned === true) - Number(a.pinned === true))]);
}

/** One turn as the user said it: "said on <date>: <their words>". */
export function renderSaidOn(at: number, content: string, testId: string, id: string) {
  return h('li', { class: 'said-on', 'data-testid': testId, 'data-id': id }, h('span', { class: 'muted' }, `said on ${formatTime(at)}: `), h('q', {}, content));
}

/** The turns behind a fact, one "said on" line each; nothing when the fact has none (written directly, or an edit). */
export function renderTurnsBehind(turns: readonly ListedMemory[]) {
  return turns.length === 0
    ? null
    : h(
        'ul',
        { class: 'mem-said' },
        turns.map((turn) => renderSaidOn(turn.createdAt, turn.content, 'mem-said-on', turn.id)),
      );
}

/** The review inbox's held facts, each with the held turns it was read from, and the held turns behind no held fact. */
export interface HeldWrites {
  facts: PendingMemory[];
  turnsOf: Map<string, PendingMemory[]>;
  unlinked: PendingMemory[];
}

/**
 * A held write keeps its turn as a held episode of its own, with no link to its facts: a held
 * fact was read from the held turn of the same write (source and time) whose words hold the
 * fact's excerpt.
 */
export function heldWrites(pending: readonly PendingMemory[]): HeldWrites {
  const turns = pending.filter((item) => item.topic === EPISODE_TOPIC);
  const facts = pending.filter((item) => item.topic !== EPISODE_TOPIC);
  const turnsOf = new Map(facts.map((fact) => [fact.id, turns.filter((turn) => turn.source.id === fact.source.id && turn.source.at === fact.source.at && fact.source.excerpt !== '' && turn.content.includes(fact.source.excerpt))] as const));
  const linked = new Set([...turnsOf.values()].flat().map((turn) => turn.id));
  return { facts, turnsOf, unlinked: turns.filter((turn) => !linked.has(turn.id)) };
}

export function renderWhy(report: WhyReport) {
  return h(
    'div',
    { class: 'why', 'data-testid': 'why' },
    h('h4', {}, 'Why engram thinks this'),
    h(
      'ol',
      { class: 'why-steps' },
      report.steps.map((step) =>
        h(
          'li',
          { 'data-testid': 'why-step', 'data-event': step.event },
          h('span', { class: 'when' }, formatTime(step.at)),
          ' ',
          h('b', {}, step.event),
          ': ',
          step.reason,
          step.source ? h('span', { class: 'muted' }, ` (${step.source.type} ${step.source.id})`) : null,
        ),
      ),
    ),
    h('h4', {}, 'Sources'),
    h(
      'ul',
      { class: 'why-sources' },
      report.sources.map((source) =>
        h('li', { 'data-testid': 'why-source', 'data-source-id': source.id }, h('code', {}, `${source.type} ${source.id}`), ' ', source.excerpt === null ? h('span', { class: 'muted' }, 'excerpt erased') : h('q', {}, source.excerpt)),
      ),
    ),
  );
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** The status line's count: facts, the turns kept behind them, and what waits for review (held facts, and held turns behind none). */
export function describeCounts(records: readonly ListedMemory[], held: HeldWrites): string {
  const facts = records.filter((record) => record.kind === 'fact').length;
  const turns = records.length - facts;
  const waiting = [held.facts.length ? plural(held.facts.length, 'fact') : '', held.unlinked.length ? plural(held.unlinked.length, 'turn') : ''].filter(Boolean).join(' and ') || 'nothing';
  return `${plural(facts, 'fact')}, ${plural(turns, 'turn')} kept in your words, ${waiting} waiting for review.`;
}
