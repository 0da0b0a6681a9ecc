/**
 * The working set's memories by slot (slot.ts), for the look-up its sweep makes per candidate:
 * the memories whose slot meets a slot ({@link slotsMeet}: one family, the words of one within
 * the other's), on either side or on one. A walk of every memory holding one of the slot's words
 * read the whole call for a batch of alike facts ("loves their dog number 7": every one fills
 * "dog number"); here the memories holding every word of the slot are read from the smallest of
 * its words' sets, and those whose words are all among its words from the sets of exactly those
 * words, one look-up per subset of them. A side is kept apart, so the policy's look-up of the
 * other side (what changes the user's mind, slot.ts `changesMind`) does not read a slot's many
 * restatements of the same side.
 */
import { slotsMeet, slotWords } from './slot';

/** What the index holds: a slot key ({@link anySlotKey}, '' for none) and its side (slot.ts `Slot`). */
export interface Slotted {
  slot: string;
  polarity: 1 | -1;
}

/** The most words of a slot whose every subset is looked up: 2^10 look-ups; past it, every word's memories are read. */
const MAX_SUBSET_WORDS = 10;

export class SlotIndex<T extends Slotted> {
  /** Side and slot word (family:word, {@link slotWords}) → the memories holding it. */
  private readonly byWord = new Map<string, Set<T>>();
  /** Side and slot family with its set of words ({@link wordSetKey}) → the memories of exactly those words. */
  private readonly bySet = new Map<string, Set<T>>();

  add(entry: T): void {
    if (entry.slot === '') return;
    for (const key of this.keysOf(entry)) (this.byWord.get(key) ?? this.byWord.set(key, new Set()).get(key)!).add(entry);
    const set = side(entry.polarity, wordSetKey(entry.slot));
    (this.bySet.get(set) ?? this.bySet.set(set, new Set()).get(set)!).add(entry);
  }

  /** Leaves `entry` out of later look-ups (an emptied set stays: a later memory of the key takes it again). */
  remove(entry: T): void {
    if (entry.slot === '') return;
    for (const key of this.keysOf(entry)) this.byWord.get(key)?.delete(entry);
    this.bySet.get(side(entry.polarity, wordSetKey(entry.slot)))?.delete(entry);
  }

  /** The memories on `sides` whose slot meets `slot` (none for ''), in no order. */
  meeting(slot: string, sides: readonly (1 | -1)[] = [1, -1]): Set<T> {
    const found = new Set<T>();
    if (slot === '') return found;
    const [family, words] = familyWords(slot);
    for (const polarity of sides) {
      const keys = slotWords(slot).map((key) => side(polarity, key));
      // Those holding every word of the slot are in each word's set: the smallest is read.
      let fewest: Set<T> | undefined;
      for (const key of keys) {
        const holders = this.byWord.get(key) ?? new Set<T>();
        if (fewest === undefined || holders.size < fewest.size) fewest = holders;
      }
      const within = words.length <= MAX_SUBSET_WORDS ? subsets(words).map((part) => this.bySet.get(side(polarity, `${family}:${part.join(' ')}`))) : keys.map((key) => this.byWord.get(key));
      for (const set of [fewest, ...within]) {
        for (const entry of set ?? []) if (slotsMeet(entry.slot, slot)) found.add(entry);
      }
    }
    return found;
  }

  private keysOf(entry: T): string[] {
    return slotWords(entry.slot).map((key) => side(entry.polarity, key));
  }
}

function side(polarity: 1 | -1, key: string): string {
  return `${polarity > 0 ? '+' : '-'}${key}`;
}

/** A slot key's family and its words, once each and sorted, as {@link slotsMeet} reads them. */
function familyWords(slot: string): [string, string[]] {
  const [family = '', about = ''] = slot.split(':');
  return [family, [...new Set(about.split(' '))].sort()];
}

/** A slot key's family and its set of words: equal for the same words in any order or repeated. */
function wordSetKey(slot: string): string {
  const [family, words] = familyWords(slot);
  return `${family}:${words.join(' ')}`;
}

/** Every non-empty subset of `words`, each in the order of `words`. */
function subsets(words: readonly string[]): string[][] {
  const all: string[][] = [];
  for (let mask = 1; mask < 1 << words.length; mask++) all.push(words.filter((_, i) => (mask >> i) & 1));
  return all;
}
