/**
 * The seed's transcript (scripts/seed-sessions.ts) through the public API: creates, the
 * corroboration, the UPDATE that tombstones, ranking, isolation from another user and the
 * injected block. Registered by test/scenarios/seed.test.ts (IndexedDB) and by
 * describeStorageContract for every backend.
 */
import { afterEach, expect, it } from 'vitest';
import { DAY, OTHER_USER, SEED_APP, SEED_QUERIES, SEED_START, SEED_SYSTEM } from '../../scripts/seed-sessions';
import { PROFILE_HEADING } from '../../src/inject/inject';
import { RELEVANCE_FLOOR } from '../../src/retrieve/select';
import { must } from '../helpers/must';
import { ingestSeed, ingestSeedSession, SEED_OWNER } from '../helpers/seed';
import type { OpenedMemory, OpenMemory } from './harness';

const VEG = 'The user follows a vegetarian diet.';
const FISH = 'The user eats fish again.';
const AISLE = 'The user prefers aisle seating on flights.';
const ADA = 'The user goes by Ada.';

/** Registers the seed scenario's tests (call inside a describe); each opens its memory with `open`. */
export function seedScenario(open: OpenMemory): void {
  let test: OpenedMemory | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  it('creates three memories when session 1 is ingested', async () => {
    test = await open();
    const operations = await ingestSeedSession(test.memory, test.clock, 0);
    expect(operations.map((op) => [op.action, op.content])).toEqual([
      ['CREATE', VEG],
      ['CREATE', ADA],
      ['CREATE', AISLE],
    ]);
    const records = await test.memory.list(SEED_OWNER);
    expect(records.map((r) => [r.content, r.topic, r.confidence, r.sources.map((s) => [s.type, s.id])])).toEqual([
      [VEG, 'diet', 0.65, [['user_implicit', 's1']]],
      [ADA, 'identity', 0.65, [['user_implicit', 's1']]],
      [AISLE, 'travel', 0.65, [['user_implicit', 's1']]],
    ]);
    // The assistant said "I prefer the window seat myself": never a fact about the user.
    expect(records.some((r) => r.content.includes('window'))).toBe(false);
    expect(records.every((r) => r.userId === SEED_OWNER.userId && r.appName === SEED_APP && r.scope === 'user')).toBe(true);
  });

  it('corroborates the diet memory 0.65 → 0.70 with a NOOP when session 2 restates it', async () => {
    test = await open();
    const diet = must((await ingestSeed(test.memory, test.clock, 1))[0]?.[0], 'the diet operation of session 1');
    const operations = await ingestSeedSession(test.memory, test.clock, 1);
    expect(operations).toEqual([{ action: 'NOOP', memoryId: diet.memoryId, targetId: diet.memoryId, content: VEG, reason: 'identical to an existing memory' }]);
    const record = await test.memory.get(diet.memoryId, SEED_OWNER);
    expect(record.confidence).toBe(0.7);
    expect(record.sources.map((s) => s.id)).toEqual(['s1', 's2']);
    expect(record.updatedAt).toBe(SEED_START + DAY);
    expect(await test.memory.list(SEED_OWNER)).toHaveLength(3);
  });

  it('tombstones the vegetarian memory with an UPDATE to "eats fish" at 0.90 from s1, s2, s3 when session 3 contradicts it', async () => {
    test = await open();
    const diet = must((await ingestSeed(test.memory, test.clock, 2))[0]?.[0], 'the diet operation of session 1');
    const operations = await ingestSeedSession(test.memory, test.clock, 2);
    expect(test.clock()).toBe(SEED_START + 182 * DAY);
    expect(operations).toHaveLength(1);
    const [update] = operations;
    expect(update).toMatchObject({ action: 'UPDATE', targetId: diet.memoryId, content: FISH });
    expect(update!.reason).toContain('user_explicit');

    const old = await test.memory.get(diet.memoryId, SEED_OWNER);
    expect(old).toMatchObject({ content: VEG, invalidatedAt: test.clock(), supersededBy: update!.memoryId, confidence: 0.7 });
    expect(old.history.map((h) => h.event)).toEqual(['created', 'corroborated', 'superseded']);
    expect(old.history.at(-1)!.reason).toContain(update!.reason);

    const replacement = await test.memory.get(update!.memoryId, SEED_OWNER);
    expect(replacement.content).toBe(FISH);
    expect(replacement.confidence).toBe(0.9);
    expect(replacement.sources.map((s) => [s.type, s.id])).toEqual([
      ['user_implicit', 's1'],
      ['user_implicit', 's2'],
      ['user_explicit', 's3'],
    ]);
    expect(replacement.history).toEqual([expect.objectContaining({ event: 'created', related: diet.memoryId })]);
    expect(await test.memory.history(update!.memoryId, SEED_OWNER)).toEqual(replacement.history);

    const active = await test.memory.list(SEED_OWNER);
    expect(active.map((r) => r.content).sort()).toEqual([ADA, AISLE, FISH].sort());
    expect((await test.memory.list({ ...SEED_OWNER, includeInvalid: true })).map((r) => r.content)).toContain(VEG);
    for (const query of SEED_QUERIES) {
      const hits = await test.memory.retrieve(query, { ...SEED_OWNER, k: 10 });
      expect(hits.map((h) => h.memory.content)).not.toContain(VEG);
    }
  });

  it('ranks the diet memory first for the dietary query and the seat memory first for the seat query', async () => {
    test = await open();
    await ingestSeed(test.memory, test.clock);
    const [dietary] = await test.memory.retrieve(SEED_QUERIES[0]!, { ...SEED_OWNER, k: 3 });
    const [seat] = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3 });
    expect(dietary!.memory.content).toBe(FISH);
    expect(seat!.memory.content).toBe(AISLE);
    const hits = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3 });
    // k is a maximum: the name memory has nothing in common with the seat query, so it does not pad
    // it (nor does the diet memory where a lexical channel finds the seat memory shares its words).
    expect(hits[0]!.memory.content).toBe(AISLE);
    expect(hits.map((hit) => hit.memory.content)).not.toContain(ADA);
    const { misses } = await test.memory.explain(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3 });
    expect(misses.filter((miss) => miss.reason === 'irrelevant').map((miss) => miss.memory.content)).toContain(ADA);
    for (const miss of misses.filter((entry) => entry.reason === 'irrelevant')) expect(miss.relevance).toBeLessThan(RELEVANCE_FLOOR);
    for (const hit of hits) {
      expect(hit.relevance).toBeGreaterThanOrEqual(RELEVANCE_FLOOR);
      expect(hit.score).toBeCloseTo(0.6 * hit.relevance + 0.25 * hit.recency + 0.15 * hit.importance, 5);
    }
    // The aisle memory is 182 days old with a 365-day half-life.
    expect(seat!.recency).toBeCloseTo(0.5 ** (182 / 365), 5);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
  });

  it('shows nothing to a different user when the seed user has memories', async () => {
    test = await open();
    await ingestSeed(test.memory, test.clock);
    const other = { userId: OTHER_USER, appName: SEED_APP };
    for (const query of SEED_QUERIES) expect(await test.memory.retrieve(query, other)).toEqual([]);
    expect(await test.memory.list({ ...other, includeInvalid: true })).toEqual([]);
    const [anyId] = (await test.memory.list(SEED_OWNER)).map((r) => r.id);
    await expect(test.memory.get(anyId!, other)).rejects.toThrow(/no memory/);
  });

  it('renders bands and source types in the injected block when the seed has run, with no memory the query has no relevance to', async () => {
    test = await open();
    await ingestSeed(test.memory, test.clock);
    const hits = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3 });
    const text = test.memory.inject(SEED_SYSTEM, hits);
    const band: Record<string, string> = { [AISLE]: 'low, source: user_implicit', [FISH]: 'high, source: user_explicit' };
    expect(text).toBe(
      [
        SEED_SYSTEM,
        '',
        '<MEMORIES>',
        'Information you know about this user from previous conversations. Treat low-confidence items as weak priors.',
        ...hits.map((hit) => `- [confidence: ${band[hit.memory.content]}] ${hit.memory.content}`),
        '</MEMORIES>',
      ].join('\n'),
    );
    expect(text).toContain(`- [confidence: low, source: user_implicit] ${AISLE}`);
    expect(text).not.toContain(ADA);
  });

  it("with episodes on, no turn presents the vegetarian diet once fish replaced it: the seat question's block holds the aisle seat, with the profile the seed's block again (the fish, Ada, the seat), and s1 forgotten leaves no vegetarian episode", async () => {
    test = await open({ episodes: true });
    await ingestSeed(test.memory, test.clock);
    const vegetarian = /vegetarian/i;
    const active = await test.memory.list(SEED_OWNER);
    expect(active.filter((memory) => vegetarian.test(memory.content))).toEqual([]);
    for (const query of SEED_QUERIES) {
      const hits = await test.memory.retrieve(query, { ...SEED_OWNER, k: 10 });
      expect(hits.map((hit) => hit.memory.content).filter((content) => vegetarian.test(content))).toEqual([]);
    }
    // The seat question's block holds the seat (the seed's three lines came from padding k, which
    // retrieve no longer does), and nothing vegetarian; the fish is the active diet.
    const block = test.memory.inject(SEED_SYSTEM, await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3 }));
    expect(block).not.toMatch(vegetarian);
    // The seat, as the fact or as the turn it was read from (one hit stands for both: on Chroma,
    // ranked by cosine alone, the turn ranks above the fact).
    expect(block).toMatch(/- \[confidence: low, source: user_implicit\] .*aisle seat/);
    // With the standing profile, the seed's block again: the fish and Ada (who the user is), the
    // aisle seat (the question's hit), nothing vegetarian, and no line twice.
    const seed = test.memory.inject(SEED_SYSTEM, await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3, profile: true }));
    expect(seed).not.toMatch(vegetarian);
    const lines = seed.split('\n').filter((line) => line.startsWith('- '));
    expect(lines).toHaveLength(3);
    expect(lines.filter((line) => line.endsWith(FISH) || line.endsWith(ADA))).toEqual([`- [confidence: medium, source: user_implicit] ${ADA}`, `- [confidence: high, source: user_explicit] ${FISH}`]);
    expect(lines.filter((line) => /aisle seat/.test(line))).toHaveLength(1);
    expect(seed.indexOf(PROFILE_HEADING)).toBeLessThan(seed.indexOf(ADA));
    // The two turns that stated the diet are kept for lineage, retired by the memory that replaced it.
    const fish = must(
      active.find((memory) => memory.content === FISH),
      'the fish memory',
    );
    const retired = (await test.memory.list({ ...SEED_OWNER, includeInvalid: true })).filter((memory) => memory.topic === 'episode' && memory.invalidatedAt !== undefined);
    expect(retired.map((memory) => memory.content).sort()).toEqual(["As I said before, I'm a vegetarian.", "Hi! I'm vegetarian, so keep that in mind for any meal bookings. Call me Ada."]);
    for (const episode of retired) expect(episode.history.at(-1)).toMatchObject({ event: 'superseded', related: fish.id, sourceId: 's3' });
    await test.memory.forgetSource('s1', SEED_OWNER);
    expect((await test.memory.list(SEED_OWNER)).filter((memory) => vegetarian.test(memory.content))).toEqual([]);
  });
}
