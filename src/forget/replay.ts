/**
 * Regeneration's engine: stored inputs replayed in write order (invariant 11) through the same
 * pure consolidation plan as the live path, into an in-memory working set. forgetSource
 * compares what this yields with what the store holds.
 *
 * Rules this code keeps, so a replay costs O(inputs), not O(inputs × lineage):
 * - The plan sees records in *working form*, as the live path's sweep hands them out
 *   (store/lineage.ts): the first source of each type plus every source with the id being
 *   written, and no history. The full lists are kept beside it in {@link Ledger}s and joined
 *   once, at the end. An UPDATE's memory shares its predecessor's ledger one level deeper
 *   (a tombstone never changes again, so a ledger is a line and a record's sources are its
 *   prefix up to the record's depth).
 * - An input's candidates are what its write decided over: the ones stored with it (the same
 *   extraction, without running it again), else extracted now. Vectors are computed once per
 *   distinct content, in one batch for the whole replay.
 */
import { embedDistinct, type Embedder } from '../embed/embedder';
import { planConsolidation, targetOf, type PlanContext } from '../consolidate/plan';
import type { Candidate, HistoryEntry, MemoryRecord, Source } from '../schema';
import type { InputRow, WriteInput } from '../storage/contract';
import { sourceKey, summarize } from '../storage/working-form';
import { pruneRecords } from './prune';
import { replayedCandidates } from '../review/held';
import { sameClaimKey } from '../text';

export interface ReplayDeps {
  /** The candidates a write input yields: extraction for ingests and summaries, the fact itself for remember. */
  candidatesOf: (input: WriteInput) => Promise<Candidate[]>;
  embedder: Embedder;
  /** The live path's plan context; time and ids are the replay's own. */
  context: Omit<PlanContext, 'now' | 'newId'>;
}

/** The ids a replay gives the memories it creates (never stored: the erasure maps each to a stored id). */
export const REPLAY_ID = /^replay_\d+$/;

/** The full sources of one line of memories (a memory and the UPDATEs descending from it), in the order they were gained. */
interface Ledger {
  sources: Source[];
  /** The depth each of `sources` was gained at (non-decreasing). */
  depths: number[];
  keys: Set<string>;
  /** Source id → indexes into `sources`: what working form adds for the source being written. */
  byId: Map<string, number[]>;
}

/** Where one replayed record's lists are: its ledger and depth, and its own history. */
interface Place {
  ledger: Ledger;
  depth: number;
  history: HistoryEntry[];
}

function newLedger(): Ledger {
  return { sources: [], depths: [], keys: new Set(), byId: new Map() };
}

/** Appends the sources the ledger does not hold yet, at `depth`. */
function gain(ledger: Ledger, sources: readonly Source[], depth: number): void {
  for (const source of sources) {
    const key = sourceKey(source);
    if (ledger.keys.has(key)) continue;
    ledger.keys.add(key);
    ledger.byId.set(source.id, [...(ledger.byId.get(source.id) ?? []), ledger.sources.length]);
    ledger.sources.push(source);
    ledger.depths.push(depth);
  }
}

/** The sources of the record at `depth`: the ledger's prefix gained at that depth or above. */
function sourcesAt(ledger: Ledger, depth: number): Source[] {
  // Binary search for the end of the prefix: depths never decrease along a ledger.
  let [low, high] = [0, ledger.depths.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ledger.depths[middle]! <= depth) low = middle + 1;
    else high = middle;
  }
  return ledger.sources.slice(0, low);
}

/** The replay's state: working-form records by id (the plan's map), and where each record's full lists are. */
class ReplayState {
  readonly working = new Map<string, MemoryRecord>();
  readonly places = new Map<string, Place>();
  /** Tombstones in the order they appeared: they leave `working`, since the sweep and prune only look at active memories. */
  readonly retired = new Map<string, MemoryRecord>();

  constructor(start: readonly MemoryRecord[]) {
    for (const record of start) {
      const ledger = newLedger();
      gain(ledger, record.sources, 0);
      this.places.set(record.id, { ledger, depth: 0, history: [...record.history] });
      this.working.set(record.id, { ...record, sources: summarize(record.sources), history: [] });
    }
  }

  /**
   * Working form for a write of `sourceId`: records that hold that source show every entry of
   * it. Returns the plain working form of the records it dressed, to put back after the plan.
   */
  present(sourceId: string): Map<string, MemoryRecord> {
    const dressed = new Map<string, MemoryRecord>();
    for (const [id, record] of this.working) {
      const { ledger, depth } = this.places.get(id)!;
      const indexes = ledger.byId.get(sourceId)?.filter((i) => ledger.depths[i]! <= depth);
      const extra = (indexes ?? []).map((i) => ledger.sources[i]!).filter((source) => !record.sources.includes(source));
      if (extra.length === 0) continue;
      dressed.set(id, record);
      this.working.set(id, { ...record, sources: [...record.sources, ...extra] });
    }
    return dressed;
  }

