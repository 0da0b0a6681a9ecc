/**
 * The standing profile (issue 42, items 1 and 4): `retrieve(query, { profile: true })` adds the
 * few memories that say who the user is (src/retrieve/profile.ts) to the hits, marked as profile
 * and never as a second copy of a hit; `inject` and `assemble` write them in a part of the block
 * of their own. With it the seed's seat question gets the seed's block again (the fish, Ada, the
 * aisle seat, nothing vegetarian) without padding k.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_QUERIES, SEED_START, SEED_SYSTEM } from '../../scripts/seed-sessions';
import { MEMORIES_CLOSE, MEMORIES_OPEN, MEMORIES_PREAMBLE, MORE_FACTS_HEADING, PROFILE_HEADING } from '../../src/inject/inject';
import { chooseProfile, PROFILE_LIMIT, withProfile } from '../../src/retrieve/profile';
import type { Retrieved } from '../../src/retrieve/retrieve';
import type { MemoryRecord } from '../../src/schema';
import { record, T } from '../consolidate/fixtures';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { ingestSeed, SEED_OWNER } from '../helpers/seed';

const FISH = 'The user eats fish again.';
const ADA = 'The user goes by Ada.';
const AISLE = 'The user prefers aisle seating on flights.';

/** The block's lines between the preamble and the closing tag. */
function blockLines(text: string): string[] {
  const body = text.slice(text.indexOf(MEMORIES_OPEN));
  const lines = body.split('\n');
  expect(lines[1]).toBe(MEMORIES_PREAMBLE);
  return lines.slice(2, lines.indexOf(MEMORIES_CLOSE));
}

/** Each test's memories, closed after it. */
const opened: TestMemory[] = [];
afterEach(() => Promise.all(opened.splice(0).map(({ memory }) => memory.close())));

/** A memory with episodes on (the library's default), closed after the test. */
async function open(): Promise<TestMemory> {
  const test = await createTestMemory({ episodes: true });
  opened.push(test);
  return test;
}

describe('the standing profile: who the user is, in every block, never as a hit', () => {
  it("gives the seed's seat question the seed's block: the fish and Ada as profile, the aisle seat as the hit, nothing vegetarian, nothing padded", async () => {
    const test = await open();
    await ingestSeed(test.memory, test.clock);
    const hits = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3 });
    // Without the profile, k is a maximum: the seat alone.
    expect(hits.map((hit) => hit.memory.content)).toEqual([AISLE]);
    const withProfile = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3, profile: true });
    expect(withProfile.map((hit) => [hit.memory.content, hit.profile === true])).toEqual([
      [AISLE, false],
      [ADA, true],
      [FISH, true],
    ]);
    // A profile entry is not a hit of the query: scored as a question about the user as a whole scores (no relevance).
    for (const entry of withProfile.filter((hit) => hit.profile)) {
      expect(entry.relevance).toBe(0);
      expect(entry.score).toBeCloseTo(0.25 * entry.recency + 0.15 * entry.importance, 12);
    }
    const block = test.memory.inject(SEED_SYSTEM, withProfile);
    expect(block).not.toMatch(/vegetarian/i);
    expect(blockLines(block)).toEqual([
      PROFILE_HEADING,
      `- [confidence: medium, source: user_implicit] ${ADA}`,
      `- [confidence: high, source: user_explicit] ${FISH}`,
      MORE_FACTS_HEADING,
      `- [confidence: low, source: user_implicit] ${AISLE}`,
    ]);
    expect(test.memory.assemble(SEED_SYSTEM, withProfile, { maxTokens: 10_000 }).text).toBe(block);
  });

  it('shows a profile memory once when it is also a hit: in the profile part, with its score as a hit', async () => {
    const test = await open();
    await ingestSeed(test.memory, test.clock);
    const hits = await test.memory.retrieve(SEED_QUERIES[0]!, { ...SEED_OWNER, k: 3, profile: true });
    const fish = hits.filter((hit) => hit.memory.content === FISH || hit.represents?.some((id) => hits.some((other) => other.memory.id === id)));
    expect(fish).toHaveLength(1);
    expect(fish[0]).toMatchObject({ profile: true });
    expect(fish[0]!.relevance).toBeGreaterThan(0);
    const block = test.memory.inject(SEED_SYSTEM, hits);
    expect(block.split(FISH)).toHaveLength(2);
    expect(block.split(ADA)).toHaveLength(2);
    expect(blockLines(block)[0]).toBe(PROFILE_HEADING);
  });

  it('keeps only the profile topics, active facts of the user, at most PROFILE_LIMIT, and adds nothing when asked without it', async () => {
    const test = await open();
    const { memory, clock } = test;
    const owner = { userId: 'u_zoe', appName: 'default' };
    let n = 0;
    const say = (content: string) => memory.ingest([{ role: 'user', content }], { ...owner, sessionId: 'c1', source: { type: 'user_explicit', id: `s${++n}` } });
    await say("I'm Zoë.");
    await say('I live in Lisbon.');
    await say("I'm allergic to peanuts.");
    await say('I love jazz.');
    clock.advance(DAY);
    await say('I moved to Porto.');
    const listed = await memory.list(owner);
    const topics = new Map(listed.map((record) => [record.content, record.topic]));
    const entries = (await memory.retrieve('what jazz records should I buy?', { ...owner, profile: true })).filter((hit) => hit.profile);
    expect(entries.map((hit) => topics.get(hit.memory.content)).sort()).toEqual(['allergy', 'home', 'identity']);
    expect(entries.some((hit) => hit.memory.content.includes('Lisbon'))).toBe(false);
    expect(entries.every((hit) => hit.memory.scope === 'user' && hit.memory.invalidatedAt === undefined && hit.memory.topic !== 'episode')).toBe(true);
    expect((await memory.retrieve('what jazz records should I buy?', owner)).some((hit) => hit.profile)).toBe(false);
    // Another user's profile is never shown.
    expect(await memory.retrieve('zqxv', { userId: 'u_bob', appName: 'default', profile: true })).toEqual([]);
  });

  it("assemble's budget drops the hits before the profile, and the stable order stays a prefix when a memory is added", async () => {
    const test = await open();
    await ingestSeed(test.memory, test.clock);
    const hits = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3, profile: true });
    const full = test.memory.assemble(SEED_SYSTEM, hits, { maxTokens: 10_000 });
    const tight = test.memory.assemble(SEED_SYSTEM, hits, { maxTokens: full.tokens - 1 });
    expect(tight.included.map((hit) => hit.memory.content).sort()).toEqual([ADA, FISH].sort());
    expect(tight.dropped.map((hit) => hit.memory.content)).toEqual([AISLE]);
    const before = test.memory.assemble(SEED_SYSTEM, hits, { maxTokens: 10_000, order: 'stable' }).text;
    test.clock.advance(DAY);
    await test.memory.ingest([{ role: 'user', content: "I'm allergic to shellfish." }], { ...SEED_OWNER, sessionId: 's4', source: { type: 'user_explicit', id: 's4' } });
    const after = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3, profile: true });
    expect(after.some((hit) => hit.profile && hit.memory.content.includes('shellfish'))).toBe(true);
    const next = test.memory.assemble(SEED_SYSTEM, after, { maxTokens: 10_000, order: 'stable' }).text;
    expect(next.startsWith(before.slice(0, before.indexOf(MEMORIES_CLOSE)))).toBe(true);
    expect(next).toContain('shellfish');
  });
});

