/**
 * The plan's indexed working set against the sweep it replaced, spelled out here as the spec:
 * every active memory of the target walked per candidate, its fact key derived each time, every
 * neighbour sorted. Thousands of random candidates over random working sets (few topics, few
 * texts, coarse embeddings so similarities tie, more than MAX_NEIGHBOURS alike) changed by random
 * creations, corroborations and supersessions must get the very same lists and episode matches.
 */
import { describe, expect, it } from 'vitest';
import { createPolicyDecider, type Decider, type Decision } from '../../src/consolidate/decider';
import { EpisodeLinks, sameKind } from '../../src/consolidate/episodes';
import { MAX_NEIGHBOURS, planConsolidation, type EmbeddedCandidate, type PlanTarget } from '../../src/consolidate/plan';
import { SLOT_TOPICS, sharedSlot, slotKey, slotsMeet } from '../../src/consolidate/slot';
import { WorkingSet } from '../../src/consolidate/working-set';
import { dot, normalize } from '../../src/embed/vector';
import { EPISODE_TOPIC } from '../../src/extract/topics';
import { DEFAULT_TRUST, type Candidate, type MemoryRecord } from '../../src/schema';
import { recordUserId } from '../../src/storage/contract';
import { sameFactKey } from '../../src/text';
import { createRandom } from '../helpers/random';
import { context, embedder, record, source, TARGET } from './fixtures';

/** The sweep as plan.ts had it: a walk of every memory per candidate. */
function referenceSweep(working: Iterable<MemoryRecord>, item: EmbeddedCandidate, target: PlanTarget, threshold: number, exclusiveTopics: ReadonlySet<string>): MemoryRecord[] {
  const inTarget = (m: MemoryRecord) => m.scope === target.scope && m.appName === target.appName && m.userId === recordUserId(target, target.scope) && (target.scope !== 'session' || m.sessionId === target.sessionId);
  const { topic } = item.candidate;
  const fact = exclusiveTopics.has(topic) ? null : sameFactKey(item.candidate.content);
  const slot = slotKey(item.candidate, exclusiveTopics);
  // A slot joins only on the topics the live write reads for it (consolidate.ts sweepKeys).
  const kind = sharedSlot(item.candidate, exclusiveTopics)?.kind;
  const readable = (m: MemoryRecord) => kind !== undefined && SLOT_TOPICS[kind].includes(m.topic);
  const onTopic = (m: MemoryRecord) =>
    (m.topic === topic && (fact === null || sameFactKey(m.content) === fact)) || (slotsMeet(slotKey(m, exclusiveTopics), slot) && readable(m) && sameFactKey(m.content) !== sameFactKey(item.candidate.content));
  const live = [...working].filter((m) => m.invalidatedAt === undefined && inTarget(m));
  const above = live.map((memory) => ({ memory, similarity: dot(memory.embedding, item.embedding) })).filter((n) => n.similarity >= threshold);
  const below = live.filter((m) => dot(m.embedding, item.embedding) < threshold && onTopic(m));
  above.sort((a, b) => b.similarity - a.similarity);
  const kept = above.filter((n, rank) => rank < MAX_NEIGHBOURS || onTopic(n.memory));
  return [...kept.map((n) => n.memory), ...below];
}

/** The episode rule as plan.ts had it: the first episode of the sweep stating the same text. */
function referenceSameEpisode(working: Iterable<MemoryRecord>, item: EmbeddedCandidate, threshold: number): MemoryRecord | undefined {
  const episodes = sameKind(item.candidate, referenceSweep(working, item, TARGET, threshold, new Set()));
  return episodes.find((m) => sameFactKey(m.content) === sameFactKey(item.candidate.content));
}

const TOPICS = ['diet', 'travel', 'hobby', 'identity', EPISODE_TOPIC];
const EXCLUSIVE = new Set(['diet', 'identity']);
const TEXTS = ['The user is vegan.', 'the user is VEGAN.', 'The user likes tea.', 'The user likes tea', 'Went hiking.', 'went  hiking.', 'Sam.', 'The user plays chess.', 'The user hates tea.', 'The user quit chess.'];

/** A coarse unit vector (entries in {-1, 0, 1}, 6 dimensions): many memories tie, many pass any threshold. */
function coarse(random: () => number): Float32Array {
  const v = Float32Array.from({ length: 6 }, () => Math.floor(random() * 3) - 1);
  if (v.every((x) => x === 0)) v[0] = 1;
  return normalize(v);
}

