/**
 * Runs a transformers.js feature-extraction pipeline: mean pooling over the attention mask,
 * L2-normalised. Loaded lazily by engram's compute (inside the worker, or in-process), so
 * neither the main bundle nor a page that never asks for it pays for transformers.js.
 */
import type { ModelEmbedderSpec } from './api';

/**
 * The failure of a hosted model, named `PluginError`. The runtime imports none of engram's
 * modules (compute loads it in the worker, and both library entries share it), so it cannot
 * use the class; engram turns the name back into a PluginError where the error reaches the
 * caller (createMemory's embedder, the adapter's own calls), as for any error from the worker.
 */
export function modelError(message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { name: 'PluginError' });
}

/** The embedder id of a hosted model: model and weights variant, then the dimension it has. */
export function modelEmbedderId(spec: Pick<ModelEmbedderSpec, 'model' | 'dtype'>, dim: number): string {
  return `transformers:${spec.model}:${spec.dtype ?? 'auto'}:${dim}`;
}

export interface ModelRuntime {
  readonly id: string;
  readonly dim: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * An optional peer, imported by a name no bundler follows: an application that never asks for
 * a hosted model must build without the package installed (a literal import made Vite and
 * Rollup fail to resolve it), and the 20 MB of ONNX Runtime never lands in anyone's bundle.
 */
const TRANSFORMERS = '@huggingface/transformers';

type Pipeline = (texts: string[], options: { pooling: 'mean'; normalize: true }) => Promise<{ data: ArrayLike<number>; dims: number[] }>;

function describe(spec: ModelEmbedderSpec): string {
  return `'${spec.model}'${spec.localModelPath ? ` under '${spec.localModelPath}'` : ''}`;
}

/** Loads the model named by `spec`. @throws PluginError when it is missing or fails to load (no network unless allowRemoteModels). */
export async function loadModelRuntime(spec: ModelEmbedderSpec): Promise<ModelRuntime> {
  const specifier = spec.moduleUrl ?? TRANSFORMERS;
  const { env, pipeline } = (await import(/* @vite-ignore */ specifier).catch((error: unknown) => {
    throw modelError(
      `transformersEmbedder could not import '${specifier}' (npm i ${TRANSFORMERS}@3.8.1; in a browser, pass moduleUrl: the URL of its dist/transformers.min.js): ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  })) as typeof import('@huggingface/transformers');
  // transformers.js keeps these on one global env; each load sets them for its own model.
  env.allowRemoteModels = spec.allowRemoteModels;
  env.allowLocalModels = true;
  if (spec.localModelPath !== undefined) env.localModelPath = spec.localModelPath;
  if (spec.remoteHost !== undefined) env.remoteHost = spec.remoteHost;
  if (spec.wasmPaths !== undefined && env.backends.onnx.wasm) env.backends.onnx.wasm.wasmPaths = spec.wasmPaths;
  // Read when ONNX Runtime's wasm starts (the first model's session): a later load cannot change it.
  if (spec.threads !== undefined && env.backends.onnx.wasm) env.backends.onnx.wasm.numThreads = spec.threads;
  let extract: Pipeline;
  try {
    const options = { local_files_only: !spec.allowRemoteModels, ...(spec.dtype ? { dtype: spec.dtype } : {}), ...(spec.device ? { device: spec.device } : {}) };
    extract = (await pipeline('feature-extraction', spec.model, options as Record<string, unknown>)) as unknown as Pipeline;
  } catch (error) {
    const detail = (await servedInstead(spec)) ?? (error instanceof Error ? error.message : String(error));
    const hint = spec.allowRemoteModels ? '' : ' (allowRemoteModels is off: nothing was fetched; put the model files there, or allow remote models)';
    throw modelError(`transformersEmbedder could not load model ${describe(spec)}: ${detail}${hint}`, error);
  }
  const [probe] = await embedWith(extract, ['dimension probe'], spec);
  const dim = probe!.length;
  return { id: modelEmbedderId(spec, dim), dim, embed: (texts) => embedWith(extract, [...texts], spec) };
}

/**
 * After a failed load from a web server: what it serves for the model's config.json. A missing
 * file often comes back as the site's HTML page (Vite's and most SPA hosts' fallback), which
 * transformers.js reports only as invalid JSON; this names the file and what came instead.
 */
async function servedInstead(spec: ModelEmbedderSpec): Promise<string | undefined> {
  if (spec.localModelPath === undefined || !/^https?:/.test(spec.localModelPath) || typeof fetch !== 'function') return undefined;
  const url = new URL(`${spec.model}/config.json`, spec.localModelPath.endsWith('/') ? spec.localModelPath : `${spec.localModelPath}/`).href;
  try {
    const response = await fetch(url);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok) return `no model there: ${url} answered HTTP ${response.status}`;
    if (type.includes('text/html')) return `no model there: ${url} answered with an HTML page (the server's fallback for a missing file), not the model's config`;
  } catch {
    return `no model there: ${url} could not be fetched`;
  }
  return undefined;
}

/**
 * Texts per model run. A run pads every text to its longest, and a large call (an import sends
 * 256) mixes short and long texts: the call is sorted by length and run in groups of this many,
 * so each group pads to a length close to its own; the results come back in the caller's order.
 */
export const RUN_BATCH = 32;

async function embedWith(extract: Pipeline, texts: string[], spec: ModelEmbedderSpec): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  if (texts.length <= RUN_BATCH) return embedRun(extract, texts, spec);
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
  const out = new Array<Float32Array>(texts.length);
  for (let start = 0; start < order.length; start += RUN_BATCH) {
    const group = order.slice(start, start + RUN_BATCH);
    const vectors = await embedRun(
      extract,
      group.map((i) => texts[i]!),
      spec,
    );
    group.forEach((i, j) => (out[i] = vectors[j]!));
  }
  return out;
}

async function embedRun(extract: Pipeline, texts: string[], spec: ModelEmbedderSpec): Promise<Float32Array[]> {
  let output: Awaited<ReturnType<Pipeline>>;
  try {
    output = await extract(texts, { pooling: 'mean', normalize: true });
  } catch (error) {
    throw modelError(`transformersEmbedder: model ${describe(spec)} failed on ${texts.length} texts: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  const [rows, dim] = output.dims;
  if (rows !== texts.length || !dim) throw modelError(`transformersEmbedder: model ${describe(spec)} returned dims [${output.dims.join(', ')}] for ${texts.length} texts`);
  const data = Float32Array.from(output.data);
  return Array.from({ length: rows }, (_, i) => data.slice(i * dim, (i + 1) * dim));
}
