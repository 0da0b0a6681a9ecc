/**
 * LoCoMo observation recall and precision for a reader: every turn of the dev split read as its
 * speaker's message at its session's date plus one minute per turn (scripts/eval-turns.ts). An
 * annotator's observation of a speaker counts when it cites a turn of that speaker (the few
 * citing only the other speaker's turns cannot come from a reader of the user's own words); it is
 * recalled when a fact read from one of those turns carries it (./eval-extract-observations.ts).
 * Precision: of the facts read from annotated turns, the share carrying an observation of their
 * turn. The split is read from ../shared/data, never copied.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { splitEvidence } from './eval-data';
import { coverage, MATCH_THRESHOLD } from './eval-extract-observations';
import type { ReadFact, Reader } from './eval-extract-score';
import { turnsOf } from './eval-turns';

export interface Observation {
  text: string;
  speaker: string;
}

export interface LocomoTurn {
  id: string;
  speaker: string;
  text: string;
  at: number;
  /** Both speakers' names: removed from an observation's content words. */
  names: readonly string[];
  /** The observations of this turn's speaker that cite it. */
  observations: readonly Observation[];
}

export interface LocomoSplit {
  turns: LocomoTurn[];
  /** Observations citing a turn of their own speaker: recall's denominator. */
  observations: number;
  /** Observations citing only the other speaker's turns, left out. */
  leftOut: number;
}

type Raw = { conversation: Record<string, unknown>; observation: Record<string, Record<string, [string, string | string[]][]>> };

/** Reads the gzipped split and pairs each turn with the observations of its speaker citing it. */
export async function loadLocomo(path: string | URL): Promise<LocomoSplit> {
  const raw = JSON.parse(gunzipSync(await readFile(path)).toString('utf8')) as Raw[];
  const turns: LocomoTurn[] = [];
  let observations = 0;
  let leftOut = 0;
  for (const conversation of raw) {
    const names = [String(conversation.conversation['speaker_a']), String(conversation.conversation['speaker_b'])];
    const byTurn = new Map<string, Observation[]>();
    const own = turnsOf(conversation.conversation);
    const speakerOf = new Map(own.map((turn) => [turn.id, turn.speaker]));
    for (const bySpeaker of Object.values(conversation.observation)) {
      for (const [speaker, list] of Object.entries(bySpeaker)) {
        for (const [text, ids] of list) {
          const cited = splitEvidence(Array.isArray(ids) ? ids : [ids]).filter((id) => speakerOf.get(id) === speaker);
          if (cited.length === 0) {
            leftOut++;
            continue;
          }
          observations++;
          const observation = { text, speaker };
          for (const id of cited) byTurn.set(id, [...(byTurn.get(id) ?? []), observation]);
        }
      }
    }
    for (const turn of own) turns.push({ id: turn.id, speaker: turn.speaker, text: turn.text, at: turn.at, names, observations: byTurn.get(turn.id) ?? [] });
  }
  return { turns, observations, leftOut };
}

/** One fact read from an annotated turn, with the observation of its turn it covers best. */
export interface ReadOnTurn {
  turn: LocomoTurn;
  fact: ReadFact;
  best: Observation | undefined;
  /** The best observation's share of content words in the fact. */
  share: number;
  /** Whether the fact carries some observation of its turn. */
  carried: boolean;
}

export interface LocomoScore {
  turns: number;
  facts: number;
  /** Turns yielding ≥ 1 fact: all, and those an annotator drew an observation from. */
  yielding: number;
  annotatedYielding: number;
  recalled: number;
  /** Facts read from annotated turns, and those carrying an observation of their turn. */
  annotatedFacts: number;
  carrying: number;
  /** Every fact read from an annotated turn (for --show). */
  read: ReadOnTurn[];
}

/** Reads every turn with each of `readers` and scores what each read against the observations (`threshold`: the share of content words). */
export async function scoreLocomo(split: LocomoSplit, readers: readonly Reader[], threshold = MATCH_THRESHOLD): Promise<LocomoScore[]> {
  const scores = readers.map(() => ({ recalled: new Set<Observation>(), read: [] as ReadOnTurn[], facts: 0, yielding: 0, annotatedYielding: 0, carrying: 0 }));
  for (const turn of split.turns) {
    for (const [i, reader] of readers.entries()) {
      const score = scores[i]!;
      const found = await reader(turn.text, turn.at);
      score.facts += found.length;
      if (found.length > 0) {
        score.yielding++;
        if (turn.observations.length > 0) score.annotatedYielding++;
      }
      for (const fact of found) {
        if (turn.observations.length === 0) continue;
        let best: Observation | undefined;
        let bestShare = 0;
        let carried = false;
        for (const observation of turn.observations) {
          const match = coverage(observation.text, fact.content, turn.names, threshold);
          if (match.carried) score.recalled.add(observation);
          carried ||= match.carried;
          if (match.share > bestShare || !best) [best, bestShare] = [observation, match.share];
        }
        if (carried) score.carrying++;
        score.read.push({ turn, fact, best, share: bestShare, carried });
      }
    }
  }
  return scores.map((score) => ({
    turns: split.turns.length,
    facts: score.facts,
    yielding: score.yielding,
    annotatedYielding: score.annotatedYielding,
    recalled: score.recalled.size,
    annotatedFacts: score.read.length,
    carrying: score.carrying,
    read: score.read,
  }));
}

/**
 * Each reader's ms per turn over every turn of the split: `rounds` timed passes per reader, the
 * readers' order reversed each round, the median kept, so neither is timed on a colder process
 * or a busier moment of a shared machine than the other.
 */
export async function timeLocomo(split: LocomoSplit, readers: readonly Reader[], rounds = 3): Promise<number[]> {
  const times = readers.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = readers.map((_, i) => (round % 2 ? readers.length - 1 - i : i));
    for (const i of order) {
      const began = performance.now();
      for (const turn of split.turns) await readers[i]!(turn.text, turn.at);
      times[i]!.push((performance.now() - began) / split.turns.length);
    }
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}
