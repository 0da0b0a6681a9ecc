import { describe, expect, it } from 'vitest';
import { lexicalTerms, withTermsMemo } from '../../src/embed/terms';

describe('lexicalTerms’ memo', () => {
  it('shares one array per text only while withTermsMemo runs, and keeps no text after it settles', async () => {
    const text = 'The user is allergic to peanuts.';
    // Outside a memo every call computes afresh: nothing holds the user's text between calls.
    expect(lexicalTerms(text)).not.toBe(lexicalTerms(text));
    const inside = await withTermsMemo(async () => {
      const first = lexicalTerms(text);
      // Nested holders (two imports at once) share the memo; the inner one settling keeps it for the outer.
      await withTermsMemo(async () => expect(lexicalTerms(text)).toBe(first));
      expect(lexicalTerms(text)).toBe(first);
      return first;
    });
    expect(lexicalTerms(text)).not.toBe(inside);
    expect([...lexicalTerms(text)]).toEqual([...inside]);
    // A failing call drops the memo too.
    await expect(withTermsMemo(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(lexicalTerms(text)).not.toBe(lexicalTerms(text));
  });
});
