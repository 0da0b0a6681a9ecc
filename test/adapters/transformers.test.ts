import '../helpers/web-worker';
/**
 * engram/transformers end to end with a tiny BERT-shaped model the test writes itself
 * (helpers/tiny-bert.ts): real transformers.js, real ONNX Runtime, real engram worker.
 * The model's weights are known, so tokenisation and pooling are checked against vectors
 * computed here from the token ids.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createMemory, PluginError, type Memory } from '../../src/index';
import { transformersEmbedder } from '../../src/adapters/transformers';
import { expectedVector, HIDDEN, idOf, writeTinyBert } from '../helpers/tiny-bert';

const root = mkdtempSync(join(tmpdir(), 'engram-models-'));
writeTinyBert(root, 'tiny-bert');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const options = () => ({ model: 'tiny-bert', localModelPath: `${root}/`, dtype: 'fp32' as const });
const ids = (...tokens: string[]) => tokens.map(idOf);
const owner = { userId: 'u_ada', appName: 'default' };

function expectClose(actual: Float32Array, expected: readonly number[]) {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, i) => expect(actual[i]!).toBeCloseTo(value, 5));
}

describe('transformersEmbedder', () => {
  it('splits words into WordPiece tokens and mean-pools their vectors, L2-normalised, when loaded in this thread', async () => {
    const embedder = transformersEmbedder(options());
    expect(await embedder.load()).toBe(HIDDEN);
    expect(embedder).toMatchObject({ id: `transformers:tiny-bert:fp32:${HIDDEN}`, dim: HIDDEN });
    const [vector] = await embedder.embed(['Hello, WORLDS zzz']);
    expectClose(vector!, expectedVector(ids('[CLS]', 'hello', ',', 'world', '##s', '[UNK]', '[SEP]')));
  });

  it('leaves padding out of the mean when texts of different lengths share a batch', async () => {
    const embedder = transformersEmbedder(options());
    const [short, long] = await embedder.embed(['hello', 'The user likes green tea.']);
    expectClose(short!, expectedVector(ids('[CLS]', 'hello', '[SEP]')));
    expectClose(long!, expectedVector(ids('[CLS]', 'the', 'user', 'likes', 'green', 'tea', '.', '[SEP]')));
  });

  it('returns a large call in the caller’s order, though it runs it sorted by length in groups', async () => {
    const embedder = transformersEmbedder(options());
    const known: [string, string[]][] = [
      ['hello', ['[CLS]', 'hello', '[SEP]']],
      ['The user likes green tea.', ['[CLS]', 'the', 'user', 'likes', 'green', 'tea', '.', '[SEP]']],
      ['hello worlds', ['[CLS]', 'hello', 'world', '##s', '[SEP]']],
      ['The user drinks coffee, is vegetarian.', ['[CLS]', 'the', 'user', 'drinks', 'coffee', ',', 'is', 'vegetarian', '.', '[SEP]']],
    ];
    // 100 texts (more than one run's worth), long and short interleaved out of order.
    const picks = Array.from({ length: 100 }, (_, i) => (i * 7 + (i >> 3)) % known.length);
    const vectors = await embedder.embed(picks.map((k) => known[k]![0]));
    expect(vectors).toHaveLength(100);
    picks.forEach((k, i) => expectClose(vectors[i]!, expectedVector(ids(...known[k]![1]))));
  });

  it("runs the model inside engram's worker, records carrying its id and dimension, when given to createMemory", async () => {
    const embedder = transformersEmbedder(options());
    const memory: Memory = await createMemory({ name: 'transformers-worker', indexedDB: new IDBFactory(), IDBKeyRange, worker: 'auto', embedder });
    try {
      expect(memory.computeLocation).toBe('worker');
      await memory.remember({ content: 'The user likes green tea.', topic: 'preference' }, { ...owner, source: { type: 'user_explicit', id: 'c1' } });
      await memory.remember({ content: 'The user is vegetarian.', topic: 'diet' }, { ...owner, source: { type: 'user_explicit', id: 'c2' } });
      const [hit] = await memory.retrieve('green tea', owner);
      expect(hit!.memory).toMatchObject({ content: 'The user likes green tea.', embedderId: `transformers:tiny-bert:fp32:${HIDDEN}` });
      expectClose(hit!.memory.embedding, expectedVector(ids('[CLS]', 'the', 'user', 'likes', 'green', 'tea', '.', '[SEP]')));
      // Loaded in the worker only: this thread's copy of the embedder never ran the model.
      expect(embedder.dim).toBe(0);
    } finally {
      await memory.close();
    }
  });

  it("resolves relative paths against the page, and looks for ONNX Runtime's files beside moduleUrl, when created in a browser", () => {
    vi.stubGlobal('location', { href: 'https://app.example/chat/index.html' });
    try {
      const { worker } = transformersEmbedder({ model: 'm', localModelPath: './models/', moduleUrl: '/vendor/transformers.min.js?v=3' });
      expect(worker).toMatchObject({ localModelPath: 'https://app.example/chat/models/', moduleUrl: 'https://app.example/vendor/transformers.min.js?v=3', wasmPaths: 'https://app.example/vendor/' });
      expect(transformersEmbedder({ model: 'm', moduleUrl: '/vendor/transformers.min.js', wasmPaths: 'ort/' }).worker.wasmPaths).toBe('https://app.example/chat/ort/');
      // A package name is no path: it stays as given (and no wasm folder is guessed from it).
      expect(transformersEmbedder({ model: 'm' }).worker).not.toHaveProperty('wasmPaths');
      // ONNX Runtime's thread count goes to the worker as given, and is not set when not given.
      expect(transformersEmbedder({ model: 'm', threads: 2 }).worker.threads).toBe(2);
      expect(transformersEmbedder({ model: 'm' }).worker).not.toHaveProperty('threads');
      for (const threads of [0, -1, 1.5, Number.NaN]) expect(() => transformersEmbedder({ model: 'm', threads })).toThrow(/threads must be a whole number of at least 1/);
      expect(transformersEmbedder({ model: 'm', moduleUrl: '@huggingface/transformers' }).worker.moduleUrl).toBe('@huggingface/transformers');
    } finally {
      vi.unstubAllGlobals();
    }
    // Under Node (no location) a path is a directory, as given.
    expect(transformersEmbedder({ model: 'm', localModelPath: './models/' }).worker.localModelPath).toBe('./models/');
  });

  it('fails createMemory fast with PluginError, fetching nothing, when the model is missing and remote models are off', async () => {
    let requests = 0;
    const hub = createServer((_request, response) => {
      requests++;
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
    const remoteHost = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`;
    try {
      for (const worker of ['auto', 'off'] as const) {
        const opening = createMemory({ name: `missing-${worker}`, indexedDB: new IDBFactory(), IDBKeyRange, worker, embedder: transformersEmbedder({ ...options(), model: 'no-such-model', remoteHost }) });
        await expect(opening).rejects.toThrow(PluginError);
        await expect(opening).rejects.toThrow(/could not load model 'no-such-model'.*allowRemoteModels is off: nothing was fetched/);
      }
      await expect(transformersEmbedder({ ...options(), model: 'no-such-model', remoteHost }).load()).rejects.toThrow(PluginError);
      expect(requests).toBe(0);
    } finally {
      hub.close();
    }
  });
});
