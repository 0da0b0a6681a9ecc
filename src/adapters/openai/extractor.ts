/**
 * `openAIExtractor`: the seed's EXTRACTION_PROMPT through `createLlmExtractor`, answered by
 * an OpenAI-shaped chat model with structured output. The answer is zod-validated and
 * instruction-like "facts" are dropped there, exactly as for any other LLM extractor.
 */
import { createLlmExtractor, type Extractor } from 'engram';
import { createStructuredChat } from './chat';
import { createTransport, type OpenAIConnection } from './transport';

export type OpenAIExtractorOptions = OpenAIConnection & {
  /** Topics to suggest to the model. Default: createLlmExtractor's. */
  topics?: readonly string[];
};

/**
 * An Extractor on any OpenAI-shaped chat endpoint (OpenAI, Ollama, LM Studio, vLLM) or client
 * (`openai`, WebLLM's engine). Each fact comes with topic, importance and half-life.
 * A failed call (HTTP error after retries, timeout, malformed answer) rejects with PluginError
 * (`status` set for HTTP errors) and the ingest stores nothing.
 */
export function openAIExtractor(options: OpenAIExtractorOptions): Extractor {
  const ask = createStructuredChat(createTransport(options, 'openAIExtractor'), 'openAIExtractor');
  return createLlmExtractor({
    ...(options.topics ? { topics: options.topics } : {}),
    complete: ({ prompt, schema }) => ask({ prompt, schema, name: 'engram_extraction' }),
  });
}