function randomRecord(random: () => number, id: string): MemoryRecord {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const roll = random();
  // Mostly the target's, some of another scope, user or session, some tombstones.
  const place: Partial<MemoryRecord> = roll < 0.06 ? { scope: 'app', userId: '' } : roll < 0.1 ? { userId: 'other' } : roll < 0.14 ? { scope: 'session', sessionId: 's' } : roll < 0.18 ? { invalidatedAt: 1, supersededBy: 'x' } : {};
  return { ...record(id, pick(TEXTS), pick(TOPICS), place), embedding: coarse(random) };
}

function randomItem(random: () => number): EmbeddedCandidate {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const candidate: Candidate = { content: pick(TEXTS), topic: pick(TOPICS), confidence: 0.9, excerpt: '', importance: 0.5, halfLifeDays: 365 };
  return { candidate, embedding: coarse(random), source: source('s2') };
}

const ids = (list: readonly MemoryRecord[]) => list.map((m) => m.id);

describe('WorkingSet', () => {
  it('sweeps and matches episodes exactly as the walk of every memory did, as the plan changes it', () => {
    let checked = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const random = createRandom(seed);
      const map = new Map<string, MemoryRecord>();
      for (let i = 0; i < 20 + seed * 4; i++) map.set(`m${i}`, randomRecord(random, `m${i}`));
      const working = new WorkingSet(map, TARGET);
      let next = map.size;
      for (let step = 0; step < 150; step++) {
        const item = randomItem(random);
        const threshold = [-1, 0, 0.4, 0.7, 1.01][step % 5]!;
        const exclusive = step % 3 === 0 ? new Set<string>() : EXCLUSIVE;
        const swept = working.sweep(item, threshold, exclusive);
        expect(ids(swept), `seed ${seed}, step ${step}`).toEqual(ids(referenceSweep(map.values(), item, TARGET, threshold, exclusive)));
        const episode = { ...item, candidate: { ...item.candidate, topic: EPISODE_TOPIC } };
        expect(working.sameEpisode(episode, threshold)?.id, `seed ${seed}, step ${step}`).toBe(referenceSameEpisode(map.values(), episode, threshold)?.id);
        checked++;
        // A change as the plan makes them: a new memory, a corroboration or a supersession of an active one.
        const active = [...map.values()].filter((m) => m.invalidatedAt === undefined);
        const target = active[Math.floor(random() * active.length)];
        const roll = random();
        if (target && roll < 0.3) working.set({ ...target, invalidatedAt: 2, supersededBy: `m${next}` });
        else if (target && roll < 0.5) working.set({ ...target, confidence: 0.7 });
        if (roll < 0.3 || roll > 0.5) working.set(randomRecord(random, `m${next++}`));
      }
    }
    expect(checked).toBe(3000);
  });

  it('hands a decider the same memories over a whole batch as the walk of every memory did', async () => {
    const random = createRandom(7);
    const map = new Map<string, MemoryRecord>();
    for (let i = 0; i < 60; i++) map.set(`m${i}`, randomRecord(random, `m${i}`));
    const exclusive = new Set(EXCLUSIVE);
    let asked = 0;
    // A decider that checks what it is shown against the map as it stands, and proposes at random so the batch supersedes and corroborates.
    const decider: Decider = {
      decide({ candidate, similar }): Decision {
        const item = items.find((entry) => entry.candidate === candidate)!;
        expect(ids(similar)).toEqual(ids(sameKind(candidate, referenceSweep(map.values(), item, TARGET, 0.4, exclusive))));
        asked++;
        const target = similar[Math.floor(random() * similar.length)];
        const roll = random();
        if (target && roll < 0.3) return { action: 'UPDATE', targetId: target.id, reason: 'random' };
        if (target && roll < 0.6) return { action: 'NOOP', targetId: target.id, reason: 'random', corroborate: true };
        return { action: 'CREATE', reason: 'random' };
      },
    };
    const items = Array.from({ length: 600 }, () => randomItem(random));
    const plan = await planConsolidation(map, items, TARGET, { ...context(decider), candidateThreshold: 0.4, exclusiveTopics: exclusive });
    expect(asked).toBe(items.filter((entry) => entry.candidate.topic !== EPISODE_TOPIC).length);
    expect(plan.operations.map((op) => op.action)).toEqual(expect.arrayContaining(['CREATE', 'UPDATE', 'NOOP']));
  });

  it('hands a decider the same memories as the walk did over a batch of mostly alike new facts', async () => {
    // Six turns in ten a new fact on one template, each turn an episode: hundreds of memories at
    // or above the threshold for every fact, far more than MAX_NEIGHBOURS, with ties among them;
    // restatements, an exclusive topic and slots so the batch corroborates and supersedes too.
    const random = createRandom(11);
    const map = new Map<string, MemoryRecord>();
    for (let i = 0; i < 40; i++) map.set(`m${i}`, { ...record(`m${i}`, `The user loves their dog number ${i * 3}.`, 'pets'), embedding: embedder.embedOne(`The user loves their dog number ${i * 3}.`) });
    const exclusive = new Set(EXCLUSIVE);
    const alike = (i: number): Candidate => {
      const roll = random();
      if (roll < 0.1) return { content: `The user is ${i % 2 ? 'vegan' : 'vegetarian'}.`, topic: 'diet', confidence: 0.9, excerpt: '', importance: 0.5, halfLifeDays: 365 };
      if (roll < 0.2) return { content: `The user ${i % 3 ? 'plays' : 'quit'} chess.`, topic: 'hobby', confidence: 0.9, excerpt: '', importance: 0.5, halfLifeDays: 365 };
      const number = roll < 0.35 ? Math.floor(random() * i) : i;
      return { content: `The user loves their dog number ${number}.`, topic: 'pets', confidence: 0.9, excerpt: '', importance: 0.5, halfLifeDays: 365 };
    };
    const items: EmbeddedCandidate[] = [];
    for (let i = 0; i < 700; i++) {
      const candidate = i % 10 < 6 ? alike(i) : { content: `On day ${i} I went to Kyoto with my friend number ${i % 37}.`, topic: EPISODE_TOPIC, confidence: 0.9, excerpt: '', importance: 0.3, halfLifeDays: 120 };
      items.push({ candidate, embedding: embedder.embedOne(candidate.content), source: source(`s${i}`) });
    }
    let asked = 0;
    let crowded = 0;
    const policy = context().decider;
    const decider: Decider = {
      decide(input) {
        const item = items.find((entry) => entry.candidate === input.candidate)!;
        const reference = referenceSweep(map.values(), item, TARGET, 0.6, exclusive);
        expect(ids(input.similar)).toEqual(ids(sameKind(input.candidate, reference)));
        if ([...map.values()].filter((m) => m.invalidatedAt === undefined && dot(m.embedding, item.embedding) >= 0.6).length > 4 * MAX_NEIGHBOURS) crowded++;
        asked++;
        return policy.decide(input);
      },
    };
    const plan = await planConsolidation(map, items, TARGET, { ...context(decider), candidateThreshold: 0.6, exclusiveTopics: exclusive });
    expect(asked).toBe(420);
    expect(crowded).toBeGreaterThan(200);
    expect(plan.operations.map((op) => op.action)).toEqual(expect.arrayContaining(['CREATE', 'UPDATE', 'NOOP']));
  });
});

