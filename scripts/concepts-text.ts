/**
 * The semantic table's text format (src/worker/wordnet-concepts.txt, the reviewable form
 * scripts/build-wordnet.ts writes): its reader, for the build (which encodes what it reads into
 * the binary asset the library loads), the tests and the benchmarks' reference.
 */
import { hash32 } from '../src/text';
import type { Concepts } from '../src/worker/concepts';

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
 * last tab). The library no longer parses it: it decodes the binary table built from it
 * (src/worker/concepts.ts `decodeConcepts`), since this parse took most of a small store's cold
 * start on a loaded machine (docs/perf.md).
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
  const starts = termStarts.slice(0, terms + 1);
  return [keys.slice(0, terms), starts, termLinks, ...reverseLinks(starts, termLinks, concepts)];
}

/**
 * Each concept's terms from each term's concepts (the table's `conceptStarts`, `conceptLinks`), by
 * counting: each concept's end, then filled backwards down to its start, so that a concept lists
 * its terms in term order.
 */
function reverseLinks(termStarts: Uint32Array, termLinks: Uint32Array, concepts: number): [conceptStarts: Uint32Array, conceptLinks: Uint32Array] {
  const conceptStarts = new Uint32Array(concepts + 1);
  for (const link of termLinks) conceptStarts[link >>> 2]!++;
  for (let c = 0; c < concepts; c++) conceptStarts[c + 1]! += conceptStarts[c]!;
  const conceptLinks = new Uint32Array(termLinks.length);
  for (let t = termStarts.length - 1; t--; ) for (let i = termStarts[t + 1]!; i-- > termStarts[t]!; ) conceptLinks[--conceptStarts[termLinks[i]! >>> 2]!] = (t << 2) | (termLinks[i]! & 3);
  return [conceptStarts, conceptLinks];
}
