/**
 * Trains the speech reader's topic model (src/extract/speech/classify.ts) and writes its counts
 * to src/extract/speech/topic-model.ts. Deterministic: the same corpora give the same file.
 *
 * Training facts, all from the dev side (never the validation corpus):
 * - every expected fact of the labelled speech corpus (test/extract/speech) and the reader's
 *   dev chat corpus (test/extract/dev), under its labelled topic;
 * - every fact the reader (with its constructions' topics) reads from a message of those
 *   corpora labelled with no fact at all, under `none`;
 * - the reader's lexicon, each word alone under its list's topic (pets, family, health, diet,
 *   language, occupation, belief, relationship).
 * The smoothing and the bonus the reader's own topic gets are chosen by 5-fold cross-validation
 * over the messages (strict F1 of the whole reader, folds by message index; settings within
 * 0.001 of the best are a tie, broken by the dev chat corpus's F1).
 *
 * The features (src/extract/speech/classify.ts) add each word's class from the reader's lists
 * and WordNet's kept animals ("@animal").
 *
 * `npx tsx scripts/train-topic.ts` (add `--dry` to print the folds' scores and write nothing).
 */
import { writeFileSync } from 'node:fs';
import { featuresOf, modelOf, classifyWith } from '../src/extract/speech/classify';
import { speechCandidates } from '../src/extract/speech/extractor';
import { CONDITIONS, DIETS, JOBS, LANGUAGES, PETS, RELATIONSHIP_STATES, RELATIVES, RELIGIONS } from '../src/extract/speech/lexicon';
import type { TopicCounts } from '../src/extract/speech/topic-counts';
import { SEED_RULES } from '../src/extract/rules';
import { TOPICS, type Topic } from '../src/extract/topics';
import { DEV } from '../test/extract/dev/index';
import { expectedKey, factKey, LABELLED, SPOKEN_AT, type LabelledCase } from '../test/extract/speech/corpus';

const CLASSES: readonly string[] = [...TOPICS, 'none'];
const FOLDS = 5;

interface Example {
  content: string;
  label: string;
}

interface Message {
  expected: string[];
  /** What the reader reads with its constructions' topics. */
  raw: { topic: Topic; content: string }[];
  examples: Example[];
}

function messagesOf(corpus: readonly LabelledCase[]): Message[] {
  return corpus.map((entry) => {
    const raw = speechCandidates(entry.message, SPOKEN_AT, SEED_RULES, false).map(({ topic, content }) => ({ topic: topic as Topic, content }));
    const examples: Example[] = entry.facts.map((fact) => {
      const colon = fact.indexOf(': ');
      return { content: fact.slice(colon + 2), label: fact.slice(0, colon) };
    });
    if (entry.facts.length === 0) for (const read of raw) examples.push({ content: read.content, label: 'none' });
    return { expected: entry.facts.map(expectedKey), raw, examples };
  });
}

/** The lexicon's words, each alone as a fact of its list's topic: a word the corpora never used still has its topic, and no sentence frame is learned from them. */
function lexiconExamples(): Example[] {
  const lists: [ReadonlySet<string>, Topic][] = [
    [PETS, 'pets'],
    [RELATIVES, 'family'],
    [CONDITIONS, 'health'],
    [DIETS, 'diet'],
    [LANGUAGES, 'language'],
    [JOBS, 'occupation'],
    [RELIGIONS, 'belief'],
    [RELATIONSHIP_STATES, 'relationship'],
  ];
  return lists.flatMap(([list, label]) => [...list].sort().map((w) => ({ content: `The user ${w}`, label })));
}

function countsOf(examples: readonly Example[], alpha: number, bonus: number, keep: number): TopicCounts {
  const docs = CLASSES.map(() => 0);
  const totals = CLASSES.map(() => 0);
  const table = new Map<string, number[]>();
  for (const { content, label } of examples) {
    const c = CLASSES.indexOf(label);
    if (c < 0) throw new Error(`unknown topic ${label} in ${content}`);
    docs[c]!++;
    for (const feature of featuresOf(content)) {
      const row = table.get(feature) ?? CLASSES.map(() => 0);
      row[c]!++;
      totals[c]!++;
      table.set(feature, row);
    }
  }
  // A word pair seen once says little and would be most of the file: left out (the totals keep its count).
  const lines: string[] = [];
  for (const feature of [...table.keys()].sort()) {
    const row = table.get(feature)!;
    if (feature.includes(' ') && row.reduce((a, b) => a + b, 0) < 2) continue;
    lines.push(`${feature}\t${row.flatMap((n, c) => (n > 0 ? [c, n] : [])).join(' ')}`);
  }
  return { classes: CLASSES, docs, totals, alpha, bonus, keep, features: lines.join('\n') };
}

