import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError, type Memory, type MemoryRecord } from '../../src/index';
import { createTestMemory, type TestMemory } from '../helpers/memory';

let test: TestMemory;
let memory: Memory;
let before: MemoryRecord[];
const owner = { userId: 'ada' };
const source = { type: 'user_implicit', id: 's1' } as const;

beforeEach(async () => {
  test = await createTestMemory();
  memory = test.memory;
  await memory.ingest([{ role: 'user', content: "I'm vegetarian. Call me Ada." }], { ...owner, sessionId: 's0', source: { type: 'user_implicit', id: 's0' } });
  before = await memory.list({ ...owner, includeInvalid: true });
  expect(before).toHaveLength(2);
});
afterEach(async () => memory.close());

async function expectNothingStored(): Promise<void> {
  expect(await memory.list({ ...owner, includeInvalid: true })).toEqual(before);
}

describe('Memory.ingest (bad input)', () => {
  it('rejects with ValidationError and stores nothing when a message text is empty, whitespace, oversized or not a string', async () => {
    for (const content of ['', '   ', '\n\t\u00A0', 'x'.repeat(100_001), 42, null]) {
      const messages = [
        { role: 'user', content: "I'm vegan" },
        { role: 'user', content },
      ] as never;
      await expect(memory.ingest(messages, { ...owner, sessionId: 's1', source })).rejects.toThrow(ValidationError);
    }
    await expectNothingStored();
  });

  it('rejects with ValidationError and stores nothing when the userId is missing, empty or not a string', async () => {
    for (const userId of [undefined, '', ' ', 42, null, {}, ['ada']]) {
      await expect(memory.ingest([{ role: 'user', content: "I'm vegan" }], { userId, sessionId: 's1', source } as never)).rejects.toThrow(ValidationError);
    }
    await expect(memory.ingest([{ role: 'user', content: "I'm vegan" }], { sessionId: 's1', source } as never)).rejects.toThrow(/options\.userId/);
    await expectNothingStored();
  });

  it('rejects with ValidationError and stores nothing when the source type or role is unknown or the list is empty', async () => {
    await expect(memory.ingest([{ role: 'user', content: "I'm vegan" }], { ...owner, sessionId: 's1', source: { type: 'gossip', id: 's1' } } as never)).rejects.toThrow(ValidationError);
    await expect(memory.ingest([{ role: 'narrator', content: "I'm vegan" }] as never, { ...owner, sessionId: 's1', source })).rejects.toThrow(ValidationError);
    await expect(memory.ingest([], { ...owner, sessionId: 's1', source })).rejects.toThrow(ValidationError);
    await expect(memory.ingest('hello' as never, { ...owner, sessionId: 's1', source })).rejects.toThrow(ValidationError);
    await expect(memory.ingest([{ role: 'user', content: "I'm vegan" }], { ...owner, sessionId: 's\uD800', source })).rejects.toThrow(ValidationError);
    await expectNothingStored();
  });

  it('normalises lone surrogates in message text instead of storing them when ingesting', async () => {
    await memory.ingest([{ role: 'user', content: "\uD83DI'm vegan\uDE00" }], { ...owner, sessionId: 's1', source: { type: 'user_explicit', id: 's1' } });
    const active = await memory.list(owner);
    const vegan = active.find((r) => r.content === 'The user follows a vegan diet.')!;
    expect(vegan.sources.at(-1)!.excerpt).toBe("\uFFFDI'm vegan\uFFFD");
  });
});

