/**
 * `npm run eval`: retrieval quality on the LoCoMo dev split (../shared/data, evaluation only).
 * Each speaker's observations are written with `remember()` at their session dates (one user
 * per speaker, one source per session), then every question of categories 1-4 is asked of the
 * speaker it names. Prints recall@1/5/10 (share of questions whose top k holds a memory from
 * an evidence turn) for engram's default retrieval, engram with the relevance weight only, and
 * a BM25 baseline over the same facts computed in this run; per category too; and the write
 * and retrieve cost per item. Store: fake-indexeddb, compute in-process.
 * `--end-to-end` runs the whole pipeline on the raw turns instead (./eval-end-to-end.ts; with
 * `--dump <file>` the default pipeline alone, its per-question hits written to the file);
 * `--conversations` the conversation suite of test/conversations (./eval-conversations.ts);
 * `--semantic` scores the semantic pairs instead (./eval-semantic.ts).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { fileURLToPath } from 'node:url';
import { createMemory, type Memory } from '../src/index';
import type { Weights } from '../src/schema';
import { exitOnDataError, loadLocomo, type EvalConversation } from './eval-data';
import { runConversations } from './eval-conversations';
import { runEndToEnd } from './eval-end-to-end';
import { runSemantic } from './eval-semantic';
import { createBm25, recallAt } from './eval-metrics';

const KS = [1, 5, 10] as const;
const DATA = fileURLToPath(new URL('../../shared/data/locomo-dev.json.gz', import.meta.url));
const CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

interface Variant {
  name: string;
  /** Turn ids of each hit, per question. */
  ranked: string[][][];
}

interface Run {
  variants: Variant[];
  evidence: string[][];
  categories: number[];
  writeMs: number;
  writes: number;
  retrieveMs: number;
  retrieves: number;
}

const VARIANTS: { name: string; weights?: Weights }[] = [{ name: 'engram, default options' }, { name: 'engram, relevance weight only', weights: { relevance: 1, recency: 0, importance: 0 } }];

async function writeFacts(memory: Memory, conversation: EvalConversation, setNow: (at: number) => void, turnsOf: Map<string, Set<string>>): Promise<number> {
  const all = [...conversation.facts].flatMap(([speaker, facts]) => facts.map((fact) => ({ speaker, ...fact })));
  all.sort((a, b) => a.at - b.at);
  for (const fact of all) {
    setNow(fact.at);
    const operation = await memory.remember({ content: fact.content, topic: 'general' }, { userId: fact.speaker, appName: conversation.id, source: { type: 'user_implicit', id: `${conversation.id}-session-${fact.session}` } });
    const turns = turnsOf.get(operation.memoryId) ?? new Set<string>();
    for (const turn of fact.turns) turns.add(turn);
    turnsOf.set(operation.memoryId, turns);
  }
  return all.length;
}

async function evaluate(conversations: readonly EvalConversation[]): Promise<Run> {
  const run: Run = { variants: [...VARIANTS.map((v) => ({ name: v.name, ranked: [] })), { name: 'BM25 over the same facts', ranked: [] }], evidence: [], categories: [], writeMs: 0, writes: 0, retrieveMs: 0, retrieves: 0 };
  const k = Math.max(...KS);
  for (const conversation of conversations) {
    let now = 0;
    const memory = await createMemory({ name: `eval-${conversation.id}`, indexedDB: new IDBFactory(), IDBKeyRange, worker: 'off', clock: () => now });
    const turnsOf = new Map<string, Set<string>>();
    const started = performance.now();
    run.writes += await writeFacts(memory, conversation, (at) => (now = at), turnsOf);
    run.writeMs += performance.now() - started;
    now = conversation.end;
    const baselines = new Map(
      conversation.speakers.map((speaker) => {
        const facts = conversation.facts.get(speaker) ?? [];
        return [speaker, { facts, bm25: createBm25(facts.map((fact) => fact.content)) }];
      }),
    );
    for (const question of conversation.questions) {
      run.evidence.push(question.evidence);
      run.categories.push(question.category);
      for (const [i, variant] of VARIANTS.entries()) {
        const asked = performance.now();
        const hits = await memory.retrieve(question.question, { userId: question.speaker, appName: conversation.id, k, ...(variant.weights ? { weights: variant.weights } : {}) });
        run.retrieveMs += performance.now() - asked;
        run.retrieves++;
        run.variants[i]!.ranked.push(hits.map((hit) => [...(turnsOf.get(hit.memory.id) ?? [])]));
      }
      const baseline = baselines.get(question.speaker)!;
      run.variants.at(-1)!.ranked.push(baseline.bm25.search(question.question, k).map((index) => baseline.facts[index]!.turns));
    }
    await memory.close();
  }
  return run;
}

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
}

function report(run: Run): void {
  const widths = [32, 6, 6, 6];
  console.log(`engram eval: LoCoMo dev split, ${run.evidence.length} questions (categories 1-4), ${run.writes} facts`);
  console.log('');
  console.log(row(['recall@k (%)', ...KS.map((k) => `@${k}`)], widths));
  for (const variant of run.variants) console.log(row([variant.name, ...recallAt(variant.ranked, run.evidence, KS).map((v) => v.toFixed(1))], widths));
  for (const category of [1, 2, 3, 4]) {
    const picked = run.categories.map((c, i) => (c === category ? i : -1)).filter((i) => i >= 0);
    console.log('');
    console.log(row([`category ${category} (${CATEGORIES[category]}, ${picked.length} q)`, ...KS.map((k) => `@${k}`)], widths));
    for (const variant of run.variants) {
      const figures = recallAt(
        picked.map((i) => variant.ranked[i]!),
        picked.map((i) => run.evidence[i]!),
        KS,
      );
      console.log(row([variant.name, ...figures.map((v) => v.toFixed(1))], widths));
    }
  }
  console.log('');
  console.log(`write: ${(run.writeMs / run.writes).toFixed(2)} ms per remember(); retrieve: ${(run.retrieveMs / run.retrieves).toFixed(2)} ms per question (k = 10)`);
  console.log('store on fake-indexeddb, compute in-process: costs are Node figures, not browser ones.');
}

/** The file after `--dump`, if any. */
function dumpPath(): string | undefined {
  const at = process.argv.indexOf('--dump');
  return at < 0 ? undefined : process.argv[at + 1];
}

if (process.argv.includes('--conversations')) await runConversations(process.argv.includes('--verbose'));
else if (process.argv.includes('--semantic')) await runSemantic();
else if (process.argv.includes('--end-to-end')) await runEndToEnd(DATA, dumpPath()).catch(exitOnDataError);
else report(await evaluate(await loadLocomo(DATA).catch(exitOnDataError)));
