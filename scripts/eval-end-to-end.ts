/**
 * `npm run eval -- --end-to-end`: the whole pipeline on real conversations. Every dialog turn of
 * the LoCoMo dev split goes through `ingest()` as its speaker's user message (userId = speaker,
 * one source per turn: source id = the turn's dia_id, session id `session_N`, at the session's
 * date plus one minute per turn); every question of categories 1-4 with evidence is asked of
 * the speaker(s) it names (top 10 per speaker, merged by score). A hit is a retrieved memory
 * whose sources include an evidence turn. Beside the default pipeline, in the same run: the same
 * without the semantic channel (`semantic: false`, the gain of WordNet), every
 * turn stored verbatim with `remember()`, and BM25 over the raw turns of the same speaker(s).
 *
 * `--dump <file>` runs the default pipeline alone and writes, per question, its evidence, the rank
 * of the first hit that cites it (0: none in the top 10), the facts (not episodes) each of its
 * evidence turns left active and the sources of the top 10, one JSON line a question: diff two dumps to see which turns lost
 * their hit between two commits.
 */
import { writeFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createMemory, ValidationError, type Memory, type MemoryOptions, type MemoryRecord } from '../src/index';
import { isEpisode } from '../src/episode/episode';
import { createBm25, mergeByScore, recallAt } from './eval-metrics';
import { loadTurns, type EvalTurn, type SpeakerQuestion, type TurnConversation } from './eval-turns';

const KS = [1, 5, 10] as const;
const K = 10;

interface Pipeline {
  name: string;
  options: Partial<MemoryOptions>;
  write: (memory: Memory, turn: EvalTurn, conversation: TurnConversation) => Promise<unknown>;
}

const ingestTurn: Pipeline['write'] = (memory, turn, conversation) =>
  memory.ingest([{ role: 'user', content: turn.text }], { userId: turn.speaker, appName: conversation.id, sessionId: `session_${turn.session}`, source: { type: 'user_implicit', id: turn.id } });

const PIPELINES: Pipeline[] = [
  { name: 'engram default, turns through ingest()', options: {}, write: ingestTurn },
  { name: 'engram ingest(), semantic: false', options: { semantic: false }, write: ingestTurn },
  { name: 'engram ingest(), episodes off', options: { episodes: false }, write: ingestTurn },
  {
    name: 'engram, every turn verbatim remember()',
    options: {},
    // remember refuses a text that reads as an instruction to the model (one LoCoMo turn ends
    // "Never say never!"): that turn is stored as nothing, as ingest stores it.
    write: (memory, turn, conversation) =>
      memory.remember({ content: turn.text, topic: 'general' }, { userId: turn.speaker, appName: conversation.id, source: { type: 'user_implicit', id: turn.id } }).catch((error: unknown) => {
        if (!(error instanceof ValidationError) || error.path !== 'fact.content') throw error;
        return [];
      }),
  },
];

interface Measured {
  name: string;
  ranked: string[][][];
  /** Per question, in the order of `ranked`: the active facts of each of its evidence turns. */
  evidenceFacts: Record<string, string[]>[];
  turns: number;
  /** Turns whose id is a source of an active memory at the end. */
  yielded: number;
  annotated: number;
  annotatedYielded: number;
  memories: number;
  episodes: number;
  writeMs: number;
}

const sourceIds = (memory: MemoryRecord) => memory.sources.map((source) => source.id);

/** Writes every turn of `conversation` with `pipeline`, asks its questions, and adds what it measured to `into`. */
async function runPipeline(pipeline: Pipeline, conversation: TurnConversation, into: Measured): Promise<void> {
  let now = 0;
  const memory = await createMemory({ name: `e2e-${conversation.id}`, indexedDB: new IDBFactory(), IDBKeyRange, worker: 'off', clock: () => now, ...pipeline.options });
  const started = performance.now();
  for (const turn of conversation.turns) {
    now = turn.at;
    await pipeline.write(memory, turn, conversation);
  }
  into.writeMs += performance.now() - started;
  const active = (await Promise.all(conversation.speakers.map((userId) => memory.list({ userId, appName: conversation.id })))).flat();
  const backed = new Set(active.flatMap(sourceIds));
  into.turns += conversation.turns.length;
  into.yielded += conversation.turns.filter((turn) => backed.has(turn.id)).length;
  into.annotated += conversation.annotated.size;
  into.annotatedYielded += [...conversation.annotated].filter((id) => backed.has(id)).length;
  into.memories += active.length;
  into.episodes += active.filter(isEpisode).length;
  const factsOf = new Map<string, string[]>();
  for (const fact of active.filter((record) => !isEpisode(record))) for (const id of sourceIds(fact)) factsOf.set(id, [...(factsOf.get(id) ?? []), fact.content]);
  now = conversation.turns.at(-1)!.at + 60_000;
  for (const question of conversation.questions) {
    const lists = await Promise.all(question.speakers.map(async (userId) => (await memory.retrieve(question.question, { userId, appName: conversation.id, k: K })).map((hit) => ({ item: sourceIds(hit.memory), score: hit.score }))));
    into.ranked.push(mergeByScore(lists, K));
    into.evidenceFacts.push(Object.fromEntries(question.evidence.map((id) => [id, factsOf.get(id) ?? []])));
  }
  await memory.close();
}

