/**
 * Hybrid relevance: the cosine channel fused with the lexical one (BM25, lexical.ts).
 *
 * BM25 has no fixed scale, so it is taken relative to the query's best lexical match among
 * the rows the caller may see (1 = the best match, the "relative score" fusion of hybrid
 * search engines), then blended with the cosine:
 *
 *   relevance = DENSE_SHARE · cosine + (1 − DENSE_SHARE) · bm25 / max bm25
 *
 * and the cosine alone when no visible row shares a term with the query. The semantic channel
 * (concepts.ts), once compute has its table, adds to each row's BM25 the BM25 of the terms
 * related in meaning to the query's, each weighted by {@link SEMANTIC_SHARE} times the
 * relation's weight: one score scale, so a memory that only means what the query asks is
 * relevant, below one that says it in the query's words. Being relative, a
 * strong lexical match sits near 1 and a weak one far below it, so the recency and importance
 * terms of the blend (at most `weights.recency + weights.importance`) reorder near-ties
 * instead of burying the memory that answers the query.
 */
import { lexicalTerms } from '../embed/terms';
import type { ScanRequest } from './api';
import { expandTerms, type Concepts } from './concepts';
import { filterFor, passes, type RelevanceTerm } from './kernel';
import { corpusOf } from './lexical';
import type { Partition } from './partition';

/**
 * The cosine's share of the fused relevance. Tuned on the LoCoMo dev split with the 256-d hash
 * embedder (0.05-0.1 best; 0.3 cost 0.8 points of recall@5): the hash embedder adds little
 * beyond the words themselves. A semantic embedder would likely want more.
 */
export const DENSE_SHARE = 0.05;

/**
 * A related term's BM25 counts this much (times the relation's weight) of the query's own
 * term's: tuned on the semantic pairs' dev half (scripts/semantic-pairs.ts), checked on the
 * LoCoMo dev split that exact-word queries lose nothing.
 */
export const SEMANTIC_SHARE = 0.3;

/**
 * Fills each partition's `lexicalScores` for the query (on the statistics of all of them
 * together), with the semantic channel's part when `concepts` is given (also in
 * `semantic`); returns the best score among rows that pass the filter (0: no match).
 */
export function scoreLexical(partitions: readonly Partition[], request: ScanRequest, mask: number, concepts?: Concepts): number {
  const terms = new Set(lexicalTerms(request.queryText ?? ''));
  const related = concepts ? expandTerms(concepts, terms, SEMANTIC_SHARE) : new Map<number, number>();
  // One scale for the whole query: the IDF and the average length of every partition it reads.
  const corpus = corpusOf(
    partitions.map((partition) => partition.lexical),
    new Set([...terms, ...related.keys()]),
  );
  let best = 0;
  for (const partition of partitions) {
    const filter = filterFor(partition, mask, request.sessionId ?? null);
    const tags = partition.matrix.tags;
    const { lexicalScores, semantic } = partition;
    const rows = partition.lexical.score(terms, lexicalScores, partition.size, corpus);
    for (const row of partition.lexical.score(new Set(related.keys()), semantic, partition.size, corpus, related)) {
      if (lexicalScores[row] === 0) rows.push(row);
      lexicalScores[row]! += semantic[row]!;
    }
    for (const row of rows) {
      const score = lexicalScores[row]!;
      if (score > best && passes(tags[row]!, filter)) best = score;
    }
  }
  return best;
}

/** The kernel's relevance term for a relevance weight and the query's best BM25 score. */
export function relevanceTerm(weight: number, best: number): RelevanceTerm {
  return best > 0 ? { dense: weight * DENSE_SHARE, lexical: (weight * (1 - DENSE_SHARE)) / best } : { dense: weight, lexical: 0 };
}

/**
 * The reported parts of one hit's relevance (f64); `semantic`: the part of `bm25` the semantic
 * channel added, reported as the part of `lexical` it is.
 */
export function fusedRelevance(cosine: number, bm25: number, best: number, semantic = 0): { relevance: number; cosine: number; lexical: number; semantic: number } {
  if (best <= 0) return { relevance: cosine, cosine, lexical: 0, semantic: 0 };
  const lexical = bm25 / best;
  return { relevance: DENSE_SHARE * cosine + (1 - DENSE_SHARE) * lexical, cosine, lexical, semantic: semantic / best };
}
