/**
 * The semantic channel's table: WordNet 3.1 distilled by scripts/build-wordnet.ts into, per
 * lexical term (src/embed/terms.ts), the concepts it stands for and how far (0: the word's own
 * senses; 1: a hypernym, a derived word, a topic domain; 2: a hypernym's hypernym). Two terms
 * sharing a concept at distances d1 and d2 are related with weight `SEMANTIC_DECAY^(d1+d2)`,
 * and a query's lexical terms are expanded by the terms they are related to (fusion.ts), so
 * "lunch" finds "eats" and "bike" finds "bicycle" without a model.
 *
 * The table is a static binary asset (concepts-asset.ts, wordnet-concepts.bin, built from the
 * reviewable text wordnet-concepts.txt), read once by the compute client and handed to compute
 * (`loadConcepts`), never stored: nothing here holds a user's text, so erasure, encryption and
 * export are untouched. In memory it is two compressed adjacency lists in typed arrays (term →
 * concepts, concept → terms), not JS maps and arrays: 1.7 MB for the whole table instead of 20 MB
 * of heap, decoded from the asset without a text parse ({@link decodeConcepts}).
 */
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

/** The binary table's first bytes (then the WordNet notice, up to a zero byte): its format and {@link CONCEPTS_VERSION}. */
export const CONCEPTS_MAGIC = `engram-concepts ${CONCEPTS_VERSION}\n`;

/**
 * Reads the binary table scripts/build-wordnet.ts writes (wordnet-concepts.bin): no text to parse,
 * no term to hash. The magic and WordNet's notice (ASCII, up to a zero byte, padded to 4 bytes);
 * four u32s (terms, links, concepts, packed bytes); the terms' hashes as u32s (a view, not a copy);
 * per term its link count, then per link `zigzag(concept - previous concept) << 2 | distance`,
 * each a LEB128 varint. Little-endian, as the WASM kernel assumes. The reverse lists are counted
 * here. @throws Error saying what is wrong when the bytes are not such a table.
 */
export function decodeConcepts(table: ArrayBuffer): Concepts {
  const bytes = new Uint8Array(table);
  const magic = String.fromCharCode(...bytes.subarray(0, CONCEPTS_MAGIC.length));
  let at = (bytes.indexOf(0) + 4) & ~3;
  if (magic !== CONCEPTS_MAGIC || at < 4 || at + 16 > bytes.length) throw new Error(`engram's WordNet table is not '${CONCEPTS_MAGIC.trim()}' but starts '${magic.trim()}'`);
  const [terms, links, concepts, packed] = new Uint32Array(table, at, 4) as unknown as [number, number, number, number];
  const end = at + 16 + terms * 4 + packed;
  const damaged = () => new Error(`engram's WordNet table is damaged: ${bytes.length} bytes of ${end}, stopped at ${at}`);
  if (end !== bytes.length) throw damaged();
  const keys = new Uint32Array(table, at + 16, terms);
  at = end - packed;
  const termStarts = new Uint32Array(terms + 1);
  const termLinks = new Uint32Array(links);
  let count = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0; shift < 32 && at < end; shift += 7) {
      const byte = bytes[at++]!;
      value |= (byte & 127) << shift;
      if (byte < 128) return value >>> 0;
    }
    throw damaged();
  };
  for (let t = 0; t < terms; t++) {
    termStarts[t] = count;
    for (let n = varint(), concept = 0; n-- > 0; ) {
      const value = varint();
      const zigzag = value >>> 2;
      concept += zigzag & 1 ? -(zigzag + 1) / 2 : zigzag / 2;
      if (concept < 0 || concept >= concepts || count >= links) throw damaged();
      termLinks[count++] = (concept << 2) | (value & 3);
    }
  }
  termStarts[terms] = count;
  if (at < end || count < links) throw damaged();
  return [keys, termStarts, termLinks, ...reverseLinks(termStarts, termLinks, concepts)];
}

/**
 * Each concept's terms from each term's concepts (the table's `conceptStarts`, `conceptLinks`), by
 * counting: each concept's end, then filled backwards down to its start, so that a concept lists
 * its terms in term order.
 */
export function reverseLinks(termStarts: Uint32Array, termLinks: Uint32Array, concepts: number): [conceptStarts: Uint32Array, conceptLinks: Uint32Array] {
  const conceptStarts = new Uint32Array(concepts + 1);
  for (const link of termLinks) conceptStarts[link >>> 2]!++;
  for (let c = 0; c < concepts; c++) conceptStarts[c + 1]! += conceptStarts[c]!;
  const conceptLinks = new Uint32Array(termLinks.length);
  for (let t = termStarts.length - 1; t--; ) for (let i = termStarts[t + 1]!; i-- > termStarts[t]!; ) conceptLinks[--conceptStarts[termLinks[i]! >>> 2]!] = (t << 2) | (termLinks[i]! & 3);
  return [conceptStarts, conceptLinks];
}

/** The table last decoded by {@link loadedConcepts}, and its bytes. */
let latest: [bytes: Uint8Array, concepts: Concepts] | undefined;

/**
 * {@link decodeConcepts}, once per table in this realm: the computes of several memories in one
 * thread (in-process compute, under Node) share one immutable table instead of each decoding and
 * holding its own. A table with the same bytes as the last one is that one.
 */
export function loadedConcepts(table: ArrayBuffer): Concepts {
  const bytes = new Uint8Array(table);
  if (!latest || !sameBytes(latest[0], bytes)) latest = [bytes, decodeConcepts(table)];
  return latest[1];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
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
