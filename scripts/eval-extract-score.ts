/**
 * How `npm run eval:extract` scores a reader on a labelled corpus (`LabelledCase`): the matching
 * rule of test/extract/speech.test.ts (`factKey`: same topic, same fact text lower-cased with
 * every run of other characters one space), called "strict", and the same rule on the words
 * alone, "loose" (the topic left out). Each expected fact is matched at most once.
 */
import { expectedKey, factKey, type LabelledCase } from '../test/extract/speech/corpus';

/** A fact as a reader returns it. */
export interface ReadFact {
  topic: string;
  content: string;
}

/** The reader under test: the facts of one user message said at `at`. */
export type Reader = (message: string, at: number) => Promise<readonly ReadFact[]>;

/** Counts over a set of messages: facts expected, facts read, and read facts matching an expected one. */
export interface Tally {
  messages: number;
  expected: number;
  read: number;
  strict: number;
  loose: number;
}

export const emptyTally = (): Tally => ({ messages: 0, expected: 0, read: 0, strict: 0, loose: 0 });

export function addTally(into: Tally, add: Tally): void {
  into.messages += add.messages;
  into.expected += add.expected;
  into.read += add.read;
  into.strict += add.strict;
  into.loose += add.loose;
}

/** A key with its topic cut off: the loose rule's key. */
export function wordsOf(key: string): string {
  return key.slice(key.indexOf(': ') + 2);
}

/** How many of `read` match a key of `expected`, each expected key used at most once (a fact read twice counts once). */
export function countMatches(read: readonly string[], expected: readonly string[]): number {
  const left = new Map<string, number>();
  for (const key of expected) left.set(key, (left.get(key) ?? 0) + 1);
  let hits = 0;
  for (const key of read) {
    const remaining = left.get(key) ?? 0;
    if (remaining > 0) {
      hits++;
      left.set(key, remaining - 1);
    }
  }
  return hits;
}

/** The tally of one message: what was read from it against its labels (`'topic: The user …'`). */
export function scoreMessage(read: readonly ReadFact[], labels: readonly string[]): Tally {
  const readKeys = read.map((fact) => factKey(fact.topic, fact.content));
  const expectedKeys = labels.map(expectedKey);
  return {
    messages: 1,
    expected: expectedKeys.length,
    read: readKeys.length,
    strict: countMatches(readKeys, expectedKeys),
    loose: countMatches(readKeys.map(wordsOf), expectedKeys.map(wordsOf)),
  };
}

/** Every case read by `reader` at `at`, tallied per register (in first-seen order). */
export async function scoreCorpus(cases: readonly LabelledCase[], reader: Reader, at: number): Promise<Map<string, Tally>> {
  const registers = new Map<string, Tally>();
  for (const entry of cases) {
    const tally = registers.get(entry.register) ?? emptyTally();
    addTally(tally, scoreMessage(await reader(entry.message, at), entry.facts));
    registers.set(entry.register, tally);
  }
  return registers;
}

/** The sum of a per-register map. */
export function totalOf(registers: ReadonlyMap<string, Tally>): Tally {
  const total = emptyTally();
  for (const tally of registers.values()) addTally(total, tally);
  return total;
}

export interface Rates {
  precision: number;
  recall: number;
  f1: number;
}

/** Precision, recall and F1 of `hits` among `read` against `expected`; NaN where a ratio has no denominator. */
export function rates(hits: number, read: number, expected: number): Rates {
  const precision = read ? hits / read : Number.NaN;
  const recall = expected ? hits / expected : Number.NaN;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : Number.NaN;
  return { precision, recall, f1 };
}
