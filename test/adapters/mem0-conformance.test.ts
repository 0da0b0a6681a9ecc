/**
 * mem0's documented Node quick-start and its TypeScript examples (add, search, update, delete),
 * written as a mem0 user writes them with only the import line changed, run under Node on
 * fake-indexeddb. `fake-indexeddb/auto` stands in for the browser's IndexedDB, so
 * `new Memory()` with no config works as in mem0's quick-start.
 */
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLlmExtractor, ValidationError, type CompletionRequest } from 'engram';
import { Memory, type MemoryItem, type SearchResult } from 'engram/mem0';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The documented fields of one result, checked for what they must hold. */
function expectItemShape(item: MemoryItem, userId: string): void {
  expect(item.id).toMatch(/\S/);
  expect(item.hash).toBe(md5(item.memory));
  expect(item.createdAt).toMatch(ISO);
  expect(item.updatedAt).toMatch(ISO);
  expect(item.user_id).toBe(userId);
  expect(item.metadata).toBeTypeOf('object');
}

/**
 * The model of the quick-start: what an extraction model answers for its conversation. It sees
 * only what the pipeline sends (user turns), and says so if assistant text ever reached it.
 */
async function quickStartModel({ prompt }: CompletionRequest) {
  if (prompt.includes('thriller recommendations')) throw new Error('the assistant turn reached the extractor');
  return prompt.includes('I love sci-fi movies')
    ? { memories: [{ content: 'User loves sci-fi movies.', topic: 'preference', confidence: 0.8, excerpt: 'I love sci-fi movies.' }] }
    : { memories: [] };
}

/** The quick-start's conversation, verbatim. */
const messages = [
  { role: 'user', content: "I'm planning to watch a movie tonight. Any recommendations?" },
  { role: 'assistant', content: 'How about thriller movies? They can be quite engaging.' },
  { role: 'user', content: "I'm not a big fan of thriller movies but I love sci-fi movies." },
  { role: 'assistant', content: "Got it! I'll avoid thriller recommendations and suggest sci-fi movies in the future." },
];

describe('Memory (mem0 quick-start)', () => {
  it('runs the Node quick-start to its documented result shape when new Memory() has no config', async () => {
    const memory = new Memory();
    // engram's offline extractor reads the quick-start's user turns as mem0's LLM does: the plan,
    // the dislike and the like (the plan dated by the message's day), and never the assistant's turns.
    const added = await memory.add(messages, { userId: 'alice', metadata: { category: 'movie_recommendations' } });
    expect(added.results.map((item) => item.memory)).toEqual([
      expect.stringMatching(/^The user plans to watch a movie on \d{1,2} \w+ \d{4}\.$/),
      'The user is not a big fan of thriller movies.',
      'The user loves sci-fi movies.',
    ]);
    await memory.add("I'm vegetarian.", { userId: 'alice' });
    const results: SearchResult = await memory.search('What do you know about me?', { filters: { user_id: 'alice' } });
    expect(results.results.map((item) => item.memory)).toContain('The user follows a vegetarian diet.');
    expect(results.results.map((item) => item.memory).join(' ')).not.toMatch(/thriller recommendations|suggest sci-fi/);
    expectItemShape(results.results[0]!, 'alice');
    expect(results.results[0]!.score).toBeGreaterThan(0);
    await memory.reset();
  });

  it('returns the documented memory when an LLM extractor is configured', async () => {
    const memory = new Memory({ name: 'quick-start-llm', extractor: createLlmExtractor({ complete: quickStartModel }) });
    const added = await memory.add(messages, { userId: 'alice', metadata: { category: 'movie_recommendations' } });
    expect(added.results).toEqual([{ id: expect.any(String), memory: 'User loves sci-fi movies.', metadata: { event: 'ADD' } }]);
    const results = await memory.search('What do you know about me?', { filters: { user_id: 'alice' } });
    expect(results.results).toHaveLength(1);
    expect(results.results[0]).toMatchObject({ id: added.results[0]!.id, memory: 'User loves sci-fi movies.', user_id: 'alice' });
    expectItemShape(results.results[0]!, 'alice');
    await memory.reset();
  });
});

describe('Memory (mem0 TypeScript examples)', () => {
  it('adds, searches, updates and deletes as the examples do when a user is configured for id calls', async () => {
    const memory = new Memory({ name: 'examples', userId: 'alice' });
    const coffee = [{ role: 'user', content: 'I like to drink coffee in the morning and go for a walk' }];
    const result = await memory.add(coffee, { userId: 'alice', metadata: { category: 'preferences' }, infer: false });
    expect(result.results).toEqual([{ id: expect.any(String), memory: coffee[0]!.content, metadata: { event: 'ADD' } }]);

    const relatedMemories = await memory.search('Should I drink coffee or tea?', { filters: { userId: 'alice' } });
    expect(relatedMemories.results.map((item) => item.memory)).toEqual([coffee[0]!.content]);
    const memories = await memory.search('food preferences', { filters: { user_id: 'alice' } });
    expectItemShape(memories.results[0]!, 'alice');

    const id = result.results[0]!.id;
    const updated = await memory.update(id, { text: 'Alex now prefers decaf coffee' });
    expect(updated.message).toBe('Memory updated successfully!');
    expect(await memory.get(id)).toBeNull();
    expect((await memory.get(updated.id))?.memory).toBe('Alex now prefers decaf coffee');

    expect(await memory.delete(updated.id)).toEqual({ message: 'Memory deleted successfully!' });
    await memory.add('I prefer the aisle seat.', { userId: 'alice' });
    expect((await memory.getAll({ filters: { user_id: 'alice' } })).results).toHaveLength(1);
    expect(await memory.deleteAll({ userId: 'alice' })).toEqual({ message: 'Memories deleted successfully!' });
    expect(await memory.getAll({ filters: { user_id: 'alice' } })).toEqual({ results: [] });
    await memory.reset();
  });

  it('rejects the metadata filter example with a ValidationError when engram has no metadata to filter', async () => {
    const memory = new Memory({ name: 'examples-filters' });
    // @ts-expect-error engram/mem0's SearchFilters has no metadata keys: this mem0 example does not type-check.
    const memories = memory.search('food preferences', { filters: { userId: 'alice', categories: { contains: 'diet' } } });
    await expect(memories).rejects.toThrow(ValidationError);
    await expect(memories).rejects.toThrow(/metadata filters \(categories\) are not supported/);
    await memory.close();
  });
});
