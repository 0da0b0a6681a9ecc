/**
 * Hybrid relevance: the cosine channel fused with the lexical one (BM25, lexical.ts).
 *
 * BM25 has no fixed scale, so it is taken relative to the query's best lexical match among
 * the rows the caller may see (1 = the best match, the "relative score" fusion of hybrid
 * search engines), then blended with the cosine:
 *
 *   relevance = DENSE_SHARE · cosine + (1 − DENSE_SHARE) · bm25 / max bm25
 *
 * and the cosine alone when no visible row shares a term with the query. Being relative, a
 * strong lexical match sits near 1 and a weak one far below it, so the recency and importance
 * terms of the blend (at most `weights.recency + weights.importance`) reorder near-ties
 * instead of burying the memory that answers the query.
 */
import { lexicalTerms } from '../embed/terms';
import type { ScanRequest } from './api';
import { filterFor, passes, type RelevanceTerm } from './kernel';
import { corpusOf } from './lexical';
import type { Partition } from './partition';

/**
 * The cosine's share of the fused relevance. Tuned on the LoCoMo dev split with the 256-d hash
 * embedder (0.05-0.1 best; 0.3 cost 0.8 points of recall@5): the hash embedder adds little
 * beyond the words themselves. A semantic embedder would likely want more.
 */
export const DENSE_SHARE = 0.05;

/** Fills each partition's `lexicalScores` for the query (on the statistics of all of them together); returns the best score among rows that pass the filter (0: no match). */
export function scoreLexical(partitions: readonly Partition[], request: ScanRequest, mask: number): number {
  if (request.queryText === undefined) return 0;
  const terms = new Set(lexicalTerms(request.queryText));
  // One scale for the whole query: the IDF and the average length of every partition it reads.
  const corpus = corpusOf(
    partitions.map((partition) => partition.lexical),
    terms,
  );
  let best = 0;
  for (const partition of partitions) {
    const filter = filterFor(partition, mask, request.sessionId ?? null);
    const tags = partition.matrix.tags;
    for (const row of partition.lexical.score(terms, partition.lexicalScores, partition.size, corpus)) {
      const score = partition.lexicalScores[row]!;
      if (score > best && passes(tags[row]!, filter)) best = score;
    }
  }
  return best;
}

/** The kernel's relevance term for a relevance weight and the query's best BM25 score. */
export function relevanceTerm(weight: number, best: number): RelevanceTerm {
  return best > 0 ? { dense: weight * DENSE_SHARE, lexical: (weight * (1 - DENSE_SHARE)) / best } : { dense: weight, lexical: 0 };
}

/** The reported parts of one hit's relevance (f64). */
export function fusedRelevance(cosine: number, bm25: number, best: number): { relevance: number; cosine: number; lexical: number } {
  if (best <= 0) return { relevance: cosine, cosine, lexical: 0 };
  const lexical = bm25 / best;
  return { relevance: DENSE_SHARE * cosine + (1 - DENSE_SHARE) * lexical, cosine, lexical };
}
