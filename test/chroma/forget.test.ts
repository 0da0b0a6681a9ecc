/**
 * Forgetting on Chroma, read back through Chroma's own API: after `forgetSource(s1)` no text
 * that came only from s1 is in any document or metadata value of any of the storage's
 * collections, and the owner's active memories equal those of a store on Chroma that never
 * saw s1 (invariant 6), with the same conversations at the same times.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/index';
import { createChromaStorage } from '../../src/adapters/chroma/index';
import { activeFacts } from '../helpers/facts';
import { createTestClock, DAY } from '../helpers/memory';
import { chromaClient, collectionNames, freshPrefix, server } from './helpers';

const owner = { userId: 'u_ada', appName: 'default' };
const implicit = (id: string) => ({ type: 'user_implicit' as const, id });
const explicit = (id: string) => ({ type: 'user_explicit' as const, id });
const CANARIES = ['Qzxcanaryname', 'zqx-canary-excerpt', 'zqx-canary-fact', 'zqx-canary-assistant', 'dairy'];

/** Every document and metadata value of every collection under `prefix`, as Chroma returns them. */
async function chromaText(prefix: string): Promise<string> {
  const client = chromaClient();
  const parts: string[] = [];
  for (const name of await collectionNames(prefix, client)) {
    const collection = await client.getCollection({ name } as never);
    const rows = await collection.get({ include: ['documents', 'metadatas'] });
    parts.push(JSON.stringify({ name, ids: rows.ids, documents: rows.documents, metadatas: rows.metadatas }));
  }
  return parts.join('\n');
}

async function ingestAll(memory: Memory, clock: ReturnType<typeof createTestClock>, withS1: boolean) {
  await memory.ingest([{ role: 'user', content: "Call me Ada. I'm vegetarian." }], { ...owner, sessionId: 'c2', source: implicit('s2') });
  clock.advance(DAY);
  if (withS1) {
    const s1 = [
      { role: 'user' as const, content: "Please call me Qzxcanaryname. I've started eating dairy again, zqx-canary-excerpt." },
      { role: 'assistant' as const, content: 'Noted, zqx-canary-assistant.' },
    ];
    await memory.ingest(s1, { ...owner, sessionId: 'c1', source: explicit('s1') });
    await memory.remember({ content: 'The user collects zqx-canary-fact stamps.', topic: 'hobby' }, { ...owner, source: explicit('s1') });
  }
  clock.advance(DAY);
  await memory.ingest([{ role: 'user', content: 'For flights, I prefer the aisle seat.' }], { ...owner, sessionId: 'c4', source: implicit('s4') });
  clock.advance(DAY);
}

describe('Memory.forgetSource on createChromaStorage', () => {
  const opened: Memory[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((memory) => memory.close()));
  });
  const open = async (prefix: string, clock: ReturnType<typeof createTestClock>) => {
    const memory = await createMemory({ storage: createChromaStorage({ ...server(), collectionPrefix: prefix }), clock, worker: 'off' });
    opened.push(memory);
    return memory;
  };

  it('leaves no text of the revoked source in any Chroma collection and equals a store that never saw it', async () => {
    const prefix = freshPrefix('forget');
    const clock = createTestClock();
    const memory = await open(prefix, clock);
    await ingestAll(memory, clock, true);
    const before = await chromaText(prefix);
    for (const canary of CANARIES.filter((canary) => canary !== 'zqx-canary-assistant')) expect(before, canary).toContain(canary);
    expect(before).not.toContain('zqx-canary-assistant'); // assistant text is never stored

    const report = await memory.forgetSource('s1', owner);
    expect(report.erased.length + report.regenerated.length).toBeGreaterThan(0);
    const after = await chromaText(prefix);
    const hits = Object.fromEntries(CANARIES.map((canary) => [canary, after.split(canary).length - 1]));
    expect(hits).toEqual(Object.fromEntries(CANARIES.map((canary) => [canary, 0])));

    const freshClock = createTestClock();
    const fresh = await open(freshPrefix('never'), freshClock);
    await ingestAll(fresh, freshClock, false);
    expect(activeFacts(await memory.list(owner))).toEqual(activeFacts(await fresh.list(owner)));
    // Again: nothing more to erase and still no text of s1 (the report of a second call also
    // lists regenerated tombstones on IndexedDB: an erasure-plan matter, not a backend's).
    expect((await memory.forgetSource('s1', owner)).erased).toEqual([]);
    const again = await chromaText(prefix);
    expect(CANARIES.filter((canary) => again.includes(canary))).toEqual([]);
  }, 120_000);
});
