/**
 * `npm run eval:extract`: the offline extractor scored before and after, in one run.
 *
 * - Labelled corpora (scripts/eval-extract-corpora.ts): dev (tuned on) and validation (held out),
 *   precision / recall / F1 per register, strict (topic and words) and loose (words only).
 * - LoCoMo dev split (read in place from ../shared/data): observation recall and precision, the
 *   turns yielding a fact, and ms per turn (scripts/eval-extract-locomo.ts).
 *
 * "before" is the reader at `--baseline <ref>` (default: the merge-base with main), unpacked
 * into a temporary directory; "after" is this tree's. `--no-baseline` scores this tree alone.
 * `--show N` prints N random facts read from annotated LoCoMo turns with the observation each
 * covers best, for reading by eye (`--seed S` picks another sample; `--threshold T` another
 * share of content words). `--misses` prints, for the dev corpora only, each message whose facts
 * differ from its labels (what was expected and missed, what was read and not expected) and
 * stops there. The validation corpus is only printed as figures: never tune on it.
 */
import { SPOKEN_AT } from '../test/extract/speech/corpus';
import { baselineReader, currentReader, defaultBaselineRef } from './eval-extract-baseline';
import { loadCorpora } from './eval-extract-corpora';
import { loadLocomo, type LocomoScore, type LocomoSplit, type ReadOnTurn, scoreLocomo, timeLocomo } from './eval-extract-locomo';
import { MATCH_THRESHOLD, MIN_SHARED } from './eval-extract-observations';
import { addTally, emptyTally, type Reader, rates, scoreCorpus, scoreMessage, type Tally, totalOf } from './eval-extract-score';
import { expectedKey, factKey } from '../test/extract/speech/corpus';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const fixed = (n: number) => (Number.isNaN(n) ? '  —  ' : n.toFixed(3));
const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;

/** "P R F1" of one tally under the strict or loose rule. */
function cell(tally: Tally, rule: 'strict' | 'loose'): string {
  const r = rates(tally[rule], tally.read, tally.expected);
  return `${fixed(r.precision)} ${fixed(r.recall)} ${fixed(r.f1)}`;
}

/** One line: a name, its size, then strict and loose figures of each reader, before → after. */
function line(name: string, tallies: readonly Tally[]): string {
  const size = `${String(tallies[0]!.messages).padStart(4)} ${String(tallies[0]!.expected).padStart(5)}`;
  return `  ${name.padEnd(24)} ${size}  ${tallies.map((t) => cell(t, 'strict')).join(' → ')} | ${tallies.map((t) => cell(t, 'loose')).join(' → ')}`;
}

/** Scores and prints every corpus per register; returns each split's total per reader. */
async function printCorpora(readers: readonly Reader[]): Promise<Map<string, Tally[]>> {
  const arrow = readers.length > 1 ? ' before → after' : '';
  const totals = new Map<string, Tally[]>();
  for (const corpus of await loadCorpora()) {
    const scored: Map<string, Tally>[] = [];
    for (const reader of readers) scored.push(await scoreCorpus(corpus.cases, reader, SPOKEN_AT));
    const all = scored.map(totalOf);
    console.log(`${corpus.name}: ${all[0]!.messages} messages, ${all[0]!.expected} facts`);
    console.log(`  ${'register'.padEnd(24)} msgs facts  strict P R F1${arrow}${' '.repeat(readers.length > 1 ? 9 : 3)}| loose P R F1${arrow}`);
    for (const register of scored[0]!.keys())
      console.log(
        line(
          register,
          scored.map((map) => map.get(register)!),
        ),
      );
    console.log(`${line('all', all)}\n`);
    const split = totals.get(corpus.split) ?? readers.map(emptyTally);
    for (const [i, tally] of all.entries()) addTally(split[i]!, tally);
    totals.set(corpus.split, split);
  }
  for (const [split, tallies] of totals) console.log(line(`${split}, all corpora`, tallies));
  return totals;
}

