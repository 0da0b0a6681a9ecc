/**
 * Crash mid-erasure in Chromium (issue 15): a 1,000-memory owner, a `forgetSource` that erases
 * what one source alone said and regenerates everything it corroborated by replaying the other
 * ten conversations, and the browser SIGKILLed at 20 random points of it. After each reopen the
 * store is the pre- or the post-state, never between; in the post-state the erased text is in
 * no row of any object store. Each run starts from a copy of one prepared profile.
 */
import { cp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, chromiumPidsFor, launchProfile, openHarnessAt, serveHarness, until, type ServedHarness } from './harness-session';

const NAME = 'crash-erasure';
const OWNER = { userId: 'u' };
const RUNS = Number(process.env['ENGRAM_CRASH_RUNS'] ?? 20);
const CANARY = `CNRY${Math.random().toString(36).slice(2, 10).toUpperCase()}zq`;

let served: ServedHarness;
beforeAll(async () => {
  served = await serveHarness();
});
afterAll(async () => {
  await served?.close();
});

interface Observed {
  active: string[];
  inputs: string[];
  canaryRows: number;
}

/**
 * Builds the owner in a fresh profile: the canary source (70 facts), then ten conversations of
 * 100 facts that corroborate 50 of them. Episodes off: every message is already a fact here.
 */
async function prepare(profile: string): Promise<void> {
  const context = await launchProfile(profile);
  try {
    const { page } = await openHarnessAt(context, served.url);
    await page.evaluate(
      async ([name, owner, canary]) => {
        const memory = await window.engram.createMemory({ name, extractor: window.harness.messagePerFactExtractor(), episodes: false });
        const fact = (i: number) => `[t${i}] The user noted fact ${i}: ${((i * 2654435761) % 1_000_003).toString(36)} ${((i * 40503) % 65_521).toString(36)}.`;
        // The canary source comes first, so erasing it replays every later conversation (no
        // checkpoint precedes it): 20 memories only it supports, 50 that later ones corroborate.
        const corroborated = Array.from({ length: 50 }, (_, i) => ({ role: 'user' as const, content: fact(i * 20 + 3) }));
        const own = Array.from({ length: 20 }, (_, i) => ({ role: 'user' as const, content: `[c${i}] The user said ${canary} number ${i}.` }));
        await memory.ingest([...corroborated, ...own], { ...owner, sessionId: 'c-canary', source: { type: 'user_explicit', id: 'canary' } });
        for (let part = 0; part < 10; part++) {
          const messages = Array.from({ length: 100 }, (_, i) => ({ role: 'user' as const, content: fact(part * 100 + i) }));
          await memory.ingest(messages, { ...owner, sessionId: `c${part}`, source: { type: 'user_explicit', id: `src-${part}` } });
        }
        await memory.close();
      },
      [NAME, OWNER, CANARY] as const,
    );
  } finally {
    await context.close();
  }
}

/** Opens the profile's store and reads its state: active memories and inputs (harness stateOf), and the rows holding the canary. */
async function observe(profile: string): Promise<Observed> {
  const context = await launchProfile(profile);
  try {
    const { page } = await openHarnessAt(context, served.url);
    return await page.evaluate(
      async ([name, owner, canary]) => {
        const memory = await window.engram.createMemory({ name });
        const state = await window.durability.stateOf(memory, owner);
        await memory.close();
        return { ...state, canaryRows: (await window.harness.countInDatabase(name, canary)).hits };
      },
      [NAME, OWNER, CANARY] as const,
    );
  } finally {
    await context.close();
  }
}

/** Starts forgetSource('canary') in a browser on `profile`; SIGKILLs the browser `killAfterMs` after it began (never when null). Resolves to its duration and report sizes when it finished. */
async function forgetAndKill(profile: string, killAfterMs: number | null): Promise<{ ms: number; erased: number; regenerated: number } | null> {
  const context = await launchProfile(profile);
  const [pid] = chromiumPidsFor(profile);
  try {
    const { page } = await openHarnessAt(context, served.url);
    await page.evaluate(async (name) => {
      window.memory = await window.engram.createMemory({ name, extractor: window.harness.messagePerFactExtractor(), episodes: false });
    }, NAME);
    const started = new Promise<number>((resolve) => page.on('console', (message) => message.text() === 'forget-start' && resolve(Date.now())));
    const forgetting = page.evaluate(async (owner) => {
      console.log('forget-start');
      const began = performance.now();
      const report = await window.memory!.forgetSource('canary', owner);
      return { ms: performance.now() - began, erased: report.erased.length, regenerated: report.regenerated.length };
    }, OWNER);
    if (killAfterMs === null) return await forgetting;
    void forgetting.catch(() => undefined);
    const from = await started;
    await until(() => Date.now() - from >= killAfterMs, killAfterMs + 5_000, 'the kill point');
    process.kill(-pid!, 'SIGKILL');
    await until(() => !alive(pid!), 10_000, 'the killed browser to exit');
    return null;
  } finally {
    if (pid !== undefined && alive(pid)) process.kill(-pid, 'SIGKILL');
    await context.close().catch(() => undefined);
  }
}

