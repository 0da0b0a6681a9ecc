/**
 * Scores the speech reader on its dev corpora: the project's labelled speech corpus
 * (test/extract/speech) and the reader's dev chat corpus (test/extract/dev), per register.
 * Strict: a fact read counts when its topic and normalised text both match an expected one
 * (test/extract/speech/corpus.ts's rule). Loose: the text alone matches, whatever the topic.
 * `npx tsx scripts/score-reader.ts [--misses] [--corpus dev|speech]`. Tune on these only.
 */
import { speechCandidates } from '../src/extract/speech/extractor';
import { DEV } from '../test/extract/dev/index';
import { expectedKey, factKey, LABELLED, SPOKEN_AT, type LabelledCase } from '../test/extract/speech/corpus';

interface Score {
  messages: number;
  read: number;
  expected: number;
  strict: number;
  loose: number;
}

const textOf = (key: string) => key.slice(key.indexOf(': ') + 2);

function score(corpus: readonly LabelledCase[], misses: string[]): Map<string, Score> {
  const registers = new Map<string, Score>();
  for (const entry of corpus) {
    const read = speechCandidates(entry.message, SPOKEN_AT).map((fact) => factKey(fact.topic, fact.content));
    const expected = entry.facts.map(expectedKey);
    const strict = read.filter((key) => expected.includes(key)).length;
    const expectedTexts = expected.map(textOf);
    const loose = read.filter((key) => expectedTexts.includes(textOf(key))).length;
    const s = registers.get(entry.register) ?? { messages: 0, read: 0, expected: 0, strict: 0, loose: 0 };
    registers.set(entry.register, { messages: s.messages + 1, read: s.read + read.length, expected: s.expected + expected.length, strict: s.strict + strict, loose: s.loose + loose });
    if (strict !== read.length || strict !== expected.length) misses.push(`[${entry.register}] ${JSON.stringify(entry.message)}\n    read     ${JSON.stringify(read)}\n    expected ${JSON.stringify(expected)}`);
  }
  return registers;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b).toFixed(3);

function report(name: string, corpus: readonly LabelledCase[], showMisses: boolean): void {
  const misses: string[] = [];
  const registers = score(corpus, misses);
  const total = [...registers.values()].reduce((t, s) => ({ messages: t.messages + s.messages, read: t.read + s.read, expected: t.expected + s.expected, strict: t.strict + s.strict, loose: t.loose + s.loose }));
  const f1 = (2 * total.strict) / (total.read + total.expected);
  console.log(
    `${name}: ${total.messages} messages, ${total.expected} facts: strict P ${ratio(total.strict, total.read)} R ${ratio(total.strict, total.expected)} F1 ${f1.toFixed(3)}; loose P ${ratio(total.loose, total.read)} R ${ratio(total.loose, total.expected)}`,
  );
  for (const [register, s] of registers) {
    console.log(
      `  ${register.padEnd(24)} ${String(s.messages).padStart(3)} msgs ${String(s.expected).padStart(3)} facts  strict P ${ratio(s.strict, s.read)} R ${ratio(s.strict, s.expected)}  loose P ${ratio(s.loose, s.read)} R ${ratio(s.loose, s.expected)}`,
    );
  }
  if (showMisses) console.log(misses.join('\n'));
}

const args = process.argv.slice(2);
const only = args.includes('--corpus') ? args[args.indexOf('--corpus') + 1] : undefined;
if (only !== 'speech') report('dev chat corpus (test/extract/dev)', DEV, args.includes('--misses'));
if (only !== 'dev') report('speech corpus (test/extract/speech)', LABELLED, args.includes('--misses'));
