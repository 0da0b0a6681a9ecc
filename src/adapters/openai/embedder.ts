/**
 * `openAIEmbedder`: `/embeddings` of any OpenAI-shaped endpoint or client, in batches, every
 * vector checked for length and L2-normalised. Its `id` names the model and the dimension, so
 * switching either is an embedder change that `memory.reembed()` migrates.
 */
import { z } from 'zod/mini';
import { normalize, PluginError, type Embedder } from 'engram';
import { createTransport, type OpenAIConnection } from './transport';

export type OpenAIEmbedderOptions = OpenAIConnection & {
  /**
   * Length of the vectors the model returns (1536 for text-embedding-3-small, 768 for
   * nomic-embed-text, …). Default: learned from the model's first answer; `createMemory` then
   * asks for one vector when it opens (it checks stored vectors against the length), so give
   * it to open without a request. Either way the id is the same.
   */
  dimensions?: number;
  /** Also send `dimensions` in the request, for models that can shorten their vectors (text-embedding-3-*). Needs `dimensions`. Default false. */
  sendDimensions?: boolean;
  /** Texts per request. Default 64. */
  batchSize?: number;
};

const EmbeddingAnswer = z.object({
  data: z.array(z.object({ index: z.optional(z.int().check(z.nonnegative())), embedding: z.array(z.number()) })),
});

/** The embedder id: one rule for every place that needs to know whether two vectors are comparable. */
export function openAIEmbedderId(model: string, dimensions: number): string {
  return `openai:${model}:${dimensions}`;
}

/** The vector length: given, or learned from the first answer (where `given` is false). */
interface Dimensions {
  value: number | undefined;
  readonly given: boolean;
}

function toVectors(answer: unknown, count: number, dimensions: Dimensions, model: string): Float32Array[] {
  const parsed = EmbeddingAnswer.safeParse(answer);
  if (!parsed.success) throw new PluginError(`openAIEmbedder: the embeddings answer is not OpenAI-shaped (data[].embedding); nothing was stored`, { cause: parsed.error });
  const rows = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  if (rows.length !== count) throw new PluginError(`openAIEmbedder: '${model}' returned ${rows.length} embeddings for ${count} texts; nothing was stored`);
  const expected = dimensions.value ?? rows[0]?.embedding.length;
  if (expected === 0) throw new PluginError(`openAIEmbedder: '${model}' returned an empty vector; nothing was stored`);
  const vectors = rows.map(({ embedding }, i) => {
    if (embedding.length !== expected) {
      const rule = dimensions.given ? `options.dimensions = ${expected}; set dimensions to the model's` : `the ${expected} its first answer had`;
      throw new PluginError(`openAIEmbedder: '${model}' returned a vector of length ${embedding.length} (text ${i}), not ${rule}; nothing was stored`);
    }
    return normalize(Float32Array.from(embedding));
  });
  // Learned only once every vector of the answer agreed: a bad first answer teaches nothing.
  if (expected !== undefined) dimensions.value = expected;
  return vectors;
}

/** An Embedder on an OpenAI-shaped endpoint; `load()` resolves to the vector length, asking the model once when it was not given. */
export interface OpenAIEmbedder extends Embedder {
  load(): Promise<number>;
}

/** The text `load()` embeds to learn the vector length when `dimensions` is not given. */
const PROBE = 'dimension probe';

/**
 * An Embedder on any OpenAI-shaped endpoint or client; failures reject with PluginError (HTTP
 * `status` when there was one). Without `dimensions`, `id` and `dim` are known once the first
 * answer came: `createMemory` calls `load()`, which asks for one vector, before it reads them.
 */
export function openAIEmbedder(options: OpenAIEmbedderOptions): OpenAIEmbedder {
  const given = options.dimensions;
  if (given !== undefined && (!Number.isInteger(given) || given <= 0)) throw new PluginError(`openAIEmbedder: options.dimensions must be the model's vector length, a positive integer, or left out to learn it (got ${String(given)})`);
  if (options.sendDimensions && given === undefined) throw new PluginError('openAIEmbedder: sendDimensions asks the model to shorten its vectors to options.dimensions: give dimensions too');
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new PluginError(`openAIEmbedder: options.batchSize must be a positive integer (got ${String(batchSize)})`);
  const transport = createTransport(options, 'openAIEmbedder');
  const dimensions: Dimensions = { value: given, given: given !== undefined };
  async function embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const input = texts.slice(start, start + batchSize);
      const answer = await transport.call('embeddings', { input, encoding_format: 'float', ...(options.sendDimensions ? { dimensions: given } : {}) });
      out.push(...toVectors(answer, input.length, dimensions, options.model));
    }
    return out;
  }
  let probe: Promise<number> | undefined;
  return {
    // Before the length is known: dim 0, which createMemory never sees (it loads first).
    get id() {
      return openAIEmbedderId(options.model, dimensions.value ?? 0);
    },
    get dim() {
      return dimensions.value ?? 0;
    },
    embed,
    load() {
      if (dimensions.value !== undefined) return Promise.resolve(dimensions.value);
      probe ??= embed([PROBE]).then(
        () => dimensions.value!,
        (error: unknown) => {
          probe = undefined;
          throw error;
        },
      );
      return probe;
    },
  };
}
