/**
 * What every verb of a Memory runs with: one record, built once by createMemory (memory.ts)
 * from the parsed options and the opened storage and compute. A verb module takes it as its
 * first argument and picks what it needs; no verb builds a collaborator of its own.
 */
import { createPolicyDecider } from '../consolidate/decider';
import type { PlanContext } from '../consolidate/plan';
import type { CachingEmbedder } from '../embed/embedding-cache';
import { ValidationError, WorkerError } from '../errors';
import type { Extractor } from '../extract/extractor';
import { createDefaultExtractor } from '../extract/default-extractor';
import { checkedIdGenerator, defaultIdGenerator } from '../ids';
import type { ParsedMemoryOptions } from '../memory-options';
import { DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, isTime, TIME_RULE, type SourceType } from '../schema';
import { SESSION_SUMMARY_TOPIC } from '../extract/topics';
import type { Storage } from '../storage/contract';
import type { ComputeClient } from '../worker/client';

/** Cosine at or above which an existing memory is a consolidation neighbour, when the options name none. */
const DEFAULT_CANDIDATE_THRESHOLD = 0.6;

export interface MemoryDeps {
  /** Where memories live: the records layer, the vector layer over it, the lock namespace. */
  storage: Storage;
  compute: ComputeClient;
  /** The checked embedder every vector of this memory comes from, behind its cache of recent texts (embed/embedding-cache.ts). */
  embedder: CachingEmbedder;
  extractor: Extractor;
  /** Whether an ingest also keeps each personal user turn as an episode (src/episode/). */
  episodes: boolean;
  /** The consolidation policy (decider, trust, exclusive topics, threshold, ids): the live path and replay plan with this one. */
  context: Omit<PlanContext, 'now'>;
  /** Ms since epoch, checked on every read: a clock returning NaN or a negative time is a ValidationError, never a stored time. */
  clock: () => number;
  newId: () => string;
  /** The source types whose writes wait for review (`options.review.sources`; empty: none). */
  review: ReadonlySet<SourceType>;
}

/** The opened parts the deps are made of (storage and compute come from memory.ts's wiring). */
export type OpenedParts = Pick<MemoryDeps, 'storage' | 'compute' | 'embedder'>;

/**
 * After an erasure (forget, forgetSource, reject, undo): the caches of user text in memory are
 * emptied, the embedder's recent texts here and compute's token cache, so no erased text stays
 * in either. It runs after the erasure's commit, so it never fails the call: a compute that is
 * gone (closed, its worker lost and restarted) holds no cache, and nothing is left to clear.
 */
export async function clearTextCaches(deps: Pick<MemoryDeps, 'embedder' | 'compute'>): Promise<void> {
  deps.embedder.clearCache();
  await deps.compute.clearCaches().catch((error: unknown) => {
    if (!(error instanceof WorkerError)) throw error;
  });
}

/**
 * Clears the text caches whenever another instance over the same store erases ({@link Storage.watchErasures});
 * returns the function that stops it (close).
 */
export function followErasures(deps: Pick<MemoryDeps, 'storage' | 'embedder' | 'compute'>): () => void {
  return (
    deps.storage.watchErasures?.(() => {
      void clearTextCaches(deps);
    }) ?? (() => {})
  );
}

/** `clock`, refusing what is not a time: every stored `at`, `createdAt` and decay reads it. */
function checkedClock(clock: () => number): () => number {
  return () => {
    const value = clock();
    if (typeof value !== 'number' || !isTime(value)) throw new ValidationError('options.clock', `returned ${String(value)}; it ${TIME_RULE}`);
    return value;
  };
}

/** The deps record: the options' plugins or engram's defaults, around the opened parts. */
export function createDeps(options: ParsedMemoryOptions, parts: OpenedParts): MemoryDeps {
  const trust = options.trust ?? DEFAULT_TRUST;
  // The session summary holds one value per session, so its topic is always exclusive.
  const exclusiveTopics = new Set([...(options.exclusiveTopics ?? DEFAULT_EXCLUSIVE_TOPICS), SESSION_SUMMARY_TOPIC]);
  const newId = options.idGenerator ? checkedIdGenerator(options.idGenerator) : defaultIdGenerator;
  return {
    ...parts,
    extractor: options.extractor ?? createDefaultExtractor(),
    episodes: options.episodes ?? true,
    context: {
      decider: options.decider ?? createPolicyDecider({ trust, exclusiveTopics }),
      trust,
      exclusiveTopics,
      candidateThreshold: options.candidateThreshold ?? DEFAULT_CANDIDATE_THRESHOLD,
      embedderId: parts.embedder.id,
      newId,
    },
    clock: checkedClock(options.clock ?? Date.now),
    newId,
    review: new Set(options.review?.sources ?? []),
  };
}
