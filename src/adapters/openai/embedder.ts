/**
 * `openAIEmbedder`: `/embeddings` of any OpenAI-shaped endpoint or client, in batches, every
 * vector checked for length and L2-normalised. Its `id` names the model and the dimension, so
 * switching either is an embedder change that `memory.reembed()` migrates.
 */
import { z } from 'zod';
import { normalize, PluginError, type Embedder } from 'engram';
import { createTransport, type OpenAIConnection } from './transport';

export type OpenAIEmbedderOptions = OpenAIConnection & {
  /** Length of the vectors the model returns (1536 for text-embedding-3-small, 768 for nomic-embed-text, …). */
  dimensions: number;
  /** Also send `dimensions` in the request, for models that can shorten their vectors (text-embedding-3-*). Default false. */
  sendDimensions?: boolean;
  /** Texts per request. Default 64. */
  batchSize?: number;
};

const EmbeddingAnswer = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative().optional(), embedding: z.array(z.number()) })),
});

/** The embedder id: one rule for every place that needs to know whether two vectors are comparable. */
export function openAIEmbedderId(model: string, dimensions: number): string {
  return `openai:${model}:${dimensions}`;
}

function toVectors(answer: unknown, count: number, dimensions: number, model: string): Float32Array[] {
  const parsed = EmbeddingAnswer.safeParse(answer);
  if (!parsed.success) throw new PluginError(`openAIEmbedder: the embeddings answer is not OpenAI-shaped (data[].embedding); nothing was stored`, { cause: parsed.error });
  const rows = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  if (rows.length !== count) throw new PluginError(`openAIEmbedder: '${model}' returned ${rows.length} embeddings for ${count} texts; nothing was stored`);
  return rows.map(({ embedding }, i) => {
    if (embedding.length !== dimensions) {
      throw new PluginError(`openAIEmbedder: '${model}' returned a vector of length ${embedding.length} (text ${i}), not options.dimensions = ${dimensions}; set dimensions to the model's`);
    }
    return normalize(Float32Array.from(embedding));
  });
}

/** An Embedder on any OpenAI-shaped endpoint or client; failures reject with PluginError (HTTP `status` when there was one). */
export function openAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const { dimensions } = options;
  if (!Number.isInteger(dimensions) || dimensions <= 0) throw new PluginError(`openAIEmbedder needs options.dimensions, the model's vector length (got ${String(dimensions)})`);
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new PluginError(`openAIEmbedder: options.batchSize must be a positive integer (got ${String(batchSize)})`);
  const transport = createTransport(options, 'openAIEmbedder');
  return {
    id: openAIEmbedderId(options.model, dimensions),
    dim: dimensions,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const input = texts.slice(start, start + batchSize);
        const answer = await transport.call('embeddings', { input, encoding_format: 'float', ...(options.sendDimensions ? { dimensions } : {}) });
        out.push(...toVectors(answer, input.length, dimensions, options.model));
      }
      return out;
    },
  };
}
