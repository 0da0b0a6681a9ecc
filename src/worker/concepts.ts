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
 * arrays (term → concepts, concept → terms), not JS maps and arrays: about 3 MB of heap for
 * the whole table instead of 20 MB, parsed in one pass over the text.
 */
import { hash32 } from '../text';

/** The table's version: part of what `explain` and the docs report; bump with any change to the build. */
export const CONCEPTS_VERSION = 'wn31-1';

/** Weight of a relation at distance d: DECAY^d (tuned on the semantic pairs' dev half). */
export const SEMANTIC_DECAY = 0.6;
/** Farthest relation used (d1 + d2). */
export const SEMANTIC_REACH = 3;

/**
 * The table as adjacency lists. Terms are numbered by ascending hash (`keys`, for a binary
 * search); term `t`'s links are `termLinks[termStarts[t] … termStarts[t+1])`, each
 * `concept << 2 | distance`; concept `c`'s are `conceptLinks[conceptStarts[c] … conceptStarts[c+1])`,
 * each `term number << 2 | distance`.
 */
export interface Concepts {
  keys: Uint32Array;
  termStarts: Uint32Array;
  termLinks: Uint32Array;
  conceptStarts: Uint32Array;
  conceptLinks: Uint32Array;
}

/** Terms in the table. */
export function conceptTermCount(concepts: Concepts): number {
  return concepts.keys.length;
}

/** Bytes the table holds in memory. */
export function conceptBytes(concepts: Concepts): number {
  const { keys, termStarts, termLinks, conceptStarts, conceptLinks } = concepts;
  return keys.byteLength + termStarts.byteLength + termLinks.byteLength + conceptStarts.byteLength + conceptLinks.byteLength;
}

/** Lines a table may have (the sort's packing). */
const LINES = 2 ** 20;
const NEWLINE = 10;
const SEMICOLON = 59;
const COMMA = 44;

/**
 * Parses the table's text (`term\tconcepts at 0;at 1;at 2`, base-36 concept numbers; a line
 * without a tab, the licence notice, names no concept). Two terms whose words hash alike are
 * one term (their links together).
 */
export function parseConcepts(text: string): Concepts {
  // One pass: every line's hash and its links, in the text's order.
  const hashes: number[] = [];
  const lineStarts: number[] = [0];
  let links = new Uint32Array(Math.max(1024, text.length >> 1));
  let size = 0;
  let concepts = 0;
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const tab = text.indexOf('\t', at);
    if (tab >= 0 && tab < end) {
      hashes.push(hash32(text.slice(at, tab)));
      let distance = 0;
      let value = -1;
      for (let i = tab + 1; i <= end; i++) {
        const code = i < end ? text.charCodeAt(i) : NEWLINE;
        if (code === COMMA || code === SEMICOLON || code === NEWLINE) {
          if (value >= 0) {
            if (size === links.length) links = grown(links);
            links[size++] = ((value << 2) | distance) >>> 0;
            if (value >= concepts) concepts = value + 1;
          }
          value = -1;
          if (code === SEMICOLON) distance++;
        } else value = (value < 0 ? 0 : value * 36) + (code <= 57 ? code - 48 : code - 87);
      }
      lineStarts.push(size);
    }
    at = end + 1;
  }
  if (hashes.length > LINES) throw new RangeError(`a concept table has at most ${LINES} lines, not ${hashes.length}`);
  // Terms by ascending hash, a hash's lines together: each line as `hash · 2^20 + line` (exact
  // in a double), sorted as numbers, with no comparator to call.
  const order = new Float64Array(hashes.length);
  for (let line = 0; line < hashes.length; line++) order[line] = hashes[line]! * LINES + line;
  order.sort();
  const keys: number[] = [];
  const termStarts: number[] = [0];
  const termLinks = new Uint32Array(size);
  let filled = 0;
  for (const entry of order) {
    const line = entry % LINES;
    if (keys.at(-1) !== hashes[line]) {
      if (keys.length) termStarts.push(filled);
      keys.push(hashes[line]!);
    }
    termLinks.set(links.subarray(lineStarts[line]!, lineStarts[line + 1]!), filled);
    filled += lineStarts[line + 1]! - lineStarts[line]!;
  }
  termStarts.push(filled);
  // The reverse lists, by counting.
  const conceptStarts = new Uint32Array(concepts + 1);
  for (const link of termLinks) conceptStarts[(link >>> 2) + 1]!++;
  for (let c = 0; c < concepts; c++) conceptStarts[c + 1]! += conceptStarts[c]!;
  const cursor = conceptStarts.slice(0, concepts);
  const conceptLinks = new Uint32Array(size);
  for (let t = 0; t < keys.length; t++) {
    for (let i = termStarts[t]!; i < termStarts[t + 1]!; i++) {
      const link = termLinks[i]!;
      conceptLinks[cursor[link >>> 2]!++] = ((t << 2) | (link & 3)) >>> 0;
    }
  }
  return { keys: Uint32Array.from(keys), termStarts: Uint32Array.from(termStarts), termLinks, conceptStarts, conceptLinks };
}

/** The table last parsed by {@link loadedConcepts}, and its text. */
let latest: { text: string; concepts: Concepts } | undefined;

/**
 * {@link parseConcepts}, once per text in this realm: the computes of several memories in one
 * thread (in-process compute, under Node) share one immutable table instead of each parsing and
 * holding its own.
 */
export function loadedConcepts(text: string): Concepts {
  if (latest?.text !== text) latest = { text, concepts: parseConcepts(text) };
  return latest.concepts;
}

function grown(links: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(links.length * 2);
  next.set(links);
  return next;
}

/** The number of the term whose hash is `key`, or -1. */
function termNumber(keys: Uint32Array, key: number): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = keys[middle]!;
    if (value === key) return middle;
    if (value < key) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * The terms related to `query`'s (not among them), each with its weight, `scale` times one in
 * (0, 1]: the strongest relation through any shared concept.
 */
export function expandTerms(concepts: Concepts, query: ReadonlySet<number>, scale: number): Map<number, number> {
  const { keys, termStarts, termLinks, conceptStarts, conceptLinks } = concepts;
  const related = new Map<number, number>();
  for (const key of query) {
    const term = termNumber(keys, key);
    if (term < 0) continue;
    for (let i = termStarts[term]!; i < termStarts[term + 1]!; i++) {
      const own = termLinks[i]!;
      const concept = own >>> 2;
      for (let j = conceptStarts[concept]!; j < conceptStarts[concept + 1]!; j++) {
        const link = conceptLinks[j]!;
        const distance = (own & 3) + (link & 3);
        if (distance > SEMANTIC_REACH) continue;
        const other = keys[link >>> 2]!;
        const weight = scale * SEMANTIC_DECAY ** distance;
        if (!query.has(other) && weight > (related.get(other) ?? 0)) related.set(other, weight);
      }
    }
  }
  return related;
}
