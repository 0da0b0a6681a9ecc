/** The topic model as scripts/train-topic.ts writes it (./topic-model.ts), read by ./classify.ts. */
/** What scripts/train-topic.ts writes: per class the facts and feature occurrences counted, per feature its [class, count] pairs. */
export interface TopicCounts {
  classes: readonly string[];
  /** Facts of each class in the training set. */
  docs: readonly number[];
  /** Feature occurrences of each class. */
  totals: readonly number[];
  /** Laplace smoothing. */
  alpha: number;
  /** Log-odds added to the topic the reader's construction gave. */
  bonus: number;
  /** Log-odds `none` (no durable fact) needs over the construction's topic, on the words either was seen with, for a fact to be dropped as passing. */
  keep: number;
  /** One feature a line: the feature, a tab, then its class and count pairs separated by spaces ("has a\t12 3 11 4"). Word pairs seen once are left out. */
  features: string;
}
