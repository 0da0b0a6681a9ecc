/**
 * The bench's engram/mem0 section: `deleteAll({ userId })` of a user with N memories, each from
 * its own message (the shape `add(..., { infer: false })` leaves), as one erasure. The store is
 * built by `import` (one commit), so only the erasure is timed. Target: ≤ 2 s at N = 2,000 in
 * Node (the bar); the line also shows N = 1,000 for the growth between them. It prints
 * wall time and the process's CPU time: on a loaded machine (other jobs on the same cores) the
 * wall time is mostly waiting, so the bound is checked on CPU time where Node reports it.
 */
import { createMemory } from '../src/index';
import { Memory } from '../src/adapters/mem0/index';
import { EXPORT_FORMAT, type OwnerExport } from '../src/transfer/format';
import type { BenchEnvironment } from './bench-core';
import { BENCH_APP, BENCH_USER, cpuMs, createRandom, DAY, memoryText, T0 } from './bench-data';

export const MEM0_SIZES = [1_000, 2_000];
/** The bound for N = 2,000, in ms. */
const BOUND_MS = 2_000;

/** An export of one user with `n` remembered facts, each from its own source, as a mem0 user's add calls leave them. */
function userExport(n: number): OwnerExport {
  const random = createRandom(26 + n);
  const memories: OwnerExport['memories'] = [];
  const inputs: OwnerExport['inputs'] = [];
  for (let i = 0; i < n; i++) {
    const content = `${memoryText(random)} (${i})`;
    const at = T0 - ((n - i) * DAY) / 24;
    const source = { type: 'user_explicit' as const, id: `mem0_bench_${i}:0` };
    memories.push({
      id: `mem_bench_${String(i).padStart(6, '0')}`,
      userId: BENCH_USER,
      appName: BENCH_APP,
      scope: 'user',
      topic: 'general',
      content,
      importance: 0.5,
      halfLifeDays: 180,
      confidence: 0.9,
      sources: [{ ...source, excerpt: content, at }],
      createdAt: at,
      updatedAt: at,
      history: [{ at, event: 'created', reason: 'novel topic for this user', sourceId: source.id }],
      embedderId: 'bench',
    });
    inputs.push({ kind: 'remember', at, source, fact: { content, topic: 'general' } });
  }
  return { format: EXPORT_FORMAT, exportedAt: T0, userId: BENCH_USER, appName: BENCH_APP, memories, inputs };
}

/** Wall and CPU ms of one `deleteAll` of a user with `n` memories. */
async function timeDeleteAll(env: BenchEnvironment, n: number): Promise<{ wall: number; cpu: number }> {
  const name = `engram-bench-mem0-${n}-${Date.now()}`;
  const engram = await createMemory({ ...env.memoryOptions(name), clock: () => T0 });
  try {
    await engram.import(userExport(n));
    const facade = new Memory({ memory: engram });
    const before = (await facade.getAll({ filters: { user_id: BENCH_USER, agent_id: BENCH_APP }, topK: n })).results.length;
    if (before !== n) throw new Error(`bench store holds ${before} memories, expected ${n}`);
    const [started, cpuStarted] = [performance.now(), cpuMs()];
    await facade.deleteAll({ userId: BENCH_USER, agentId: BENCH_APP });
    const [wall, cpu] = [performance.now() - started, cpuMs() - cpuStarted];
    const after = (await facade.getAll({ filters: { user_id: BENCH_USER, agent_id: BENCH_APP } })).results.length;
    if (after !== 0) throw new Error(`deleteAll left ${after} memories`);
    return { wall, cpu };
  } finally {
    await engram.close();
  }
}

/** Prints the section; resolves to the sizes whose time broke the bound (N = 2,000 only). */
export async function runMem0Bench(env: BenchEnvironment, sizes: readonly number[] = MEM0_SIZES): Promise<number[]> {
  env.print('');
  env.print(`engram/mem0 deleteAll({ userId }) of N memories, one erasure (${env.label})`);
  const over: number[] = [];
  const times: string[] = [];
  for (const n of sizes) {
    const { wall, cpu } = await timeDeleteAll(env, n);
    times.push(`N=${n}: ${wall.toFixed(0)} ms wall, ${Number.isNaN(cpu) ? 'n/a' : cpu.toFixed(0)} ms CPU`);
    if (n === 2_000 && (Number.isNaN(cpu) ? wall : cpu) > BOUND_MS) over.push(n);
  }
  env.print(`  ${times.join(', ')}  (bound: ≤ ${BOUND_MS} ms at N=2000)${over.length ? '  OVER THE BOUND' : ''}`);
  return over;
}
