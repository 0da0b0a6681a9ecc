import { describe, expect, it, onTestFinished } from 'vitest';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import { PluginError, type ForgetReport } from '../../src/index';
import { activeFacts } from '../helpers/facts';
import { createTestMemory, DAY, type TestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';
import { switchableEmbedder } from '../helpers/switchable-embedder';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });

type Source = ReturnType<typeof implicit | typeof explicit>;

/** Each turn ingested a day after the one before, in its own session. */
async function ingestTurns(test: TestMemory, turns: readonly [content: string, source: Source][]): Promise<void> {
  for (const [content, source] of turns) {
    await test.memory.ingest([{ role: 'user', content }], { ...owner, sessionId: `c_${source.id}`, source });
    test.clock.advance(DAY);
  }
}

/** s2 before and s4 after s1; s1 changes the diet s2 stated, and s4 restates s2's diet. */
function ingestHistory(test: TestMemory): Promise<void> {
  return ingestTurns(test, [
    ["Call me Ada. I'm vegetarian.", implicit('s2')],
    ["I've started eating zqxcanary dairy again. I'm vegan these days.", explicit('s1')],
    ["For flights, I prefer the aisle seat. I'm vegetarian.", implicit('s4')],
  ]);
}

/** s1 (the user, explicitly) says vegan; s2 later says vegetarian, which the trust gate refuses: no memory holds that fact's text. */
async function ingestRefused(test: TestMemory): Promise<void> {
  await ingestTurns(test, [
    ["I'm vegan, zqxcanary.", explicit('s1')],
    ["I'm vegetarian.", implicit('s2')],
  ]);
  expect((await test.memory.list(owner)).map((record) => record.content)).not.toContain('The user follows a vegetarian diet.');
}

/** A history, then a later session (a reload: nothing the embedder computed is cached in it) with the embedder `online` or not. */
async function reopen(online: boolean, episodes = true, history = ingestHistory): Promise<{ test: TestMemory; embedder: ReturnType<typeof switchableEmbedder> }> {
  const embedder = switchableEmbedder();
  const first = await createTestMemory({ episodes, embedder });
  await history(first);
  await first.memory.close();
  embedder.online = online;
  const test = await createTestMemory({ episodes, embedder, name: first.name, indexedDB: first.factory });
  test.clock.set(first.clock());
  onTestFinished(() => test.memory.close());
  return { test, embedder };
}

/** forgetSource('s1') after `history`, with the embedder `online` or not. */
async function erase(online: boolean, history = ingestHistory): Promise<{ test: TestMemory; report: ForgetReport; embedder: ReturnType<typeof switchableEmbedder> }> {
  const { test, embedder } = await reopen(online, true, history);
  const report = await test.memory.forgetSource('s1', owner);
  return { test, report, embedder };
}

/** What a store holds for the owner, as a user sees it: active facts, and episode texts. */
async function leftOf(test: TestMemory): Promise<{ facts: ReturnType<typeof activeFacts>; episodes: string[] }> {
  const records = await test.memory.list(owner);
  return {
    facts: activeFacts(records.filter((record) => record.topic !== EPISODE_TOPIC)),
    episodes: records
      .filter((record) => record.topic === EPISODE_TOPIC)
      .map((record) => record.content)
      .sort(),
  };
}

/** What retrieve returns for `query`: each hit's text and score, to compare two stores by. */
async function ranked(test: TestMemory, query: string): Promise<{ content: string; score: number }[]> {
  return (await test.memory.retrieve(query, { ...owner, k: 10 })).map((hit) => ({ content: hit.memory.content, score: hit.score }));
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
  it.each([
    ['every replayed text is stored already', ingestHistory],
    ['the replay needs a text no memory holds (a fact the trust gate refused)', ingestRefused],
  ])('erases the source at once, leaves what a run with the embedder online leaves, and ranks alike once it answers, when %s', async (_, history) => {
    const offline = await erase(false, history);
    const online = await erase(true, history);
    expect(await findInDatabases(offline.test.factory, 'zqxcanary')).toEqual([]);
    const kept = await leftOf(offline.test);
    expect(kept).toEqual(await leftOf(online.test));
    expect(kept.facts.map((fact) => fact.content)).toContain('The user follows a vegetarian diet.');
    expect({ erased: offline.report.erased.length, regenerated: offline.report.regenerated.length }).toEqual({ erased: online.report.erased.length, regenerated: online.report.regenerated.length });
    offline.embedder.online = true;
    expect(await ranked(offline.test, 'vegetarian diet')).toEqual(await ranked(online.test, 'vegetarian diet'));
    const [hit] = await offline.test.memory.retrieve('vegetarian diet', { ...owner, k: 1 });
    expect(hit?.memory.content).toBe('The user follows a vegetarian diet.');
  });
});

