/**
 * Structured output over chat completions: the JSON Schema as `response_format: json_schema`
 * (strict), and `json_object` with the schema in the prompt for servers that refuse it. The
 * answer's text goes back to the caller, who parses it with zod: a model's output is data.
 */
import { z } from 'zod/mini';
import { PluginError } from 'engram';
import type { Transport } from './transport';

const ChatAnswer = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.optional(z.nullable(z.string())), refusal: z.optional(z.nullable(z.string())) }) })).check(z.minLength(1)),
});

export interface StructuredChatRequest {
  prompt: string;
  /** JSON Schema of the answer. */
  schema: Record<string, unknown>;
  /** Schema name for `json_schema` (letters, digits, `_`, `-`). */
  name: string;
}

/** Keywords strict structured output does not take; zod still checks them on the answer. */
const UNSUPPORTED = new Set(['$schema', 'minLength', 'maxLength']);

/**
 * The schema as strict mode wants it: every property required, no others allowed. Optional
 * fields become required on purpose: the model then always gives importance and half-life.
 */
export function strictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (!UNSUPPORTED.has(key)) out[key] = strictSchema(value);
  if (out['type'] === 'object' && typeof out['properties'] === 'object' && out['properties'] !== null) {
    out['required'] = Object.keys(out['properties']);
    out['additionalProperties'] = false;
  }
  return out;
}

function contentOf(answer: unknown, component: string): string {
  const parsed = ChatAnswer.safeParse(answer);
  if (!parsed.success) {
    throw new PluginError(`${component}: the chat completion is not OpenAI-shaped (no choices[0].message); nothing was stored. Check that baseURL points at an OpenAI-compatible /v1`, { cause: parsed.error });
  }
  const { content, refusal } = parsed.data.choices[0]!.message;
  if (refusal) throw new PluginError(`${component}: the model refused (${JSON.stringify(refusal.slice(0, 120))}); nothing was stored`);
  if (typeof content !== 'string' || content === '') throw new PluginError(`${component}: the model's answer has no content; nothing was stored`);
  return content;
}

/** Asks for JSON matching `schema`; resolves to the answer's text. Remembers a server's refusal of `json_schema`. */
export function createStructuredChat(transport: Transport, component: string): (request: StructuredChatRequest) => Promise<string> {
  let jsonSchemaRefused = false;
  return async ({ prompt, schema, name }) => {
    if (!jsonSchemaRefused) {
      try {
        const answer = await transport.call('chat', {
          messages: [{ role: 'user', content: prompt }],
          temperature: 0,
          response_format: { type: 'json_schema', json_schema: { name, schema: strictSchema(schema), strict: true } },
        });
        return contentOf(answer, component);
      } catch (error) {
        // 400/422: the server does not take this response_format (older vLLM, LM Studio, proxies).
        if (!(error instanceof PluginError && (error.status === 400 || error.status === 422))) throw error;
        jsonSchemaRefused = true;
      }
    }
    const answer = await transport.call('chat', {
      messages: [{ role: 'user', content: `${prompt}\nAnswer with one JSON object and nothing else, matching this JSON Schema:\n${JSON.stringify(schema)}` }],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    return contentOf(answer, component);
  };
}
