/**
 * The topic of a fact the reader wrote, decided by a small learned model (multinomial naive
 * Bayes over the fact's words, word pairs and predicate head; trained by scripts/train-topic.ts,
 * its counts in ./topic-model.ts) together with the topic the reader's construction gave it:
 * the construction's topic gets a prior bonus, so the model overrides it only when the fact's
 * words say otherwise clearly ("has a beagle" is pets, not possession; "went pescatarian" is
 * diet, not an event). The model has one more class than the vocabulary, `none`: what the
 * reader read but is no durable fact (a passing remark, "burned the toast this morning").
 */
import type { Topic } from '../topics';
import type { TopicCounts } from './topic-counts';
import { TOPIC_MODEL } from './topic-model';

/** The model's classes: the topics, and `none` (no durable fact). */
export type TopicClass = Topic | 'none';

/** The model's features of a fact sentence: its words after "The user", word pairs, and the predicate's head. */
export function featuresOf(content: string): string[] {
  const words = content
    .toLowerCase()
    .replace(/^the user(?:'s| and their| and others)?\s+/, '')
    .match(/[\p{L}\p{N}]+/gu);
  if (words === null) return [];
  const features = [`^${words[0]}`, ...words];
  for (let i = 1; i < words.length; i++) features.push(`${words[i - 1]} ${words[i]}`);
  return features;
}

export interface TopicModel {
  classes: readonly TopicClass[];
  /** Log prior of each class. */
  prior: Float64Array;
  /** For each known feature, the log-probability under each class. */
  logp: Map<string, Float64Array>;
  bonus: number;
}

/** Counts to log-probabilities (Laplace smoothing). */
export function modelOf(counts: TopicCounts): TopicModel {
  const { classes, docs, totals, alpha, bonus, features } = counts;
  const rows = features === '' ? [] : features.split('\n');
  const vocabulary = rows.length;
  const docSum = docs.reduce((a, b) => a + b, 0);
  const prior = Float64Array.from(docs, (n) => Math.log((n + 1) / (docSum + classes.length)));
  const unseen = Float64Array.from(totals, (n) => Math.log(alpha / (n + alpha * vocabulary)));
  const logp = new Map<string, Float64Array>();
  for (const line of rows) {
    const tab = line.indexOf('\t');
    const feature = line.slice(0, tab);
    const pairs = line
      .slice(tab + 1)
      .split(' ')
      .map(Number);
    const row = Float64Array.from(unseen);
    for (let k = 0; k < pairs.length; k += 2) {
      const c = pairs[k]!;
      row[c] = Math.log((pairs[k + 1]! + alpha) / (totals[c]! + alpha * vocabulary));
    }
    logp.set(feature, row);
  }
  return { classes: classes as readonly TopicClass[], prior, logp, bonus };
}

/** The class `model` gives a fact the reader wrote under `ruleTopic`, the reader's topic favoured by the model's bonus. */
export function classifyWith(model: TopicModel, content: string, ruleTopic: Topic): TopicClass {
  if (!GUESSED.has(ruleTopic)) return ruleTopic;
  const scores = Float64Array.from(model.prior);
  for (const feature of featuresOf(content)) {
    const row = model.logp.get(feature);
    if (row === undefined) continue;
    for (let c = 0; c < scores.length; c++) scores[c]! += row[c]!;
  }
  let best = model.classes.indexOf(ruleTopic);
  if (best >= 0) scores[best]! += model.bonus;
  else best = 0;
  for (let c = 0; c < scores.length; c++) if (scores[c]! > scores[best]!) best = c;
  return model.classes[best]!;
}

/**
 * The topics the reader gives by default rather than by a construction that names the topic:
 * what one has (possession), did (event), likes or does (preference, hobby), and the rest
 * (general). Only these does the model revisit; "lives in" is home and "I'm 34" an age whatever
 * the words after them.
 */
const GUESSED: ReadonlySet<Topic> = new Set(['possession', 'event', 'hobby', 'preference', 'general']);

let model: TopicModel | undefined;

/** The class of a fact the reader wrote under `ruleTopic` (the committed model, loaded on the first call). */
export function classify(content: string, ruleTopic: Topic): TopicClass {
  model ??= modelOf(TOPIC_MODEL);
  return classifyWith(model, content, ruleTopic);
}