  /**
   * Takes in what a plan or a prune changed (`parents`: new id → the id it superseded): the
   * new sources and history entries go to the ledgers, the records back to working form.
   * Existing records first, so an UPDATE's memory inherits what its predecessor gained.
   */
  settle(changed: readonly MemoryRecord[], parents: ReadonlyMap<string, string> = new Map()): void {
    const known = changed.filter((record) => this.places.has(record.id));
    for (const record of [...known, ...changed.filter((record) => !this.places.has(record.id))]) {
      let place = this.places.get(record.id);
      if (place) place.history.push(...record.history);
      else {
        const parent = parents.get(record.id);
        const from = parent === undefined ? undefined : this.places.get(parent);
        place = { ledger: from?.ledger ?? newLedger(), depth: from ? from.depth + 1 : 0, history: [...record.history] };
        this.places.set(record.id, place);
      }
      gain(place.ledger, record.sources, place.depth);
      const slim: MemoryRecord = { ...record, sources: summarize(record.sources), history: [] };
      if (record.invalidatedAt === undefined) this.working.set(record.id, slim);
      else {
        this.working.delete(record.id);
        this.retired.set(record.id, slim);
      }
    }
  }

  /** Every record, complete: tombstones in the order they appeared, then the active ones. */
  complete(): Map<string, MemoryRecord> {
    const out = new Map<string, MemoryRecord>();
    for (const record of [...this.retired.values(), ...this.working.values()]) {
      const { ledger, depth, history } = this.places.get(record.id)!;
      out.set(record.id, { ...record, sources: sourcesAt(ledger, depth), history });
    }
    return out;
  }
}

/** Each write input's candidates: stored with it (parsed when the store read the row), else extracted again. */
async function candidatesOfAll(deps: ReplayDeps, inputs: readonly InputRow[]): Promise<Map<InputRow, readonly Candidate[]>> {
  const out = new Map<InputRow, readonly Candidate[]>();
  // Candidates waiting for review are not memories yet: replay skips them (review/held.ts).
  for (const input of inputs) if (input.kind !== 'prune') out.set(input, replayedCandidates(input, input.candidates ?? (await deps.candidatesOf(input))));
  return out;
}


/** What a replay is told of the store it rebuilds. */
export interface ReplayOptions {
  /** {@link pinKey}s of the memories the user pinned: replayed prunes leave what stands for them. */
  pinned?: ReadonlySet<string>;
}

/** What a pin is kept by across a replay (which makes new records): the memory's scope, session and claim. */
export function pinKey(record: Pick<MemoryRecord, 'scope' | 'sessionId' | 'topic' | 'content'>): string {
  return JSON.stringify([record.scope, record.sessionId ?? '', sameClaimKey(record)]);
}

/** Texts per embed call: one call for a typical replay, bounded for a model embedder. */
const EMBED_BATCH = 512;

/**
 * Replays `inputs` in order into a working set (fresh, or the active memories `start`);
 * resolves to every record it holds at the end, complete, tombstones included.
 */
export async function replay(deps: ReplayDeps, inputs: readonly InputRow[], start: readonly MemoryRecord[] = [], options: ReplayOptions = {}): Promise<Map<string, MemoryRecord>> {
  const kept = options.pinned ?? new Set<string>();
  const candidates = await candidatesOfAll(deps, inputs);
  const vectors = await embedDistinct(deps.embedder, [...candidates.values()].flat().map((candidate) => candidate.content), EMBED_BATCH);
  const state = new ReplayState(start);
  let counter = 0;
  for (const input of inputs) {
    if (input.kind === 'prune') {
      // A memory the user pinned was never pruned: neither is what the replay makes of it.
      const prunable = [...state.working.values()].filter((record) => !kept.has(pinKey(record)));
      state.settle(pruneRecords(prunable, input.at, input.floor).map(({ record }) => record));
      continue;
    }
    const items = candidates.get(input)!.map((candidate) => ({
      candidate,
      embedding: vectors.get(candidate.content)!,
      source: { ...input.source, excerpt: candidate.excerpt, at: input.at },
    }));
    if (items.length === 0) continue;
    const dressed = state.present(input.source.id);
    const plan = await planConsolidation(state.working, items, targetOf(input), { ...deps.context, now: input.at, newId: () => `replay_${counter++}` });
    state.settle(plan.changed, plan.supersedes);
    const changed = new Set(plan.changed.map((record) => record.id));
    for (const [id, plain] of dressed) if (!changed.has(id)) state.working.set(id, plain);
  }
  return state.complete();
}
