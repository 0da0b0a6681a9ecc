/**
 * engram/openai's decider and embedder against the loopback OpenAI stub. The decider only
 * proposes: a model that answers UPDATE against a stronger source, or CREATE beside an
 * exclusive topic's memory, is overruled by engram's plan.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PluginError } from '../../src/index';
import { openAIDecider, openAIEmbedder } from '../../src/adapters/openai';
import { chatReply, embeddingsReply, startOpenAIStub, type OpenAIStub, type StubRequest } from '../helpers/openai-stub';
import { createTestMemory } from '../helpers/memory';

const CHAT = '/v1/chat/completions';
const EMBEDDINGS = '/v1/embeddings';
const owner = { userId: 'u_ada', appName: 'default' };
const VEG = { content: 'The user follows a vegetarian diet.', topic: 'diet' };
const FISH = { content: 'The user eats fish again.', topic: 'diet' };

let stub: OpenAIStub;
beforeEach(async () => void (stub = await startOpenAIStub()));
afterEach(async () => stub.close());

const decider = () => openAIDecider({ baseURL: stub.baseURL, model: 'stub-chat', retryBaseMs: 10 });
const promptOf = (request: StubRequest) => (request.body['messages'] as { content: string }[])[0]!.content;

describe('openAIDecider', () => {
  it('shows the model the candidate and the sweep, and applies its UPDATE with its reason when the source is trusted enough', async () => {
    stub.reply(CHAT, chatReply({ action: 'CREATE', targetId: null, corroborates: false, reason: 'first diet fact' }));
    const { memory } = await createTestMemory({ decider: decider() });
    const [first] = [await memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } })];
    stub.reply(CHAT, chatReply({ action: 'UPDATE', targetId: first!.memoryId, corroborates: false, reason: 'the user changed diet' }));
    const update = await memory.remember(FISH, { ...owner, source: { type: 'user_explicit', id: 'c2' } });
    expect(update).toMatchObject({ action: 'UPDATE', targetId: first!.memoryId, reason: 'the user changed diet' });
    const prompt = promptOf(stub.requests[1]!);
    expect(prompt).toContain(`[topic: diet; source: user_explicit] ${FISH.content}`);
    expect(prompt).toContain(`- id=${first!.memoryId}; topic=diet; confidence=0.9; sources=user_explicit; content=${VEG.content}`);
    expect((await memory.list(owner)).map((record) => record.content)).toEqual([FISH.content]);
  });

  it("refuses the model's UPDATE and changes nothing when the new source is weaker than the strongest behind the memory", async () => {
    stub.reply(CHAT, chatReply({ action: 'CREATE', targetId: null, corroborates: false, reason: 'first diet fact' }));
    const { memory } = await createTestMemory({ decider: decider() });
    const created = await memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } });
    const before = await memory.list({ ...owner, includeInvalid: true });
    stub.reply(CHAT, chatReply({ action: 'UPDATE', targetId: created.memoryId, corroborates: false, reason: 'the tool knows better' }));
    const refused = await memory.remember(FISH, { ...owner, source: { type: 'tool_output', id: 't1' } });
    expect(refused).toMatchObject({ action: 'NOOP', targetId: created.memoryId, reason: expect.stringMatching(/^update refused: lower-trust source .*tool_output 0\.3 < 0\.9/) });
    expect(await memory.list({ ...owner, includeInvalid: true })).toEqual(before);
  });

  it("turns the model's CREATE into an UPDATE when the candidate's exclusive topic already holds an active memory", async () => {
    stub.reply(CHAT, chatReply({ action: 'CREATE', targetId: null, corroborates: false, reason: 'looks new' }));
    const { memory } = await createTestMemory({ decider: decider() });
    const created = await memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } });
    const second = await memory.remember(FISH, { ...owner, source: { type: 'user_explicit', id: 'c2' } });
    expect(second).toMatchObject({ action: 'UPDATE', targetId: created.memoryId, reason: expect.stringContaining("exclusive topic 'diet' already holds") });
    expect((await memory.list(owner)).filter((record) => record.topic === 'diet')).toHaveLength(1);
  });

  it("turns the model's UPDATE of a memory on another topic into a CREATE, and that memory stays", async () => {
    const { memory } = await createTestMemory({ decider: decider(), candidateThreshold: -1 });
    stub.reply(CHAT, chatReply({ action: 'CREATE', targetId: null, corroborates: false, reason: 'first diet fact' }));
    const diet = await memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } });
    stub.reply(CHAT, chatReply({ action: 'UPDATE', targetId: diet.memoryId, corroborates: false, reason: 'replace it' }));
    const name = await memory.remember({ content: 'The user goes by Ada.', topic: 'identity' }, { ...owner, source: { type: 'user_explicit', id: 'c2' } });
    expect(name).toMatchObject({ action: 'CREATE', reason: expect.stringContaining(`proposed UPDATE of ${diet.memoryId}, a memory on topic 'diet'`) });
    expect((await memory.list(owner)).map((record) => record.content).sort()).toEqual(['The user follows a vegetarian diet.', 'The user goes by Ada.']);
  });

  it('rejects with PluginError and stores nothing when the model names a memory that is not in the sweep', async () => {
    stub.reply(CHAT, chatReply({ action: 'UPDATE', targetId: 'mem_of_bob', corroborates: false, reason: 'x' }));
    const { memory } = await createTestMemory({ decider: decider() });
    await expect(memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } })).rejects.toThrow(PluginError);
    expect(await memory.list({ ...owner, includeInvalid: true })).toEqual([]);
  });

  it('decides through a WebLLM-shaped engine given as { client }', async () => {
    const bodies: Record<string, unknown>[] = [];
    const engine = {
      chat: {
        completions: {
          create: async (body: Record<string, unknown>) => {
            bodies.push(body);
            return chatReply({ action: 'CREATE', targetId: null, corroborates: false, reason: 'new to the engine' }).body;
          },
        },
      },
    };
    const { memory } = await createTestMemory({ decider: openAIDecider({ client: engine, model: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' }) });
    expect(await memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } })).toMatchObject({ action: 'CREATE', reason: 'new to the engine' });
    expect(bodies[0]).toMatchObject({ model: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', response_format: { type: 'json_schema' } });
  });
});

/** A deterministic 4-d "model": vectors from letter counts, deliberately not unit length. */
function vectorOf(text: string): number[] {
  const lower = text.toLowerCase();
  return ['a', 'e', 'i', 'o'].map((letter) => 1 + lower.split(letter).length);
}
const embeddings = (request: StubRequest) => embeddingsReply((request.body['input'] as string[]).map(vectorOf));

