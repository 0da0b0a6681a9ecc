/**
 * The bench's big-topic section: `remember` p50 into a store whose owner already holds N
 * memories on the one (non-exclusive) topic the new facts go to, at N = 100 and 10,000. The
 * sweep reads the topic's same fact by index, not the topic, so the cost must stay flat.
 */
import { createHashEmbedder, HASH_DIM } from '../src/embed/hash-embedder';
import { createMemory, type Memory } from '../src/index';
import type { MemoryRecord } from '../src/schema';
import { buildStore, type BenchEnvironment } from './bench-core';
import { BENCH_APP, BENCH_USER, createRandom, DAY, EMBEDDER_ID, memoryText, T0, cpuMs, median } from './bench-data';

export const TOPIC_SIZES = [100, 10_000];
const TOPIC = 'general';
const WRITES = 100;
/** Untimed writes per size first: they load the partition, build the active set and warm up. */
const WARM_UP = 10;

export function topicRecords(n: number): MemoryRecord[] {
  const random = createRandom(5 + n);
  const embedder = createHashEmbedder(HASH_DIM);
  return Array.from({ length: n }, (_, i): MemoryRecord => {
    const content = `${memoryText(random)} (${i})`;
    const at = T0 - Math.floor(random() * 365 * DAY);
    return {
      id: `t${String(i).padStart(7, '0')}`,
      userId: BENCH_USER,
      appName: BENCH_APP,
      scope: 'user',
      topic: TOPIC,
      content,
      importance: 0.5,
      halfLifeDays: 90,
      confidence: 0.65,
      sources: [{ type: 'user_explicit', id: `seed${i}`, excerpt: content, at }],
      createdAt: at,
      updatedAt: at,
      history: [{ at, event: 'created', reason: 'bench data' }],
      embedding: embedder.embedOne(content),
      embedderId: EMBEDDER_ID,
    };
  });
}

/** A store holding `n` memories on the topic, opened through the public API. */
async function openTopicStore(env: BenchEnvironment, n: number): Promise<{ name: string; memory: Memory }> {
  const name = `engram-bench-topic-${n}-${Date.now()}`;
  // With its packed snapshot, as a running app leaves it: no first-load compaction in the timed writes.
  await buildStore(env, name, topicRecords(n));
  return { name, memory: await createMemory({ ...env.memoryOptions(name), clock: () => T0 }) };
}

/**
 * `remember` p50 (ms) of new facts on the topic for each size. The sizes take turns write by
 * write, so a machine whose load drifts during the run weighs on every size alike.
 */
async function measureTopicIngest(env: BenchEnvironment, sizes: readonly number[]): Promise<{ wall: number[]; cpu: number[] | null }> {
  const stores = [];
  for (const n of sizes) stores.push(await openTopicStore(env, n));
  const owner = { userId: BENCH_USER, appName: BENCH_APP };
  const random = createRandom(77);
  const times = sizes.map((): number[] => []);
  const cpu = sizes.map((): number[] => []);
  // Building the stores is the bench's work, not engram's: its garbage is collected before any
  // write (both runners pass --expose-gc), so the first timed writes do not pay for it.
  (globalThis as { gc?: () => void }).gc?.();
  for (let i = -WARM_UP; i < WRITES; i++) {
    for (const [s, { memory }] of stores.entries()) {
      const started = performance.now();
      const cpuStarted = cpuMs();
      await memory.remember({ content: `${memoryText(random)} [new ${i}]`, topic: TOPIC }, { ...owner, source: { type: 'user_explicit', id: `new${i}` } });
      if (i < 0) continue;
      times[s]!.push(performance.now() - started);
      cpu[s]!.push(cpuMs() - cpuStarted);
    }
  }
  for (const { name, memory } of stores) {
    await memory.close();
    await env.openDatabase(name).delete();
  }
  return { wall: times.map(median), cpu: Number.isNaN(cpuMs()) ? null : cpu.map(median) };
}

/** Prints the section, and whether the largest size's p50 is within 1.5× the smallest's. */
export async function printTopicIngest(env: BenchEnvironment): Promise<void> {
  const { wall, cpu } = await measureTopicIngest(env, TOPIC_SIZES);
  const line = (label: string, p50s: number[]) => {
    const ratio = p50s.at(-1)! / p50s[0]!;
    return `${label}: ${TOPIC_SIZES.map((n, i) => `N=${n}: ${p50s[i]!.toFixed(2)}`).join('   ')}   ${TOPIC_SIZES.at(-1)}/${TOPIC_SIZES[0]}: ${ratio.toFixed(2)}× (target ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'})`;
  };
  env.print('');
  env.print(`remember on one non-exclusive topic ('${TOPIC}'), p50 of ${WRITES} writes per size (ms), after N memories on that topic`);
  env.print(line('wall', wall));
  if (cpu) env.print(line('CPU ', cpu));
  env.print('the sizes take turns write by write. The sweep reads the same fact by the identical-fact index, not the');
  env.print('topic (exclusive topics still read the topic). CPU: process time per write (on a loaded machine wall time is mostly waiting).');
}
