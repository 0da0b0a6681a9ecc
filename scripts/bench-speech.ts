/**
 * The bench's ordinary-speech section: every statement of the labelled speech corpus
 * (test/extract/speech) ingested as one user turn, one source per turn, for one user whose
 * store grows as it goes (about 400 memories at the end). Prints ingest p50 and p95 per turn
 * (extraction in compute, consolidation, the write), and the extraction alone through the same
 * compute client (in the browser: the round trip to the worker included).
 */
import { createMemory, createRuleExtractor, type Extractor } from '../src/index';
import { createDefaultExtractor } from '../src/extract/default-extractor';
import { LABELLED, SPOKEN_AT } from '../test/extract/speech/corpus';
import type { BenchEnvironment } from './bench-core';
import { percentile } from './bench-data';

const OWNER = { userId: 'bench-speech-user', appName: 'bench' };

/** Every corpus statement ingested as its own turn: the time of each, the writes, the active memories at the end. */
async function ingestCorpus(env: BenchEnvironment, name: string, extractor?: Extractor) {
  let now = SPOKEN_AT;
  const memory = await createMemory({ ...env.memoryOptions(name), clock: () => now, ...(extractor ? { extractor } : {}) });
  const times: number[] = [];
  let writes = 0;
  for (const [i, entry] of LABELLED.entries()) {
    now += 60_000;
    const started = performance.now();
    const operations = await memory.ingest([{ role: 'user', content: entry.message }], { ...OWNER, sessionId: `s${i}`, source: { type: 'user_implicit', id: `turn-${i}` } });
    times.push(performance.now() - started);
    writes += operations.filter((operation) => operation.action !== 'NOOP').length;
  }
  const stored = (await memory.list(OWNER)).length;
  await memory.close();
  return { times, writes, stored };
}

/** Runs the section and returns its p50 ingest per turn (ms). */
export async function runSpeechBench(env: BenchEnvironment): Promise<number> {
  const { times: ingest, writes: memories, stored } = await ingestCorpus(env, `bench-speech-${Date.now()}`);
  // The seed's five rules on the same turns, in the same run: they store almost nothing, so
  // the difference is what writing the memories costs, not what reading the speech does.
  const seed = await ingestCorpus(env, `bench-speech-seed-${Date.now()}`, createRuleExtractor());
  const extractor = createDefaultExtractor();
  const extract: number[] = [];
  for (const entry of LABELLED) {
    const started = performance.now();
    await extractor.extract([{ role: 'user', content: entry.message }], { userId: 'u', appName: 'a', sessionId: 's', at: SPOKEN_AT });
    extract.push(performance.now() - started);
  }
  const p50 = percentile(ingest, 50);
  env.print('');
  env.print(`Ordinary speech (${env.label}): ${LABELLED.length} corpus statements, one ingest per turn, one user`);
  env.print(`  ingest per turn: p50 ${p50.toFixed(2)} ms, p95 ${percentile(ingest, 95).toFixed(2)} ms (${memories} writes, ${stored} active memories at the end)`);
  env.print(`  the same turns with the seed's five rules: p50 ${percentile(seed.times, 50).toFixed(2)} ms (${seed.writes} writes)`);
  env.print(`  extraction alone (the default extractor, calling thread): p50 ${percentile(extract, 50).toFixed(3)} ms, p95 ${percentile(extract, 95).toFixed(3)} ms per turn`);
  return p50;
}
