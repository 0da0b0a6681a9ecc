/**
 * Regeneration's engine: stored inputs replayed in write order (invariant 11) through the same
 * pure consolidation plan as the live path (handed in: {@link ReplayDeps.plan}), into an
 * in-memory working set. forgetSource compares what this yields with what the store holds.
 *
 * Rules this code keeps, so a replay costs O(inputs), not O(inputs × lineage):
 * - The plan sees records in *working form*, as the live path's sweep hands them out
 *   (storage/working-form.ts): the first source of each type plus every source with the id
 *   being written, and no history. The full lists are kept beside it in chains
 *   (storage/lineage.ts, the model the IndexedDB store keeps its side tables by) and joined
 *   once, at the end: an UPDATE's memory joins its predecessor's chain one level deeper.
 * - An input's candidates are what its write decided over: the ones stored with it (the same
 *   extraction, without running it again), else extracted now. Vectors are computed once per
 *   distinct content, in one batch for the whole replay.
 */
import { embedDistinct, NEEDS_VECTOR, type Embedder } from '../embed/embedder';
import { isEngramError } from '../errors';
import type { Candidate, HistoryEntry, MemoryRecord, Source } from '../schema';
import type { InputRow, WriteInput } from '../storage/contract';
import { createChain, sourceKey, summarize, type Chain } from '../storage/lineage';
import { pruneRecords } from './prune';
import { sameClaimKey } from '../text';

/** One candidate of a write, with its vector and the source it came from. */
export interface ReplayItem {
  candidate: Candidate;
  embedding: Float32Array;
  source: Source;
}

/** What the consolidation plan did with one write: the records it changed, the ids it created (in order), and each UPDATE's new id → the id it superseded. */
export interface ReplayPlan {
  changed: readonly MemoryRecord[];
  created: readonly string[];
  supersedes: ReadonlyMap<string, string>;
}
import { replayedCandidates } from '../review/held';
import { withApprovedLinks } from '../review/turn-links';
import { touchedPartitions, type PartitionRules } from './partition';

export interface ReplayDeps {
  /** The candidates a write input yields: extraction for ingests and summaries, the fact itself for remember. */
  candidatesOf: (input: WriteInput) => Promise<Candidate[]>;
  embedder: Embedder;
  /**
   * The live path's consolidation plan over `working` (a Map by id it changes in place) for
   * `input`'s items, with the replay's own time and ids.
   */
  plan: (working: Map<string, MemoryRecord>, items: readonly ReplayItem[], input: WriteInput, at: { now: number; newId: () => string }) => Promise<ReplayPlan>;
  /**
   * Present when every decision of `plan` depends only on the memories of its partition
   * (engram's policy decider, partition.ts): an erasure then replays only the partitions it touched.
   */
  partitions?: PartitionRules;
}

/** The ids a replay gives the memories it creates (never stored: the erasure maps each to a stored id). */
export const REPLAY_ID = /^replay_\d+$/;

/** Where one replayed record's lists are: its chain and depth, and its own history. */
interface Place {
  chain: Chain;
  depth: number;
  history: HistoryEntry[];
}

/** The replay's state: working-form records by id (the plan's map), and where each record's full lists are. */
class ReplayState {
  readonly working = new Map<string, MemoryRecord>();
  readonly places = new Map<string, Place>();
  /** Tombstones in the order they appeared: they leave `working`, since the sweep and prune only look at active memories. */
  readonly retired = new Map<string, MemoryRecord>();

  constructor(start: readonly MemoryRecord[]) {
    for (const record of start) {
      const chain = createChain();
      chain.gain({ depth: 0 }, record.sources);
      this.places.set(record.id, { chain, depth: 0, history: [...record.history] });
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
      const { chain, depth } = this.places.get(id)!;
      const ofSource = chain.sourcesWithId({ depth }, sourceId);
      if (ofSource.length === 0) continue;
      const shown = new Set(record.sources.map(sourceKey));
      const extra = ofSource.filter((source) => !shown.has(sourceKey(source)));
      if (extra.length === 0) continue;
      dressed.set(id, record);
      this.working.set(id, { ...record, sources: [...record.sources, ...extra] });
    }
    return dressed;
  }

