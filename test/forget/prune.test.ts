import { describe, expect } from 'vitest';
import { it } from '../helpers/memory-fixture';
import { decayedConfidence, ValidationError } from '../../src/index';
import { DAY, T0 } from '../helpers/memory';
import type { MemoryFixtures } from '../helpers/memory-fixture';

const owner = { userId: 'u_ada', appName: 'default' };
const source = { type: 'user_explicit' as const, id: 's1' };
// One of each half-life: identity 10 years, diet and travel 1 year, issue 30 days.
const conversation = [{ role: 'user' as const, content: "Call me Ada. I'm vegetarian. I prefer the aisle seat. The export keeps failing." }];
const MONTHS = [1, 6, 12] as const;
const at = (months: number) => T0 + Math.round((months * 365) / 12) * DAY;

describe('Memory.prune', () => {
  async function remainingByMonth(open: MemoryFixtures['open'], floor: number): Promise<Record<number, string[]>> {
    const test = await open();
    await test.memory.ingest(conversation, { ...owner, sessionId: 'c1', source });
    const remaining: Record<number, string[]> = {};
    for (const month of MONTHS) {
      test.clock.set(at(month));
      const report = await test.memory.prune({ ...owner, floor });
      const active = await test.memory.list(owner);
      expect(report.remaining).toBe(active.length);
      remaining[month] = active.map((m) => `${m.topic} ${decayedConfidence(m, test.clock()).toFixed(2)}`);
      console.log(`prune floor ${floor} at ${String(month).padStart(2)} months: kept [${remaining[month].join(', ')}]; pruned [${report.pruned.map((p) => `${p.content} ${p.decayedConfidence.toFixed(3)}`).join(', ')}]`);
    }
    return remaining;
  }

  it('prunes the 30-day issue memory and keeps the 10-year identity memory after a simulated year', async ({ open }) => {
    const remaining = await remainingByMonth(open, 0.3);
    const topics = (month: number) => remaining[month]!.map((line) => line.split(' ')[0]);
    expect(topics(1)).toEqual(['diet', 'travel', 'identity', 'issue']); // 0.7 · ½ = 0.35 ≥ 0.3
    expect(topics(6)).toEqual(['diet', 'travel', 'identity']);
    expect(topics(12)).toEqual(['diet', 'travel', 'identity']);
    expect(remaining[12]).toContain('identity 0.84'); // 0.9 · ½^(365/3650)
  });

  it('lets the one-year memories go too when the floor is above their half-life value', async ({ open }) => {
    const remaining = await remainingByMonth(open, 0.5);
    expect(remaining[1]!.map((line) => line.split(' ')[0])).toEqual(['diet', 'travel', 'identity']);
    expect(remaining[12]).toEqual(['identity 0.84']);
  });

  it('tombstones pruned memories with a pruned history entry, out of retrieval but listed with includeInvalid', async ({ open }) => {
    const test = await open();
    await test.memory.ingest(conversation, { ...owner, sessionId: 'c1', source });
    test.clock.set(at(12));
    const report = await test.memory.prune({ ...owner, floor: 0.3 });
    expect(report.pruned.map((p) => p.content)).toEqual(['The user reported a failing export/upload.']);
    const [pruned] = (await test.memory.list({ ...owner, includeInvalid: true })).filter((m) => m.invalidatedAt !== undefined);
    expect(pruned!.id).toBe(report.pruned[0]!.id);
    expect(pruned!.invalidatedAt).toBe(at(12));
    expect(pruned!.history.at(-1)).toMatchObject({ event: 'pruned', at: at(12) });
    expect(pruned!.history.at(-1)!.reason).toMatch(/below the floor 0\.3/);
    // A question about the user as a whole: every active memory is a candidate, none of the pruned.
    const hits = await test.memory.retrieve('what do you know about me?', { ...owner, k: 10 });
    expect(hits.map((hit) => hit.memory.topic).sort()).toEqual(['diet', 'identity', 'travel']);
    // Pruning again at the same time finds nothing new.
    expect(await test.memory.prune({ ...owner, floor: 0.3 })).toEqual({ pruned: [], remaining: 3 });
  });

  it("leaves other users' memories and app-scope memories alone when pruning one user", async ({ open }) => {
    const test = await open();
    await test.memory.ingest(conversation, { ...owner, sessionId: 'c1', source });
    await test.memory.ingest(conversation, { userId: 'u_bob', sessionId: 'c2', source: { type: 'user_explicit', id: 's2' } });
    await test.memory.remember({ content: 'Solaris support answers within a day.', topic: 'support', halfLifeDays: 1 }, { scope: 'app', source: { type: 'bootstrapped', id: 'crm' } });
    test.clock.set(at(12));
    await test.memory.prune({ ...owner, floor: 0.99 });
    expect(await test.memory.list(owner)).toEqual([expect.objectContaining({ scope: 'app' })]);
    expect((await test.memory.list({ userId: 'u_bob' })).filter((m) => m.scope === 'user')).toHaveLength(4);
  });

  it('keeps a pruned memory pruned when forgetSource later regenerates the store', async ({ open }) => {
    const test = await open();
    await test.memory.ingest([{ role: 'user', content: 'The export keeps failing.' }], { ...owner, sessionId: 'a', source: { type: 'user_explicit', id: 'a' } });
    await test.memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...owner, sessionId: 'b', source: { type: 'user_explicit', id: 'b' } });
    test.clock.set(at(6));
    expect((await test.memory.prune({ ...owner, floor: 0.3 })).pruned.map((p) => p.content)).toEqual(['The user reported a failing export/upload.']);
    await test.memory.ingest([{ role: 'user', content: 'Call me Ada.' }], { ...owner, sessionId: 'c', source: { type: 'user_explicit', id: 'c' } });
    await test.memory.forgetSource('c', owner);
    expect((await test.memory.list(owner)).map((m) => m.content)).toEqual(['The user follows a vegan diet.']);
  });

  it('prunes in the replay what only the revoked source kept fresh, as if it had never been said', async ({ open }) => {
    const test = await open();
    await test.memory.ingest([{ role: 'user', content: 'The export keeps failing.' }], { ...owner, sessionId: 'a', source: { type: 'user_explicit', id: 'a' } });
    // Five months later source b says it again: corroborated (0.75), a month old at the prune: kept.
    test.clock.set(at(5));
    await test.memory.ingest([{ role: 'user', content: 'My export keeps failing.' }], { ...owner, sessionId: 'b', source: { type: 'user_explicit', id: 'b' } });
    test.clock.set(at(6));
    expect((await test.memory.prune({ ...owner, floor: 0.3 })).pruned).toEqual([]);
    test.clock.set(at(7));
    await test.memory.forgetSource('b', owner);
    // Without b, the issue memory was six months old at the prune: the replay prunes it.
    expect(await test.memory.list(owner)).toEqual([]);
  });

  it('rejects a floor outside [0, 1] with ValidationError and prunes nothing', async ({ open }) => {
    const test = await open();
    await test.memory.ingest(conversation, { ...owner, sessionId: 'c1', source });
    test.clock.set(at(12));
    for (const floor of [Number.NaN, -0.1, 1.5, Number.POSITIVE_INFINITY]) {
      await expect(test.memory.prune({ ...owner, floor })).rejects.toThrow(ValidationError);
    }
    expect(await test.memory.list(owner)).toHaveLength(4);
  });
});
