/**
 * The eval's arithmetic, kept apart from the runner so it can be tested: recall@k (a question
 * counts as found at k when any of its top k memories came from one of its evidence turns) and
 * the BM25 baseline the library is compared with.
 */
import { wordsOf } from '../src/text';

/** For each k, the share of questions (0-100) whose first k results hold an evidence turn. */
export function recallAt(ranked: readonly (readonly (readonly string[])[])[], evidence: readonly (readonly string[])[], ks: readonly number[]): number[] {
  if (ranked.length !== evidence.length) throw new RangeError(`${ranked.length} result lists for ${evidence.length} questions`);
  if (ranked.length === 0) return ks.map(() => Number.NaN);
  return ks.map((k) => {
    let found = 0;
    ranked.forEach((turnsPerHit, q) => {
      const wanted = new Set(evidence[q]);
      if (turnsPerHit.slice(0, k).some((turns) => turns.some((turn) => wanted.has(turn)))) found++;
    });
    return (100 * found) / ranked.length;
  });
}

/** Plain BM25 tokens: lower-case words (the library's one word rule), no stemming, no stopword list (IDF does that work). */
export function baselineTokens(text: string): string[] {
  return wordsOf(text);
}

export interface Bm25Options {
  tokens?: (text: string) => string[];
  k1?: number;
  b?: number;
}

/**
 * Okapi BM25 (default k1 = 1.2, b = 0.75, plain tokens; Lucene's IDF) over a list of texts.
 * Also the reference the lexical channel's tests and the bench check the worker against.
 */
export function createBm25(documents: readonly string[], options: Bm25Options = {}) {
  const { tokens: tokensOf = baselineTokens, k1 = 1.2, b = 0.75 } = options;
  const docs = documents.map((text) => {
    const tf = new Map<string, number>();
    const tokens = tokensOf(text);
    for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
    return { tf, length: tokens.length };
  });
  const df = new Map<string, number>();
  for (const doc of docs) for (const token of doc.tf.keys()) df.set(token, (df.get(token) ?? 0) + 1);
  const n = docs.length;
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, n);
  /** `related`: more terms, each counting its weight times its BM25 (the semantic channel's expansion, src/worker/fusion.ts). */
  function scores(query: string, related: ReadonlyMap<string, number> = new Map()): number[] {
    const terms = new Map([...related, ...tokensOf(query).map((term): [string, number] => [term, 1])]);
    return docs.map((doc) => {
      let score = 0;
      for (const [term, weight] of terms) {
        const tf = doc.tf.get(term);
        if (!tf) continue;
        const idf = Math.log(1 + (n - df.get(term)! + 0.5) / (df.get(term)! + 0.5));
        score += (weight * idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / average));
      }
      return score;
    });
  }
  return {
    /** BM25 of every document for `query`, in document order. */
    scores,
    /** Indexes of the top k documents, best first, ties by index. */
    search(query: string, k: number): number[] {
      return scores(query)
        .map((score, index) => ({ score, index }))
        .sort((x, y) => y.score - x.score || x.index - y.index)
        .slice(0, k)
        .map((entry) => entry.index);
    },
  };
}

/** The k best of several ranked lists (one per speaker asked), merged by score, best first; ties keep list order. */
export function mergeByScore<T>(lists: readonly (readonly { item: T; score: number }[])[], k: number): T[] {
  return lists
    .flatMap((list, l) => list.map((entry, i) => ({ ...entry, l, i })))
    .sort((a, b) => b.score - a.score || a.l - b.l || a.i - b.i)
    .slice(0, k)
    .map((entry) => entry.item);
}
