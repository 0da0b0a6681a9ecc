/**
 * createMemory's options: a strict schema, so a misspelt or unknown option and a bad value
 * are ValidationErrors listing the valid ones; no IndexedDB under Node is a StorageError
 * whose message holds the two lines that fix it.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, StorageError, ValidationError, type Memory, type MemoryOptions } from '../src/index';

const opened: Memory[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

let counter = 0;
/** Options for a fresh fake-indexeddb database with in-process compute. */
function fresh(): MemoryOptions {
  return { name: `options-test-${++counter}`, indexedDB: new IDBFactory(), IDBKeyRange, worker: 'off' };
}

async function open(options: MemoryOptions): Promise<Memory> {
  const memory = await createMemory(options);
  opened.push(memory);
  return memory;
}

describe('createMemory', () => {
  it('rejects with StorageError giving the two fake-indexeddb lines when there is no IndexedDB under Node', async () => {
    expect(globalThis.indexedDB).toBeUndefined();
    await expect(createMemory()).rejects.toThrow(StorageError);
    await expect(createMemory()).rejects.toThrow("import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';");
    await expect(createMemory({ worker: 'off' })).rejects.toThrow('createMemory({ indexedDB: new IDBFactory(), IDBKeyRange })');
    await expect(createMemory({ indexedDB: new IDBFactory() })).rejects.toThrow(/options\.indexedDB needs its IDBKeyRange[\s\S]*createMemory\(\{ indexedDB: new IDBFactory\(\), IDBKeyRange \}\)/);
  });

  it('rejects an unknown option with ValidationError naming the valid ones and the likely intended one', async () => {
    await expect(createMemory({ ...fresh(), wrker: 'off' } as never)).rejects.toThrow(ValidationError);
    await expect(createMemory({ ...fresh(), wrker: 'off' } as never)).rejects.toThrow(/^options: unknown key 'wrker' \(did you mean 'worker'\?\); valid keys: name, indexedDB, IDBKeyRange, worker, /);
    await expect(createMemory({ ...fresh(), indexedDb: new IDBFactory() } as never)).rejects.toThrow("unknown key 'indexedDb' (did you mean 'indexedDB'?)");
    await expect(createMemory({ ...fresh(), colour: 'blue' } as never)).rejects.toThrow(/^options: unknown key 'colour'; valid keys: /);
  });

  it('rejects a bad option value with ValidationError saying what is valid', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ worker: 'on' }, 'options.worker: must be one of "auto", "off" (got "on")'],
      [{ worker: true }, 'options.worker: must be one of "auto", "off" (got true)'],
      [{ name: '' }, 'options.name: must not be empty (got "")'],
      [{ workerTimeoutMs: 0 }, 'options.workerTimeoutMs: must be a number of ms in (0, 3600000] (got 0)'],
      [{ candidateThreshold: 2 }, 'options.candidateThreshold: must be a cosine from -1 to 1 (got 2)'],
      [{ trust: { bootstrapped: 1.5 } }, 'options.trust.bootstrapped: must be a number from 0 to 1 (got 1.5)'],
      [{ trust: { rumour: 0.5 } }, "options.trust: unknown key 'rumour'; valid keys: bootstrapped, user_explicit, user_implicit, tool_output"],
      [{ exclusiveTopics: 'diet' }, 'options.exclusiveTopics: must be an array, each a string (got "diet")'],
      [{ exclusiveTopics: ['diet', ''] }, 'options.exclusiveTopics.1: must not be empty (got "")'],
      [{ clock: 5 }, 'options.clock: must be a function returning ms since epoch (got 5)'],
      [{ idGenerator: 'mem_' }, 'options.idGenerator: must be a function returning a new id (got "mem_")'],
      [{ embedder: { embed: () => [] } }, 'options.embedder: must be an embedder { id: non-empty string, dim: positive integer (or 0 with load()), embed(texts) } (got an object with keys embed)'],
      [{ embedder: { id: 'e', dim: 0, embed: () => [] } }, 'options.embedder: must be an embedder'],
      [{ extractor: () => [] }, 'options.extractor: must be an extractor { extract(userMessages, context) } (got a function)'],
      [{ decider: {} }, 'options.decider: must be a decider { decide(input) } (got an empty object)'],
      [{ indexedDB: {} }, "options.indexedDB: must be an IDBFactory (under Node: new IDBFactory() from 'fake-indexeddb') (got an empty object)"],
      [{ IDBKeyRange: {} }, "options.IDBKeyRange: must be the IDBKeyRange class (under Node: IDBKeyRange from 'fake-indexeddb')"],
    ];
    for (const [bad, message] of cases) {
      const options = { ...fresh(), ...bad } as never;
      await expect(createMemory(options)).rejects.toThrow(ValidationError);
      await expect(createMemory(options)).rejects.toThrow(message);
    }
    await expect(createMemory(null as never)).rejects.toThrow(/^options: must be an object \{ name\?, indexedDB\?, /);
  });

  it('opens with every documented option when each is valid', async () => {
    const memory = await open({
      ...fresh(),
      workerTimeoutMs: 5_000,
      clock: () => Date.UTC(2026, 0, 1),
      exclusiveTopics: Object.freeze(['diet']),
      trust: { tool_output: 0.5 },
      candidateThreshold: 0.7,
      idGenerator: (() => {
        let next = 0;
        return () => `id_${++next}`;
      })(),
      extractor: { extract: () => [{ content: 'The user likes tea.', topic: 'drink', confidence: 0.9, excerpt: 'tea' }] },
      decider: { decide: () => ({ action: 'CREATE', reason: 'test decider' }) },
    });
    const [operation] = await memory.ingest([{ role: 'user', content: 'tea' }], { userId: 'ada', sessionId: 's', source: { type: 'tool_output', id: 't' } });
    expect(operation).toMatchObject({ action: 'CREATE', memoryId: 'id_1', reason: 'test decider' });
    // Partial trust is merged over the defaults: tool_output 0.5 caps the confidence.
    expect((await memory.get('id_1', { userId: 'ada' })).confidence).toBe(0.5);
  });
});