interface Tally {
  read: number;
  expected: number;
  hit: number;
}

function scoreWith(counts: TopicCounts, messages: readonly Message[], into: Tally): void {
  const model = modelOf(counts);
  for (const message of messages) {
    const read: string[] = [];
    for (const fact of message.raw) {
      const topic = classifyWith(model, fact.content, fact.topic);
      if (topic !== 'none') read.push(factKey(topic, fact.content));
    }
    const unique = [...new Set(read)];
    into.read += unique.length;
    into.expected += message.expected.length;
    into.hit += unique.filter((key) => message.expected.includes(key)).length;
  }
}

const f1 = (t: Tally) => (2 * t.hit) / (t.read + t.expected);

function crossValidate(corpora: readonly Message[][], lexicon: readonly Example[], alpha: number, bonus: number, keep: number): Tally[] {
  const tallies = corpora.map(() => ({ read: 0, expected: 0, hit: 0 }));
  for (let fold = 0; fold < FOLDS; fold++) {
    const train = [...lexicon, ...corpora.flatMap((corpus) => corpus.filter((_, i) => i % FOLDS !== fold).flatMap((m) => m.examples))];
    const counts = countsOf(train, alpha, bonus, keep);
    corpora.forEach((corpus, k) =>
      scoreWith(
        counts,
        corpus.filter((_, i) => i % FOLDS === fold),
        tallies[k]!,
      ),
    );
  }
  return tallies;
}

/** The text of src/extract/speech/topic-model.ts for the given smoothing, bonus and keep margin, trained on every dev fact. */
export function modelText(alpha: number, bonus: number, keep: number): string {
  const corpora = [messagesOf(LABELLED), messagesOf(DEV)];
  const counts = countsOf([...lexiconExamples(), ...corpora.flatMap((corpus) => corpus.flatMap((m) => m.examples))], alpha, bonus, keep);
  return `// Generated by scripts/train-topic.ts from the dev corpora: do not edit.\nimport type { TopicCounts } from './topic-counts';\n\nexport const TOPIC_MODEL: TopicCounts = ${JSON.stringify(counts)};\n`;
}

/** Chooses the smoothing, bonus and keep margin by cross-validation, printing each setting's scores. */
function tune(): { alpha: number; bonus: number; keep: number } {
  const corpora = [messagesOf(LABELLED), messagesOf(DEV)];
  const lexicon = lexiconExamples();
  let best = { alpha: 1, bonus: 0, keep: 0, f1: -1, dev: -1 };
  for (const alpha of [0.1, 0.3])
    for (const bonus of [0, 2, 4, 8, 1000])
      for (const keep of [-2, 0, 2, 4, 1000]) {
        const tallies = crossValidate(corpora, lexicon, alpha, bonus, keep);
        const all = tallies.reduce((a, t) => ({ read: a.read + t.read, expected: a.expected + t.expected, hit: a.hit + t.hit }));
        const [speech, dev] = tallies as [Tally, Tally];
        console.log(
          `alpha ${alpha} bonus ${bonus} keep ${keep}: speech P ${(speech.hit / speech.read).toFixed(3)} R ${(speech.hit / speech.expected).toFixed(3)}  dev P ${(dev.hit / dev.read).toFixed(3)} R ${(dev.hit / dev.expected).toFixed(3)} F1 ${f1(dev).toFixed(3)}  both F1 ${f1(all).toFixed(3)}`,
        );
        // Within 0.001 of the best is a tie, broken by the chat corpus (the one the constructions were not written from).
        if (f1(all) > best.f1 + 0.001 || (f1(all) >= best.f1 - 0.001 && f1(dev) > best.dev)) best = { alpha, bonus, keep, f1: f1(all), dev: f1(dev) };
      }
  console.log(`chosen: alpha ${best.alpha}, bonus ${best.bonus}, keep ${best.keep} (cross-validated F1 ${best.f1.toFixed(3)})`);
  return best;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { alpha, bonus, keep } = tune();
  if (!process.argv.includes('--dry')) {
    writeFileSync(new URL('../src/extract/speech/topic-model.ts', import.meta.url), modelText(alpha, bonus, keep));
    console.log('wrote src/extract/speech/topic-model.ts');
  }
}
