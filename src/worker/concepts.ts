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
 * encryption and export are untouched. In memory it is two compressed adjacency lists in typed
 * arrays (term → concepts, concept → terms), not JS maps and arrays: 1.7 MB for the whole
 * table instead of 20 MB of heap, parsed in one pass over the text.
 */
import { hash32 } from '../text';

/** The table's version: part of what `explain` and the docs report; bump with any change to the build. */
export const CONCEPTS_VERSION = 'wn31-1';

/** Weight of a relation at distance d: DECAY^d (tuned on the semantic pairs' dev half). */
export const SEMANTIC_DECAY = 0.6;
/** Farthest relation used (d1 + d2). */
export const SEMANTIC_REACH = 3;

/**
 * The table as adjacency lists, in typed arrays (a tuple, whose names the worker's minified code
 * does not carry): `[keys, termStarts, termLinks, conceptStarts, conceptLinks]`. Terms are
 * numbered in the table's order (`keys`: their hashes; a word that hashes as an earlier one is
 * found as that one); term `t`'s links are `termLinks[termStarts[t] … termStarts[t+1])`, each
 * `concept << 2 | distance`; concept `c`'s are `conceptLinks[conceptStarts[c] … conceptStarts[c+1])`,
 * each `term number << 2 | distance`.
 */
export type Concepts = readonly [keys: Uint32Array, termStarts: Uint32Array, termLinks: Uint32Array, conceptStarts: Uint32Array, conceptLinks: Uint32Array];

const TAB = 9;

/** What ends a line for the table's format: the line terminators of a RegExp's `^` and `.` (\n, \r, U+2028, U+2029). */
function endsLine(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

/** A base-36 digit's value, or -1. */
function base36(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 122 ? lower - 87 : -1;
}

/**
 * Parses the table's text (`term\tconcepts at 0;at 1;at 2`, base-36 concept numbers; a line
 * without a tab, the licence notice, names no concept). One pass over the character codes into
 * typed arrays sized by a first count of lines and separators: the same table as matching each
 * line with `/^(.+)\t(.*)/gm` and splitting its groups (the term is what comes before the line's
 * last tab), which took most of a small store's cold start on a loaded machine (docs/perf.md).
 */
export function parseConcepts(text: string): Concepts {
  // At most one term per line and one link per id (each id ends at a ',' or ';' or its line's end).
  let lines = 1;
  let separators = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (endsLine(code)) lines++;
    else if (code === 44 || code === 59) separators++;
  }
  const keys = new Uint32Array(lines);
  const termStarts = new Uint32Array(lines + 1);
  const links = new Uint32Array(separators + lines);
  let terms = 0;
  let count = 0;
  let concepts = 0;
  for (let start = 0; start < text.length; ) {
    let end = start;
    let tab = -1;
    for (let code: number; end < text.length && !endsLine((code = text.charCodeAt(end))); end++) if (code === TAB) tab = end;
    if (tab > start) {
      keys[terms] = hash32(text.slice(start, tab));
      termStarts[terms++] = count;
      let distance = 0;
      for (let from = tab + 1; from <= end; ) {
        // One id, up to the next ',' (same distance) or ';' (the next distance), or the line's end.
        let to = from;
        let value = 0;
        let plain = true;
        for (let code: number; to < end && (code = text.charCodeAt(to)) !== 44 && code !== 59; to++) {
          const digit = base36(code);
          if (digit < 0) plain = false;
          else value = value * 36 + digit;
        }
        // Anything but plain digits (a sign, a space, nothing) is what parseInt makes of it.
        const concept = plain && to > from ? value : Number.parseInt(text.slice(from, to), 36);
        if (concept >= 0) links[count++] = (concept << 2) | distance;
        if (concept >= concepts) concepts = concept + 1;
        if (to < end && text.charCodeAt(to) === 59) distance++;
        from = to + 1;
      }
    }
    start = end + 1;
  }
  termStarts[terms] = count;
  const termLinks = links.slice(0, count);
  // The reverse lists, by counting: each concept's end, then filled backwards down to its start.
  const conceptStarts = new Uint32Array(concepts + 1);
  for (const link of termLinks) conceptStarts[link >>> 2]!++;
  for (let c = 0; c < concepts; c++) conceptStarts[c + 1]! += conceptStarts[c]!;
  const conceptLinks = new Uint32Array(count);
  for (let t = terms; t--; ) for (let i = termStarts[t + 1]!; i-- > termStarts[t]!; ) conceptLinks[--conceptStarts[termLinks[i]! >>> 2]!] = (t << 2) | (termLinks[i]! & 3);
  return [keys.slice(0, terms), termStarts.slice(0, terms + 1), termLinks, conceptStarts, conceptLinks];
}

/** The table last parsed by {@link loadedConcepts}, and its text. */
let latest: [text: string, concepts: Concepts] | undefined;

/**
 * {@link parseConcepts}, once per text in this realm: the computes of several memories in one
 * thread (in-process compute, under Node) share one immutable table instead of each parsing and
 * holding its own.
 */
export function loadedConcepts(text: string): Concepts {
  if (latest?.[0] !== text) latest = [text, parseConcepts(text)];
  return latest[1];
}

/**
 * The terms related to `query`'s (not among them), each with its weight, `scale` times one in
 * (0, 1]: the strongest relation through any shared concept.
 */
export function expandTerms(concepts: Concepts, query: ReadonlySet<number>, scale: number): Map<number, number> {
  const [keys, termStarts, termLinks, conceptStarts, conceptLinks] = concepts;
  const related = new Map<number, number>();
  for (const key of query) {
    // A native scan of 40,000 numbers: a few µs, and no search code in the worker. A term not
    // in the table (-1) has no links: termStarts[-1] is undefined, and the loop does not run.
    const term = keys.indexOf(key);
    for (let i = termStarts[term]!; i < termStarts[term + 1]!; i++) {
      const own = termLinks[i]!;
      for (let j = conceptStarts[own >>> 2]!; j < conceptStarts[(own >>> 2) + 1]!; j++) {
        const link = conceptLinks[j]!;
        const distance = (own & 3) + (link & 3);
        const other = keys[link >>> 2]!;
        const weight = scale * SEMANTIC_DECAY ** distance;
        if (distance <= SEMANTIC_REACH && !query.has(other) && weight > (related.get(other) ?? 0)) related.set(other, weight);
      }
    }
  }
  return related;
}