  /** The active records that list `sourceId`, in working form (after {@link present}, with every entry of it). */
  *listing(sourceId: string): Iterable<MemoryRecord> {
    for (const record of this.working.values()) if (record.sources.some((source) => source.id === sourceId)) yield record;
  }

  /**
   * Takes in what a plan or a prune changed (`parents`: new id → the id it superseded): the
   * new sources and history entries go to the chains, the records back to working form.
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
        place = { chain: from?.chain ?? createChain(), depth: from ? from.depth + 1 : 0, history: [...record.history] };
        this.places.set(record.id, place);
      }
      place.chain.gain({ depth: place.depth }, record.sources);
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
      const { chain, depth, history } = this.places.get(record.id)!;
      out.set(record.id, { ...record, sources: chain.sourcesAt({ depth }), history });
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
  /**
   * Records the store holds (an erasure's reads): a text one of them holds under this
   * embedder is not embedded again, it takes that record's vector ({@link storedVectors}).
   */
  stored?: readonly MemoryRecord[];
  /**
   * An erasure must not wait for the embedder: when it fails for the texts no stored record
   * holds, they are replayed with a zero vector (they find no similarity neighbour; topic and
   * text still do) and the records that hold them come back marked {@link NEEDS_VECTOR}.
   */
  vectorsLater?: boolean;
  /**
   * An erasure's: the stored inputs it removes and the owner's records it read (`records`,
   * among them those that list the source, `touched`). With {@link ReplayDeps.partitions}, only
   * the partitions they touch are replayed, and the active records of every other partition
   * come back as `records` holds them (partition.ts); without, or when partitions do not
   * decide alone, everything is replayed.
   */
  erasure?: { removed: readonly InputRow[]; records: readonly MemoryRecord[]; touched: readonly MemoryRecord[] };
}

/**
 * The vectors `records` hold for their texts under `embedderId`: what the embedder gave for
 * that very text when it was written (an active memory's content and vector never change).
 * An erasure replays texts the store already holds almost always, so with these it needs the
 * embedder only for a text no record holds, and a remote embedder that is offline does not
 * stop it. Erased tombstones hold no text and a zero vector: they lend nothing.
 */
function storedVectors(records: readonly MemoryRecord[], embedderId: string): Map<string, Float32Array> {
  const vectors = new Map<string, Float32Array>();
  for (const record of records) {
    if (record.embedderId !== embedderId || vectors.has(record.content) || !record.embedding.some((value) => value !== 0)) continue;
    vectors.set(record.content, record.embedding);
  }
  return vectors;
}

/** What a pin is kept by across a replay (which makes new records): the memory's scope, session and claim. */
export function pinKey(record: Pick<MemoryRecord, 'scope' | 'sessionId' | 'topic' | 'content'>): string {
  return JSON.stringify([record.scope, record.sessionId ?? '', sameClaimKey(record)]);
}

/** Texts per embed call: one call for a typical replay, bounded for a model embedder. */
const EMBED_BATCH = 512;

/**
 * Replays `inputs` in order into a working set (fresh, or the active memories `start`);
 * resolves to every record it holds at the end, complete, tombstones included. An erasure's
 * replay ({@link ReplayOptions.erasure}) may replay only the partitions it touched: then the
 * other partitions' records are the stored active ones, which a full replay would match.
 */
export async function replay(deps: ReplayDeps, inputs: readonly InputRow[], start: readonly MemoryRecord[] = [], options: ReplayOptions = {}): Promise<Map<string, MemoryRecord>> {
  const candidates = await candidatesOfAll(deps, inputs);
  const partial = await onlyTouched(deps, { inputs, candidates, start }, options);
  if (partial === null) return replayCandidates(deps, { inputs, candidates, start }, options);
  const replayed = await replayCandidates(deps, partial, options);
  for (const record of partial.kept) replayed.set(record.id, record);
  return replayed;
}