/** The policy decider behind a wrapper, which the plan cannot tell from a plugin: it is handed the whole sweep. */
function opaque(decider: Decider): Decider {
  return { decide: (input) => decider.decide(input) };
}

/** Slot facts on several topics, restatements on other topics, alike facts past MAX_NEIGHBOURS. */
const SLOT_WORDS = ['tea', 'green', 'chess', 'jazz', 'music', 'dog', 'number'];
const LONG_SLOT = ['at', 'the', 'old', 'club', 'by', 'river'];
const POLICY_TOPICS = ['diet', 'hobby', 'preference', 'general', 'pets', 'identity', EPISODE_TOPIC];

function policyCandidate(random: () => number, i: number): Candidate {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const roll = random();
  // At times a slot of more words than the working set looks up every subset of (it reads every word's memories then).
  const about = random() < 0.08 ? [...SLOT_WORDS, ...LONG_SLOT].slice(Math.floor(random() * 3)).join(' ') : Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(SLOT_WORDS)).join(' ');
  const content =
    roll < 0.3
      ? `The user ${pick(['loves', 'hates', 'plays', 'quit', 'likes', 'has', 'gave up'])} ${about}.`
      : roll < 0.5
        ? pick(TEXTS)
        : roll < 0.8
          ? `The user loves their dog number ${Math.floor(random() * (i + 1))}.`
          : `On day ${i} I went to Kyoto with my friend number ${i % 37}.`;
  return { content, topic: roll >= 0.8 ? EPISODE_TOPIC : pick(POLICY_TOPICS.slice(0, -1)), confidence: 0.9, excerpt: '', importance: 0.5, halfLifeDays: 365 };
}