function printLocomo(split: LocomoSplit, scores: readonly LocomoScore[], msPerTurn: readonly number[], threshold: number): void {
  console.log(
    `\nLoCoMo dev: ${split.turns.length} turns, ${split.observations} observations citing a turn of their speaker (${split.leftOut} citing only the other's left out); a fact carries an observation when it holds ≥ ${threshold} of its content words and ≥ ${MIN_SHARED} of them`,
  );
  const annotated = split.turns.filter((turn) => turn.observations.length > 0).length;
  for (const [i, score] of scores.entries()) {
    const who = scores.length > 1 && i === 0 ? 'before' : 'after ';
    console.log(
      `  ${who}  observation recall ${pct(score.recalled, split.observations)} (${score.recalled}), precision ${pct(score.carrying, score.annotatedFacts)} (${score.carrying}/${score.annotatedFacts} facts from annotated turns); annotated turns yielding ≥ 1 fact ${pct(score.annotatedYielding, annotated)} of ${annotated}, all turns ${pct(score.yielding, score.turns)}; ${score.facts} facts in all; ${msPerTurn[i]!.toFixed(3)} ms per turn (median of 3 passes)`,
    );
  }
}

/** `count` facts drawn at random (a seeded generator, so a sample can be read again). */
function printSample(read: readonly ReadOnTurn[], count: number, seed: number): void {
  let state = seed >>> 0 || 1;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  const sample = read
    .map((entry) => ({ entry, key: random() }))
    .sort((a, b) => a.key - b.key)
    .slice(0, count);
  console.log(`\n${sample.length} random facts read from annotated turns (after), with the observation each covers best (✓ carried):`);
  for (const { entry } of sample) {
    console.log(`${entry.carried ? '✓' : '✗'} ${entry.share.toFixed(2)} ${entry.turn.id} ${entry.turn.speaker}: ${JSON.stringify(entry.turn.text)}`);
    console.log(`    fact: [${entry.fact.topic}] ${entry.fact.content}\n    obs:  ${entry.best?.text}`);
  }
}

/** Every dev message the reader gets wrong, by register: the labels it missed (−) and the facts it read that no label names (+). */
async function printMisses(reader: Reader): Promise<void> {
  for (const corpus of await loadCorpora()) {
    if (corpus.split !== 'dev') continue;
    console.log(`${corpus.name}: messages read otherwise than labelled`);
    for (const entry of corpus.cases) {
      const read = await reader(entry.message, SPOKEN_AT);
      const tally = scoreMessage(read, entry.facts);
      if (tally.strict === tally.expected && tally.read === tally.expected) continue;
      const readKeys = read.map((fact) => factKey(fact.topic, fact.content));
      const expectedKeys = entry.facts.map(expectedKey);
      console.log(`[${entry.register}] ${JSON.stringify(entry.message)}`);
      for (const key of expectedKeys) if (!readKeys.includes(key)) console.log(`    − ${key}`);
      for (const key of readKeys) if (!expectedKeys.includes(key)) console.log(`    + ${key}`);
    }
  }
}

if (process.argv.includes('--misses')) {
  await printMisses(await currentReader());
  process.exit(0);
}

const show = Number(option('--show') ?? 0);
const seed = Number(option('--seed') ?? 1);
const threshold = Number(option('--threshold') ?? MATCH_THRESHOLD);
const baselineRef = process.argv.includes('--no-baseline') ? undefined : (option('--baseline') ?? defaultBaselineRef());

const after = await currentReader();
const baseline = baselineRef === undefined ? undefined : await baselineReader(baselineRef);
try {
  const readers = baseline ? [baseline.reader, after] : [after];
  console.log(baseline ? `before = ${baseline.label}, after = this tree (same scorer, same run)\n` : 'this tree only (--no-baseline)\n');
  await printCorpora(readers);
  const split = await loadLocomo(new URL('../../shared/data/locomo-dev.json.gz', import.meta.url));
  const scores = await scoreLocomo(split, readers, threshold);
  printLocomo(split, scores, await timeLocomo(split, readers), threshold);
  if (show > 0) printSample(scores.at(-1)!.read, show, seed);
} finally {
  baseline?.dispose();
}
