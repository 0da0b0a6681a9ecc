/**
 * The store panel: the owner's active facts, the lineage of replaced ones drawn as a graph
 * (old → new, inherited sources wired across), the invalidated facts with their history, and
 * the turns kept in the user's words (episodes), which are what the facts were read from, not
 * memories of their own to count. Everything is read through the public API (`memory.list`).
 */
import { confidenceBand, decayedConfidence, DEFAULT_TRUST, type ListedMemory, type MemoryRecord, type Source } from '../src/index';
import { ageDays } from '../src/schema';
import { formatTime } from './clock';
import { fixed, h, svg } from './dom';

type ChipState = 'inherited' | 'new' | 'revoked';

/** A revoked source is marked wherever it still stands in a tombstone's list, never as inherited or new. */
function sourceChip(source: Source, revoked: ReadonlySet<string>, state?: 'inherited' | 'new') {
  const shown: ChipState | undefined = revoked.has(source.id) ? 'revoked' : state;
  const title = shown === 'revoked' ? `source ${source.id} revoked: its conversation and excerpts are gone` : `trust ${DEFAULT_TRUST[source.type]}${source.excerpt ? ` · “${source.excerpt}”` : ''}`;
  return h('span', { class: `chip source ${source.type}${shown ? ` ${shown}` : ''}`, 'data-source-id': source.id, 'data-state': shown, title }, h('b', {}, source.id), ` ${source.type}`, shown ? h('em', {}, ` ${shown}`) : null);
}

/** Each source once, in first-seen order (a corroborated memory can list a session twice). */
function distinctSources(sources: readonly Source[]): Source[] {
  const seen = new Set<string>();
  return sources.filter((source) => !seen.has(source.id) && seen.add(source.id));
}

function renderHistory(record: MemoryRecord) {
  return h(
    'ol',
    { class: 'history', 'data-testid': 'memory-history' },
    record.history.map((entry) => h('li', {}, h('span', { class: `event ${entry.event}` }, entry.event), h('time', {}, formatTime(entry.at)), h('span', { class: 'reason' }, entry.reason))),
  );
}

function renderActive(record: MemoryRecord, now: number, revoked: ReadonlySet<string>) {
  const decayed = decayedConfidence(record, now);
  const band = confidenceBand(record.confidence);
  const sources = distinctSources(record.sources);
  return h(
    'li',
    { class: 'memory active', 'data-testid': 'active-memory', 'data-id': record.id, 'data-topic': record.topic, 'data-sources': sources.map((source) => source.id).join(',') },
    h('div', { class: 'memory-head' }, h('span', { class: 'chip topic' }, record.topic), h('code', { class: 'id' }, record.id)),
    h('p', { class: 'memory-content', 'data-testid': 'memory-content' }, record.content),
    h(
      'div',
      { class: 'confidence' },
      h('span', { class: 'metric' }, 'confidence ', h('b', { 'data-testid': 'memory-confidence' }, fixed(record.confidence)), ' ', h('span', { class: `band ${band}`, 'data-testid': 'memory-band' }, band)),
      h('span', { class: 'metric' }, 'decayed ', h('b', { 'data-testid': 'memory-decayed' }, fixed(decayed)), ' ', h('span', { class: `band ${confidenceBand(decayed)}` }, confidenceBand(decayed))),
      h('span', { class: 'metric' }, 'age ', h('b', { 'data-testid': 'memory-age' }, fixed(ageDays(record, now), 1)), ' days'),
    ),
    h(
      'div',
      { class: 'meter', title: `confidence ${fixed(record.confidence)}, decayed ${fixed(decayed)}` },
      h('span', { class: 'meter-full', style: `width: ${record.confidence * 100}%` }),
      h('span', { class: 'meter-decayed', style: `width: ${decayed * 100}%` }),
    ),
    h(
      'div',
      { class: 'chips', 'data-testid': 'memory-sources' },
      sources.map((source) => sourceChip(source, revoked)),
    ),
    h('details', {}, h('summary', {}, `history (${record.history.length})`), renderHistory(record)),
  );
}

function renderInvalid(record: MemoryRecord, byId: ReadonlyMap<string, MemoryRecord>, revoked: ReadonlySet<string>) {
  const erased = record.history.some((entry) => entry.event === 'erased');
  const successor = record.supersededBy ? byId.get(record.supersededBy) : undefined;
  return h(
    'li',
    {
      class: `memory invalid${erased ? ' erased' : ''}`,
      'data-testid': 'invalid-memory',
      'data-id': record.id,
      'data-topic': record.topic,
      'data-superseded-by': record.supersededBy,
      'data-erased': erased ? 'true' : 'false',
    },
    h('div', { class: 'memory-head' }, h('span', { class: 'chip topic' }, record.topic), h('code', { class: 'id' }, record.id), h('span', { class: 'badge' }, erased ? 'erased' : 'superseded')),
    h('p', { class: 'memory-content', 'data-testid': 'memory-content' }, record.content),
    record.supersededBy ? h('p', { class: 'superseded-by', 'data-testid': 'superseded-by' }, 'superseded by ', h('code', {}, record.supersededBy), successor ? ` “${successor.content}”` : null) : null,
    h(
      'div',
      { class: 'chips' },
      distinctSources(record.sources).map((source) => sourceChip(source, revoked)),
    ),
    renderHistory(record),
  );
}