describe('the policy decider', () => {
  it('decides every batch as it did when handed the whole sweep, reading only what its rules can pick', { timeout: 120_000 }, async () => {
    let decided = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const random = createRandom(100 + seed);
      const initial = Array.from({ length: 30 + seed * 5 }, (_, i) => {
        const candidate = policyCandidate(random, i);
        const coarseVector = seed % 3 === 0 ? coarse(random) : undefined;
        const base = record(`m${i}`, candidate.content, candidate.topic, random() < 0.1 ? { invalidatedAt: 1, supersededBy: 'x' } : random() < 0.15 ? { sources: [source('s0', 'tool_output')] } : {});
        return coarseVector ? { ...base, embedding: coarseVector } : base;
      });
      const items: EmbeddedCandidate[] = Array.from({ length: 200 }, (_, i) => {
        const candidate = policyCandidate(random, i);
        const embedding = seed % 3 === 0 ? coarse(random) : embedder.embedOne(candidate.content);
        return { candidate, embedding, source: source(`s${i}`, random() < 0.2 ? 'tool_output' : 'user_explicit') };
      });
      // The decider's exclusive topics the context's, or others: the gates and the rules read different sets.
      const deciderTopics = seed % 4 === 0 ? new Set(['hobby', 'pets']) : EXCLUSIVE;
      const threshold = [0.6, 0.3, 0.8, -1][seed % 4]!;
      const planned = async (wrap: boolean) => {
        const policy = createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: deciderTopics });
        const map = new Map(initial.map((memory) => [memory.id, memory]));
        return planConsolidation(map, items, TARGET, { ...context(wrap ? opaque(policy) : policy), candidateThreshold: threshold, exclusiveTopics: EXCLUSIVE });
      };
      const [fast, whole] = [await planned(false), await planned(true)];
      expect(fast.operations, `seed ${seed}`).toEqual(whole.operations);
      expect(fast.changed, `seed ${seed}`).toEqual(whole.changed);
      expect(new Set(fast.operations.map((op) => op.action)), `seed ${seed}`).toEqual(new Set(['CREATE', 'UPDATE', 'NOOP']));
      decided += fast.operations.length;
    }
    expect(decided).toBe(1600);
  });
});

describe('EpisodeLinks', () => {
  it('links a fact to the first episode holding its excerpt, as a walk of every episode did', () => {
    const random = createRandom(3);
    const words = ['I', 'went', 'to', 'Kyoto', 'to-day', 'with', 'Ann', 'and', 'we', 'ate', 'ramen.', 'Kyo'];
    for (let round = 0; round < 200; round++) {
      const links = new EpisodeLinks();
      const texts: string[] = [];
      for (let i = 0; i < 1 + (round % 12); i++) {
        const text = Array.from({ length: 1 + Math.floor(random() * 8) }, () => words[Math.floor(random() * words.length)]).join(' ');
        texts.push(text);
        links.add({ content: text, topic: EPISODE_TOPIC, confidence: 0.9, excerpt: text, importance: 0.3, halfLifeDays: 120 }, `e${i}`);
      }
      for (let probe = 0; probe < 20; probe++) {
        // Any slice of an episode's text (parts of words included), or words at random; with "…" or extra whitespace at times.
        const text = texts[Math.floor(random() * texts.length)]!;
        const start = Math.floor(random() * text.length);
        const cut = random() < 0.7 ? text.slice(start, start + 1 + Math.floor(random() * 30)) : `${words[probe % words.length]} ${words[(probe * 5) % words.length]}`;
        const excerpt = probe % 4 === 0 ? `${cut}…` : probe % 4 === 1 ? cut.replace(/ /g, '\n  ') : cut;
        const folded = excerpt.replace(/…$/, '').replace(/\s+/g, ' ').trim();
        const holder = folded.length > 0 ? texts.findIndex((t) => t.includes(folded)) : -1;
        const expected = holder >= 0 ? `e${holder}` : texts.length === 1 ? 'e0' : undefined;
        expect(links.of({ content: 'a fact', topic: 'general', confidence: 0.9, excerpt, importance: 0.5, halfLifeDays: 180 }), JSON.stringify({ texts, excerpt })).toBe(expected);
      }
    }
  });
});
