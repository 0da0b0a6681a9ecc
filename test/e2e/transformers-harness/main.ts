// The browser side of test/e2e/transformers.test.ts: engram bundled from src/ by Vite, with
// transformersEmbedder loading transformers.js (served from vendor/) and the tiny model (served
// from models/) inside engram's module Worker, on ONNX Runtime's WASM backend.
import { createMemory } from '../../../src/index';
import { transformersEmbedder } from '../../../src/adapters/transformers';

const here = (path: string) => new URL(path, location.href).href;

async function embedInWorker(text: string, threads?: number) {
  const embedder = transformersEmbedder({ model: 'tiny-bert', localModelPath: here('./models/'), moduleUrl: here('./vendor/transformers.min.js'), wasmPaths: here('./vendor/'), dtype: 'fp32', ...(threads !== undefined ? { threads } : {}) });
  const memory = await createMemory({ name: `transformers-harness-${threads ?? 'default'}`, worker: 'auto', embedder });
  try {
    await memory.remember({ content: text, topic: 'preference' }, { userId: 'u_ada', source: { type: 'user_explicit', id: 'c1' } });
    const [hit] = await memory.retrieve(text, { userId: 'u_ada' });
    return { isolated: crossOriginIsolated, location: memory.computeLocation, embedderId: hit!.memory.embedderId, vector: [...hit!.memory.embedding], relevance: hit!.relevance, mainThreadDim: embedder.dim };
  } finally {
    await memory.close();
  }
}

async function openMissing() {
  const embedder = transformersEmbedder({ model: 'no-such-model', localModelPath: here('./models/'), moduleUrl: here('./vendor/transformers.min.js'), wasmPaths: here('./vendor/'), dtype: 'fp32' });
  try {
    await createMemory({ name: 'transformers-missing', worker: 'auto', embedder });
    return 'opened';
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

Object.assign(window, { embedInWorker, openMissing, harnessReady: true });
