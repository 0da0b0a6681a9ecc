import { describe, expect, it, onTestFinished } from 'vitest';
import type { Embedder } from '../../src/embed/embedder';
import { createHashEmbedder } from '../../src/embed/hash-embedder';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import type { ForgetReport } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });

/** A remote embedder that can go offline: every call then fails as a network request would. */
function switchableEmbedder(): Embedder & { online: boolean; calls: number } {
  const inner = createHashEmbedder(64);
  const embedder = {
    id: 'remote-hash-64',
    dim: 64,
    online: true,
    calls: 0,
    embed(texts: readonly string[]) {
      embedder.calls++;
      if (!embedder.online) return Promise.reject(new TypeError('fetch failed: getaddrinfo ENOTFOUND embeddings.example'));
      return inner.embed(texts);
    },
  };
  return embedder;
}

/** s2 before and s4 after s1; s1 changes the diet s2 stated, and s4 restates s2's diet. */
async function ingestHistory(test: TestMemory): Promise<void> {
  const { memory, clock } = test;
  await memory.ingest([{ role: 'user', content: "Call me Ada. I'm vegetarian." }], { ...owner, sessionId: 'c2', source: implicit('s2') });
  clock.advance(DAY);
  await memory.ingest([{ role: 'user', content: "I've started eating zqxcanary dairy again. I'm vegan these days." }], { ...owner, sessionId: 'c1', source: explicit('s1') });
  clock.advance(DAY);
  await memory.ingest([{ role: 'user', content: "For flights, I prefer the aisle seat. I'm vegetarian." }], { ...owner, sessionId: 'c4', source: implicit('s4') });
  clock.advance(DAY);
}

/** The history, then a later session (a reload: nothing the embedder computed is cached in it) with the embedder `online` or not. */
async function reopen(online: boolean, episodes = true): Promise<{ test: TestMemory; embedder: ReturnType<typeof switchableEmbedder> }> {
  const embedder = switchableEmbedder();
  const first = await createTestMemory({ episodes, embedder });
  await ingestHistory(first);
  await first.memory.close();
  embedder.online = online;
  const test = await createTestMemory({ episodes, embedder, name: first.name, indexedDB: first.factory });
  test.clock.set(first.clock());
  onTestFinished(() => test.memory.close());
  return { test, embedder };
}

describe('Memory.forget with the embedder offline', () => {
  // With episodes on, forgetting a fact cuts it out of its turn's episode: a new text, which needs the embedder.
  it('forgets a memory at once when every replayed text is stored already (no episodes)', async () => {
    const { test } = await reopen(false, false);
    const vegan = (await test.memory.list(owner)).find((record) => record.content === 'The user follows a vegan diet.');
    expect(vegan).toBeDefined();
    await test.memory.forget(vegan!.id, owner);
    const facts = activeFacts((await test.memory.list(owner)).filter((record) => record.topic !== EPISODE_TOPIC));
    expect(facts.map((fact) => fact.content)).not.toContain('The user follows a vegan diet.');
    expect(facts.map((fact) => fact.content)).toContain('The user follows a vegetarian diet.');
  });
});

describe('Memory.forgetSource with the embedder offline', () => {
  async function erase(online: boolean): Promise<{ test: TestMemory; report: ForgetReport; embedder: ReturnType<typeof switchableEmbedder> }> {
    const { test, embedder } = await reopen(online);
    const report = await test.memory.forgetSource('s1', owner);
    return { test, report, embedder };
  }

  it('erases the source at once and leaves the active set a run with the embedder online leaves, when every replayed text is stored already', async () => {
    const offline = await erase(false);
    const online = await erase(true);
    expect(await findInDatabases(offline.test.factory, 'zqxcanary')).toEqual([]);
    const left = async (test: TestMemory) => {
      const records = await test.memory.list(owner);
      return {
        facts: activeFacts(records.filter((record) => record.topic !== EPISODE_TOPIC)),
        episodes: records
          .filter((record) => record.topic === EPISODE_TOPIC)
          .map((record) => record.content)
          .sort(),
      };
    };
    const kept = await left(offline.test);
    expect(kept).toEqual(await left(online.test));
    expect(kept.facts.map((fact) => fact.content)).toContain('The user follows a vegetarian diet.');
    expect({ erased: offline.report.erased.length, regenerated: offline.report.regenerated.length }).toEqual({ erased: online.report.erased.length, regenerated: online.report.regenerated.length });
    // The rebuilt memories carry the vectors their texts were stored with: retrieval finds them once the embedder answers.
    offline.embedder.online = true;
    const [hit] = await offline.test.memory.retrieve('vegetarian diet', { ...owner, k: 1 });
    expect(hit?.memory.content).toBe('The user follows a vegetarian diet.');
  });
});
