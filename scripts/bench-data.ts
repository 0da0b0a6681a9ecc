/**
 * Seeded benchmark data: memory texts from a fixed vocabulary, records ready for the store,
 * queries and 10-message conversations. Same seed, same data, on Node and in the browser.
 */
import { createHashEmbedder, HASH_DIM, hashEmbedderId } from '../src/embed/hash-embedder';
import { DAY_MS } from '../src/time';
import type { ChatMessage, MemoryRecord } from '../src/schema';
import type { Memory, MemoryOptions } from '../src/index';
import type { Storage } from '../src/storage/contract';
import { openMemory } from '../src/memory';

export const BENCH_APP = 'bench-app';
export const BENCH_USER = 'u_owner';
export const EMBEDDER_ID = hashEmbedderId(HASH_DIM);
export const DAY = DAY_MS;
export const T0 = Date.UTC(2026, 5, 1);

/**
 * Opens a memory as the benches time it, with `settled`: resolves once the storage's background
 * work (the record fill, snapshot writes: storage.vectors.settled) is done. `onOpened` gets the
 * IndexedDB backend's storage itself (a bench may wrap one of its calls to count it).
 * `clearEmbedCache` empties the memory's cache of recently embedded texts, so a timed call that
 * repeats a templated text pays for it as a new one would.
 */
export async function openSettledMemory(options: MemoryOptions, onOpened?: (storage: Storage) => void): Promise<{ memory: Memory; settled: () => Promise<void>; clearEmbedCache: () => void }> {
  let settled: () => Promise<void> = async () => {};
  let clearEmbedCache = () => {};
  const memory = await openMemory(options, {
    onOpened: (storage) => {
      settled = () => storage.vectors.settled();
      onOpened?.(storage as Storage);
    },
    onEmbedder: (embedder) => {
      clearEmbedCache = () => embedder.clearCache();
    },
  });
  return { memory, settled: () => settled(), clearEmbedCache: () => clearEmbedCache() };
}

export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const VERBS = 'likes loves prefers avoids collects books orders enjoys dislikes recommends visits reads watches plays cooks buys rents studies photographs follows'.split(' ');
const ADJECTIVES = 'spicy quiet early late cheap luxury vintage modern crowded remote sunny rainy vegan organic local foreign classic noisy cosy bright dark tiny huge slow fast rare popular'.split(' ');
const NOUNS =
  'hotels trains flights museums beaches restaurants markets concerts hikes bikes novels podcasts teas wines cheeses coffees ferries cabins tours festivals galleries bakeries libraries parks lakes mountains islands villages bridges castles'.split(
    ' ',
  );
const PLACES = 'Lisbon Kyoto Oslo Lima Cairo Quito Seoul Dublin Porto Tallinn Hanoi Denver Perth Nairobi Bergen Krakow Valencia Cusco Tbilisi Osaka'.split(' ');

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function memoryText(random: () => number): string {
  return `The user ${pick(random, VERBS)} ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)} in ${pick(random, PLACES)} during ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}.`;
}

export function queryText(random: () => number): string {
  return `Which ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)} in ${pick(random, PLACES)} does the user like?`;
}

/** Columnar copy of one owner's rows, for the brute-force check and the kernel comparisons. */
export interface OwnerRows {
  ids: string[];
  texts: string[];
  vectors: Float32Array;
  updatedAt: Float64Array;
  halfLifeDays: Float32Array;
  importance: Float32Array;
}

export interface BenchData {
  /** Owner records first, then the noise owners'. */
  records: MemoryRecord[];
  owner: OwnerRows;
  /** Seconds spent embedding and the number of texts: hash-embedding throughput. */
  embedSeconds: number;
  embedded: number;
}

/** `n` memories of the owner plus `noise` spread over four other users. */
export function createBenchData(n: number, noise: number, seed = 42): BenchData {
  const random = createRandom(seed + n);
  const embedder = createHashEmbedder(HASH_DIM);
  const texts = Array.from({ length: n + noise }, () => memoryText(random));
  const started = performance.now();
  const vectors = texts.map((text) => embedder.embedOne(text));
  const embedSeconds = (performance.now() - started) / 1000;
  const owner: OwnerRows = {
    ids: [],
    texts: [],
    vectors: new Float32Array(n * HASH_DIM),
    updatedAt: new Float64Array(n),
    halfLifeDays: new Float32Array(n),
    importance: new Float32Array(n),
  };
  const records = texts.map((content, i): MemoryRecord => {
    const userId = i < n ? BENCH_USER : `u_noise${i % 4}`;
    const at = T0 - Math.floor(random() * 365 * DAY);
    const record: MemoryRecord = {
      id: `m${String(i).padStart(7, '0')}`,
      userId,
      appName: BENCH_APP,
      scope: 'user',
      topic: `topic${Math.floor(random() * 64)}`,
      content,
      importance: Math.round(random() * 100) / 100,
      halfLifeDays: 7 + Math.floor(random() * 358),
      confidence: 0.65,
      sources: [{ type: 'user_implicit', id: `c${Math.floor(i / 10)}`, excerpt: content, at }],
      createdAt: at,
      updatedAt: at,
      history: [{ at, event: 'created', reason: 'bench data' }],
      embedding: vectors[i]!,
      embedderId: EMBEDDER_ID,
    };
    if (i < n) {
      owner.ids.push(record.id);
      owner.texts.push(content);
      owner.vectors.set(record.embedding, i * HASH_DIM);
      owner.updatedAt[i] = record.updatedAt;
      owner.halfLifeDays[i] = record.halfLifeDays;
      owner.importance[i] = record.importance;
    }
    return record;
  });
  return { records, owner, embedSeconds, embedded: texts.length };
}

const NAMES = 'Ada Ben Cleo Dario Eun Farah Gus Hana Ivo Juno Kai Lena Milo Nia Oren Pia Quin Rafa Sol Tove'.split(' ');

/** A 10-message conversation (5 user, 5 assistant) whose user turns the rule extractor reads. */
export function conversation(index: number): ChatMessage[] {
  const diet = ['vegetarian', 'vegan', 'pescatarian'][index % 3];
  const seat = ['window', 'aisle', 'middle'][index % 3];
  return [
    { role: 'user', content: `Hi, call me ${NAMES[index % NAMES.length]}.` },
    { role: 'assistant', content: 'Nice to meet you. How can I help with your trip?' },
    { role: 'user', content: `I'm ${diet}, so plan the meals around that.` },
    { role: 'assistant', content: 'Understood, I will filter the restaurants.' },
    { role: 'user', content: `On long flights I prefer the ${seat} seat.` },
    { role: 'assistant', content: 'Noted for the booking.' },
    { role: 'user', content: `Also, the export keeps failing when I sync my itinerary (${index}).` },
    { role: 'assistant', content: 'Sorry about that; I will report it.' },
    { role: 'user', content: `I want quiet ${pick(createRandom(index), NOUNS)} near ${pick(createRandom(index + 7), PLACES)}.` },
    { role: 'assistant', content: 'I will look for some.' },
  ];
}

/** The `p`th percentile of `values` (nearest rank, the lower one for an even count at 50). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The median: {@link percentile} 50. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Milliseconds with the precision their size deserves. */
export function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

/** CPU ms used by this process so far, where the runtime can tell (Node: compute runs in-process, so it counts), else NaN. */
export function cpuMs(): number {
  const usage = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage?.();
  return usage ? (usage.user + usage.system) / 1000 : Number.NaN;
}
