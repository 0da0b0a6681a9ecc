/**
 * The write path ingest, remember and summarizeSession share: the input each stores (built by
 * storage/input-row.ts `writeInput`, what replay rebuilds memories from), its candidates, and
 * its consolidation.
 */
import { consolidate } from '../consolidate/consolidate';
import { targetOf } from '../consolidate/plan';
import { candidateOfFact, extractCandidates } from '../extract/candidates';
import type { Candidate, Operation } from '../schema';
import { EPISODE_TOPIC, episodeCandidates } from '../episode/episode';
import { framing } from '../episode/framed';
import { embedPending } from '../reembed/reembed';
import { summaryCandidates } from '../session/summarize';
import type { WriteInput } from '../storage/contract';
import { userPartition, type Owner } from '../storage/contract';
import type { MemoryDeps } from './deps';

// The input's constructor is the stored row's (storage/input-row.ts); the write verbs reach it here too.
export { writeInput, type WriteTarget } from '../storage/input-row';

/**
 * The candidates a write input yields, the same for the live write and its replay. An ingest's
 * are its episodes (when on), then the extractor's facts: the plan links each fact to the
 * episode of its turn, so the episodes come first.
 */
export async function candidatesOf(deps: Pick<MemoryDeps, 'extractor' | 'episodes'>, input: WriteInput): Promise<Candidate[]> {
  if (input.kind === 'remember') return input.fact ? [candidateOfFact(input.fact)] : [];
  // A joke, a role-play or text handed over to be edited is not the user telling about themselves:
  // no extractor, summary or episode reads it (episode/framed.ts), as no one reads an instruction.
  const messages = input.messages.filter((message) => framing(message.content) === undefined);
  const extracted = (await extractCandidates(deps.extractor, messages, { userId: input.userId, appName: input.appName, sessionId: input.sessionId, at: input.at })).map(asFact);
  // A summary keeps the sentences the extractor took facts from, plus other durable ones.
  if (input.kind === 'summary')
    return summaryCandidates(
      messages,
      extracted.map((candidate) => candidate.excerpt),
    );
  return deps.episodes ? [...episodeCandidates(messages), ...extracted] : extracted;
}

/** An extractor cannot write episodes: a candidate on the episode topic (an LLM's choice of word) is a general fact. */
function asFact(candidate: Candidate): Candidate {
  return candidate.topic === EPISODE_TOPIC ? { ...candidate, topic: 'general' } : candidate;
}

/** The owner's partition version now: taken before extraction, so a revocation racing the write is seen. */
export async function versionOf(deps: Pick<MemoryDeps, 'storage'>, owner: Owner): Promise<number> {
  const key = userPartition(owner);
  return (await deps.storage.records.versions([key])).get(key)!;
}

/**
 * Consolidates `candidates` into the input's target and stores the input with them, in one
 * commit. `replaceOnly`: the write is an UPDATE of `replacing` or nothing (consolidate.ts).
 */
export async function writeThrough(deps: MemoryDeps, input: WriteInput, candidates: Candidate[], baseVersion?: number, replacing?: string, replaceOnly?: boolean): Promise<Operation[]> {
  const operations = await consolidate(deps, {
    target: targetOf(input),
    candidates,
    source: { ...input.source, at: input.at },
    input,
    ...(baseVersion !== undefined ? { baseVersion } : {}),
    ...(replacing !== undefined ? { replacing } : {}),
    ...(replaceOnly ? { replaceOnly } : {}),
    // App scope is the app's own data (a bootstrapped source): there is no user to review it.
    ...(input.scope !== 'app' && deps.review.has(input.source.type) ? { review: true } : {}),
  });
  if (candidates.length > 0) await embedLeftBehind(deps, input);
  return operations;
}

/**
 * After a write the embedder answered for, the owner's memories an erasure stored without a
 * vector while it was offline (reembed.ts `embedPending`) get theirs. The write brought the
 * partition's count of foreign rows up to date, so a partition without any pays nothing.
 */
async function embedLeftBehind(deps: MemoryDeps, owner: Owner): Promise<void> {
  if (deps.storage.vectors.foreignRows(userPartition(owner)) === 0) return;
  // The write is stored and must resolve: what fails here stays waiting for the next call.
  await embedPending(deps, owner).catch(() => {});
}

/**
 * A conversation write (ingest, summarizeSession): the version is read before extraction,
 * which may take a model's time, so a revocation in between is caught by the commit.
 */
export async function writeConversation(deps: MemoryDeps, input: WriteInput): Promise<Operation[]> {
  const baseVersion = await versionOf(deps, input);
  return writeThrough(deps, input, await candidatesOf(deps, input), baseVersion);
}