/** BM25 over each speaker's raw turns, top 10 per speaker asked, merged by BM25 score. */
function bm25Ranked(conversation: TurnConversation, questions: readonly SpeakerQuestion[]): string[][][] {
  const bySpeaker = new Map(
    conversation.speakers.map((speaker) => {
      const turns = conversation.turns.filter((turn) => turn.speaker === speaker);
      return [speaker, { turns, bm25: createBm25(turns.map((turn) => turn.text)) }];
    }),
  );
  return questions.map((question) =>
    mergeByScore(
      question.speakers.map((speaker) => {
        const { turns, bm25 } = bySpeaker.get(speaker)!;
        const scores = bm25.scores(question.question);
        return bm25.search(question.question, K).map((index) => ({ item: [turns[index]!.id], score: scores[index]! }));
      }),
      K,
    ),
  );
}

/** One JSON line per question: its conversation, text, evidence, first hit's rank (0: none), the evidence turns' facts and the top 10's sources. */
function writeDump(file: string, conversations: readonly TurnConversation[], run: Measured): void {
  const questions = conversations.flatMap((conversation) => conversation.questions.map((question) => ({ conversation: conversation.id, question })));
  const lines = questions.map(({ conversation, question }, i) => {
    const rank = run.ranked[i]!.findIndex((sources) => sources.some((id) => question.evidence.includes(id))) + 1;
    return JSON.stringify({ conversation, question: question.question, evidence: question.evidence, rank, facts: run.evidenceFacts[i], top: run.ranked[i] });
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
}

/** Runs the end-to-end eval on the split at `path` and prints its figures. */
export async function runEndToEnd(path: string, dump?: string): Promise<void> {
  const conversations = await loadTurns(path);
  const evidence = conversations.flatMap((conversation) => conversation.questions.map((question) => question.evidence));
  const pipelines = dump === undefined ? PIPELINES : PIPELINES.slice(0, 1);
  const measured: Measured[] = pipelines.map((pipeline) => ({ name: pipeline.name, ranked: [], evidenceFacts: [], turns: 0, yielded: 0, annotated: 0, annotatedYielded: 0, memories: 0, episodes: 0, writeMs: 0 }));
  for (const conversation of conversations) for (const [i, pipeline] of pipelines.entries()) await runPipeline(pipeline, conversation, measured[i]!);
  if (dump !== undefined) writeDump(dump, conversations, measured[0]!);
  const bm25 = conversations.flatMap((conversation) => bm25Ranked(conversation, conversation.questions));
  const turns = measured[0]!.turns;
  const widths = [40, 6, 6, 6];
  console.log(`engram end-to-end eval: LoCoMo dev split, ${conversations.length} conversations, ${turns} turns, ${evidence.length} questions (categories 1-4)`);
  console.log('');
  console.log(row(['recall@k (%)', ...KS.map((k) => `@${k}`)], widths));
  for (const run of measured) console.log(row([run.name, ...recallAt(run.ranked, evidence, KS).map((v) => v.toFixed(1))], widths));
  console.log(row(['BM25 over the raw turns', ...recallAt(bm25, evidence, KS).map((v) => v.toFixed(1))], widths));
  console.log('');
  for (const run of measured.slice(0, 2)) {
    console.log(`${run.name}:`);
    console.log(`  turns that yielded a memory: ${pct(run.yielded, run.turns)} (${run.yielded}/${run.turns})`);
    console.log(`  annotated fact turns (LoCoMo observations) that yielded a memory: ${pct(run.annotatedYielded, run.annotated)} (${run.annotatedYielded}/${run.annotated})`);
    console.log(`  memories per conversation: ${(run.memories / conversations.length).toFixed(1)} (${(run.episodes / conversations.length).toFixed(1)} episodes, ${((run.memories - run.episodes) / conversations.length).toFixed(1)} facts)`);
    console.log(`  ingest: ${(run.writeMs / run.turns).toFixed(2)} ms per turn`);
  }
  console.log('store on fake-indexeddb, compute in-process: costs are Node figures, not browser ones.');
}