describe('the standing profile never takes the place of what the query matched', () => {
  const SQUASH_TURN = "I'm vegetarian and I play squash every Tuesday with my brother.";
  const DIET = 'The user follows a vegetarian diet.';
  const zoe = { userId: 'u_zoe', appName: 'default' };

  it('keeps an episode hit that says more than the profile (the squash), and shows the diet it also says once, as profile', async () => {
    const test = await open();
    await test.memory.ingest([{ role: 'user', content: SQUASH_TURN }], { ...zoe, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
    const asOf = test.clock();
    test.clock.advance(DAY);
    for (const [query, k, at] of [
      [SQUASH_TURN, 5, undefined],
      [SQUASH_TURN, 1, undefined],
      ['squash', 5, undefined],
      [SQUASH_TURN, 5, asOf],
    ] as const) {
      const options = { ...zoe, k, ...(at === undefined ? {} : { asOf: at }) };
      const plain = await test.memory.retrieve(query, options);
      const hits = await test.memory.retrieve(query, { ...options, profile: true });
      // The hits are the query's, unchanged but for the diet, which the profile part shows.
      expect(hits.filter((hit) => !hit.profile).map((hit) => hit.memory.id)).toEqual(plain.map((hit) => hit.memory.id));
      expect(hits.filter((hit) => hit.profile).map((hit) => hit.memory.content)).toEqual([DIET]);
      const diet = hits.find((hit) => hit.profile)!.memory.id;
      expect(hits.some((hit) => hit.represents?.includes(diet))).toBe(false);
      const block = test.memory.inject('SYS', hits);
      expect(block).toMatch(/squash/);
      expect(block.split(DIET)).toHaveLength(2);
      expect(blockLines(block)[0]).toBe(PROFILE_HEADING);
    }
  });
});

describe('the standing profile of a past state', () => {
  it('is the profile the store held at asOf: the vegetarian diet before the fish replaced it', async () => {
    const test = await open();
    await ingestSeed(test.memory, test.clock);
    const before = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3, profile: true, asOf: SEED_START + 2 * DAY });
    expect(before.filter((hit) => hit.profile).map((hit) => hit.memory.content)).toEqual(['The user follows a vegetarian diet.', ADA]);
    const now = await test.memory.retrieve(SEED_QUERIES[1]!, { ...SEED_OWNER, k: 3, profile: true });
    expect(now.filter((hit) => hit.profile).map((hit) => hit.memory.content)).toEqual([ADA, FISH]);
  });
});

