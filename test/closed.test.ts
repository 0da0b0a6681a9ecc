/**
 * A closed memory: every call fails with ClosedError (its message says to create a new one),
 * close() waits for the writes in flight, a read that close() overtook ends with ClosedError,
 * and closing twice is harmless.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClosedError, EngramError, StorageError, type Memory } from '../src/index';
import { createTestMemory } from './helpers/memory';

const owner = { userId: 'ada', appName: 'default' };
const source = { type: 'user_explicit', id: 's1' } as const;
const CLOSED = /^memory\.\w+ was called (after|while) close\(\).*this memory is closed\. Create a new one with createMemory\(\)/;
const opened: Memory[] = [];

afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function open(options: Parameters<typeof createTestMemory>[0] = {}) {
  const test = await createTestMemory(options);
  opened.push(test.memory);
  return test;
}

/** A promise the test resolves by hand, and a flag that says something is waiting on it. */
function createGate() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state = { waiting: false };
  return { gate, release, state };
}

describe('Memory.close', () => {
  it('rejects every async call and throws from inject with ClosedError when the memory was closed', async () => {
    const { memory } = await open();
    const [operation] = await memory.ingest([{ role: 'user', content: 'Call me Ada.' }], { ...owner, sessionId: 's1', source });
    const hits = await memory.retrieve('name', owner);
    await memory.close();

    const calls: [string, () => Promise<unknown>][] = [
      ['ingest', () => memory.ingest([{ role: 'user', content: "I'm vegan." }], { ...owner, sessionId: 's2', source })],
      ['remember', () => memory.remember({ content: 'The user likes tea.', topic: 'drink' }, { ...owner, source })],
      ['retrieve', () => memory.retrieve('name', owner)],
      ['forgetSource', () => memory.forgetSource('s1', owner)],
      ['list', () => memory.list(owner)],
      ['get', () => memory.get(operation!.memoryId, owner)],
      ['history', () => memory.history(operation!.memoryId, owner)],
      ['prune', () => memory.prune({ ...owner, floor: 0.1 })],
      ['summarizeSession', () => memory.summarizeSession([{ role: 'user', content: "I'm vegan." }], { ...owner, sessionId: 's2', source })],
      ['export', () => memory.export(owner)],
    ];
    for (const [name, call] of calls) {
      await expect(call()).rejects.toThrow(ClosedError);
      await expect(call()).rejects.toThrow(new RegExp(`^memory\\.${name} was called after close\\(\\)`));
    }
    expect(() => memory.inject('You are helpful.', hits)).toThrow(ClosedError);
    expect(() => memory.inject('You are helpful.', hits)).toThrow(CLOSED);
    const error = await memory.list(owner).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).not.toBeInstanceOf(StorageError);
    expect((error as Error).name).toBe('ClosedError');
  });

  it('checks closed before the arguments when a closed memory gets bad input', async () => {
    const { memory } = await open();
    await memory.close();
    await expect(memory.retrieve(42 as never, {} as never)).rejects.toThrow(ClosedError);
    expect(() => memory.inject(42 as never, null as never)).toThrow(ClosedError);
  });

  it('resolves when called twice and leaves the memory closed', async () => {
    const { memory } = await open();
    await memory.close();
    await expect(memory.close()).resolves.toBeUndefined();
    await expect(memory.list(owner)).rejects.toThrow(ClosedError);
  });

  it('waits for a write in flight: close() resolves after the ingest it overtook is stored, and later calls are refused', async () => {
    const { gate, release, state } = createGate();
    const test = await open({
      extractor: {
        async extract() {
          state.waiting = true;
          await gate;
          return [{ content: 'The user goes by Ada.', topic: 'identity', confidence: 0.9, excerpt: 'Call me Ada.' }];
        },
      },
    });
    const pending = test.memory.ingest([{ role: 'user', content: 'Call me Ada.' }], { ...owner, sessionId: 's1', source });
    await expect.poll(() => state.waiting).toBe(true);
    let closed = false;
    const closing = test.memory.close().then(() => void (closed = true));
    await expect(test.memory.list(owner)).rejects.toThrow(/^memory\.list was called after close\(\)/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    release();
    await closing;
    const [operation] = await pending;
    expect(operation).toMatchObject({ action: 'CREATE', content: 'The user goes by Ada.' });

    const again = await open({ indexedDB: test.factory, name: test.name });
    expect((await again.memory.list(owner)).map((record) => record.content)).toEqual(['The user goes by Ada.']);
  });

  it('rejects a retrieve that close() overtook with ClosedError when its embedding was still running', async () => {
    const { gate, release, state } = createGate();
    let gated = false;
    const test = await open({
      embedder: {
        id: 'gated-4',
        dim: 4,
        async embed(texts) {
          if (gated) {
            state.waiting = true;
            await gate;
          }
          return texts.map((text) => Float32Array.from([1, text.length, 0, 0]));
        },
      },
    });
    await test.memory.remember({ content: 'The user likes tea.', topic: 'drink' }, { ...owner, source });
    gated = true;
    const pending = test.memory.retrieve('tea', owner);
    await expect.poll(() => state.waiting).toBe(true);
    await test.memory.close();
    release();
    await expect(pending).rejects.toThrow(ClosedError);
  });
});
