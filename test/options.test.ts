import { describe, expect, it } from 'vitest';
import { IngestOptions, ListOptions, parseInput, PruneOptions, Query, RememberOptions, RetrieveOptions } from '../src/options';
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

  it('drops unknown keys, __proto__ included, when parsing an object', () => {
    const input = JSON.parse('{"userId":"u","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as object;
    const parsed = parseInput(RetrieveOptions, input, 'options');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed).sort()).toEqual(['appName', 'k', 'userId']);
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
