/**
 * The semantic channel's table: WordNet 3.1 distilled by scripts/build-wordnet.ts into, per
 * lexical term (src/embed/terms.ts), the concepts it stands for and how far (0: the word's own
 * senses; 1: a hypernym, a derived word, a topic domain; 2: a hypernym's hypernym). Two terms
 * sharing a concept at distances d1 and d2 are related with weight `SEMANTIC_DECAY^(d1+d2)`,
 * and a query's lexical terms are expanded by the terms they are related to (fusion.ts), so
 * "lunch" finds "eats" and "bike" finds "bicycle" without a model.
 *
 * The table is a static asset (concepts-asset.ts), read once by the compute client and handed
 * to compute (`loadConcepts`), never stored: nothing here holds a user's text, so erasure,
 * encryption and export are untouched.
 */
import { hash32 } from '../text';

/** The table's version: part of what `explain` and the docs report; bump with any change to the build. */
export const CONCEPTS_VERSION = 'wn31-1';

/** Weight of a relation at distance d: DECAY^d (tuned on the semantic pairs' dev half). */
export const SEMANTIC_DECAY = 0.6;
/** Farthest relation used (d1 + d2). */
export const SEMANTIC_REACH = 3;

/** Term → its concepts; concept → its terms: `[term or concept, distance]` pairs, interleaved. */
export interface Concepts {
  terms: Map<number, number[]>;
  members: Map<number, number[]>;
}

/** Parses the table's text (`term\tconcepts at 0;at 1;at 2`, base-36 concept numbers; a line without a tab, the licence notice, names no concept). */
export function parseConcepts(text: string): Concepts {
  const terms = new Map<number, number[]>();
  const members = new Map<number, number[]>();
  for (const line of text.split('\n')) {
    const [word, groups = ''] = line.split('\t');
    const term = hash32(word!);
    const own: number[] = [];
    terms.set(term, own);
    // A group is empty where the term has no concept at that distance ("x;;y").
    groups.split(';').forEach((group, distance) => {
      for (const id of group.split(',').filter(Boolean)) {
        const concept = Number.parseInt(id, 36);
        own.push(concept, distance);
        if (!members.get(concept)?.push(term, distance)) members.set(concept, [term, distance]);
      }
    });
  }
  return { terms, members };
}

/**
 * The terms related to `query`'s (not among them), each with its weight, `scale` times one in
 * (0, 1]: the strongest relation through any shared concept.
 */
export function expandTerms(concepts: Concepts, query: ReadonlySet<number>, scale: number): Map<number, number> {
  const related = new Map<number, number>();
  for (const term of query) {
    const own = concepts.terms.get(term) ?? [];
    for (let i = 0; i < own.length; i += 2) {
      const list = concepts.members.get(own[i]!)!;
      for (let j = 0; j < list.length; j += 2) {
        const distance = own[i + 1]! + list[j + 1]!;
        const other = list[j]!;
        const weight = scale * SEMANTIC_DECAY ** distance;
        if (distance <= SEMANTIC_REACH && !query.has(other) && weight > (related.get(other) ?? 0)) related.set(other, weight);
      }
    }
  }
  return related;
}
