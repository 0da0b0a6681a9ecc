/**
 * Measures word vectors written by scripts/build-wordvectors.ts on the semantic pairs
 * (./semantic-pairs.ts) by the method they were built for: each memory's vector is the sum of
 * its terms' vectors (each by its WordNet idf), and a question's memories rank by cosine with
 * the question's vector, among the memories of its half, with no lexical channel. Prints
 * recall@1 and @3 (dev, and validation with `--validation`, which is never tuned on).
 *
 *   npx tsx scripts/eval-wordvectors.ts <vectors file> [--validation] [--bits=4]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lexicalTermStrings } from '../src/embed/terms';
import { DEV, type SemanticPair, VALIDATION } from './semantic-pairs';

type Table = Map<string, [idf: number, vector: Float64Array]>;

/** A vectors file as built: term → its idf and unit vector; `bits` below 8 rounds each component to that many bits (what a smaller asset would hold). */
export function readVectors(path: string, bits = 8): Table {
  const step = 2 ** (8 - bits);
  const table: Table = new Map();
  for (const [, term, data] of readFileSync(path, 'utf8').matchAll(/^(.+)\t(.*)/gm)) {
    const bytes = new Int8Array(Buffer.from(data!, 'base64'));
    const vector = Float64Array.from(bytes.subarray(1), (x) => Math.round(x / step) * step);
    const norm = Math.hypot(...vector) || 1;
    table.set(term!, [bytes[0]! / 10, vector.map((x) => x / norm)]);
  }
  return table;
}

/** A text's unit vector: its distinct terms' vectors, each times its idf. */
function embed(table: Table, text: string, dimensions: number): Float64Array {
  const sum = new Float64Array(dimensions);
  for (const term of new Set(lexicalTermStrings(text))) {
    const entry = table.get(term);
    if (entry) entry[1].forEach((x, d) => (sum[d]! += entry[0] * x));
  }
  const norm = Math.hypot(...sum) || 1;
  return sum.map((x) => x / norm);
}

/** Recall@1 and @3 of `pairs`, each question against every memory of the half. */
export function recallByCosine(table: Table, pairs: readonly SemanticPair[]): [number, number] {
  const dimensions = table.values().next().value![1].length;
  const memories = pairs.map((pair) => embed(table, pair.memory, dimensions));
  let at1 = 0;
  let at3 = 0;
  pairs.forEach((pair, i) => {
    const query = embed(table, pair.question, dimensions);
    const cosine = (vector: Float64Array) => vector.reduce((sum, x, d) => sum + x * query[d]!, 0);
    const own = cosine(memories[i]!);
    const above = memories.filter((memory, j) => j !== i && cosine(memory) >= own).length;
    if (above < 1) at1++;
    if (above < 3) at3++;
  });
  return [at1 / pairs.length, at3 / pairs.length];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = process.argv[2];
  if (!path) throw new Error('usage: npx tsx scripts/eval-wordvectors.ts <vectors file> [--validation] [--bits=4]');
  const table = readVectors(path, Number(process.argv.find((arg) => arg.startsWith('--bits='))?.slice(7) ?? 8));
  const halves = process.argv.includes('--validation')
    ? ([
        ['dev', DEV],
        ['validation', VALIDATION],
      ] as const)
    : ([['dev', DEV]] as const);
  for (const [name, pairs] of halves) {
    const [at1, at3] = recallByCosine(table, pairs);
    console.log(`${path}: ${table.size} terms; ${name} @1 ${at1.toFixed(3)} @3 ${at3.toFixed(3)}`);
  }
}
