import { afterEach, describe, expect, it } from 'vitest';
import { createHashEmbedder, createPolicyDecider, createRuleExtractor, PermissionError, DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, type Decider } from '../../src/index';
import { REDACTED } from '../../src/forget/forget';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { dumpDatabases, findInDatabases } from '../helpers/scan';
import { ingestSeed, SEED_OWNER } from '../helpers/seed';
import { activeFacts } from '../helpers/facts';
import { EPISODE_TOPIC } from '../../src/episode/episode';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });
const CANARIES = ['Qzxcanaryname', 'zqx-canary-excerpt', 'zqx-canary-summary', 'zqx-canary-fact', 'zqx-canary-assistant', 'dairy'];

async function canaryHits(test: TestMemory): Promise<Record<string, number>> {
  const hits: Record<string, number> = {};
  for (const canary of CANARIES) hits[canary] = (await findInDatabases(test.factory, canary)).length;
  return hits;
}

const NONE = Object.fromEntries(CANARIES.map((canary) => [canary, 0]));

/** s2 before and s4 after the revoked s1, which touches every write path: ingest, UPDATE, summary, remember. */
async function ingestWithCanaries(test: TestMemory) {
  const { memory, clock } = test;
  await memory.ingest([{ role: 'user', content: "Call me Ada. I'm vegetarian." }], { ...owner, sessionId: 'c2', source: implicit('s2') });
  clock.advance(DAY);
  const s1 = [
    { role: 'user' as const, content: "Please call me Qzxcanaryname. I've started eating dairy again, zqx-canary-excerpt." },
    { role: 'assistant' as const, content: 'Noted, zqx-canary-assistant.' },
    { role: 'user' as const, content: "The export keeps failing since zqx-canary-excerpt. I'm allergic to zqx-canary-summary." },
  ];
  await memory.ingest(s1, { ...owner, sessionId: 'c1', source: explicit('s1') });
  await memory.summarizeSession(s1, { ...owner, sessionId: 'c1', source: explicit('s1') });
  await memory.remember({ content: 'The user collects zqx-canary-fact stamps.', topic: 'hobby' }, { ...owner, source: explicit('s1') });
  clock.advance(DAY);
  await memory.ingest([{ role: 'user', content: 'For flights, I prefer the aisle seat.' }], { ...owner, sessionId: 'c4', source: implicit('s4') });
  clock.advance(DAY);
}

