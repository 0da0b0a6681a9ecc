/**
 * engram/ai-sdk's middleware on the AI SDK's own mock model (`MockLanguageModelV3`), through
 * `wrapLanguageModel`, `generateText` and `streamText`: what the model was sent, what was
 * stored, and when. Each test has its own fake-indexeddb database.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createRuleExtractor, ValidationError, type Extractor } from 'engram';
import { engramMiddleware } from 'engram/ai-sdk';
import { countingEmbedder } from '../helpers/counting-embedder';
import { createTestMemory } from '../helpers/memory';
import { findInDatabases } from '../helpers/scan';

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function generated(text: string): LanguageModelV3GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
}

function streamParts(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...text.split(' ').map((word): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta: `${word} ` })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ];
}

/** The system message the model was sent. */
function systemOf(call: LanguageModelV3CallOptions | undefined): string {
  const message = call?.prompt.find((entry) => entry.role === 'system');
  return message?.role === 'system' ? message.content : '';
}

async function contents(memory: Awaited<ReturnType<typeof createTestMemory>>['memory'], userId: string) {
  return (await memory.list({ userId })).map((record) => record.content);
}

describe('engramMiddleware', () => {
  it("puts the user's memories in the system prompt and stores only the user turn when generateText runs", async () => {
    const { memory, factory } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: "I'm vegetarian." }], { userId: 'alice', sessionId: 's0', source: { type: 'user_implicit', id: 's0' } });
    const model = new MockLanguageModelV3({ doGenerate: generated("I'm vegan, Call me Assistantia.") });
    const middleware = engramMiddleware({ memory, userId: 'alice', sessionId: 's1' });
    const { text } = await generateText({ model: wrapLanguageModel({ model, middleware }), system: 'You are a chef.', prompt: 'I prefer the aisle seat. What should I eat tonight?' });
    await middleware.flush();

    expect(text).toBe("I'm vegan, Call me Assistantia.");
    const system = systemOf(model.doGenerateCalls[0]);
    expect(system.startsWith('You are a chef.\n\n<MEMORIES>\n')).toBe(true);
    expect(system).toContain('] The user follows a vegetarian diet.\n</MEMORIES>');
    expect(await contents(memory, 'alice')).toEqual(['The user follows a vegetarian diet.', 'The user prefers aisle seating on flights.']);
    expect(await findInDatabases(factory, 'Assistantia')).toEqual([]);
    await memory.close();
  });

  it("asks the embedder once for the user's turn: as the query the middleware retrieves with, then as the episode its ingest keeps", async () => {
    const embedder = countingEmbedder();
    const { memory } = await createTestMemory({ embedder, episodes: true });
    const model = new MockLanguageModelV3({ doGenerate: generated('Lentil curry.') });
    const middleware = engramMiddleware({ memory, userId: 'alice', sessionId: 's1' });
    const turn = 'I have been vegan for ten years now and I cook every night.';
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: turn });
    await middleware.flush();
    expect((await memory.list({ userId: 'alice' })).map((record) => record.content)).toContain(turn);
    expect(embedder.calls.flat().filter((text) => text === turn)).toHaveLength(1);
    await memory.close();
  });

  it('stores the last turn and flush resolves when memory.close() runs before middleware.flush()', async () => {
    const { memory, factory, name } = await createTestMemory();
    const model = new MockLanguageModelV3({ doGenerate: generated('Noted.') });
    const middleware = engramMiddleware({ memory, userId: 'alice', sessionId: 's1' });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'Call me Ada.' });
    await memory.close();
    await expect(middleware.flush()).resolves.toBeUndefined();
    const reopened = await createTestMemory({ indexedDB: factory, name });
    expect(await contents(reopened.memory, 'alice')).toEqual(['The user goes by Ada.']);
    await reopened.memory.close();
  });

  it('leaves the prompt as it was and stores nothing when the prompt ends with a tool step rather than a user turn', async () => {
    const { memory } = await createTestMemory();
    const model = new MockLanguageModelV3({ doGenerate: generated('ok') });
    const middleware = engramMiddleware({ memory, userId: 'alice' });
    await generateText({
      model: wrapLanguageModel({ model, middleware }),
      messages: [
        { role: 'user', content: "I'm vegetarian." },
        { role: 'assistant', content: 'Noted.' },
      ],
    });
    await middleware.flush();
    expect(model.doGenerateCalls[0]!.prompt.some((message) => message.role === 'system')).toBe(false);
    expect(await contents(memory, 'alice')).toEqual([]);
    await memory.close();
  });

  it('stores the user turn after the stream finished when streamText is read to the end', async () => {
    const { memory } = await createTestMemory();
    const model = new MockLanguageModelV3({ doStream: { stream: simulateReadableStream({ chunks: streamParts('Sure, noted that.') }) } });
    const middleware = engramMiddleware({ memory, userId: 'alice', sessionId: 's1' });
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), prompt: 'Call me Ada.' });
    expect(await result.text).toBe('Sure, noted that. ');
    await middleware.flush();
    expect(await contents(memory, 'alice')).toEqual(['The user goes by Ada.']);
    await memory.close();
  });

  it('stores nothing when the stream errors midway or reports an error part', async () => {
    const { memory, factory } = await createTestMemory();
    const head = streamParts('Half an answer').slice(0, 3);
    const broken = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of head) controller.enqueue(part);
        controller.error(new Error('connection reset'));
      },
    });
    const reported = simulateReadableStream<LanguageModelV3StreamPart>({ chunks: [...head, { type: 'error', error: new Error('overloaded') }, ...streamParts('x').slice(-2)] });
    const model = new MockLanguageModelV3({ doStream: [{ stream: broken }, { stream: reported }] });
    const middleware = engramMiddleware({ memory, userId: 'alice' });
    const wrapped = wrapLanguageModel({ model, middleware });
    const first = streamText({ model: wrapped, prompt: 'Call me Brokenna.' });
    await expect(
      (async () => {
        for await (const _ of first.textStream);
      })(),
    ).rejects.toThrow('connection reset');
    const errors: unknown[] = [];
    const second = streamText({ model: wrapped, prompt: 'Call me Erroria.', onError: ({ error }) => void errors.push(error) });
    await second.consumeStream();
    await middleware.flush();
    expect(errors).toEqual([new Error('overloaded')]);
    expect(await contents(memory, 'alice')).toEqual([]);
    expect(await findInDatabases(factory, 'Brokenna')).toEqual([]);
    expect(await findInDatabases(factory, 'Erroria')).toEqual([]);
    await memory.close();
  });

  it('stores nothing when doGenerate fails', async () => {
    const { memory, factory } = await createTestMemory();
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('upstream 500');
      },
    });
    const middleware = engramMiddleware({ memory, userId: 'alice' });
    await expect(generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'Call me Failinda.', maxRetries: 0 })).rejects.toThrow('upstream 500');
    await middleware.flush();
    expect(await findInDatabases(factory, 'Failinda')).toEqual([]);
    await memory.close();
  });

  it('keeps two users apart when both talk through one wrapped model', async () => {
    const { memory } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: 'Call me Alicia.' }], { userId: 'alice', sessionId: 'a0', source: { type: 'user_implicit', id: 'a0' } });
    await memory.ingest([{ role: 'user', content: 'Call me Roberto.' }], { userId: 'bob', sessionId: 'b0', source: { type: 'user_implicit', id: 'b0' } });
    const model = new MockLanguageModelV3({ doGenerate: generated('Hello!') });
    const middleware = engramMiddleware({ memory, userId: 'alice' });
    const wrapped = wrapLanguageModel({ model, middleware });
    await Promise.all([
      generateText({ model: wrapped, prompt: "What do you know about me? I'm vegetarian." }),
      generateText({ model: wrapped, prompt: "What do you know about me? I'm vegan.", providerOptions: { engram: { userId: 'bob' } } }),
    ]);
    await middleware.flush();
    const [toAlice, toBob] = model.doGenerateCalls.map(systemOf);
    expect(toAlice).toContain('Alicia');
    expect(toAlice).not.toContain('Roberto');
    expect(toBob).toContain('Roberto');
    expect(toBob).not.toContain('Alicia');
    expect(await contents(memory, 'alice')).toEqual(['The user goes by Alicia.', 'The user follows a vegetarian diet.']);
    expect(await contents(memory, 'bob')).toEqual(['The user goes by Roberto.', 'The user follows a vegan diet.']);
    await memory.close();
  });

  it('delivers the first token before ingestion starts when extraction is slow', async () => {
    const events: string[] = [];
    const rules = createRuleExtractor();
    const slow: Extractor = {
      async extract(messages, context) {
        events.push('extract-start');
        await new Promise((resolve) => setTimeout(resolve, 300));
        return rules.extract(messages, context);
      },
    };
    const { memory } = await createTestMemory({ extractor: slow });
    const model = new MockLanguageModelV3({ doStream: { stream: simulateReadableStream({ chunks: streamParts('one two three four'), chunkDelayInMs: 20 }) } });
    const middleware = engramMiddleware({ memory, userId: 'alice' });
    const result = streamText({ model: wrapLanguageModel({ model, middleware }), prompt: "I'm pescatarian." });
    for await (const delta of result.textStream) events.push(`token:${delta.trim()}`);
    events.push('stream-read');
    await middleware.flush();
    expect(events.indexOf('token:one')).toBe(0);
    expect(events.indexOf('extract-start')).toBeGreaterThan(events.indexOf('token:four'));
    expect(await contents(memory, 'alice')).toEqual(['The user follows a pescatarian diet.']);
    await memory.close();
  });

  it('hands an ingestion failure to flush when no onError was given, and rejects bad options up front', async () => {
    const { memory } = await createTestMemory();
    const model = new MockLanguageModelV3({ doGenerate: generated('ok') });
    const middleware = engramMiddleware({ memory, userId: 'alice', source: { type: 'user_implicit', id: ' padded ' } });
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: "I'm vegan." });
    await expect(middleware.flush()).rejects.toThrow(ValidationError);
    await expect(middleware.flush()).resolves.toBeUndefined();
    expect(() => engramMiddleware({ memory, userId: '' })).toThrow(ValidationError);
    await memory.close();
  });

  it("with profile: true puts who the user is in every turn's block, beside the turn's own memories, and not without it", async () => {
    const { memory } = await createTestMemory();
    await memory.ingest([{ role: 'user', content: "I'm vegetarian. I prefer the aisle seat." }], { userId: 'alice', sessionId: 's0', source: { type: 'user_implicit', id: 's0' } });
    const sent = async (profile: boolean | undefined) => {
      const model = new MockLanguageModelV3({ doGenerate: generated('Noted.') });
      const middleware = engramMiddleware({ memory, userId: 'alice', sessionId: 's1', ...(profile === undefined ? {} : { profile }) });
      await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'Which seat should I book on the flight?' });
      await middleware.flush();
      return systemOf(model.doGenerateCalls[0]);
    };
    const withProfile = await sent(true);
    expect(withProfile).toContain('Who the user is');
    expect(withProfile).toContain('The user follows a vegetarian diet.');
    expect(withProfile).toContain('aisle');
    const without = await sent(undefined);
    expect(without).toContain('aisle');
    expect(without).not.toContain('vegetarian');
    await memory.close();
  });
});
