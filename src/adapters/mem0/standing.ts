/**
 * The scores of a search whose query tells no memory apart: a question about the user as a
 * whole ("What do you know about me?") shares no term with any memory and, under the default
 * hash embedder, has no vector at all, so every relevance is 0 and engram's blended score is the
 * recency and importance terms alone (under 0.4, the same for every memory of one turn). A mem0
 * caller reads that as a broken ranking. There, the relevance term stands on the memory's
 * decayed confidence instead (how surely it is known now), so the score keeps engram's
 * weights and [0, 1] scale and ranks what is known best, most recently and most importantly first.
 */
import { DEFAULT_WEIGHTS, type Retrieved } from 'engram';

/** `ranked` as the facade reports it: unchanged when any memory is relevant to the query, else re-scored by standing, best first. */
export function scoredForSearch(ranked: readonly Retrieved[]): Retrieved[] {
  if (ranked.some((hit) => hit.relevance !== 0)) return [...ranked];
  const { relevance, recency, importance } = DEFAULT_WEIGHTS;
  // recency is 0.5^(age / half-life), so confidence · recency is the decayed confidence (decayedConfidence).
  return ranked.map((hit) => ({ ...hit, score: relevance * hit.memory.confidence * hit.recency + recency * hit.recency + importance * hit.importance })).sort((a, b) => b.score - a.score);
}
