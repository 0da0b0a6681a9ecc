/**
 * Regeneration's engine: stored inputs replayed in write order (invariant 11) through the same
 * extraction and the same pure consolidation plan as the live path, into an in-memory working
 * set. forgetSource compares what this yields with what the store holds.
 */
import type { Embedder } from '../embed/embedder';
import { planConsolidation, type PlanContext, type PlanTarget } from '../consolidate/plan';
import type { Candidate, MemoryRecord } from '../schema';
import type { InputRow, WriteInput } from '../storage/contract';
import { pruneRecords } from './prune';

export interface ReplayDeps {
  /** The candidates a write input yields: extraction for ingests and summaries, the fact itself for remember. */
  candidatesOf: (input: WriteInput) => Promise<Candidate[]>;
  embedder: Embedder;
  /** The live path's plan context; time and ids are the replay's own. */
  context: Omit<PlanContext, 'now' | 'newId'>;
}

/** Where an input's memories live: its owner and scope, and its session for session scope. */
export function targetOf(input: WriteInput): PlanTarget {
  return { userId: input.userId, appName: input.appName, scope: input.scope, ...(input.scope === 'session' ? { sessionId: input.sessionId } : {}) };
}

/**
 * Replays `inputs` in order into a working set (fresh, or the active memories `start`);
 * resolves to every record it holds at the end, tombstones included.
 */
export async function replay(deps: ReplayDeps, inputs: readonly InputRow[], start: readonly MemoryRecord[] = []): Promise<Map<string, MemoryRecord>> {
  const working = new Map<string, MemoryRecord>(start.map((record) => [record.id, record]));
  // Tombstones leave the working set as they appear: the sweep and prune only look at
  // active memories, and a long history must not make every later step walk past them.
  const retired = new Map<string, MemoryRecord>();
  const settle = (records: readonly MemoryRecord[]) => {
    for (const record of records) {
      if (record.invalidatedAt === undefined) continue;
      working.delete(record.id);
      retired.set(record.id, record);
    }
  };
  let counter = 0;
  for (const input of inputs) {
    if (input.kind === 'prune') {
      settle(pruneRecords([...working.values()], input.at, input.floor).map(({ record }) => record));
      continue;
    }
    const candidates = await deps.candidatesOf(input);
    if (candidates.length === 0) continue;
    const embeddings = await deps.embedder.embed(candidates.map((candidate) => candidate.content));
    const items = candidates.map((candidate, i) => ({
      candidate,
      embedding: embeddings[i]!,
      source: { ...input.source, excerpt: candidate.excerpt, at: input.at },
    }));
    const plan = await planConsolidation(working, items, targetOf(input), { ...deps.context, now: input.at, newId: () => `replay_${counter++}` });
    settle(plan.changed);
  }
  return new Map([...retired, ...working]);
}