function lineageNode(record: MemoryRecord, role: 'old' | 'new', inherited: ReadonlySet<string>, revoked: ReadonlySet<string>) {
  const state = record.invalidatedAt === undefined ? 'active' : 'superseded';
  return h(
    'div',
    { class: `lineage-node ${role} ${state}` },
    h('div', { class: 'memory-head' }, h('span', { class: 'chip topic' }, record.topic), h('span', { class: `badge ${state}` }, state)),
    h('p', { class: 'memory-content' }, record.content),
    h('code', { class: 'id' }, record.id),
    h(
      'div',
      { class: 'chips stack' },
      distinctSources(record.sources).map((source) => sourceChip(source, revoked, role === 'new' ? (inherited.has(source.id) ? 'inherited' : 'new') : inherited.has(source.id) ? 'inherited' : undefined)),
    ),
  );
}

function renderLineageEdge(from: MemoryRecord, to: MemoryRecord, revoked: ReadonlySet<string>) {
  const toIds = new Set(to.sources.map((source) => source.id));
  // A revoked source is inherited by nothing any more: no chip says so and no wire is drawn.
  const inherited = new Set(from.sources.map((source) => source.id).filter((id) => toIds.has(id) && !revoked.has(id)));
  return h(
    'li',
    { class: 'lineage-edge', 'data-testid': 'lineage-edge', 'data-from': from.id, 'data-to': to.id },
    lineageNode(from, 'old', inherited, revoked),
    h('div', { class: 'lineage-arrow' }, h('span', {}, 'superseded by')),
    lineageNode(to, 'new', inherited, revoked),
    svg('svg', { class: 'wires', 'aria-hidden': 'true' }),
  );
}

/**
 * Draws the wires of every lineage edge: the main arrow between the two nodes and one curve
 * per inherited source, chip to chip. Positions come from layout, so this runs after render
 * and on resize; the overlay is absolutely positioned and cannot change the layout it reads.
 */