describe('Memory.remember (bad input)', () => {
  it('rejects with ValidationError and stores nothing when the fact or options are malformed', async () => {
    const fact = { content: 'The user likes tea.', topic: 'drink' };
    const cases: [unknown, unknown][] = [
      [
        { ...fact, content: '' },
        { ...owner, source },
      ],
      [
        { ...fact, content: ' \n ' },
        { ...owner, source },
      ],
      [
        { ...fact, content: 'x'.repeat(100_001) },
        { ...owner, source },
      ],
      [
        { ...fact, topic: '' },
        { ...owner, source },
      ],
      [
        { ...fact, importance: Number.NaN },
        { ...owner, source },
      ],
      [
        { ...fact, importance: Infinity },
        { ...owner, source },
      ],
      [
        { ...fact, importance: 2 },
        { ...owner, source },
      ],
      [
        { ...fact, confidence: -Infinity },
        { ...owner, source },
      ],
      [
        { ...fact, halfLifeDays: 0 },
        { ...owner, source },
      ],
      [fact, { ...owner, scope: 'global', source }],
      [fact, { ...owner, source: { type: 'hearsay', id: 's1' } }],
      [fact, { source }],
      [fact, { userId: '', source }],
      [fact, { userId: 7, source }],
      [fact, { ...owner, scope: 'session', source }],
      [null, { ...owner, source }],
    ];
    for (const [input, options] of cases) {
      await expect(memory.remember(input as never, options as never)).rejects.toThrow(ValidationError);
    }
    await expectNothingStored();
  });
});

describe('Memory reads (bad input)', () => {
  it('rejects with ValidationError when an owner or a number is malformed on a read', async () => {
    const bad: (() => Promise<unknown>)[] = [
      () => memory.retrieve('diet', {} as never),
      () => memory.retrieve('diet', { userId: '' }),
      () => memory.retrieve('diet', { userId: 1 } as never),
      () => memory.retrieve('diet', { ...owner, k: Number.NaN }),
      () => memory.retrieve('diet', { ...owner, k: -1 }),
      () => memory.retrieve('diet', { ...owner, scopes: ['everyone'] } as never),
      () => memory.retrieve('diet', { ...owner, weights: { relevance: Number.NaN, recency: 0, importance: 0 } }),
      () => memory.retrieve(42 as never, owner),
      () => memory.list({ userId: undefined } as never),
      () => memory.get('mem_0001', { userId: '' }),
      () => memory.get('', owner),
      () => memory.history('mem_0001', {} as never),
      () => memory.prune({ ...owner, floor: Number.NaN }),
      () => memory.forgetSource('', owner),
    ];
    for (const call of bad) await expect(call()).rejects.toThrow(ValidationError);
    expect(() => memory.inject(42 as never, [])).toThrow(ValidationError);
    expect(() => memory.assemble('sys', [], { maxTokens: 0 })).toThrow(ValidationError);
    expect(() => memory.assemble('sys', [], undefined as never)).toThrow('options: is required: { maxTokens, countTokens?, order? }');
    await expectNothingStored();
  });
});

