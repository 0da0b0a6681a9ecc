/**
 * RELIABILITY 15 and 16: random users (lookalike ids included), apps and scopes; every read
 * path (`retrieve` with every scope combination and session, `list`, `export`, `get`,
 * `history`) is asked five times per run, and nothing foreign ever comes back. Shared by
 * test/reliability/isolation-property.test.ts and describeStorageContract.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { NotFoundError, type Memory, type MemoryRecord, type Scope } from '../../src/index';

// Ids that collide under concatenation, case folding, trimming or Unicode lookalikes.
const USERS = ['ada', 'Ada', 'аda' /* Cyrillic а */, 'a|b', 'ab', 'a', 'b|', '0', 'ada\u200b'] as const;
const APPS = ['default', 'trips', 'trips|x', 'Trips'] as const;
const SESSIONS = ['s1', 's2'] as const;
const TOPICS = ['diet', 'travel', 'note', 'issue'] as const;
const QUERIES = ['diet', 'window seat', 'note about trips', 'export failing', 'anything at all'];

interface Owned {
  record: MemoryRecord;
}

function visibleTo(record: MemoryRecord, userId: string, appName: string, sessionId?: string): boolean {
  if (record.appName !== appName) return false;
  if (record.scope === 'app') return true;
  if (record.userId !== userId) return false;
  return record.scope !== 'session' || sessionId === undefined || record.sessionId === sessionId;
}

/**
 * Writes one world through `memory` (every user in every app, every scope), then runs `runs`
 * random callers over every read path. Resolves to the reads made and the foreign records seen.
 */
export async function checkIsolation(memory: Memory, runs: number): Promise<{ reads: number; foreign: number }> {
  let reads = 0;
  let foreign = 0;
  const written: Owned[] = [];
  // One world, written through the public API: every user in every app, every scope.
  let n = 0;
  for (const appName of APPS) {
    for (const userId of USERS) {
      for (const topic of TOPICS) {
        const scope: Scope = n % 5 === 0 ? 'session' : 'user';
        const sessionId = SESSIONS[n % 2]!;
        await memory.remember({ content: `Note ${n} for ${userId} in ${appName} about ${topic} and trips`, topic }, { userId, appName, scope, ...(scope === 'session' ? { sessionId } : {}), source: { type: 'user_explicit', id: `f${n}` } });
        n++;
      }
    }
    await memory.remember({ content: `App policy for ${appName}: window seat`, topic: 'policy' }, { appName, scope: 'app', source: { type: 'bootstrapped', id: `crm-${appName}` } });
  }
  for (const appName of APPS) for (const userId of USERS) written.push(...(await memory.list({ userId, appName, includeInvalid: true })).map((record) => ({ record })));
  const ids = [...new Set(written.map(({ record }) => record.id))];

  const caller = fc.record({
    userId: fc.constantFrom(...USERS),
    appName: fc.constantFrom(...APPS),
    sessionId: fc.option(fc.constantFrom(...SESSIONS), { nil: undefined }),
    scopes: fc.option(fc.subarray(['user', 'session', 'app'] as Scope[], { minLength: 1 }), { nil: undefined }),
    query: fc.constantFrom(...QUERIES),
    id: fc.constantFrom(...ids),
    k: fc.integer({ min: 1, max: 50 }),
  });

  const check = (records: readonly MemoryRecord[], userId: string, appName: string, sessionId?: string) => {
    for (const record of records) if (!visibleTo(record, userId, appName, sessionId)) foreign++;
  };

  await fc.assert(
    fc.asyncProperty(caller, async ({ userId, appName, sessionId, scopes, query, id, k }) => {
      const options = { userId, appName, k, ...(sessionId !== undefined ? { sessionId } : {}), ...(scopes !== undefined ? { scopes } : {}) };
      const hits = await memory.retrieve(query, options);
      reads++;
      check(
        hits.map((hit) => hit.memory),
        userId,
        appName,
        sessionId,
      );
      if (scopes !== undefined) expect(hits.every((hit) => scopes.includes(hit.memory.scope))).toBe(true);

      check(await memory.list({ userId, appName, includeInvalid: true }), userId, appName);
      reads++;
      const exported = await memory.export({ userId, appName });
      for (const record of exported.memories) if (record.userId !== userId || record.appName !== appName || record.scope === 'app') foreign++;
      reads++;

      const target = written.find(({ record }) => record.id === id)!.record;
      if (visibleTo(target, userId, appName)) {
        expect((await memory.get(id, { userId, appName })).id).toBe(id);
        expect(await memory.history(id, { userId, appName })).toEqual(target.history);
      } else {
        await expect(memory.get(id, { userId, appName })).rejects.toThrow(NotFoundError);
        await expect(memory.history(id, { userId, appName })).rejects.toThrow(NotFoundError);
      }
      reads += 2;
      expect(foreign).toBe(0);
    }),
    { numRuns: runs, seed: 15 },
  );
  return { reads, foreign };
}
