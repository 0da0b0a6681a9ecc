/**
 * `engram/openai`: extractor, decider and embedder for any OpenAI-shaped model, by endpoint
 * (`{ baseURL, apiKey?, model }`: OpenAI, Ollama, LM Studio, vLLM) or by client (`{ client,
 * model }`: the `openai` package, WebLLM's `MLCEngine`). No SDK is needed: plain fetch.
 */
export { openAIExtractor, type OpenAIExtractorOptions } from './extractor';
export { openAIDecider, DECISION_PROMPT, DecisionAnswer, type OpenAIDeciderOptions } from './decider';
export { openAIEmbedder, openAIEmbedderId, type OpenAIEmbedder, type OpenAIEmbedderOptions } from './embedder';
export type { OpenAIConnection, OpenAIClientLike } from './transport';