const same = (a: Observed, b: Observed) => JSON.stringify([a.active, a.inputs]) === JSON.stringify([b.active, b.inputs]);

describe('Memory.forgetSource (browser killed mid-erasure, Chromium)', () => {
  it(`leaves the pre- or post-state after a SIGKILL at each of ${RUNS} random points of a 1,000-memory regeneration`, { timeout: 600_000 }, async () => {
    const template = await served.tempDir('engram-crash-template-');
    await prepare(template);
    const pre = await observe(template);
    expect(pre.active.length).toBeGreaterThan(1_000);
    expect(pre.canaryRows).toBeGreaterThan(0);

    // The runs below go two at a time, so the erasure is timed two at a time too: its kill
    // points then spread over the whole of an erasure run as the runs run it.
    const references = await Promise.all([served.tempDir('engram-crash-reference-'), served.tempDir('engram-crash-reference-')]);
    for (const reference of references) await cp(template, reference, { recursive: true });
    const [finished, twin] = (await Promise.all(references.map((reference) => forgetAndKill(reference, null)))) as [NonNullable<Awaited<ReturnType<typeof forgetAndKill>>>, NonNullable<Awaited<ReturnType<typeof forgetAndKill>>>];
    const forgetMs = Math.max(finished.ms, twin.ms);
    expect(finished).toMatchObject({ erased: 20, regenerated: 50 });
    const post = await observe(references[0]!);
    await Promise.all(references.map((reference) => rm(reference, { recursive: true, force: true })));
    expect(post.canaryRows).toBe(0);
    expect(post.inputs).not.toContain('canary');
    expect(same(pre, post)).toBe(false);

    const outcomes = { pre: 0, post: 0, between: 0 };
    const points: number[] = [];
    const crash = async (run: number) => {
      const profile = await served.tempDir('engram-crash-run-');
      await cp(template, profile, { recursive: true });
      // Uniform over the erasure's measured run and a little past its end (a run on a loaded
      // machine can take longer, so some kills land after the commit).
      const killAfter = Math.round(Math.random() * forgetMs * 1.3);
      points.push(killAfter);
      await forgetAndKill(profile, killAfter);
      const seen = await observe(profile);
      await rm(profile, { recursive: true, force: true });
      const outcome = same(seen, pre) && seen.canaryRows > 0 ? 'pre' : same(seen, post) && seen.canaryRows === 0 ? 'post' : 'between';
      outcomes[outcome] += 1;
      expect(outcome, `run ${run}, killed ${killAfter} ms in`).not.toBe('between');
    };
    // Two runs at a time, each on its own copy of the profile and its own browser: a run spends
    // most of its time launching browsers and waiting on them, and the 2-core machine has room for
    // two. A run slowed by the other is killed at a point earlier in its erasure, still at random.
    let next = 0;
    const lane = async () => {
      while (next < RUNS) {
        const run = next++;
        // A failed run stops both lanes; the other one finishes the run it is in (and kills its browser) first.
        await crash(run).catch((error: unknown) => {
          next = RUNS;
          throw error;
        });
      }
    };
    const lanes = await Promise.allSettled([lane(), lane()]);
    for (const settled of lanes) if (settled.status === 'rejected') throw settled.reason;
    console.log(
      `[durability] SIGKILL during forgetSource (${pre.active.length} active memories; uninterrupted it erased ${finished.erased}, regenerated ${finished.regenerated} in ${Math.round(forgetMs)} ms): ` +
        `kill points ${points.sort((a, b) => a - b).join(', ')} ms → pre-state ${outcomes.pre}, post-state ${outcomes.post} (canary rows 0), between ${outcomes.between}`,
    );
  });
});