describe('Memory.forgetSource (erasure)', () => {
  let tests: TestMemory[] = [];
  afterEach(async () => {
    await Promise.all(tests.map((test) => test.memory.close()));
    tests = [];
  });
  const open = async (...args: Parameters<typeof createTestMemory>) => {
    const [options, ...rest] = args;
    const test = await createTestMemory({ episodes: true, ...options }, ...rest);
    tests.push(test);
    return test;
  };

  it('leaves only "The user eats fish again." from s2 and s3 at 0.90 when s1 of the seed is revoked', async () => {
    const test = await open();
    await ingestSeed(test.memory, test.clock);
    const before = await test.memory.list({ ...SEED_OWNER, includeInvalid: true });
    const s1Only = before.filter((record) => record.sources.every((source) => source.id === 's1')).map((record) => record.id);
    // Two facts and s1's two turns kept as episodes.
    expect(s1Only).toHaveLength(4);
    expect(before.filter((record) => s1Only.includes(record.id) && record.topic === EPISODE_TOPIC)).toHaveLength(2);

    const report = await test.memory.forgetSource('s1', SEED_OWNER);

    const kept = await test.memory.list(SEED_OWNER);
    const active = kept.filter((record) => record.topic !== EPISODE_TOPIC);
    expect(activeFacts(active)).toEqual([{ content: 'The user eats fish again.', topic: 'diet', scope: 'user', sources: ['s2', 's3'], confidence: 0.9 }]);
    // The episodes left are the other sources' turns, and the rebuilt fact links to one of them.
    const episodes = kept.filter((record) => record.topic === EPISODE_TOPIC);
    expect(episodes.length).toBeGreaterThan(0);
    expect(episodes.every((episode) => episode.sources.every((source) => source.id !== 's1'))).toBe(true);
    expect(episodes.map((episode) => episode.id)).toContain(active[0]!.episodeId);
    expect(active[0]!.sources.map((source) => [source.type, source.id])).toEqual([
      ['user_implicit', 's2'],
      ['user_explicit', 's3'],
    ]);
    expect(report.erased.sort()).toEqual(s1Only.sort());
    // Both records that blended s1 with other sources now point at the rebuilt memory.
    expect(report.regenerated).toHaveLength(2);
    expect(report.regenerated.every((entry) => entry.to === active[0]!.id)).toBe(true);

    const after = await test.memory.list({ ...SEED_OWNER, includeInvalid: true });
    for (const id of s1Only) {
      const old = before.find((record) => record.id === id)!;
      const tombstone = after.find((record) => record.id === id)!;
      expect(tombstone.content).toBe(REDACTED);
      expect(tombstone.createdAt).toBe(old.createdAt);
      expect(tombstone.invalidatedAt).toBeGreaterThanOrEqual(old.createdAt);
      expect(tombstone.sources).toEqual([{ type: 'user_implicit', id: 's1', excerpt: '', at: old.sources[0]!.at }]);
      expect(tombstone.history.at(-1)).toEqual({ at: test.clock(), event: 'erased', reason: 'erased: sole source s1 revoked' });
      expect([...tombstone.embedding].every((value) => value === 0)).toBe(true);
    }
    // Text only s1 held: the name, the seat, the rest of its first message.
    for (const canary of ['Ada', 'aisle', 'meal bookings']) expect(await findInDatabases(test.factory, canary)).toEqual([]);
    // The rebuilt memory's lineage names stored records, not the replay's temporary ids.
    expect(JSON.stringify(active[0]!.history)).not.toMatch(/replay_/);
    expect(active[0]!.history.at(-1)).toMatchObject({ event: 'regenerated', related: report.regenerated.find((e) => e.to === active[0]!.id)!.from });
  });

  it('leaves 0 occurrences of any canary in any table when the revoked source wrote through ingest, UPDATE, summary and remember', async () => {
    const test = await open();
    await ingestWithCanaries(test);
    const before = await canaryHits(test);
    // The canaries really were stored (except the assistant's, which never is).
    expect(
      Object.entries(before)
        .filter(([, count]) => count > 0)
        .map(([canary]) => canary)
        .sort(),
    ).toEqual(CANARIES.filter((canary) => canary !== 'zqx-canary-assistant').sort());
    // Every table is scanned, the lineage side tables too: excerpts live there, not only in the rows.
    const tablesBefore = new Set((await findInDatabases(test.factory, 'zqx-canary-excerpt')).map((row) => row.store));
    // s1's user turns were kept as episodes, canaries and all: the scan below covers them too.
    const s1Episodes = (await test.memory.list(owner)).filter((record) => record.topic === EPISODE_TOPIC && record.sources.some((source) => source.id === 's1'));
    expect(s1Episodes.map((record) => record.content)).toEqual([
      "Please call me Qzxcanaryname. I've started eating dairy again, zqx-canary-excerpt.",
      "The export keeps failing since zqx-canary-excerpt. I'm allergic to zqx-canary-summary.",
    ]);
    expect([...tablesBefore].sort()).toEqual(expect.arrayContaining(['inputs', 'lineage']));

    const report = await test.memory.forgetSource('s1', owner);
    const hits = await canaryHits(test);
    console.log(`erasure canaries: before ${JSON.stringify(before)}, after ${JSON.stringify(hits)}`);
    expect(hits).toEqual(NONE);

    // What s2 and s4 said is intact: their facts, and their turns as episodes.
    const left = await test.memory.list(owner);
    expect(
      left
        .filter((record) => record.topic === EPISODE_TOPIC)
        .map((record) => record.content)
        .sort(),
    ).toEqual(["Call me Ada. I'm vegetarian.", 'For flights, I prefer the aisle seat.']);
    expect(activeFacts(left.filter((record) => record.topic !== EPISODE_TOPIC))).toEqual([
      { content: 'The user follows a vegetarian diet.', topic: 'diet', scope: 'user', sources: ['s2'], confidence: 0.65 },
      { content: 'The user goes by Ada.', topic: 'identity', scope: 'user', sources: ['s2'], confidence: 0.65 },
      { content: 'The user prefers aisle seating on flights.', topic: 'travel', scope: 'user', sources: ['s4'], confidence: 0.65 },
    ]);
    // Tombstones keep ids, times and the reason.
    const all = await test.memory.list({ ...owner, includeInvalid: true });
    for (const id of report.erased) {
      const tombstone = all.find((record) => record.id === id)!;
      expect(tombstone.content).toBe(REDACTED);
      expect(tombstone.invalidatedAt).toBe(test.clock());
      expect(tombstone.history.map((entry) => entry.event)).toContain('erased');
    }
    expect(report.erased.length).toBeGreaterThanOrEqual(3); // the issue, the summary and the remembered fact
    // No derived copy (a persisted vector pack, a cache row) still lists an erased memory. Its
    // own lineage and events rows are part of the tombstone (ids, times, the reason) and stay.
    const ownLists = new Set(['memories', 'lineage', 'events']);
    const elsewhere = (await dumpDatabases(test.factory)).filter((row) => !ownLists.has(row.store) && report.erased.some((id) => row.text.includes(`"${id}"`)));
    expect(elsewhere).toEqual([]);
    // The identity and diet UPDATEs from s1 had inherited s2: their text was s1's alone.
    const updated = all.filter((record) => record.sources.some((source) => source.id === 's1') && record.sources.some((source) => source.id === 's2'));
    expect(updated.length).toBe(2);
    for (const record of updated) expect(record.content).toBe(REDACTED);
  });

  it('drops reasons that quote the revoked text when the decider writes the candidate into its reasons', async () => {
    const policy = createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: new Set(DEFAULT_EXCLUSIVE_TOPICS) });
    const quoting: Decider = {
      async decide(input) {
        const decision = await policy.decide(input);
        return { ...decision, reason: `${decision.reason} (candidate: ${input.candidate.content}; excerpt: ${input.candidate.excerpt})` };
      },
    };
    const test = await open({ decider: quoting });
    await ingestWithCanaries(test);
    expect((await findInDatabases(test.factory, 'Qzxcanaryname')).map((row) => row.store)).toContain('memories');
    await test.memory.forgetSource('s1', owner);
    expect(await canaryHits(test)).toEqual(NONE);
  });

  it('does nothing when the source is unknown to the owner', async () => {
    const test = await open();
    await ingestWithCanaries(test);
    const before = await test.memory.list({ ...owner, includeInvalid: true });
    expect(await test.memory.forgetSource('s1', { userId: 'someone-else' })).toEqual({ erased: [], regenerated: [] });
    expect(await test.memory.forgetSource('nope', owner)).toEqual({ erased: [], regenerated: [] });
    expect(await test.memory.list({ ...owner, includeInvalid: true })).toEqual(before);
  });

  describe('racing consolidation (RELIABILITY 22)', () => {
    /** The hash embedder behind a delay, so consolidation and erasure interleave at every await. */
    const slowEmbedder = (delayMs: number) => {
      const inner = createHashEmbedder();
      return { id: inner.id, dim: inner.dim, embed: async (texts: readonly string[]) => (await new Promise((r) => setTimeout(r, delayMs)), inner.embed(texts)) };
    };
    // s5 restates s1's facts while s1 is being erased: its working set was read with s1's text in it.
    const restate = [{ role: 'user' as const, content: 'Please call me Qzxcanaryname. I have started eating dairy again.' }];

    for (const order of ['ingest first', 'forget first'] as const) {
      it(`brings no erased text back when an ingest from another source races forgetSource (${order})`, async () => {
        const test = await open({ embedder: slowEmbedder(5) });
        await ingestWithCanaries(test);
        const forget = () => test.memory.forgetSource('s1', owner);
        const ingest = () => test.memory.ingest(restate, { ...owner, sessionId: 'c5', source: implicit('s5') });
        await Promise.all(order === 'ingest first' ? [ingest(), forget()] : [forget(), ingest()]);

        // s5's own words are legitimately stored; nothing of s1 that s5 did not say again is.
        const hits = await canaryHits(test);
        expect({ ...hits, Qzxcanaryname: 0, dairy: 0 }).toEqual(NONE);
        const excerpts = (await test.memory.list({ ...owner, includeInvalid: true })).flatMap((record) => record.sources.filter((source) => source.id === 's1'));
        expect(excerpts.every((source) => source.excerpt === '')).toBe(true);
        // s5 ran either before the erasure (then replayed) or after it: either way it survives.
        expect((await test.memory.list(owner)).some((record) => record.sources.some((source) => source.id === 's5'))).toBe(true);
      });
    }

    it('refuses an ingest of the revoked source itself that was in flight during forgetSource, and accepts a later one', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const rules = createRuleExtractor();
      let calls = 0;
      // The first extraction waits until the erasure has committed: the ingest started before it.
      const extractor = {
        async extract(...args: Parameters<typeof rules.extract>) {
          if (calls++ === 0) await gate;
          return rules.extract(...args);
        },
      };
      const test = await open({ extractor });
      const late = test.memory.ingest([{ role: 'user', content: "I'm vegan, zqx-canary-late." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      await test.memory.forgetSource('s1', owner);
      release();
      await expect(late).rejects.toThrow(PermissionError);
      expect((await findInDatabases(test.factory, 'zqx-canary-late')).length).toBe(0);
      expect(await test.memory.list({ ...owner, includeInvalid: true })).toEqual([]);

      // Shared anew after the revocation: a new write, stored as usual.
      const operations = await test.memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...owner, sessionId: 'c1', source: implicit('s1') });
      expect(operations.map((operation) => operation.action)).toEqual(['CREATE', 'CREATE']);
    });

    it('brings no erased text back when a second instance (another tab) ingests while the first erases', async () => {
      const first = await open({ embedder: slowEmbedder(3) });
      await ingestWithCanaries(first);
      const second = await open({ embedder: slowEmbedder(2), indexedDB: first.factory, name: first.name });
      second.clock.set(first.clock());
      await Promise.all([
        first.memory.forgetSource('s1', owner),
        second.memory.ingest(restate, { ...owner, sessionId: 'c5', source: implicit('s5') }),
        second.memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { ...owner, sessionId: 'c6', source: implicit('s6') }),
      ]);
      const hits = await canaryHits(first);
      expect({ ...hits, Qzxcanaryname: 0, dairy: 0 }).toEqual(NONE);
      const all = await first.memory.list({ ...owner, includeInvalid: true });
      expect(all.flatMap((record) => record.sources).filter((source) => source.id === 's1' && source.excerpt !== '')).toEqual([]);
      expect(all.filter((record) => record.invalidatedAt === undefined && record.sources.some((source) => source.id === 's1'))).toEqual([]);
    });
  });
});