export function drawLineageWires(root: ParentNode) {
  for (const edge of root.querySelectorAll<HTMLElement>('.lineage-edge')) {
    const wires = edge.querySelector('svg.wires');
    const [oldNode, newNode] = edge.querySelectorAll<HTMLElement>('.lineage-node');
    if (!wires || !oldNode || !newNode) continue;
    const box = edge.getBoundingClientRect();
    wires.setAttribute('viewBox', `0 0 ${box.width} ${box.height}`);
    const a = oldNode.getBoundingClientRect();
    const b = newNode.getBoundingClientRect();
    const horizontal = b.left >= a.right - 1;
    const paths: SVGElement[] = [];
    if (horizontal) {
      const y = a.top - box.top + 22;
      paths.push(svg('path', { class: 'main', d: `M ${a.right - box.left} ${y} L ${b.left - box.left - 2} ${b.top - box.top + 22}`, 'marker-end': 'url(#arrowhead)' }));
      for (const chip of oldNode.querySelectorAll<HTMLElement>('.chip.inherited')) {
        const target = newNode.querySelector<HTMLElement>(`.chip[data-source-id="${CSS.escape(chip.dataset['sourceId'] ?? '')}"]`);
        if (!target) continue;
        const p = chip.getBoundingClientRect();
        const q = target.getBoundingClientRect();
        const x1 = p.right - box.left;
        const y1 = p.top + p.height / 2 - box.top;
        const x2 = q.left - box.left;
        const y2 = q.top + q.height / 2 - box.top;
        const bend = (x2 - x1) / 2;
        paths.push(svg('path', { class: 'inherit', d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}` }));
      }
    } else {
      // Stacked (phone width): one arrow down between the nodes; the chips say "inherited".
      const x = a.left - box.left + 24;
      paths.push(svg('path', { class: 'main', d: `M ${x} ${a.bottom - box.top} L ${x} ${b.top - box.top - 2}`, 'marker-end': 'url(#arrowhead)' }));
    }
    wires.replaceChildren(...paths);
  }
}

/** The shared arrowhead marker, defined once per page. */
export function arrowheadDefs() {
  return svg(
    'svg',
    { class: 'defs', width: 0, height: 0, 'aria-hidden': 'true' },
    svg('defs', {}, svg('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }))),
  );
}

/** One turn kept in the user's words: when, what, and (when it is no longer active) why. */
function renderEpisode(record: MemoryRecord) {
  const gone = record.invalidatedAt !== undefined;
  const erased = record.history.some((entry) => entry.event === 'erased');
  return h(
    'li',
    {
      class: `episode${gone ? ' invalid' : ''}`,
      'data-testid': gone ? 'invalid-episode' : 'active-episode',
      'data-id': record.id,
      'data-sources': distinctSources(record.sources)
        .map((source) => source.id)
        .join(','),
    },
    h('span', { class: 'when' }, formatTime(record.createdAt)),
    ' ',
    gone ? h('span', { class: 'badge' }, erased ? 'erased' : 'retired') : null,
    gone ? ' ' : null,
    erased ? null : h('q', { 'data-testid': 'episode-content' }, record.content),
    gone && !erased ? h('span', { class: 'muted' }, ` ${record.history.at(-1)?.reason ?? ''}`) : null,
  );
}

/** The turns kept in the user's words: the active ones listed, the retired and erased ones folded away. */
function renderEpisodes(episodes: readonly ListedMemory[]) {
  const active = episodes.filter((record) => record.invalidatedAt === undefined);
  const gone = episodes.filter((record) => record.invalidatedAt !== undefined);
  return [
    h('h3', {}, 'Turns kept in the user’s words ', h('span', { class: 'count', 'data-testid': 'episode-count' }, String(active.length)), h('small', {}, ' episodes: what the facts were read from')),
    active.length ? h('ul', { class: 'episodes', 'data-testid': 'active-episodes' }, active.map(renderEpisode)) : h('p', { class: 'empty' }, 'None.'),
    gone.length ? h('details', { class: 'episodes-gone' }, h('summary', {}, `retired or erased (${gone.length})`), h('ul', { class: 'episodes' }, gone.map(renderEpisode))) : null,
  ];
}

/**
 * Draws the owner's store. `revoked`: source ids that were revoked (they have no stored input
 * any more); they stay in tombstones' source lists and are marked there.
 */
export function renderStore(listed: readonly ListedMemory[], now: number, revoked: ReadonlySet<string> = new Set()) {
  const records = listed.filter((record) => record.kind === 'fact');
  const byId = new Map(records.map((record) => [record.id, record]));
  const active = records.filter((record) => record.invalidatedAt === undefined);
  const invalid = records.filter((record) => record.invalidatedAt !== undefined);
  const edges = invalid.flatMap((record) => {
    const to = record.supersededBy ? byId.get(record.supersededBy) : undefined;
    return to ? [[record, to] as const] : [];
  });
  return [
    h('h3', {}, 'Active facts ', h('span', { class: 'count', 'data-testid': 'active-count' }, String(active.length))),
    active.length
      ? h(
          'ul',
          { class: 'memories', 'data-testid': 'active-memories' },
          active.map((record) => renderActive(record, now, revoked)),
        )
      : h('p', { class: 'empty', 'data-testid': 'no-active' }, 'No active facts.'),
    edges.length ? h('h3', {}, 'Lineage') : null,
    edges.length
      ? h(
          'p',
          { class: 'lineage-caption' },
          'Each replacement keeps the sources of the memory it replaced: ',
          h('span', { class: 'chip inherited' }, h('em', {}, 'inherited')),
          // Wires are drawn only when the two memories sit side by side (see drawLineageWires).
          h('span', { class: 'when-side-by-side' }, ' (wired across)'),
          ' and ',
          h('span', { class: 'chip new' }, h('em', {}, 'new')),
          invalid.some((record) => record.sources.some((source) => revoked.has(source.id)))
            ? [', except a ', h('span', { class: 'chip revoked' }, h('em', {}, 'revoked')), ' one: it stays only in the list of the memories it was taken from']
            : null,
          '.',
        )
      : null,
    edges.length
      ? h(
          'ul',
          { class: 'lineage', 'data-testid': 'lineage' },
          edges.map(([from, to]) => renderLineageEdge(from, to, revoked)),
        )
      : null,
    h('h3', {}, 'Invalidated facts ', h('span', { class: 'count', 'data-testid': 'invalid-count' }, String(invalid.length)), h('small', {}, ' kept for lineage, never retrieved')),
    invalid.length
      ? h(
          'ul',
          { class: 'memories', 'data-testid': 'invalid-memories' },
          invalid.map((record) => renderInvalid(record, byId, revoked)),
        )
      : h('p', { class: 'empty' }, 'None.'),
    ...renderEpisodes(listed.filter((record) => record.kind === 'episode')),
  ];
}
