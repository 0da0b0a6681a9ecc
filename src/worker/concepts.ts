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
 * Reads the binary table scripts/build-wordnet.ts writes (wordnet-concepts.bin): the arrays
 * themselves, so that loading it is five views of the buffer, with no text to parse, no term to
 * hash and no list to count (docs/perf.md, cold start). The magic and WordNet's notice (ASCII, up
 * to a zero byte, padded to 4 bytes); five u32s, the arrays' lengths; then the five arrays of
 * {@link Concepts} in order, as little-endian u32s (as the WASM kernel assumes), read as the
 * host's u32s: a big-endian host is refused ({@link checkByteOrder}). One pass checks what the
 * scans index by: each starts array one longer than what it counts, from 0, never decreasing, up
 * to its links' length, and every link's target (a concept, a term) in range.
 * @throws Error saying what is wrong when the bytes are not such a table.
 */
export function decodeConcepts(table: ArrayBuffer): Concepts {
  checkByteOrder(HOST_LITTLE_ENDIAN);
  const bytes = new Uint8Array(table);
  const magic = String.fromCharCode(...bytes.subarray(0, CONCEPTS_MAGIC.length));
  if (magic !== CONCEPTS_MAGIC) throw new Error(`engram's WordNet table is not '${CONCEPTS_MAGIC.trim()}' but starts '${magic.trim()}'`);
  const notice = bytes.indexOf(0);
  let at = (notice + 4) & ~3;
  if (notice < 0 || at + 20 > bytes.length) throw new Error(`engram's WordNet table is truncated: ${bytes.length} bytes, ${notice < 0 ? 'its notice never ends' : `its header ends at ${at + 20}`}`);
  const lengths = [...new Uint32Array(table, at, 5)];
  const end = lengths.reduce((sum, length) => sum + length * 4, (at += 20));
  const arrays: Uint32Array[] = [];
  for (const length of end === bytes.length ? lengths : []) {
    arrays.push(new Uint32Array(table, at, length));
    at += length * 4;
  }
  const [keys, termStarts, termLinks, conceptStarts, conceptLinks] = arrays;
  if (!keys || !termStarts || !termLinks || !conceptStarts || !conceptLinks) throw new Error(`engram's WordNet table is damaged: ${bytes.length} bytes of ${end}`);
  const wrong =
    termStarts.length !== keys.length + 1
      ? `${termStarts.length} term starts for ${keys.length} terms`
      : conceptStarts.length < 1
        ? 'no concept starts'
        : (badStarts(termStarts, termLinks.length, 'term') ??
          badStarts(conceptStarts, conceptLinks.length, 'concept') ??
          badTargets(termLinks, conceptStarts.length - 1, 'term', 'concept') ??
          badTargets(conceptLinks, keys.length, 'concept', 'term'));
  if (wrong) throw new Error(`engram's WordNet table is damaged: ${wrong}`);
  return arrays as unknown as Concepts;
}

/** Whether this host reads a u32's bytes little end first, as the table is written. */
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** @throws Error naming the byte order when the host is not little-endian: the table's u32s would read as other numbers. */
export function checkByteOrder(littleEndian: boolean): void {
  if (!littleEndian) throw new Error("engram's WordNet table is little-endian, and this host's byte order is big-endian: its numbers would read wrong");
}

/** What is wrong with a starts array over `links` links, or undefined: it starts at 0, never decreases, and ends at `links`. */
function badStarts(starts: Uint32Array, links: number, what: string): string | undefined {
  if (starts[0] !== 0 || starts.at(-1) !== links) return `${what} starts run from ${starts[0]} to ${starts.at(-1)}, not from 0 to ${links}`;
  for (let i = 1; i < starts.length; i++) if (starts[i]! < starts[i - 1]!) return `${what} start ${i} goes back`;
  return undefined;
}

/** What is wrong with links whose targets (`link >>> 2`) must be below `count`, or undefined. */
function badTargets(links: Uint32Array, count: number, from: string, to: string): string | undefined {
  for (let i = 0; i < links.length; i++) if (links[i]! >>> 2 >= count) return `${from} link ${i} names ${to} ${links[i]! >>> 2} of ${count}`;
  return undefined;
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
  if (latest?.[0].buffer !== table && !(latest && sameBytes(latest[0], bytes))) latest = [bytes, decodeConcepts(table)];
  return latest[1];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
