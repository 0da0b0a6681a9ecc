import { describe, expect, it } from 'vitest';
import { IngestOptions, ListOptions, Messages, OwnerOptions, parseInput, PruneOptions, Query, RememberOptions, RetrieveOptions, SummarizeOptions } from '../src/options';
import { Fact, MAX_TEXT_LENGTH } from '../src/schema';
import { ValidationError } from '../src/errors';

const source = { type: 'user_implicit', id: 's1' } as const;

describe('parseInput', () => {
  it('fills the defaults when optional fields are missing', () => {
    expect(parseInput(IngestOptions, { userId: 'u', sessionId: 's', source }, 'options')).toEqual({ userId: 'u', appName: 'default', sessionId: 's', source });
    expect(parseInput(RetrieveOptions, { userId: 'u' }, 'options')).toEqual({ userId: 'u', appName: 'default', k: 5 });
    expect(parseInput(RememberOptions, { source }, 'options')).toEqual({ appName: 'default', scope: 'user', source });
    expect(parseInput(ListOptions, { userId: 'u' }, 'options')).toEqual({ userId: 'u', appName: 'default', includeInvalid: false });
  });

  it('throws a ValidationError naming the path and the value when a field is wrong', () => {
    const cases: [unknown, string][] = [
      [{ sessionId: 's', source }, 'options.userId'],
      [{ userId: '', sessionId: 's', source }, 'options.userId'],
      [{ userId: 42, sessionId: 's', source }, 'options.userId'],
      [{ userId: null, sessionId: 's', source }, 'options.userId'],
      [{ userId: ' u', sessionId: 's', source }, 'options.userId'],
      [{ userId: 'u\uD800', sessionId: 's', source }, 'options.userId'],
      [{ userId: 'u'.repeat(513), sessionId: 's', source }, 'options.userId'],
      [{ userId: 'u', sessionId: 's', source: { type: 'rumour', id: 's1' } }, 'options.source.type'],
      [{ userId: 'u', sessionId: 's', source: { type: 'user_implicit' } }, 'options.source.id'],
      [{ userId: 'u', appName: '', sessionId: 's', source }, 'options.appName'],
    ];
    for (const [input, path] of cases) {
      expect(() => parseInput(IngestOptions, input, 'options')).toThrow(ValidationError);
      expect(() => parseInput(IngestOptions, input, 'options')).toThrow(new RegExp(`^${path.replace(/\./g, '\\.')}: .*\\(got `));
    }
    expect(() => parseInput(IngestOptions, { userId: 42, sessionId: 's', source }, 'options')).toThrow('(got 42)');
  });

  it('rejects NaN, infinities and out-of-range numbers when they reach the edge', () => {
    const bad = [Number.NaN, Infinity, -Infinity, -0.01, 1.01];
    for (const value of bad) {
      for (const field of ['importance', 'confidence'] as const) {
        expect(() => parseInput(Fact, { content: 'x', topic: 't', [field]: value }, 'fact')).toThrow(ValidationError);
      }
      expect(() => parseInput(PruneOptions, { userId: 'u', floor: value }, 'options')).toThrow(ValidationError);
      expect(() => parseInput(RetrieveOptions, { userId: 'u', weights: { relevance: value === 1.01 ? 1001 : value, recency: 0, importance: 0 } }, 'options')).toThrow(ValidationError);
    }
    for (const halfLifeDays of [Number.NaN, Infinity, 0, -1, -0, 1e-300, 1e9]) {
      expect(() => parseInput(Fact, { content: 'x', topic: 't', halfLifeDays }, 'fact')).toThrow(ValidationError);
    }
    for (const k of [Number.NaN, Infinity, -1, 1.5, 1001, '5']) {
      expect(() => parseInput(RetrieveOptions, { userId: 'u', k }, 'options')).toThrow(ValidationError);
    }
  });

  it('accepts -0 as zero when a number may be zero', () => {
    expect(parseInput(Fact, { content: 'x', topic: 't', importance: -0 }, 'fact').importance).toBe(0);
    expect(parseInput(RetrieveOptions, { userId: 'u', k: -0 }, 'options').k).toBe(0);
  });

  it('rejects empty, whitespace-only and oversized text and normalises lone surrogates when given a fact', () => {
    for (const content of ['', '   ', '\n\t', 'x'.repeat(MAX_TEXT_LENGTH + 1), 42]) {
      expect(() => parseInput(Fact, { content, topic: 't' }, 'fact')).toThrow(ValidationError);
    }
    expect(parseInput(Fact, { content: 'a\uD800b', topic: 't' }, 'fact').content).toBe('a\uFFFDb');
    expect(parseInput(Fact, { content: '👩‍👩‍👧 é', topic: 't' }, 'fact').content).toBe('👩‍👩‍👧 é');
  });

  it('rejects unknown keys, __proto__ included, without touching a prototype when parsing an object', () => {
    const input = JSON.parse('{"userId":"u","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as object;
    expect(() => parseInput(RetrieveOptions, input, 'options')).toThrow(ValidationError);
    expect(() => parseInput(RetrieveOptions, input, 'options')).toThrow("options: unknown keys '__proto__', 'constructor'; valid keys: userId, appName, sessionId, scopes, k, weights");
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('Query', () => {
  it('normalises lone surrogates and caps the length when given a query', () => {
    expect(parseInput(Query, 'x\uDC00', 'query')).toBe('x\uFFFD');
    expect(() => parseInput(Query, 'q'.repeat(100_001), 'query')).toThrow(ValidationError);
    expect(() => parseInput(Query, undefined, 'query')).toThrow(ValidationError);
  });
});

describe('parseInput (messages)', () => {
  it('names what is missing and what it looks like when an argument or a field is absent', () => {
    const cases: [unknown, unknown, string, string][] = [
      [RetrieveOptions, undefined, 'options', 'options: is required: { userId, appName?, sessionId?, scopes?, k?, weights?: { relevance?, recency?, importance? }, asOf?, profile? } (got undefined)'],
      [IngestOptions, undefined, 'options', 'options: is required: { userId, appName?, sessionId, source: { type, id }, metadata? } (got undefined)'],
      [OwnerOptions, undefined, 'owner', 'owner: is required: { userId, appName? } (got undefined)'],
      [SummarizeOptions, { userId: 'u', source }, 'options', 'options.sessionId: is required: a string (got undefined)'],
      [IngestOptions, { userId: 'u', sessionId: 's' }, 'options', 'options.source: is required: { type, id } (got undefined)'],
      [PruneOptions, { userId: 'u' }, 'options', 'options.floor: is required: a finite number (got undefined)'],
      [Fact, undefined, 'fact', 'fact: is required: { content, topic, importance?, halfLifeDays?, confidence? } (got undefined)'],
      [Query, undefined, 'query', 'query: is required: a string (got undefined)'],
      [Messages, [{ role: 'user' }], 'messages', 'messages.0.content: is required: a string (got undefined)'],
    ];
    for (const [schema, input, name, message] of cases) {
      expect(() => parseInput(schema as typeof Query, input, name)).toThrow(ValidationError);
      expect(() => parseInput(schema as typeof Query, input, name)).toThrow(message);
    }
  });

  it('says what is expected and describes the value when an argument has the wrong type or is empty', () => {
    const cases: [unknown, unknown, string, string][] = [
      [Messages, [], 'messages', 'messages: must contain at least one message (got an empty array)'],
      [Messages, 'hello', 'messages', 'messages: must be an array, each { role, content } (got "hello")'],
      [Messages, [{ role: 'narrator', content: 'x' }], 'messages', 'messages.0.role: must be one of "user", "assistant", "system", "tool" (got "narrator")'],
      [Messages, [{ role: 'user', content: '  ' }], 'messages', 'messages.0.content: must contain non-whitespace text (got "  ")'],
      [RetrieveOptions, 'x', 'options', 'options: must be an object { userId, appName?, '],
      [RetrieveOptions, [], 'options', '(got an empty array)'],
      [
        RetrieveOptions,
        Promise.resolve({ userId: 'u' }),
        'options',
        'options: must be { userId, appName?, sessionId?, scopes?, k?, weights?: { relevance?, recency?, importance? }, asOf?, profile? }, not a Promise: await it first (got a Promise)',
      ],
      [RetrieveOptions, { userId: new Date(0) }, 'options', 'options.userId: must be a string (got a Date)'],
      [RetrieveOptions, { userId: { id: 'u' } }, 'options', 'options.userId: must be a string (got an object with keys id)'],
      [RetrieveOptions, { userId: () => 'u' }, 'options', 'options.userId: must be a string (got a function)'],
      [PruneOptions, { userId: 'u', floor: -0.5 }, 'options', 'options.floor: must be a number from 0 to 1 (got -0.5)'],
      [RetrieveOptions, { userId: 'u', k: 1.5 }, 'options', 'options.k: must be an integer (got 1.5)'],
      [RetrieveOptions, { userId: 'u', k: 1001 }, 'options', 'options.k: must be ≤ 1000 (got 1001)'],
      [RetrieveOptions, { userId: 'u', k: '5' }, 'options', 'options.k: must be a finite number (got "5")'],
      [RetrieveOptions, { userId: 'u', scopes: ['everyone'] }, 'options', 'options.scopes.0: must be one of "user", "session", "app" (got "everyone")'],
      [IngestOptions, { userId: '', sessionId: 's', source }, 'options', 'options.userId: must not be empty (got "")'],
      [IngestOptions, { userId: 'u', sessionId: 's', source: { type: 'rumour', id: 's' } }, 'options', 'options.source.type: must be one of "bootstrapped", "user_explicit", "user_implicit", "tool_output" (got "rumour")'],
      [Fact, { content: 'x', topic: 't', importance: 2 }, 'fact', 'fact.importance: must be a number from 0 to 1 (got 2)'],
      [Fact, { content: 'x', topic: 't', halfLifeDays: 0 }, 'fact', 'fact.halfLifeDays: must be a number of days from 0.001 to 365000 (got 0)'],
      [Query, 'q'.repeat(100_001), 'query', 'query: must be at most 100000 characters'],
      [Query, 42, 'query', 'query: must be a string (got 42)'],
    ];
    for (const [schema, input, name, message] of cases) {
      expect(() => parseInput(schema as typeof Query, input, name)).toThrow(ValidationError);
      expect(() => parseInput(schema as typeof Query, input, name)).toThrow(message);
    }
  });

  it('names an unknown key, the valid keys and the likely intended one when an options object has a typo', () => {
    expect(() => parseInput(IngestOptions, { userID: 'u', sessionId: 's', source }, 'options')).toThrow("options: unknown key 'userID' (did you mean 'userId'?); valid keys: userId, appName, sessionId, source");
    expect(() => parseInput(ListOptions, { userId: 'u', includeInvalids: true }, 'options')).toThrow("unknown key 'includeInvalids' (did you mean 'includeInvalid'?)");
    expect(() => parseInput(IngestOptions, { userId: 'u', sessionId: 's', source: { ...source, excerpt: 'x' } }, 'options')).toThrow("options.source: unknown key 'excerpt'; valid keys: type, id");
    expect(() => parseInput(Fact, { content: 'x', topic: 't', importnce: 0.5 }, 'fact')).toThrow("fact: unknown key 'importnce' (did you mean 'importance'?)");
    expect(() => parseInput(RememberOptions, { source, scopes: 'app' }, 'options')).toThrow("unknown key 'scopes' (did you mean 'scope'?)");
    expect(() => parseInput(RetrieveOptions, { userId: 'u', id: 'x' }, 'options')).toThrow(/^options: unknown key 'id'; valid keys: /);
  });
});

describe('RetrieveOptions', () => {
  it('states the weight rule when a weight is negative, too large or not a number', () => {
    const weights = (relevance: unknown) => ({ userId: 'u', weights: { relevance, recency: 0, importance: 0 } });
    for (const relevance of [-1, 1001]) {
      expect(() => parseInput(RetrieveOptions, weights(relevance), 'options')).toThrow(`options.weights.relevance: must be a number from 0 to 1000 (0 switches that term off) (got ${relevance})`);
    }
    expect(() => parseInput(RetrieveOptions, weights(Number.NaN), 'options')).toThrow('options.weights.relevance: must be a finite number (got NaN)');
    expect(() => parseInput(RetrieveOptions, { userId: 'u', weights: { relevance: 1, recenc: 0 } }, 'options')).toThrow("unknown key 'recenc' (did you mean 'recency'?)");
  });

  it('merges partial weights over the defaults and accepts all three at zero', () => {
    expect(parseInput(RetrieveOptions, { userId: 'u', weights: { recency: 0 } }, 'options').weights).toEqual({ relevance: 0.6, recency: 0, importance: 0.15 });
    expect(parseInput(RetrieveOptions, { userId: 'u', weights: {} }, 'options').weights).toEqual({ relevance: 0.6, recency: 0.25, importance: 0.15 });
    expect(parseInput(RetrieveOptions, { userId: 'u', weights: { relevance: 0, recency: 0, importance: 0 } }, 'options').weights).toEqual({ relevance: 0, recency: 0, importance: 0 });
    expect(parseInput(RetrieveOptions, { userId: 'u' }, 'options').weights).toBeUndefined();
  });
});
