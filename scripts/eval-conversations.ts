/**
 * `npm run eval -- --conversations`: does the store end up true, clean and said once (issue 42)?
 * Each conversation of test/conversations (dev and validation halves) goes into a fresh store
 * with the library's defaults (fake-indexeddb, compute in-process), session by session: each
 * user turn is ingested with the assistant turn before it (one source per user turn, the session
 * id `s<N>`, the clock at the session's date 18:00 UTC plus one minute a turn). After each session
 * the store (`list`) is scored against the expected one (./eval-conversations-score.ts), and each
 * of the session's questions is asked (`retrieve`, defaults: k = 5) and injected (`inject`).
 * `--verbose` prints every item that is not right, and every stale line and duplicate hit.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMemory, type Memory, type MemoryRecord } from '../src/index';
import { CONVERSATIONS } from '../test/conversations/index';
import { expectedStores, splitFact, userTurns, type Conversation } from '../test/conversations/suite';
import { changeApplied, duplicateHits, recalled, scoreStore, staleLines, type Expected, type Item, type Mode, type Scored, type Verdict } from './eval-conversations-score';

const USER = 'user';

export interface Tally {
  conversations: number;
  userTurns: number;
  checks: number;
  kept: Record<Mode, Record<Verdict, number>>;
  /** The verdicts of the store after each conversation's last session (loose). */
  final: Record<Verdict, number>;
  instructionKept: number;
  expected: number;
  recalled: Record<Mode, number>;
  changes: number;
  applied: number;
  appliedInFacts: number;
  questions: number;
  relevantInTop: number;
  injectedLines: number;
  staleLines: number;
  hits: number;
  duplicateHits: number;
}

const verdicts = (): Record<Verdict, number> => ({ right: 0, duplicate: 0, stale: 0, noise: 0, wrong: 0 });

export function emptyTally(): Tally {
  return {
    conversations: 0,
    userTurns: 0,
    checks: 0,
    kept: { strict: verdicts(), loose: verdicts() },
    final: verdicts(),
    instructionKept: 0,
    expected: 0,
    recalled: { strict: 0, loose: 0 },
    changes: 0,
    applied: 0,
    appliedInFacts: 0,
    questions: 0,
    relevantInTop: 0,
    injectedLines: 0,
    staleLines: 0,
    hits: 0,
    duplicateHits: 0,
  };
}

const asItem = (memory: MemoryRecord): Item => ({ id: memory.id, topic: memory.topic, content: memory.content, sources: memory.sources.map((source) => source.id) });

const SESSION_START_UTC_HOUR = 18;
const TURN_MS = 60_000;

/**
 * Ingests session `s` of `conversation` into `memory` as the suite is run: each user turn with
 * the assistant turn before it, one source per user turn, the clock (`setNow`) at the session's
 * date 18:00 UTC plus one minute a turn. Returns the source id of each user turn with its time.
 */
export async function ingestSession(memory: Memory, conversation: Conversation, s: number, setNow: (at: number) => void): Promise<Map<string, number>> {
  const session = conversation.sessions[s]!;
  let now = Date.parse(`${session.date}T${SESSION_START_UTC_HOUR}:00:00Z`);
  const read = new Map<string, number>();
  let before: string | undefined;
  for (const [t, turn] of session.turns.entries()) {
    now += TURN_MS;
    setNow(now);
    if (turn.role === 'assistant') {
      before = turn.text;
      continue;
    }
    const messages = [...(before === undefined ? [] : [{ role: 'assistant' as const, content: before }]), { role: 'user' as const, content: turn.text }];
    before = undefined;
    const id = `${conversation.id}-s${s + 1}-t${t + 1}`;
    read.set(id, now);
    await memory.ingest(messages, { userId: USER, sessionId: `s${s + 1}`, source: { type: 'user_implicit', id } });
  }
  return read;
}

/**
 * A fresh memory for one conversation (on its own clock, which `ingestSession` sets), its user
 * turns, the expected stores, and what a store should hold after session `s` (`expectedAfter`).
 */
export async function openConversation(conversation: Conversation, name: string) {
  const clock = { now: 0 };
  const memory = await createMemory({ name: `${name}-${conversation.id}`, indexedDB: new IDBFactory(), IDBKeyRange, worker: 'off', clock: () => clock.now });
  const turns = userTurns(conversation);
  const turnInfo = new Map(turns.map((turn) => [turn.id, { states: turn.states, instruction: turn.instruction }]));
  const facts = Object.entries(conversation.facts).map(([id, fact]) => ({ id, ...splitFact(fact) }));
  const stores = expectedStores(conversation);
  const expectedAfter = (s: number): Expected => ({ facts, current: new Set(stores[s]!.current), superseded: new Set(stores[s]!.superseded), turns: turnInfo });
  return { memory, clock, turns, stores, expectedAfter };
}

