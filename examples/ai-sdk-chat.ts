/**
 * A `streamText` chat loop with engram as AI SDK middleware. Run: `npx tsx examples/ai-sdk-chat.ts`.
 *
 * The model here is the AI SDK's MockLanguageModelV3 so the script runs offline; it answers with
 * what it was told about the user, to show the `<MEMORIES>` block arriving. In an app, pass a real
 * provider's model instead (for example `openai('gpt-4o-mini')` from `@ai-sdk/openai`).
 */
import 'fake-indexeddb/auto';
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream, streamText, wrapLanguageModel, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createMemory, EPISODE_TOPIC } from 'engram';
import { engramMiddleware } from 'engram/ai-sdk';

/** A stand-in model: it reads the memory lines of its system prompt back to the user. */
const model = new MockLanguageModelV3({
  doStream: async ({ prompt }: LanguageModelV3CallOptions) => {
    const system = prompt.find((message) => message.role === 'system');
    const known = system?.role === 'system' ? system.content.split('\n').filter((line) => line.startsWith('- [')) : [];
    const answer = known.length ? `From earlier I know: ${known.map((line) => line.replace(/^- \[[^\]]*\] /, '')).join(' ')}` : 'Nice to meet you!';
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'a' },
      ...answer.split(/(?<= )/).map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 'a', delta })),
      { type: 'text-end', id: 'a' },
      { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } } },
    ];
    return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: 5 }) };
  },
});

const memory = await createMemory();
const middleware = engramMiddleware({ memory, userId: 'ada', sessionId: 'chat-1' });
const chat = wrapLanguageModel({ model, middleware });

const history: ModelMessage[] = [];
for (const turn of ["Hi! I'm vegetarian, and call me Ada.", 'On flights I prefer the aisle seat.', 'What do you remember about me?']) {
  console.log(`user: ${turn}`);
  history.push({ role: 'user', content: turn });
  const result = streamText({ model: chat, system: 'You are a friendly travel concierge.', messages: history });
  process.stdout.write('assistant: ');
  for await (const delta of result.textStream) process.stdout.write(delta);
  process.stdout.write('\n');
  history.push({ role: 'assistant', content: await result.text });
  await middleware.flush(); // the user turn is stored after the answer streamed; wait before the next turn
}

// Facts, and the user's turns kept in their own words (episodes).
const stored = await memory.list({ userId: 'ada' });
console.log('stored:', JSON.stringify(stored.filter((record) => record.topic !== EPISODE_TOPIC).map((record) => record.content)));
console.log('episodes:', JSON.stringify(stored.filter((record) => record.topic === EPISODE_TOPIC).map((record) => record.content)));
await memory.close();
