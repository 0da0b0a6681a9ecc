/**
 * An LLM extractor: the seed's EXTRACTION_PROMPT and a JSON schema for structured output,
 * around a completion function the application supplies (engram makes no network call of its
 * own and holds no API key). The model's answer is data: it is parsed and validated here, and
 * screened where every extractor's candidates are (candidates.ts `extractCandidates`: an
 * "extracted fact" or excerpt that reads as an instruction never becomes a memory).
 */
import { z } from 'zod/mini';
import { PluginError } from '../errors';
import type { CandidateInput, ChatMessage } from '../schema';
import { oneLine } from '../text';
import type { Extractor } from './extractor';
import { EXCLUSIVE_TOPICS, TOPIC_DESCRIPTIONS, TOPICS } from './topics';

/** The seed's extraction prompt (Part 4), with the topic vocabulary engram consolidates on. */
export const EXTRACTION_PROMPT = `Extract durable facts about the user from the conversation below.

Rules:
- One fact per memory. Never combine two facts into one sentence.
- Write in the third person, self-contained: a reader with no access to this
  conversation must understand it fully.
- Record what the user SAID or REPORTED, not what is objectively true.
- Skip pleasantries, transient details, and anything already established.
- Return an empty list if there is nothing durable. Do not invent memories.
- Give each memory one topic from this list (the offline extractor's vocabulary):
{topics}
- Quote the user's words the memory came from as its excerpt.

CONVERSATION:
{conversation}
`;

/** What the model must return. */
export const LlmExtraction = z.object({
  memories: z.array(
    z.object({
      content: z.string().check(z.minLength(1)).check(z.maxLength(1_000)),
      topic: z.string().check(z.minLength(1)).check(z.maxLength(64)),
      confidence: z.number().check(z.gte(0)).check(z.lte(1)),
      excerpt: z.string().check(z.maxLength(1_000)),
      importance: z.optional(z.number().check(z.gte(0)).check(z.lte(1))).check(z.describe('how much this matters for future conversations, 0 to 1')),
      halfLifeDays: z.optional(z.number().check(z.positive()).check(z.lte(36_500))).check(z.describe('days until the fact is half as likely to still hold: years for a name, weeks for a current issue')),
    }),
  ),
});
export type LlmExtraction = z.infer<typeof LlmExtraction>;

export interface CompletionRequest {
  prompt: string;
  /** JSON Schema of the expected answer, for providers' structured-output modes. */
  schema: Record<string, unknown>;
}

export interface LlmExtractorOptions {
  /** Calls the model; resolves to its answer as JSON text (fenced or not) or an already parsed object. */
  complete(request: CompletionRequest): Promise<unknown>;
  /** The topics the model chooses from (the JSON schema's enum). Default: engram's vocabulary, `TOPICS` (src/extract/topics.ts). */
  topics?: readonly string[];
}

const SCHEMA = z.toJSONSchema(LlmExtraction) as Record<string, unknown>;

/** The answer's JSON schema with `topic` limited to `topics`, so a structured-output decoder can only pick one of them. */
export function extractionSchema(topics: readonly string[]): Record<string, unknown> {
  const schema = structuredClone(SCHEMA) as { properties: { memories: { items: { properties: { topic: Record<string, unknown> } } } } };
  schema.properties.memories.items.properties.topic['enum'] = [...topics];
  return schema as unknown as Record<string, unknown>;
}

/** The prompt's topic list: one line each, with what belongs under it and whether a user has one value at a time. */
function topicLines(topics: readonly string[]): string {
  const described: Readonly<Record<string, string>> = TOPIC_DESCRIPTIONS;
  const exclusive = new Set<string>(EXCLUSIVE_TOPICS);
  return topics.map((topic) => `  - ${topic}${described[topic] ? `: ${described[topic]}` : ''}${exclusive.has(topic) ? ' (one value at a time: a new one replaces the old)' : ''}`).join('\n');
}

function render(messages: readonly ChatMessage[]): string {
  // One line per message whatever it carries (U+2028, NEL, …), so a message cannot forge
  // another speaker's turn ("SYSTEM: …") in the prompt.
  return messages.map((message) => `USER: ${oneLine(message.content)}`).join('\n');
}

function parseAnswer(answer: unknown): LlmExtraction {
  let value = answer;
  if (typeof answer === 'string') {
    const body = answer.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
    try {
      value = JSON.parse(body);
    } catch (error) {
      throw new PluginError(`the LLM extractor's answer is not JSON: ${JSON.stringify(answer.slice(0, 80))}`, { cause: error });
    }
  }
  const result = LlmExtraction.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new PluginError(`the LLM extractor's answer does not match the schema at '${issue.path.join('.')}': ${issue.message}`, { cause: result.error });
  }
  return result.data;
}

/** An Extractor that asks a model, with the seed's prompt and a JSON schema for its answer. */
export function createLlmExtractor(options: LlmExtractorOptions): Extractor {
  if (typeof options?.complete !== 'function') throw new PluginError('createLlmExtractor needs a complete({ prompt, schema }) function');
  const vocabulary = options.topics ?? TOPICS;
  const topics = topicLines(vocabulary);
  const schema = extractionSchema(vocabulary);
  return {
    async extract(userMessages) {
      const prompt = EXTRACTION_PROMPT.replace('{topics}', () => topics).replace('{conversation}', () => render(userMessages));
      const { memories } = parseAnswer(await options.complete({ prompt, schema }));
      // The model read text the user controls: an instruction it passed on as a fact is dropped
      // by extractCandidates' screen, the one every extractor's candidates go through.
      return memories.map((memory): CandidateInput => ({ ...memory, topic: memory.topic.toLowerCase() }));
    },
  };
}
