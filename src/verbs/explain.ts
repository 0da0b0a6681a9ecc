/**
 * `memory.explain`: what `retrieve` returns for a query, each hit with its score parts, and the
 * nearest misses with why each stayed out. The hits are one run of retrieve's own ranking
 * (verbs/run-retrieve.ts `runRetrieve`), so they are retrieve's results; retrieval/explain.ts assembles.
 */
import type { RetrieveOptions } from '../options';
import { explainRanking, MAX_MISSES, pendingAsRecord, representedOutsiders, type Explanation, type Outsider } from '../retrieve/explain';
import { listPending } from '../review/review';
import type { MemoryRecord } from '../schema';
import { userPartition } from '../storage/contract';
import type { MemoryDeps } from './deps';
import { retrieveAsOf } from './as-of';
import { addProfile } from './profile';
import { parseRetrieve, runRetrieve, type ParsedRetrieve } from './run-retrieve';

/** Memories of the caller no search of this plan can return: pending ones, another session's, pruned ones. */
async function outsidersOf(deps: MemoryDeps, { plan }: ParsedRetrieve): Promise<Outsider[]> {
  if (!plan.scopes.includes('user') && !plan.scopes.includes('session')) return [];
  const [pending, stored] = await Promise.all([listPending(deps.storage, plan.owner), deps.storage.records.list(plan.owner, { scopes: ['user', 'session'], includeInvalid: true })]);
  const vectors = pending.length
    ? await deps.embedder.embed(
        pending.map((entry) => entry.content),
        userPartition(plan.owner),
      )
    : [];
  const out: Outsider[] = pending.map((entry, i) => ({
    record: pendingAsRecord(entry, plan.owner, vectors[i]!, deps.embedder.id),
    memory: entry,
    reason: 'pending',
    detail: `waits for review (a ${entry.source.type} write): memory.approve('${entry.id}') applies it, memory.reject erases it`,
  }));
  for (const record of stored) {
    const outsider = outsiderOf(record, plan.sessionId, plan.scopes.includes('session'));
    if (outsider) out.push(outsider);
  }
  return out;
}

function outsiderOf(record: MemoryRecord, sessionId: string | undefined, sessions: boolean): Outsider | undefined {
  const last = record.history.at(-1);
  if (record.invalidatedAt !== undefined) {
    if (last?.event !== 'pruned') return undefined;
    return { record, memory: record, reason: 'decayed', detail: `pruned: ${last.reason}` };
  }
  if (record.scope !== 'session' || (sessions && record.sessionId === sessionId)) return undefined;
  const named = sessionId === undefined ? 'names no session' : `names session '${sessionId}'`;
  return { record, memory: record, reason: 'other-session', detail: `a memory of session '${record.sessionId}', and the query ${named}${sessions ? '' : " or leaves out scope 'session'"}` };
}

export async function explain(deps: MemoryDeps, query: string, options: RetrieveOptions): Promise<Explanation> {
  const parsed = parseRetrieve(query, options);
  const hits = await runRetrieve(deps, parsed, retrieveAsOf, addProfile);
  // The wider ranking has no floor, so the memories below it are explained as such.
  const { floor: _floor, ...unfloored } = parsed.plan;
  const wider = await runRetrieve(deps, { ...parsed, plan: { ...unfloored, k: parsed.plan.k + MAX_MISSES } }, retrieveAsOf, addProfile);
  const representedIds = hits.flatMap((hit) => hit.represents ?? []);
  const represented = representedOutsiders(hits, representedIds.length ? await deps.storage.records.getMany(representedIds, parsed.plan.owner) : []);
  // A past state (asOf) has no queue or prune of its own to explain: its misses are the ranking's next ones.
  const outsiders = [...represented, ...(parsed.asOf === undefined ? await outsidersOf(deps, parsed) : [])];
  const [vector] = outsiders.length ? await deps.embedder.embed([parsed.text], userPartition(parsed.plan.owner)) : [new Float32Array(0)];
  return explainRanking(hits, wider, outsiders, { query: { vector: vector!, text: parsed.text }, plan: parsed.plan, now: parsed.asOf ?? deps.clock() });
}
