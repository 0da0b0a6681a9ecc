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
import { KEPT_ANIMALS } from './animals';
import { CONDITIONS, DIETS, EVERYDAY, HEALTH_STATES, JOBS, LANGUAGES, PETS, pluralsOf, RELATIONSHIP_STATES, RELATIVES, RELIGIONS } from './lexicon';
import type { TopicCounts } from './topic-counts';
import { TOPIC_MODEL } from './topic-model';

/** The model's classes: the topics, and `none` (no durable fact). */
export type TopicClass = Topic | 'none';

/**
 * The reader's word lists as classes of meaning (pets with WordNet's kept animals, ./animals.ts):
 * a word in one also gives its class as a feature, so what the model learns of "beagle" or "cousin" it applies to every word of the list,
 * seen in training or not.
 */
const CATEGORIES: readonly [Iterable<string>, string][] = [
  [[...PETS, ...KEPT_ANIMALS].flatMap((w) => [w, ...pluralsOf(w)]), '@animal'],
  [RELATIVES, '@relative'],
  [LANGUAGES, '@language'],
  [RELIGIONS, '@faith'],
  [CONDITIONS, '@condition'],
  [HEALTH_STATES, '@condition'],
  [RELATIONSHIP_STATES, '@partnership'],
  [JOBS, '@job'],
  [DIETS, '@diet'],
  [[...EVERYDAY].flatMap((w) => [w, ...pluralsOf(w)]), '@everyday'],
];

let categoryIndex: Map<string, string[]> | undefined;

/** Each listed word's classes, built on the first call: one lookup a word. */
function categoriesOf(word: string): readonly string[] | undefined {
  if (categoryIndex === undefined) {
    categoryIndex = new Map();
    for (const [words, category] of CATEGORIES) {
      for (const w of words) {
        const classes = categoryIndex.get(w) ?? [];
        if (!classes.includes(category)) classes.push(category);
        categoryIndex.set(w, classes);
      }
    }
  }
  return categoryIndex.get(word);
}

/**
 * A resolved time (./when.ts) as its span, one word: "on 8 May 2023" is `@day`, "in the week of
 * 1 May 2023" `@week`, "on the weekend of …" `@weekend`, "in April 2023" `@month`, "in 2022"
 * `@year`. The model learns how long ago counts, not which date.
 */
const SPANS: readonly [RegExp, string][] = [
  [/\bon the weekend of \d{1,2} [a-z]+ \d{4}\b/g, ' @weekend '],
  [/\bin the week of \d{1,2} [a-z]+ \d{4}\b/g, ' @week '],
  [/\bon \d{1,2} [a-z]+ \d{4}\b/g, ' @day '],
  [/\bin (?:january|february|march|april|may|june|july|august|september|october|november|december) \d{4}\b/g, ' @month '],
  [/\bin \d{4}\b/g, ' @year '],
];