describe('Memory.forget with the embedder offline, when the replay needs a new text', () => {
  async function forgetAisle(online: boolean): Promise<{ test: TestMemory; embedder: ReturnType<typeof switchableEmbedder> }> {
    const { test, embedder } = await reopen(online);
    const aisle = (await test.memory.list(owner)).find((record) => record.topic !== EPISODE_TOPIC && record.content.includes('aisle'));
    expect(aisle).toBeDefined();
    await test.memory.forget(aisle!.id, owner);
    return { test, embedder };
  }

  it('erases the words at once, keeps the rest, and gives the cut episode its vector when the embedder answers again', async () => {
    const offline = await forgetAisle(false);
    const online = await forgetAisle(true);
    expect(await findInDatabases(offline.test.factory, 'aisle')).toEqual([]);
    const kept = await leftOf(offline.test);
    expect(kept).toEqual(await leftOf(online.test));
    // The cut episode is a new text: it is stored, waiting for its vector, and listed meanwhile.
    expect(kept.episodes.some((text) => text.includes('vegetarian') && !text.includes('aisle'))).toBe(true);
    expect(kept.facts.map((fact) => fact.content)).toContain('The user follows a vegan diet.');
    // The cut episode is stored without a vector (it holds zeros), marked as waiting for one.
    const pending = (await offline.test.memory.list(owner)).filter((record) => record.embedderId === 'engram:needs-vector');
    expect(pending.map((record) => record.topic)).toEqual([EPISODE_TOPIC]);
    expect(pending[0]!.embedding.every((value) => value === 0)).toBe(true);
    // retrieve needs the embedder for the query itself.
    await expect(offline.test.memory.retrieve('vegetarian', owner)).rejects.toThrow(PluginError);
    offline.embedder.online = true;
    expect(await ranked(offline.test, "I'm vegetarian")).toEqual(await ranked(online.test, "I'm vegetarian"));
    expect((await offline.test.memory.list(owner)).every((record) => record.embedderId === 'remote-hash-64')).toBe(true);
    expect(await findInDatabases(offline.test.factory, 'aisle')).toEqual([]);
  });

  it('leaves the vector to reembed() when that is the next call once the embedder answers', async () => {
    const offline = await forgetAisle(false);
    const online = await forgetAisle(true);
    offline.embedder.online = true;
    expect((await offline.test.memory.reembed()).reembedded).toBeGreaterThan(0);
    expect((await online.test.memory.reembed()).reembedded).toBe(0);
    expect(await ranked(offline.test, "I'm vegetarian")).toEqual(await ranked(online.test, "I'm vegetarian"));
  });

  it("opens with reembed 'auto' while the embedder is still offline, and leaves the cut episode to the next retrieve", async () => {
    const offline = await forgetAisle(false);
    const online = await forgetAisle(true);
    await offline.test.memory.close();
    const reopened = await createTestMemory({ episodes: true, embedder: offline.embedder, reembed: 'auto', name: offline.test.name, indexedDB: offline.test.factory });
    reopened.clock.set(offline.test.clock());
    onTestFinished(() => reopened.memory.close());
    expect(await leftOf(reopened)).toEqual(await leftOf(online.test));
    offline.embedder.online = true;
    expect(await ranked(reopened, "I'm vegetarian")).toEqual(await ranked(online.test, "I'm vegetarian"));
  });

  it('gives the cut episode its vector with the next write once the embedder answers', async () => {
    const offline = await forgetAisle(false);
    const online = await forgetAisle(true);
    const waiting = (test: TestMemory) => test.memory.list(owner).then((records) => records.filter((record) => record.embedderId !== 'remote-hash-64').length);
    expect(await waiting(offline.test)).toBeGreaterThan(0);
    offline.embedder.online = true;
    for (const { memory } of [offline.test, online.test]) await memory.ingest([{ role: 'user', content: 'I play the cello.' }], { ...owner, sessionId: 'c5', source: implicit('s5') });
    expect(await waiting(offline.test)).toBe(0);
    expect(await ranked(offline.test, "I'm vegetarian")).toEqual(await ranked(online.test, "I'm vegetarian"));
  });
});
