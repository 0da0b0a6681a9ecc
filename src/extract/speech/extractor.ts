/**
 * The default offline extractor: the seed's five rules, then the speech reader for everything
 * else a user says of themselves (see ./read.ts). A clause a seed rule matched is the seed's:
 * its fact keeps the seed's wording and topic. Every fact passes the same defences as the
 * seed's: nothing from a message that carries instructions, nothing from quoted or reported
 * speech (src/defences.ts), nothing the user denies having said (./denial.ts).
 */
import { instructionSignal, normalizeApostrophes, ownStatementCheck } from '../../defences';
import type { ChatMessage } from '../../schema';
import type { ExtractedFact, Extractor, ExtractContext } from '../extractor';
import { ruleCandidates, sentenceAround, SEED_RULES, type Rule } from '../rules';
import { TOPIC_HALF_LIFE_DAYS, TOPIC_IMPORTANCE } from './weights';
import { classify } from './classify';
import { deniedSaying } from './denial';
import { factsOfClause } from './read';
import { clausesOfMessage } from './tokens';

/**
 * Candidates from one message's text (as typed) at time `at`: the seed rules' and the speech
 * reader's. The reader's topics are decided with the learned model (./classify.ts), which also
 * drops what is no durable fact; `learned: false` keeps the constructions' topics (the training
 * script reads them so).
 */
export function speechCandidates(content: string, at: number | undefined, rules: readonly Rule[] = SEED_RULES, learned = true): ExtractedFact[] {
  const text = normalizeApostrophes(content);
  if (instructionSignal(text) !== undefined) return [];
  const ownCheck = ownStatementCheck(text);
  const notOwn = (start: number, end: number) => (deniedSaying(text, start) ? 'denied saying' : ownCheck(start, end));
  const seed = ruleCandidates(rules, content, text, notOwn);
  const spans = seed.spans;
  const candidates: ExtractedFact[] = seed.candidates.map((candidate) => ({ ...candidate, importance: candidate.importance ?? 0.5, halfLifeDays: candidate.halfLifeDays ?? 180 }));
  const seen = new Set(candidates.map((candidate) => `${candidate.topic}\u0000${candidate.content.toLowerCase()}`));
  // Clauses come in order: one pointer walks the sorted spans, so a message with a rule match
  // every few words costs each clause a constant, not a scan of every span.
  spans.sort((a, b) => a[0] - b[0]);
  let next = 0;
  for (const clause of clausesOfMessage(text)) {
    const first = clause.tokens[0];
    const last = clause.tokens.at(-1);
    if (first === undefined || last === undefined) continue;
    while (next < spans.length && spans[next]![1] <= first.start) next++;
    if (next < spans.length && spans[next]![0] < last.end) continue;
    for (const draft of factsOfClause(clause, at)) {
      const start = clause.tokens[draft.first]!.start;
      const end = clause.tokens[draft.last]!.end;
      if (notOwn(start, end) !== undefined) continue;
      const topic = learned ? classify(draft.content, draft.topic) : draft.topic;
      if (topic === 'none') continue;
      const key = `${topic}\u0000${draft.content.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push({
        content: draft.content,
        topic,
        confidence: draft.confidence,
        excerpt: sentenceAround(content, start, end),
        importance: TOPIC_IMPORTANCE[topic],
        halfLifeDays: TOPIC_HALF_LIFE_DAYS[topic],
      });
    }
  }
  return candidates;
}

/** The candidates of every message of one ingest. */
export function speechExtract(messages: readonly Pick<ChatMessage, 'content'>[], context: Pick<ExtractContext, 'at'>): ExtractedFact[] {
  return messages.flatMap((message) => speechCandidates(message.content, context.at));
}

/**
 * The offline extractor for ordinary first-person speech, run in the calling thread. The
 * default extractor (../default-extractor.ts) is this one, loaded on the first ingest.
 */
export function createSpeechExtractor(): Extractor {
  return { extract: (userMessages, context) => speechExtract(userMessages, context) };
}