/** What a replay runs over: inputs in order, each one's candidates, and the records it starts from. */
interface ReplayRun {
  inputs: readonly InputRow[];
  candidates: ReadonlyMap<InputRow, readonly Candidate[]>;
  start: readonly MemoryRecord[];
}

/**
 * An erasure's replay narrowed to the partitions it touched (partition.ts), and `kept`: the
 * active records of the other partitions, as stored. Null when everything must be replayed.
 */
async function onlyTouched(deps: ReplayDeps, run: ReplayRun, options: ReplayOptions): Promise<(ReplayRun & { kept: MemoryRecord[] }) | null> {
  const { erasure } = options;
  if (deps.partitions === undefined || erasure === undefined) return null;
  const removed: Candidate[] = [];
  for (const input of erasure.removed) if (input.kind !== 'prune') removed.push(...(input.candidates ?? (await deps.candidatesOf(input))));
  const touched = touchedPartitions(deps.partitions, { start: run.start, inputs: run.candidates, records: erasure.records }, { candidates: removed, records: erasure.touched });
  if (touched === null) return null;
  const candidates = new Map<InputRow, readonly Candidate[]>();
  for (const [input, all] of run.candidates) {
    candidates.set(
      input,
      all.filter((_, index) => touched.candidate(input, index)),
    );
  }
  return {
    // Prunes stay: each retires by a record's own decay, whichever partition it is in.
    inputs: run.inputs.filter((input) => input.kind === 'prune' || candidates.get(input)!.length > 0),
    candidates,
    start: run.start.filter(touched.record),
    kept: erasure.records.filter((record) => record.invalidatedAt === undefined && !touched.record(record)),
  };
}

/** Replays `run.inputs` in order into a working set (fresh, or the active memories `run.start`), each with its candidates. */
async function replayCandidates(deps: ReplayDeps, { inputs, candidates, start }: ReplayRun, options: ReplayOptions): Promise<Map<string, MemoryRecord>> {
  const kept = options.pinned ?? new Set<string>();
  const vectors = storedVectors(options.stored ?? [], deps.embedder.id);
  const texts = [...candidates.values()].flat().map((candidate) => candidate.content);
  const later = await embedMissing(
    deps.embedder,
    texts.filter((text) => !vectors.has(text)),
    vectors,
    options.vectorsLater === true,
  );
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
    const plan = await deps.plan(state.working, items, input, { now: input.at, newId: () => `replay_${counter++}` });
    // An approval links what it made to its turn, as approve did (review/turn-links.ts).
    const written = input.approved ? withApprovedLinks(plan, input.source.id, state.listing(input.source.id)) : plan.changed;
    state.settle(written, plan.supersedes);
    const changed = new Set(written.map((record) => record.id));
    for (const [id, plain] of dressed) if (!changed.has(id)) state.working.set(id, plain);
  }
  const replayed = state.complete();
  if (later.size === 0) return replayed;
  for (const [id, record] of replayed) if (later.has(record.content)) replayed.set(id, { ...record, embedding: new Float32Array(deps.embedder.dim), embedderId: NEEDS_VECTOR });
  return replayed;
}

/**
 * Embeds `texts` into `vectors`; resolves to the texts left for later: none, or (`later`, and
 * the embedder failed) all of them, each given a zero vector to replay with.
 */
async function embedMissing(embedder: Embedder, texts: readonly string[], vectors: Map<string, Float32Array>, later: boolean): Promise<Set<string>> {
  try {
    for (const [text, vector] of await embedDistinct(embedder, texts, EMBED_BATCH)) vectors.set(text, vector);
    return new Set();
  } catch (error) {
    if (!later || !isEngramError(error) || error.name !== 'PluginError') throw error;
    const zeros = new Float32Array(embedder.dim);
    for (const text of texts) vectors.set(text, zeros);
    return new Set(texts);
  }
}
