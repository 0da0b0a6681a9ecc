/**
 * Replays the seed's sessions (scripts/seed-sessions.ts) through the public API at the
 * seed's times, so scenario, fault and worker tests all drive exactly the same conversations.
 */
import type { Memory, Operation } from '../../src/index';
import { SEED_APP, SEED_SESSIONS, SEED_START, SEED_USER, DAY } from '../../scripts/seed-sessions';

export const SEED_OWNER = { userId: SEED_USER, appName: SEED_APP } as const;

/** Ingests seed session `index` (0-based) at SEED_START + its day; returns its operations. */
export async function ingestSeedSession(memory: Memory, clock: { set(value: number): void }, index: number, owner: { userId: string; appName: string } = SEED_OWNER): Promise<Operation[]> {
  const session = SEED_SESSIONS[index]!;
  clock.set(SEED_START + session.day * DAY);
  return memory.ingest(session.messages, { ...owner, sessionId: session.sessionId, source: session.source });
}

/** Ingests the seed sessions `[0, count)` in order; returns each session's operations. */
export async function ingestSeed(memory: Memory, clock: { set(value: number): void }, count = SEED_SESSIONS.length): Promise<Operation[][]> {
  const out: Operation[][] = [];
  for (let i = 0; i < count; i++) out.push(await ingestSeedSession(memory, clock, i));
  return out;
}