describe('Memory (missing arguments)', () => {
  it('rejects with ValidationError naming the missing argument and its shape when a call gets none', async () => {
    const call = memory as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const expected: [string, unknown[], string][] = [
      ['ingest', [], 'messages: is required: an array, each { role, content } (got undefined)'],
      ['ingest', [[{ role: 'user', content: "I'm vegan" }]], 'options: is required: { userId, appName?, sessionId, source: { type, id }, metadata? } (got undefined)'],
      ['remember', [], 'fact: is required: { content, topic, importance?, halfLifeDays?, confidence? } (got undefined)'],
      ['retrieve', [], 'query: is required: a string (got undefined)'],
      ['retrieve', ['x'], 'options: is required: { userId, appName?, sessionId?, scopes?, k?, weights?: { relevance?, recency?, importance? }, asOf?, profile? } (got undefined)'],
      ['forgetSource', [], 'sourceId: is required: a string (got undefined)'],
      ['forgetSource', ['s1'], 'options: is required: { userId, appName? } (got undefined)'],
      ['list', [], 'options: is required: { userId, appName?, includeInvalid?, asOf? } (got undefined)'],
      ['get', [], 'id: is required: a string (got undefined)'],
      ['get', ['mem_0001'], 'owner: is required: { userId, appName? } (got undefined)'],
      ['history', ['mem_0001'], 'owner: is required: { userId, appName? } (got undefined)'],
      ['prune', [], 'options: is required: { userId, appName?, floor } (got undefined)'],
      ['summarizeSession', [[{ role: 'user', content: "I'm vegan" }]], 'options: is required: { userId, appName?, sessionId, source: { type, id } } (got undefined)'],
      ['export', [], 'options: is required: { userId, appName? } (got undefined)'],
      ['undo', [], 'operation: is required: { action, memoryId, targetId?, content, reason, pending? } (got undefined)'],
      ['explain', ['x'], 'options: is required: { userId, appName?, sessionId?, scopes?, k?, weights?: { relevance?, recency?, importance? }, asOf?, profile? } (got undefined)'],
      ['pending', [], 'owner: is required: { userId, appName? } (got undefined)'],
      ['approve', [], 'id: is required: a string (got undefined)'],
      ['approve', ['mem_0001'], 'owner: is required: { userId, appName? } (got undefined)'],
      ['reject', ['mem_0001'], 'owner: is required: { userId, appName? } (got undefined)'],
    ];
    for (const [method, args, message] of expected) {
      await expect(call[method]!(...args)).rejects.toThrow(ValidationError);
      await expect(call[method]!(...args)).rejects.toThrow(message);
    }
    expect(() => (memory.inject as (...args: unknown[]) => string)()).toThrow('system: must be the system prompt, a string (got undefined)');
    await expectNothingStored();
  });

  it('names the misspelt key and the intended one when an option is misspelt', async () => {
    await expect(memory.ingest([{ role: 'user', content: "I'm vegan" }], { userID: 'ada', sessionId: 's1', source } as never)).rejects.toThrow(
      "options: unknown key 'userID' (did you mean 'userId'?); valid keys: userId, appName, sessionId, source",
    );
    await expect(memory.retrieve('diet', { ...owner, K: 3 } as never)).rejects.toThrow("options: unknown key 'K' (did you mean 'k'?)");
    await expectNothingStored();
  });
});

describe('Memory.inject (bad input)', () => {
  it('throws ValidationError saying to await when given the Promise of a call', async () => {
    const listed = memory.list(owner);
    const retrieved = memory.retrieve('diet', owner);
    expect(() => memory.inject('You are helpful.', listed as never)).toThrow(ValidationError);
    expect(() => memory.inject('You are helpful.', retrieved as never)).toThrow('retrieved: must be an array of memory.retrieve() results: [{ memory, score, relevance, recency, importance }], not a Promise: await it first');
    await Promise.all([listed, retrieved]);
  });

  it('throws ValidationError saying to call retrieve or wrap the records when given MemoryRecords', async () => {
    const records = await memory.list(owner);
    expect(() => memory.inject('You are helpful.', records as never)).toThrow(ValidationError);
    expect(() => memory.inject('You are helpful.', records as never)).toThrow(
      'retrieved.0: is a MemoryRecord, not a retrieve() result: pass what memory.retrieve(query, options) resolves to, or wrap each record as { memory: record, score: 0, relevance: 0, recency: 0, importance: 0 }',
    );
    const wrapped = records.map((record) => ({ memory: record, score: 0, relevance: 0, recency: 0, importance: 0 }));
    const prompt = memory.inject('You are helpful.', wrapped);
    for (const record of records) expect(prompt).toContain(`] ${record.content}`);
  });

  it('throws ValidationError describing the value when retrieved is not an array of results', () => {
    const cases: [unknown, string][] = [
      [undefined, 'retrieved: must be an array of memory.retrieve() results: [{ memory, score, relevance, recency, importance }] (got undefined)'],
      [{ memory: {} }, 'retrieved: must be an array of memory.retrieve() results: [{ memory, score, relevance, recency, importance }] (got an object with keys memory)'],
      [[{ score: 1 }], 'retrieved.0.memory: is required: { content, confidence, updatedAt, halfLifeDays, sources } (got undefined)'],
      [[null], 'retrieved.0: must be an object { memory: { content, confidence, updatedAt, halfLifeDays, sources }, score } (got null)'],
    ];
    for (const [retrieved, message] of cases) {
      expect(() => memory.inject('You are helpful.', retrieved as never)).toThrow(ValidationError);
      expect(() => memory.inject('You are helpful.', retrieved as never)).toThrow(message);
    }
  });
});
