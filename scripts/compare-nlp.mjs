/**
 * Would an NLP library beat the hand-written speech reader for its size and speed? Bundles each
 * (minified, gzip) and times it over the labelled corpus (test/extract/speech/) in one run,
 * beside the reader's whole extraction. The libraries are not dependencies of engram; install
 * them without saving, then run:
 *
 *   npm i --no-save -E compromise@14.17.0 wink-nlp@2.4.0 wink-eng-lite-web-model@1.8.1
 *   npx tsx scripts/compare-nlp.mjs
 *
 * The libraries' figures are for parsing and tagging alone: an extractor built on them would
 * still need the reader's rules for topics, negation, tense, people and times on top.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { LABELLED, SPOKEN_AT } from '../test/extract/speech/corpus.ts';
import { speechCandidates } from '../src/extract/speech/extractor.ts';

const texts = LABELLED.map((labelled) => labelled.message);

async function bundledBytes(source) {
  const result = await build({ stdin: { contents: source, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
  const code = result.outputFiles[0].contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

/** Median µs per statement over 7 passes (after one warm-up pass). */
function perStatement(fn) {
  for (const text of texts) fn(text);
  const passes = [];
  for (let pass = 0; pass < 7; pass++) {
    const start = performance.now();
    for (const text of texts) fn(text);
    passes.push(((performance.now() - start) * 1000) / texts.length);
  }
  return passes.sort((a, b) => a - b)[3];
}

const { default: nlp } = await import('compromise');
const { default: winkNLP } = await import('wink-nlp');
const { default: model } = await import('wink-eng-lite-web-model');
const wink = winkNLP(model);
const rows = [
  ['engram speech reader (whole extraction)', "import { createSpeechExtractor } from './src/extract/speech/extractor.ts'; console.log(createSpeechExtractor());", (text) => speechCandidates(text, SPOKEN_AT)],
  ['compromise 14.17 (parse, tag, one match)', "import nlp from 'compromise'; console.log(nlp('I am vegan').json());", (text) => nlp(text).match('(i|im|my) .+').json()],
  [
    'wink-nlp 2.4 + eng-lite-web-model (tokens, POS)',
    "import w from 'wink-nlp'; import m from 'wink-eng-lite-web-model'; const n = w(m); console.log(n.readDoc('I am vegan').tokens().out(n.its.pos));",
    (text) => wink.readDoc(text).tokens().out(wink.its.pos),
  ],
];
const [base] = rows;
const baseTime = perStatement(base[2]);
const baseSize = await bundledBytes(base[1]);
console.log(`${texts.length} statements of the labelled corpus; ratios are library / engram, same run`);
for (const [label, source, fn] of rows) {
  const time = fn === base[2] ? baseTime : perStatement(fn);
  const size = fn === base[2] ? baseSize : await bundledBytes(source);
  console.log(`${label}: ${time.toFixed(1)} µs/statement (${(time / baseTime).toFixed(1)}x), ${(size.gzip / 1024).toFixed(1)} kB gzip (${(size.gzip / baseSize.gzip).toFixed(1)}x), ${(size.min / 1024).toFixed(0)} kB min`);
}
