/**
 * `npx tsx scripts/eval-changes.ts [dev|validation] [--all]`: why a change of mind of the
 * conversation suite (test/conversations) is not applied. Each conversation of the half (dev by
 * default) runs as in `npm run eval -- --conversations` (./eval-conversations.ts); after each
 * session, for each change of mind it states, this prints the old and the new turn, the facts the
 * default extractor reads from each with their slots (src/consolidate/slot.ts), the items of the
 * store that still present the old fact, and the class of the miss:
 * - `new side not read`: no fact of the new turn holds the new fact;
 * - `old side not read`: no fact of the old turn held the old fact (only its episode presents it);
 * - `no slot`: the new side, or the old side it should replace, has no slot;
 * - `exclusive topic`: one side is on an exclusive topic and the other is not on that topic;
 * - `another slot kind`: both have slots, of different kinds or the same polarity;
 * - `about differs`: one family, the other polarity, but what one is about is not within the other;
 * - `episode`: the facts are right, an episode still presents the old value;
 * - `other`: the slots would change the mind, but the store still presents the old value.
 * `--all` prints the applied changes too. Prints a count per class at the end.
 */
import { changesMind, slotOf } from '../src/consolidate/slot';
import { speechCandidates } from '../src/extract/speech/extractor';
import { EXCLUSIVE_TOPICS, type MemoryRecord } from '../src/index';
import { CONVERSATIONS } from '../test/conversations/index';
import { splitFact, type Conversation } from '../test/conversations/suite';
import { ingestSession, openConversation } from './eval-conversations';
import { changeApplied, contentWords, coverage, factSlots, MATCH_SHARE, scoreStore, type Item } from './eval-conversations-score';

const EXCLUSIVE: ReadonlySet<string> = new Set(EXCLUSIVE_TOPICS);
const USER = 'user';

type Fact = { topic: string; content: string };

const holds = (fact: Fact, expected: string): boolean => coverage(contentWords(fact.content), factSlots(splitFact(expected).content)) >= MATCH_SHARE;

function describe(fact: Fact): string {
  const slot = slotOf(fact);
  const shown = slot === undefined ? 'no slot' : `${slot.kind}${slot.polarity > 0 ? '+' : '-'} "${slot.about}"`;
  return `[${fact.topic}] ${fact.content}   {${EXCLUSIVE.has(fact.topic) ? 'exclusive' : shown}}`;
}

/** The class of a change not applied (see the module comment). */
function classify(newFacts: readonly Fact[], oldFacts: readonly Fact[], staleFacts: readonly Fact[], appliedInFacts: boolean): string {
  if (appliedInFacts) return 'episode';
  if (newFacts.length === 0) return 'new side not read';
  if (staleFacts.length === 0) return oldFacts.length === 0 ? 'old side not read' : 'other';
  const olds = staleFacts;
  if (newFacts.some((n) => olds.some((o) => EXCLUSIVE.has(o.topic) || EXCLUSIVE.has(n.topic)))) {
    if (newFacts.some((n) => olds.some((o) => o.topic === n.topic))) return 'other';
    return 'exclusive topic';
  }
  if (newFacts.every((n) => slotOf(n) === undefined) || olds.every((o) => slotOf(o) === undefined)) return 'no slot';
  if (newFacts.some((n) => olds.some((o) => changesMind(n, o, EXCLUSIVE)))) return 'other';
  const meet = newFacts.some((n) =>
    olds.some((o) => {
      const a = slotOf(n);
      const b = slotOf(o);
      return a !== undefined && b !== undefined && (a.kind === 'have' ? 'do' : a.kind) === (b.kind === 'have' ? 'do' : b.kind) && a.polarity !== b.polarity;
    }),
  );
  return meet ? 'about differs' : 'another slot kind';
}

async function run(conversation: Conversation, counts: Map<string, number>, all: boolean): Promise<void> {
  const { memory, clock, turns, stores, expectedAfter } = await openConversation(conversation, 'changes');
  const readAt = new Map<string, number>();
  for (const s of conversation.sessions.keys()) {
    for (const [id, at] of await ingestSession(memory, conversation, s, (at) => {
      clock.now = at;
    }))
      readAt.set(id, at);
    const store = stores[s]!;
    const expected = expectedAfter(s);
    const records: MemoryRecord[] = await memory.list({ userId: USER });
    const items: Item[] = records.map((m) => ({ id: m.id, topic: m.topic, content: m.content, sources: m.sources.map((source) => source.id) }));
    const scored = scoreStore(items, expected, 'loose');
    for (const change of store.changes) {
      const applied = changeApplied(scored, change, expected);
      const inFacts = changeApplied(scored, change, expected, true);
      const [from, to] = change;
      const read = (id: string) =>
        turns
          .filter((turn) => turn.states.includes(id))
          .map((turn) => ({ turn, facts: speechCandidates(turn.text, readAt.get(turn.id)).filter((fact) => holds(fact, conversation.facts[id]!)), all: speechCandidates(turn.text, readAt.get(turn.id)) }));
      const olds = read(from);
      const news = read(to).filter((side) => side.turn.session === s);
      const stale = scored.filter((item) => item.presents.includes(from));
      const staleFacts = stale.filter((item) => item.item.topic !== 'episode').map((item) => item.item);
      const verdict = applied
        ? 'applied'
        : classify(
            news.flatMap((side) => side.facts),
            olds.flatMap((side) => side.facts),
            staleFacts,
            inFacts,
          );
      counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
      if (applied && !all) continue;
      console.log(`\n${conversation.id} session ${s + 1}: ${verdict.toUpperCase()}`);
      console.log(`  old ${conversation.facts[from]}`);
      console.log(`  new ${conversation.facts[to]}`);
      for (const [label, sides] of [
        ['old', olds],
        ['new', news],
      ] as const) {
        for (const side of sides) {
          console.log(`  ${label} turn ${side.turn.id}: ${side.turn.text}`);
          for (const fact of side.all) console.log(`    ${side.facts.includes(fact) ? '*' : ' '} ${describe(fact)}`);
        }
      }
      for (const item of stale) console.log(`  still presents the old: ${describe(item.item)}`);
    }
  }
  await memory.close();
}

const half = process.argv.find((arg) => arg === 'dev' || arg === 'validation') ?? 'dev';
const counts = new Map<string, number>();
for (const conversation of CONVERSATIONS[half as keyof typeof CONVERSATIONS]) await run(conversation, counts, process.argv.includes('--all'));
console.log(`\n${half}: ${[...counts].map(([verdict, n]) => `${verdict} ${n}`).join(', ')}`);