/** The model's features of a fact sentence: its words after "The user" and their classes (a resolved time as its span), word pairs, and the predicate's head. */
export function featuresOf(content: string): string[] {
  // A user's own "@" is cut off first, so only a span reads as one.
  let text = content
    .toLowerCase()
    .replace(/^the user(?:'s| and their| and others)?\s+/, '')
    .replaceAll('@', ' ');
  for (const [span, word] of SPANS) text = text.replace(span, word);
  const words = text.match(/@?[\p{L}\p{N}]+/gu);
  if (words === null) return [];
  const features = [`^${words[0]}`];
  for (const word of words) {
    features.push(word);
    const classes = categoriesOf(word);
    if (classes !== undefined) features.push(...classes);
  }
  for (let i = 1; i < words.length; i++) features.push(`${words[i - 1]} ${words[i]}`);
  return features;
}

export interface TopicModel {
  classes: readonly TopicClass[];
  /** Log prior of each class. */
  prior: Float64Array;
  /** For each known feature, the log-probability under each class. */
  logp: Map<string, Float64Array>;
  /** The log-probability of a known feature under a class that never had it. */
  unseen: Float64Array;
  /** Log-odds added to the topic the reader's construction gave. */
  bonus: number;
  /** Log-odds `none` needs over the construction's topic for a fact to be dropped as passing. */
  keep: number;
}

/** Counts to log-probabilities (Laplace smoothing). */
export function modelOf(counts: TopicCounts): TopicModel {
  const { classes, docs, totals, alpha, bonus, keep, features } = counts;
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
  return { classes: classes as readonly TopicClass[], prior, logp, unseen, bonus, keep };
}

/** Heads of a fact that say a habit or state began or ended ("stopped drinking coffee"): a change of mind is never passing. */
const CHANGES: ReadonlySet<string> = new Set(['^stopped', '^quit', '^started', '^began', '^gave', '^switched', '^no', '^used']);

/** Words of grammar: they say how a fact is put, not whether what it tells lasts. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  'a an the some any this that these those my your his her its our their them they it and or but so to of in on at for from with by about into as is are was were be been has have had do did not no'.split(' '),
);

/** The log-odds a word needs for `none` over the kept class to count as a sign of a passing remark: seen at least twice as often with one. */
const PASSING_SIGN = Math.log(2);

/**
 * Whether a fact the reader wrote under the class `kept` is a passing remark rather than a
 * durable fact: `none` against `kept` on the words either was seen with (a word seen with neither
 * says nothing of this choice, and would only favour the class with fewer words in training),
 * `kept` given the model's keep margin. Weighed only when the fact names an everyday thing (a
 * meal, a chore, the commute), or is of the same day and has a word of its own the model saw
 * with passing remarks ("slept badly"): when it happened alone makes no remark passing. The
 * prior and the words of grammar had dropped every dated event whose words the model never saw
 * ("went to a pride parade on 11 August 2023").
 */
function passing(model: TopicModel, features: readonly string[], kept: number): boolean {
  const none = model.classes.indexOf('none');
  if (none < 0 || kept < 0) return false;
  const signed = (feature: string) => {
    const row = model.logp.get(feature);
    return row !== undefined && /^[\p{L}\p{N}]+$/u.test(feature) && !FUNCTION_WORDS.has(feature) && row[none]! - row[kept]! >= PASSING_SIGN;
  };
  if (!features.includes('@everyday') && !(features.includes('@day') && features.some(signed))) return false;
  let odds = model.prior[none]! - model.prior[kept]!;
  for (const feature of features) {
    const row = model.logp.get(feature);
    if (row === undefined || (row[none] === model.unseen[none] && row[kept] === model.unseen[kept])) continue;
    odds += row[none]! - row[kept]!;
  }
  return odds > model.keep;
}

/** The class `model` gives a fact the reader wrote under `ruleTopic`, the reader's topic favoured by the model's bonus. */
export function classifyWith(model: TopicModel, content: string, ruleTopic: Topic): TopicClass {
  if (!GUESSED.has(ruleTopic)) return ruleTopic;
  const scores = Float64Array.from(model.prior);
  const features = featuresOf(content);
  for (const feature of features) {
    const row = model.logp.get(feature);
    if (row === undefined) continue;
    for (let c = 0; c < scores.length; c++) scores[c]! += row[c]!;
  }
  // Durable or passing first, with its own margin; then the topic.
  let best = model.classes.indexOf(ruleTopic);
  // Only what happened can be passing: what one has, likes or does is a state or a habit.
  if (ruleTopic === 'event' && !CHANGES.has(features[0]!) && passing(model, features, best)) return 'none';
  const none = model.classes.indexOf('none');
  if (best >= 0) scores[best]! += model.bonus;
  else best = 0;
  for (let c = 0; c < scores.length; c++) if (c !== none && scores[c]! > scores[best]!) best = c;
  // A topic the model may not give leaves the reader's: its words said nothing the model knows.
  return eligible(model.classes[best]!, features) ? model.classes[best]! : ruleTopic;
}

/**
 * The topics only a construction gives: a name, pronouns, an age, a birthday, an allergy, where
 * the user lives and where they are from are said in words the reader reads for them ("my name
 * is", "I'm 34", "allergic to", "I live in", "I'm from"). The model never moves a fact into one:
 * "is … to" read as allergy and "is …ing" as age when the words between were ones it had never
 * seen ("I'm excited to work hard", "running late"), and those topics weigh most in the profile.
 */
const NAMED: ReadonlySet<TopicClass> = new Set(['identity', 'pronouns', 'age', 'birthday', 'allergy', 'home', 'origin']);

/** The topics of a word class: the model moves a fact into one only when a word of the fact is of that class ("a season pass" names no animal, so it is no pet). */
const NEEDS: Readonly<Partial<Record<TopicClass, string>>> = {
  pets: '@animal',
  family: '@relative',
  language: '@language',
  belief: '@faith',
  health: '@condition',
  relationship: '@partnership',
  occupation: '@job',
  diet: '@diet',
};

/** Whether the model may move a fact with `features` into `topic`. */
function eligible(topic: TopicClass, features: readonly string[]): boolean {
  if (NAMED.has(topic)) return false;
  const needs = NEEDS[topic];
  return needs === undefined || features.includes(needs);
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
