/**
 * Episodic memory: a user turn with personal content is kept as an episode beside the facts
 * extracted from it, so what the user told about their life stays retrievable in their own
 * words even when no extractor rule read a fact from it. An episode is an ordinary memory on the
 * reserved topic {@link EPISODE_TOPIC}: its content is the turn's text (bounded), its source
 * and time are the turn's, and it is scored on the same scale as facts with a lower prior
 * (importance) and a shorter half-life.
 *
 * The rule is independent of the extractor (rules or an LLM): episodes come from the stored
 * user messages through the same write path, so a replay rebuilds them exactly. Defended like
 * facts: a turn that carries instructions, role markers or a reserved name yields none, and
 * only the user's own first-person statements count as personal (./small-talk.ts).
 */
import { instructionSignal } from '../defences';
import { claimsReservedName } from '../names';
import type { Candidate, ChatMessage } from '../schema';
import { sameFactKey } from '../text';
import { framing } from './framed';
import { isPersonal } from './small-talk';

import { EPISODE_TOPIC } from '../extract/topics';

export { EPISODE_TOPIC, isEpisode } from '../extract/topics';
/** Longest episode text: a longer turn is cut at a word boundary and ends with "…". */
export const MAX_EPISODE_LENGTH = 1_000;
/**
 * The episode prior and decay, tuned on the LoCoMo dev split (docs/eval.md, "Episodes"): below a
 * fact's default importance (0.5) and half-life (180 days), so of two memories equally relevant
 * to a query the fact ranks first and an old episode fades sooner.
 */
export const EPISODE_IMPORTANCE = 0.3;
export const EPISODE_HALF_LIFE_DAYS = 120;
/** That the user said it is certain; the source's trust caps it when applied. */
const EPISODE_CONFIDENCE = 0.9;

/** The turn's text as an episode keeps it: whitespace runs folded to one space, cut to `max` characters on a word boundary. */
export function episodeText(text: string, max = MAX_EPISODE_LENGTH): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (folded.length <= max) return folded;
  const cut = folded.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  // A cut inside a surrogate pair would leave half a character.
  const head = (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\uD800-\uDBFF]$/, '');
  return `${head.trimEnd()}…`;
}

/**
 * Whether a user turn is kept as an episode: a durable statement of the user's own (./small-talk.ts),
 * nothing hostile in it (the defences that screen facts), and not a joke, role-play or text
 * handed over to be edited (./framed.ts).
 */
export function keepsEpisode(text: string): boolean {
  return instructionSignal(text) === undefined && !claimsReservedName(text) && framing(text) === undefined && isPersonal(text);
}

/** The episodes of a conversation's user messages, in order; a turn said twice in it is one. */
export function episodeCandidates(userMessages: readonly ChatMessage[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const message of userMessages) {
    if (!keepsEpisode(message.content)) continue;
    const content = episodeText(message.content);
    const key = sameFactKey(content);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ content, topic: EPISODE_TOPIC, confidence: EPISODE_CONFIDENCE, excerpt: content, importance: EPISODE_IMPORTANCE, halfLifeDays: EPISODE_HALF_LIFE_DAYS });
  }
  return out;
}
