/**
 * `engram/transformers`: sentence embeddings from a transformers.js feature-extraction model
 * (BERT-like: all-MiniLM-L6-v2, bge-small, …), computed inside engram's compute worker so the
 * page's main thread never runs the model. Mean pooling, L2-normalised. WASM by default in the
 * browser (CPU under Node), WebGPU with `device: 'webgpu'`. Model files come from
 * `localModelPath` (a URL path in the browser, a directory under Node); the hub only when
 * `allowRemoteModels` is set.
 */
import { PluginError, type Embedder } from 'engram';
import type { ModelEmbedderSpec } from '../../worker/api';
import { loadModelRuntime, modelEmbedderId, type ModelRuntime } from '../../worker/model-runtime';

/** The runtime's failures carry the name only (see modelError): this thread gets the class. */
function asPluginError(error: unknown): never {
  if (error instanceof Error && error.name === 'PluginError' && !(error instanceof PluginError)) throw new PluginError(error.message, { cause: error });
  throw error;
}

/**
 * In a browser, a relative path means what it means on the page that wrote it: resolved here,
 * before it travels to the worker, where it would resolve against the worker's own script.
 * Under Node (no document, no location) paths are directories and stay as given.
 */
function fromPage(path: string | undefined): string | undefined {
  const base = typeof document !== 'undefined' ? document.baseURI : typeof location !== 'undefined' ? location.href : undefined;
  return path === undefined || base === undefined ? path : new URL(path, base).href;
}

/** ONNX Runtime's `.wasm` files ship beside transformers.min.js: in a browser, look for them there unless told otherwise. */
function wasmPathsOf(options: TransformersEmbedderOptions, moduleUrl: string | undefined): string | undefined {
  if (options.wasmPaths !== undefined) return fromPage(options.wasmPaths);
  if (moduleUrl === undefined || !/^(https?|blob):/.test(moduleUrl)) return undefined;
  const url = new URL(moduleUrl);
  return new URL('./', `${url.origin}${url.pathname}`).href;
}

export interface TransformersEmbedderOptions {
  /** Model id, a folder under `localModelPath` (or a hub id with `allowRemoteModels`), e.g. `'Xenova/all-MiniLM-L6-v2'`. */
  model: string;
  /** Where model folders live: `'/models/'` (a URL path, relative to the page) in the browser, a directory under Node. */
  localModelPath?: string;
  /** Fetch missing files from the hub (or `remoteHost`). Default false: nothing is fetched. */
  allowRemoteModels?: boolean;
  /** Where remote models come from when allowed. Default: transformers.js's (the Hugging Face Hub). */
  remoteHost?: string;
  /** Weights variant: `'fp32'` loads `onnx/model.onnx`, `'q8'` `onnx/model_quantized.onnx`, … Default: transformers.js's for the device. */
  dtype?: 'auto' | 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';
  /** `'wasm'` (the browser's default), `'webgpu'`, or `'cpu'` (Node's default). */
  device?: 'wasm' | 'webgpu' | 'cpu';
  /**
   * Where the browser finds ONNX Runtime's `ort-wasm-simd-threaded.jsep.{mjs,wasm}` (they ship in
   * `@huggingface/transformers/dist/`). Default in a browser: the folder of `moduleUrl`; without
   * either, transformers.js fetches them from a CDN.
   */
  wasmPaths?: string;
  /**
   * Where the compute worker imports transformers.js from. Default `'@huggingface/transformers'`,
   * which Node resolves. A browser worker cannot resolve a package name (and a bundler does not
   * see into engram's worker), so in a browser serve the package's self-contained
   * `dist/transformers.min.js` with the two ONNX Runtime files beside it (e.g. copied into
   * Vite's `public/transformers/`) and pass its URL: `'/transformers/transformers.min.js'`.
   */
  moduleUrl?: string;
  /**
   * Threads ONNX Runtime's WASM backend runs a model on. Default: its own, which is half the
   * cores up to 4 on a cross-origin-isolated page and 1 elsewhere (more than 1 needs
   * SharedArrayBuffer, so the page must be served with `Cross-Origin-Opener-Policy: same-origin`
   * and `Cross-Origin-Embedder-Policy: require-corp`; elsewhere ONNX Runtime warns and uses 1).
   * It applies to the worker's first model: ONNX Runtime starts once per worker.
   */
  threads?: number;
}

/** An Embedder whose model engram loads inside its compute worker (see {@link transformersEmbedder}). */
export interface TransformersEmbedder extends Embedder {
  readonly worker: ModelEmbedderSpec;
  /** Loads the model in this thread (for use without createMemory); resolves to its dimension. */
  load(): Promise<number>;
}

/**
 * An Embedder on transformers.js. Passed to `createMemory({ embedder })`, the model is loaded
 * in engram's worker when the memory opens (a missing model fails `createMemory` with
 * PluginError); `id` and `dim` are known from then on. Used alone, call `load()` first.
 */
export function transformersEmbedder(options: TransformersEmbedderOptions): TransformersEmbedder {
  if (typeof options?.model !== 'string' || options.model === '') throw new PluginError("transformersEmbedder needs options.model (e.g. 'Xenova/all-MiniLM-L6-v2')");
  if (options.threads !== undefined && !(Number.isInteger(options.threads) && options.threads >= 1))
    throw new PluginError(`transformersEmbedder: threads must be a whole number of at least 1 (ONNX Runtime's WASM threads), not ${String(options.threads)}`);
  // A package name (Node's default) is no path: it stays as given.
  const moduleUrl = options.moduleUrl !== undefined && !/^([./]|[a-z][a-z\d+.-]*:)/i.test(options.moduleUrl) ? options.moduleUrl : fromPage(options.moduleUrl);
  const localModelPath = fromPage(options.localModelPath);
  const wasmPaths = wasmPathsOf(options, moduleUrl);
  const spec: ModelEmbedderSpec = {
    kind: 'transformers',
    model: options.model,
    allowRemoteModels: options.allowRemoteModels ?? false,
    ...(localModelPath !== undefined ? { localModelPath } : {}),
    ...(options.remoteHost !== undefined ? { remoteHost: options.remoteHost } : {}),
    ...(options.dtype !== undefined ? { dtype: options.dtype } : {}),
    ...(options.device !== undefined ? { device: options.device } : {}),
    ...(wasmPaths !== undefined ? { wasmPaths } : {}),
    ...(moduleUrl !== undefined ? { moduleUrl } : {}),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
  };
  let runtime: Promise<ModelRuntime> | undefined;
  let loaded: ModelRuntime | undefined;
  const load = async () => {
    runtime ??= loadModelRuntime(spec).catch((error: unknown) => {
      runtime = undefined;
      return asPluginError(error);
    });
    loaded = await runtime;
    return loaded.dim;
  };
  return {
    worker: spec,
    // Before a load there is no dimension yet; createMemory loads first, in its worker.
    get id() {
      return loaded?.id ?? modelEmbedderId(spec, 0);
    },
    get dim() {
      return loaded?.dim ?? 0;
    },
    load,
    async embed(texts) {
      await load();
      return loaded!.embed(texts).catch(asPluginError);
    },
  };
}