/** Runs one conversation and adds what it measured to `tally`; `log` gets the verbose lines. */
export async function runConversation(conversation: Conversation, tally: Tally, log?: (line: string) => void): Promise<void> {
  const { memory, clock, turns, stores, expectedAfter } = await openConversation(conversation, 'conversation');
  tally.conversations++;
  tally.userTurns += turns.length;
  for (const [s, session] of conversation.sessions.entries()) {
    await ingestSession(memory, conversation, s, (at) => {
      clock.now = at;
    });
    const store = stores[s]!;
    const expected = expectedAfter(s);
    const items = (await memory.list({ userId: USER })).map(asItem);
    const byMode = { strict: scoreStore(items, expected, 'strict'), loose: scoreStore(items, expected, 'loose') };
    tally.checks++;
    for (const mode of ['strict', 'loose'] as const) {
      for (const scored of byMode[mode]) tally.kept[mode][scored.verdict]++;
      tally.recalled[mode] += recalled(items, expected, mode).size;
    }
    if (s === conversation.sessions.length - 1) for (const scored of byMode.loose) tally.final[scored.verdict]++;
    tally.instructionKept += byMode.loose.filter((scored) => scored.instruction).length;
    tally.expected += store.current.length;
    const where = `${conversation.id} after session ${s + 1}`;
    for (const [i, scored] of byMode.loose.entries()) {
      const verdict = scored.verdict === 'right' && byMode.strict[i]!.verdict !== 'right' ? 'topic' : scored.verdict;
      if (verdict !== 'right') log?.(`  ${where}: ${verdict.padEnd(9)} [${scored.item.topic}] ${scored.item.content}`);
    }
    for (const change of store.changes) {
      tally.changes++;
      const applied = changeApplied(byMode.loose, change, expected);
      if (applied) tally.applied++;
      if (changeApplied(byMode.loose, change, expected, true)) tally.appliedInFacts++;
      else log?.(`  ${where}: change not applied: ${conversation.facts[change[0]]} → ${conversation.facts[change[1]]}`);
    }
    const scoredOf = new Map(byMode.loose.map((scored) => [scored.item.id, scored]));
    clock.now += TURN_MS;
    for (const question of session.questions) {
      const retrieved = await memory.retrieve(question.question, { userId: USER });
      const hits = retrieved.map((hit) => scoredOf.get(hit.memory.id) ?? ({ item: asItem(hit.memory), verdict: 'noise', presents: [], instruction: false } satisfies Scored));
      const block = memory.inject('', retrieved);
      const stale = staleLines(block, hits);
      const repeated = duplicateHits(hits);
      tally.questions++;
      tally.hits += hits.length;
      tally.injectedLines += block.split('\n').filter((line) => line.startsWith('- [')).length;
      tally.staleLines += stale.length;
      tally.duplicateHits += repeated.length;
      if (hits.some((hit) => hit.presents.some((id) => question.relevant.includes(id)))) tally.relevantInTop++;
      for (const line of stale) log?.(`  ${where}: "${question.question}" stale line: ${line}`);
      for (const hit of repeated) log?.(`  ${where}: "${question.question}" duplicate hit: ${hit.item.content}`);
    }
  }
  await memory.close();
}

const ratio = (part: number, whole: number) => (whole === 0 ? '-' : (part / whole).toFixed(3));

/** The figures of one tally, one line each. */
export function figures(name: string, t: Tally): string[] {
  const keptOf = (mode: Mode) => Object.values(t.kept[mode]).reduce((sum, n) => sum + n, 0);
  const kept = keptOf('loose');
  const k = t.kept.loose;
  const finalKept = Object.values(t.final).reduce((sum, n) => sum + n, 0);
  return [
    `${name}: ${t.conversations} conversations, ${t.userTurns} user turns, ${t.checks} session checks, ${t.questions} questions`,
    `  store precision           strict ${ratio(t.kept.strict.right, kept)}  loose ${ratio(k.right, kept)}   (${kept} items kept over the checks, loose: ${k.right} right (${k.right - t.kept.strict.right} of another topic), ${k.duplicate} duplicate, ${k.stale} stale, ${k.noise} noise, ${k.wrong} wrong)`,
    `  final stores              ${finalKept} items: ${t.final.right} right, ${t.final.duplicate} duplicate, ${t.final.stale} stale, ${t.final.noise} noise, ${t.final.wrong} wrong (precision ${ratio(t.final.right, finalKept)}, loose)`,
    `  recall                    strict ${ratio(t.recalled.strict, t.expected)}  loose ${ratio(t.recalled.loose, t.expected)}   (of ${t.expected} expected current facts)`,
    `  changes of mind applied   ${t.applied}/${t.changes} = ${ratio(t.applied, t.changes)}   (among the facts alone, episodes left out: ${t.appliedInFacts}/${t.changes} = ${ratio(t.appliedInFacts, t.changes)})`,
    `  stale lines injected      ${t.staleLines} (of ${t.injectedLines} lines)`,
    `  noise kept                ${k.noise} items (${t.instructionKept} from turns aimed at the memory)`,
    `  duplicate hits in top 5   ${t.duplicateHits} (of ${t.hits} hits)`,
    `  a relevant fact in top 5  ${t.relevantInTop}/${t.questions} questions`,
  ];
}

function add(into: Tally, from: Tally): void {
  for (const key of ['conversations', 'userTurns', 'checks', 'instructionKept', 'expected', 'changes', 'applied', 'appliedInFacts', 'questions', 'relevantInTop', 'injectedLines', 'staleLines', 'hits', 'duplicateHits'] as const)
    into[key] += from[key];
  for (const mode of ['strict', 'loose'] as const) {
    into.recalled[mode] += from.recalled[mode];
    for (const verdict of Object.keys(into.kept[mode]) as Verdict[]) into.kept[mode][verdict] += from.kept[mode][verdict];
  }
  for (const verdict of Object.keys(into.final) as Verdict[]) into.final[verdict] += from.final[verdict];
}

/** Runs both halves and prints their figures and the overall ones. */
export async function runConversations(verbose: boolean): Promise<void> {
  const overall = emptyTally();
  const lines: string[] = [];
  for (const [half, conversations] of Object.entries(CONVERSATIONS)) {
    const tally = emptyTally();
    for (const conversation of conversations) await runConversation(conversation, tally, verbose ? (line) => console.log(`${half} ${line}`) : undefined);
    add(overall, tally);
    lines.push(...figures(half, tally), '');
  }
  lines.push(...figures('overall', overall));
  console.log('engram conversation suite (test/conversations), library defaults, fake-indexeddb, compute in-process');
  console.log('');
  for (const line of lines) console.log(line);
}
