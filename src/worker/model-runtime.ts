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

type Pipeline = ((texts: string[], options: { pooling: 'mean'; normalize: true }) => Promise<{ data: ArrayLike<number>; dims: number[] }>) & {
  /** The pipeline's tokenizer: a text's token ids, special tokens included, and the model's input length. */
  tokenizer?: { encode(text: string): ArrayLike<number>; model_max_length?: number };
};

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

/** Texts per model run at most: a run's activations grow with its texts. */
export const RUN_BATCH = 32;

/**
 * What a model run costs beside its tokens, in tokens' worth: a run pads every text to its
 * longest and then costs about its texts × that length, plus a fixed part (the session call, the
 * pooling). MiniLM-shaped, q8, Chromium, the bench run of 2026-12-03 12:02 UTC (one run per call
 * then): 9.5 ms for one text of 16 tokens, 51 ms for 8: 0.37 ms a token and 3.5 ms a run, 9–10 tokens.
 */
export const RUN_OVERHEAD_TOKENS = 10;

/** The most tokens a text is run with when the tokenizer names no limit of its own (BERT's 512). */
const MAX_TOKENS = 512;

/**
 * The model runs for texts of `lengths` tokens (finite, positive): the texts' indices, sorted by
 * length, cut into runs of at most `maxRun` so that the padded tokens plus each run's overhead
 * are fewest (a short text no longer pads to the longest of its call). Exact, by dynamic
 * programming over the sorted lengths: a run of sorted texts i…j-1 costs
 * RUN_OVERHEAD_TOKENS + (j − i) × the longest.
 */
export function runGroups(lengths: readonly number[], maxRun = RUN_BATCH): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const n = order.length;
  const best = new Float64Array(n + 1);
  const from = new Int32Array(n + 1);
  for (let j = 1; j <= n; j++) {
    const longest = lengths[order[j - 1]!]!;
    best[j] = Number.POSITIVE_INFINITY;
    // Of equal costs, the first i: the longest last run.
    for (let i = Math.max(0, j - maxRun); i < j; i++) {
      const cost = best[i]! + RUN_OVERHEAD_TOKENS + (j - i) * longest;
      if (cost < best[j]!) {
        best[j] = cost;
        from[j] = i;
      }
    }
  }
  const groups: number[][] = [];
  for (let j = n; j > 0; j = from[j]!) groups.unshift(order.slice(from[j]!, j));
  return groups;
}

/** A text's token count estimated from its length: about 4 characters a token, and the two special tokens. */
const estimatedTokens = (text: string) => Math.ceil(text.length / 4) + 2;

/**
 * Token counts of `texts` by the pipeline's tokenizer, capped at the length the model is run
 * with. A text the tokenizer cannot count (it throws, or gives no length) is estimated instead:
 * the counts only choose the runs, and a runGroups fed NaN would put every text in one run.
 */
function tokenCounts(extract: Pipeline, texts: readonly string[]): number[] {
  const tokenizer = extract.tokenizer;
  const limit = Number(tokenizer?.model_max_length);
  const cap = Number.isFinite(limit) && limit > 0 ? Math.min(limit, MAX_TOKENS) : MAX_TOKENS;
  return texts.map((text) => {
    let count = Number.NaN;
    try {
      count = Number(tokenizer?.encode(text).length);
    } catch {
      // estimated below
    }
    return Math.min(cap, Number.isFinite(count) && count > 0 ? count : estimatedTokens(text));
  });
}

/** Embeds `texts` in the runs {@link runGroups} picks; the results come back in the caller's order. */
async function embedWith(extract: Pipeline, texts: string[], spec: ModelEmbedderSpec): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  // One text (a retrieve's query) is one run: no need to count its tokens first.
  if (texts.length === 1) return embedRun(extract, texts, spec);
  const out = new Array<Float32Array>(texts.length);
  for (const group of runGroups(tokenCounts(extract, texts))) {
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
