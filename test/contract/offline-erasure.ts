/**
 * Erasure with the embedder offline, for every backend: `forget(id)` cuts the words out of the
 * turn's episode (a text no memory holds, which needs a vector), commits at once with that
 * episode stored without one (zeros, `embedderId` 'engram:needs-vector'), and the first
 * `retrieve` once the embedder answers gives it its vector. The backend must round-trip the
 * marker and count the record among the foreign ones until then.
 */
import { expect } from 'vitest';
import { EPISODE_TOPIC } from '../../src/episode/episode';
import { switchableEmbedder } from '../helpers/switchable-embedder';
import { storedText, type createStores } from './harness';

const owner = { userId: 'u_offline', appName: 'default' };

export async function checkOfflineForget(stores: ReturnType<typeof createStores>): Promise<void> {
  const embedder = switchableEmbedder();
  const store = await stores.store();
  const { memory } = await stores.on(store, { episodes: true, embedder });
  await memory.ingest([{ role: 'user', content: "For flights, I prefer the aisle seat. I'm vegetarian." }], { ...owner, sessionId: 'c1', source: { type: 'user_implicit', id: 's1' } });
  const aisle = (await memory.list(owner)).find((record) => record.topic !== EPISODE_TOPIC && record.content.includes('aisle'));
  expect(aisle).toBeDefined();
  embedder.online = false;
  await memory.forget(aisle!.id, owner);
  expect(await storedText(store)).not.toContain('aisle');
  const waiting = (await memory.list(owner)).filter((record) => record.embedderId === 'engram:needs-vector');
  expect(waiting.map((record) => [record.topic, record.content.includes('vegetarian')])).toEqual([[EPISODE_TOPIC, true]]);
  expect(await memory.reembed().catch((error: Error) => error.name)).toBe('PluginError');
  embedder.online = true;
  const hits = await memory.retrieve("I'm vegetarian", { ...owner, k: 5 });
  expect(hits.map((hit) => hit.memory.id)).toContain(waiting[0]!.id);
  expect(hits.find((hit) => hit.memory.id === waiting[0]!.id)!.cosine).toBeGreaterThan(0);
  expect((await memory.list(owner)).map((record) => record.embedderId)).toEqual((await memory.list(owner)).map(() => embedder.id));
}