describe('chooseProfile and withProfile', () => {
  const hit = (memory: MemoryRecord, score: number, represents?: string[]): Retrieved => ({ memory, score, relevance: score, recency: 1, importance: memory.importance, ...(represents ? { represents } : {}) });

  it('keeps at most PROFILE_LIMIT active user facts on the profile topics, the most important then the newest, in creation order', () => {
    const allergies = Array.from({ length: PROFILE_LIMIT }, (_, i) => record(`a${i}`, `The user is allergic to thing ${i}.`, 'allergy', { importance: 0.9, createdAt: T + i, updatedAt: T + i }));
    const name = record('n', 'The user goes by Zoë.', 'identity', { importance: 0.8 });
    const others = [
      record('h', 'The user loves jazz.', 'preference', { importance: 0.95 }),
      record('e', "I'm allergic to cats.", 'episode', { importance: 0.95 }),
      record('x', 'The user lives in Lisbon.', 'home', { importance: 0.95, invalidatedAt: T }),
      record('s', 'The user lives in Porto.', 'home', { importance: 0.95, scope: 'session', sessionId: 'c1' }),
      record('p', 'The user is a nurse.', 'occupation', { importance: 0.95, scope: 'app', userId: '' }),
    ];
    expect(chooseProfile([name, ...others, ...allergies]).map((memory) => memory.id)).toEqual(allergies.map((memory) => memory.id));
    expect(chooseProfile([name, ...others, ...allergies.slice(1)]).map((memory) => memory.id)).toEqual(['n', ...allergies.slice(1).map((memory) => memory.id)]);
  });

  it('marks a hit that is a profile memory where it ranks, puts a profile fact in the place of an episode hit that says nothing else, and appends the rest unscored by the query', () => {
    const episode = record('e', "I'm Zoë and I'm vegan.", 'episode', { importance: 0.3 });
    const diet = record('d', 'The user is vegan.', 'diet', { importance: 0.7, episodeId: 'e' });
    const name = record('n', 'The user goes by Zoë.', 'identity', { importance: 0.8, updatedAt: T - 365 * DAY, episodeId: 'e' });
    const seat = record('s', 'The user prefers the aisle.', 'travel');
    const out = withProfile([hit(episode, 0.9, ['n']), hit(seat, 0.5)], [diet, name], [diet, name], { now: T, weights: { relevance: 0.6, recency: 0.25, importance: 0.15 } });
    expect(out.map((entry) => [entry.memory.id, entry.profile, entry.represents, entry.score])).toEqual([
      ['d', true, ['e'], 0.9],
      ['s', undefined, undefined, 0.5],
      ['n', true, undefined, expect.any(Number)],
    ]);
    const appended = withProfile([hit(seat, 0.9)], [diet, name], [], { now: T, weights: { relevance: 0.6, recency: 0.25, importance: 0.15 } });
    expect(appended.map((entry) => [entry.memory.id, entry.profile ?? false, entry.relevance])).toEqual([
      ['s', false, 0.9],
      ['d', true, 0],
      ['n', true, 0],
    ]);
    expect(appended[2]!.score).toBeCloseTo(0.25 * 0.5 ** (365 / 365) + 0.15 * 0.8, 12);
  });

  it('keeps an episode hit that also says something else where it ranks, with the profile facts it says out of its represents and in the profile part', () => {
    const episode = record('e', "For flights I prefer the aisle. I'm vegan.", 'episode', { importance: 0.3 });
    const diet = record('d', 'The user is vegan.', 'diet', { importance: 0.7, episodeId: 'e' });
    const seat = record('s', 'The user prefers the aisle.', 'travel', { episodeId: 'e' });
    const weights = { relevance: 0.6, recency: 0.25, importance: 0.15 };
    const represented = withProfile([hit(episode, 0.9, ['s', 'd'])], [diet], [diet, seat], { now: T, weights });
    expect(represented.map((entry) => [entry.memory.id, entry.profile ?? false, entry.represents, entry.relevance])).toEqual([
      ['e', false, ['s'], 0.9],
      ['d', true, undefined, 0],
    ]);
    // The seat fact did not rank within k: the episode still says it.
    const unranked = withProfile([hit(episode, 0.9)], [diet], [diet, seat], { now: T, weights });
    expect(unranked.map((entry) => [entry.memory.id, entry.profile ?? false])).toEqual([
      ['e', false],
      ['d', true],
    ]);
    // A fact read from it that is no longer active says nothing: the episode is profile alone.
    const retired = withProfile([hit(episode, 0.9)], [diet], [diet, { ...seat, invalidatedAt: T }], { now: T, weights });
    expect(retired.map((entry) => [entry.memory.id, entry.profile, entry.represents])).toEqual([['d', true, ['e']]]);
  });
});
