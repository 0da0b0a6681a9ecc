/**
 * Protocol tests of engram/openai against a loopback server speaking the OpenAI wire format:
 * what is sent (prompt, response_format, model, key), what comes back, and every failure a
 * typed error with nothing stored, or success after a retry.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortedError, PluginError } from '../../src/index';
import { openAIExtractor } from '../../src/adapters/openai';
import { chatReply, startOpenAIStub, type OpenAIStub } from '../helpers/openai-stub';
import { createTestMemory } from '../helpers/memory';

const CHAT = '/v1/chat/completions';
const owner = { userId: 'u_ada', appName: 'default' };
const ingestOptions = { ...owner, sessionId: 's1', source: { type: 'user_explicit' as const, id: 'c1' } };
const VEG = { content: 'The user follows a vegetarian diet.', topic: 'diet', confidence: 0.9, excerpt: "I'm vegetarian.", importance: 0.8, halfLifeDays: 730 };
const messages = [{ role: 'user' as const, content: "I'm vegetarian." }];

let stub: OpenAIStub;
beforeEach(async () => void (stub = await startOpenAIStub()));
afterEach(async () => stub.close());

const endpoint = (extra: Record<string, unknown> = {}) => ({ baseURL: stub.baseURL, apiKey: 'sk-test', model: 'stub-chat', retryBaseMs: 10, ...extra });

async function expectNothingStored(memory: Awaited<ReturnType<typeof createTestMemory>>['memory']) {
  expect(await memory.list({ ...owner, includeInvalid: true })).toEqual([]);
  expect((await memory.export(owner)).inputs).toEqual([]);
}

describe('openAIExtractor', () => {
  it('sends the seed prompt with a strict json_schema response_format and stores each fact with its topic, importance and half-life when the server answers', async () => {
    stub.reply(CHAT, chatReply({ memories: [VEG] }));
    const { memory } = await createTestMemory({ extractor: openAIExtractor(endpoint()) });
    const operations = await memory.ingest(messages, ingestOptions);
    expect(operations.map((op) => op.action)).toEqual(['CREATE']);
    const [request] = stub.requests;
    expect(request!.headers['authorization']).toBe('Bearer sk-test');
    expect(request!.body['model']).toBe('stub-chat');
    const format = request!.body['response_format'] as { type: string; json_schema: { strict: boolean; schema: { properties: { memories: { items: { required: string[]; additionalProperties: boolean } } } } } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.schema.properties.memories.items.required).toEqual(expect.arrayContaining(['topic', 'importance', 'halfLifeDays']));
    expect(format.json_schema.schema.properties.memories.items.additionalProperties).toBe(false);
    const prompt = (request!.body['messages'] as { content: string }[])[0]!.content;
    expect(prompt).toContain('Extract durable facts about the user');
    expect(prompt).toContain("USER: I'm vegetarian.");
    expect(await memory.list(owner)).toMatchObject([{ content: VEG.content, topic: 'diet', importance: 0.8, halfLifeDays: 730 }]);
  });

  it('falls back to json_object with the schema in the prompt, and keeps to it, when the server rejects json_schema', async () => {
    stub.reply(CHAT, { status: 400, body: { error: { message: "response_format 'json_schema' is not supported" } } }, chatReply({ memories: [VEG] }));
    const { memory } = await createTestMemory({ extractor: openAIExtractor(endpoint()) });
    await memory.ingest(messages, ingestOptions);
    await memory.ingest(messages, { ...ingestOptions, source: { type: 'user_explicit', id: 'c2' } });
    expect(stub.requests.map((request) => (request.body['response_format'] as { type: string }).type)).toEqual(['json_schema', 'json_object', 'json_object']);
    expect((stub.requests[1]!.body['messages'] as { content: string }[])[0]!.content).toContain('matching this JSON Schema');
    expect(await memory.list(owner)).toMatchObject([{ content: VEG.content, sources: [{ id: 'c1' }, { id: 'c2' }] }]);
  });

  it('retries after a 429 once Retry-After has passed, then stores the answer', async () => {
    stub.reply(CHAT, { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'rate limited' } } }, chatReply({ memories: [VEG] }));
    const { memory } = await createTestMemory({ extractor: openAIExtractor(endpoint()) });
    await memory.ingest(messages, ingestOptions);
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[1]!.at - stub.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(await memory.list(owner)).toHaveLength(1);
  });

  it('rejects with PluginError carrying status 500 and stores nothing when every attempt fails', async () => {
    stub.reply(CHAT, { status: 500, body: { error: { message: 'model crashed' } } });
    const { memory } = await createTestMemory({ extractor: openAIExtractor(endpoint({ maxRetries: 2 })) });
    const failure = memory.ingest(messages, ingestOptions);
    await expect(failure).rejects.toThrow(PluginError);
    await expect(failure).rejects.toMatchObject({ status: 500, message: expect.stringMatching(/HTTP 500.*model crashed.*after 3 attempts/) });
    expect(stub.requests).toHaveLength(3);
    await expectNothingStored(memory);
  });

  it('rejects with PluginError and stores nothing when the answer is malformed', async () => {
    const malformed = [chatReply('Sure! The user is vegetarian.'), chatReply({ memories: [{ ...VEG, confidence: 3 }] }), { body: '{"choices": [' }, { body: { data: [] } }];
    for (const reply of malformed) {
      stub.reply(CHAT, reply);
      const { memory } = await createTestMemory({ extractor: openAIExtractor(endpoint()) });
      await expect(memory.ingest(messages, ingestOptions)).rejects.toThrow(PluginError);
      await expectNothingStored(memory);
    }
  });

  it('rejects with PluginError naming the timeout and stores nothing when the answer comes too late', async () => {
    // An answer far later than any slow machine: a call that waited for it would store VEG, not reject.
    stub.reply(CHAT, chatReply({ memories: [VEG] }, { delayMs: 20_000 }));
    const { memory } = await createTestMemory({ extractor: openAIExtractor(endpoint({ timeoutMs: 200 })) });
    await expect(memory.ingest(messages, ingestOptions)).rejects.toThrow(/did not answer within 200 ms/);
    await expectNothingStored(memory);
  });

  it('rejects with AbortedError and stores nothing when the signal fires during the call', async () => {
    stub.reply(CHAT, chatReply({ memories: [VEG] }, { delayMs: 2_000 }));
    const controller = new AbortController();
    const { memory } = await createTestMemory({ extractor: openAIExtractor(endpoint({ signal: controller.signal })) });
    setTimeout(() => controller.abort(), 100);
    await expect(memory.ingest(messages, ingestOptions)).rejects.toThrow(AbortedError);
    await expectNothingStored(memory);
  });

  it('works through the openai client package pointed at the server by baseURL, its HTTP errors keeping their status', async () => {
    stub.reply(CHAT, { status: 503, body: { error: { message: 'overloaded' } } }, chatReply({ memories: [VEG] }));
    const client = new OpenAI({ baseURL: stub.baseURL, apiKey: 'sk-client' });
    const { memory } = await createTestMemory({ extractor: openAIExtractor({ client, model: 'stub-chat', retryBaseMs: 10 }) });
    await memory.ingest(messages, ingestOptions);
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[1]!.headers['authorization']).toBe('Bearer sk-client');
    expect((stub.requests[1]!.body['response_format'] as { type: string }).type).toBe('json_schema');
    expect(await memory.list(owner)).toMatchObject([{ content: VEG.content }]);

    stub.reply(CHAT, { status: 500, body: { error: { message: 'down' } } });
    const failing = await createTestMemory({ extractor: openAIExtractor({ client, model: 'stub-chat', maxRetries: 0 }) });
    await expect(failing.memory.ingest(messages, ingestOptions)).rejects.toMatchObject({ name: 'PluginError', status: 500 });
    await expectNothingStored(failing.memory);
  });
});