describe('openAIEmbedder', () => {
  it('embeds in batches of batchSize, L2-normalised, under an id naming model and dimension', async () => {
    stub.reply(EMBEDDINGS, embeddings);
    const embedder = openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', dimensions: 4, batchSize: 2 });
    expect(embedder.id).toBe('openai:stub-embed:4');
    const vectors = await embedder.embed(['one', 'two', 'three', 'four', 'five']);
    expect(stub.requests.map((request) => request.body['input'])).toEqual([['one', 'two'], ['three', 'four'], ['five']]);
    expect(stub.requests[0]!.body).toMatchObject({ model: 'stub-embed', encoding_format: 'float' });
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    const raw = vectorOf('three');
    expect(vectors[2]![0]! / vectors[2]![1]!).toBeCloseTo(raw[0]! / raw[1]!, 5);
  });

  it('stores and retrieves through createMemory, every record carrying the embedder id', async () => {
    stub.reply(EMBEDDINGS, embeddings);
    const { memory } = await createTestMemory({ embedder: openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', dimensions: 4 }) });
    await memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } });
    const [hit] = await memory.retrieve('vegetarian', owner);
    expect(hit!.memory).toMatchObject({ content: VEG.content, embedderId: 'openai:stub-embed:4' });
  });

  it('rejects with PluginError and stores nothing when the vectors have another length than dimensions', async () => {
    stub.reply(EMBEDDINGS, embeddings);
    const { memory } = await createTestMemory({ embedder: openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', dimensions: 8 }) });
    await expect(memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } })).rejects.toThrow(/length 4 .*dimensions = 8/);
    expect(await memory.list({ ...owner, includeInvalid: true })).toEqual([]);
  });

  it('learns the dimension from the first answer when dimensions is not given, under the same id', async () => {
    stub.reply(EMBEDDINGS, embeddings);
    const embedder = openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed' });
    expect([embedder.id, embedder.dim]).toEqual(['openai:stub-embed:0', 0]);
    const [vector] = await embedder.embed(['hello']);
    expect(vector).toHaveLength(4);
    expect([embedder.id, embedder.dim]).toEqual(['openai:stub-embed:4', 4]);
    expect(embedder.id).toBe(openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', dimensions: 4 }).id);
    expect(await embedder.load()).toBe(4);
    expect(stub.requests).toHaveLength(1); // load() after an answer asks nothing
  });

  it('asks for one vector when createMemory opens without dimensions, and reopens the database with dimensions given', async () => {
    stub.reply(EMBEDDINGS, embeddings);
    const first = await createTestMemory({ embedder: openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed' }) });
    expect(stub.requests.map((request) => request.body['input'])).toEqual([['dimension probe']]);
    await first.memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } });
    expect((await first.memory.list(owner))[0]!.embedderId).toBe('openai:stub-embed:4');
    await first.memory.close();
    // The same vectors by the same id: no EmbedderMismatchError, no re-embedding.
    const again = await createTestMemory({ name: first.name, indexedDB: first.factory, embedder: openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', dimensions: 4 }) });
    const [hit] = await again.memory.retrieve('vegetarian', owner);
    expect(hit!.memory.content).toBe(VEG.content);
  });

  it('fails createMemory with PluginError and its status when the dimension probe fails', async () => {
    stub.reply(EMBEDDINGS, { status: 401, body: { error: { message: 'bad key' } } });
    await expect(createTestMemory({ embedder: openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', maxRetries: 0 }) })).rejects.toMatchObject({ name: 'PluginError', status: 401 });
  });

  it('rejects with PluginError when a later answer has another length than the first one, and learns nothing from a ragged first answer', async () => {
    stub.reply(
      EMBEDDINGS,
      embeddingsReply([
        [1, 0, 0, 0],
        [1, 0],
      ]),
      embeddingsReply([[1, 0, 0]]),
      embeddingsReply([[1, 0]]),
    );
    const embedder = openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed' });
    await expect(embedder.embed(['a', 'b'])).rejects.toThrow(/length 2 \(text 1\), not the 4 its first answer had/);
    expect(embedder.dim).toBe(0);
    await embedder.embed(['c']);
    expect(embedder.dim).toBe(3);
    await expect(embedder.embed(['d'])).rejects.toThrow(PluginError);
    expect(embedder.dim).toBe(3);
  });

  it('throws PluginError for dimensions that are not a positive integer, or sendDimensions without dimensions', () => {
    expect(() => openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', dimensions: 0 })).toThrow(/positive integer, or left out to learn it/);
    expect(() => openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', sendDimensions: true })).toThrow(/give dimensions too/);
  });

  it('retries a 502 and rejects with its status, storing nothing, once retries run out', async () => {
    stub.reply(EMBEDDINGS, { status: 502, body: 'bad gateway' });
    const { memory } = await createTestMemory({ embedder: openAIEmbedder({ baseURL: stub.baseURL, model: 'stub-embed', dimensions: 4, maxRetries: 1, retryBaseMs: 10 }) });
    await expect(memory.remember(VEG, { ...owner, source: { type: 'user_explicit', id: 'c1' } })).rejects.toMatchObject({ name: 'PluginError', status: 502 });
    expect(stub.requests).toHaveLength(2);
    expect(await memory.list({ ...owner, includeInvalid: true })).toEqual([]);
  });
});
