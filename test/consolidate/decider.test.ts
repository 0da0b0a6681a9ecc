import { describe, expect, it } from 'vitest';
import { createPolicyDecider, strongestTrust } from '../../src/consolidate/decider';
import { DEFAULT_TRUST, type Candidate } from '../../src/schema';
import { record, source } from './fixtures';

const decider = createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: new Set(['diet']) });
const candidate = (content: string, topic: string): Candidate => ({ content, topic, confidence: 0.9, excerpt: '', importance: 0.5, halfLifeDays: 365 });
const VEG = 'The user follows a vegetarian diet.';

describe('createPolicyDecider', () => {
  it('returns NOOP with corroborate when the text is identical ignoring case and spaces', async () => {
    const memory = record('m1', VEG, 'diet');
    expect(await decider.decide({ candidate: candidate('  the user follows a VEGETARIAN diet. ', 'diet'), similar: [memory], source: source('s2') })).toEqual({
      action: 'NOOP',
      targetId: 'm1',
      reason: 'identical to an existing memory',
      corroborate: true,
    });
  });

  it('returns UPDATE when an exclusive topic is contradicted by an equally trusted source', async () => {
    const memory = record('m1', VEG, 'diet');
    const decision = await decider.decide({ candidate: candidate('The user eats fish again.', 'diet'), similar: [memory], source: source('s3', 'user_implicit') });
    expect(decision).toMatchObject({ action: 'UPDATE', targetId: 'm1' });
  });

  it('returns NOOP without corroboration and says why when the source is weaker than the strongest behind the memory', async () => {
    const memory = record('m1', VEG, 'diet', { sources: [source('s1', 'user_implicit'), source('b', 'user_explicit')] });
    const decision = await decider.decide({ candidate: candidate('The user eats fish again.', 'diet'), similar: [memory], source: source('t', 'tool_output') });
    expect(decision).toEqual({
      action: 'NOOP',
      targetId: 'm1',
      reason: 'lower-trust source than the existing memory (tool_output 0.3 < 0.9); contradiction refused',
      corroborate: false,
    });
  });

  it('returns CREATE when the topic is not exclusive', async () => {
    const memory = record('m1', 'The user reported a failing export/upload.', 'issue');
    expect(await decider.decide({ candidate: candidate('The user cannot log in.', 'issue'), similar: [memory], source: source('s2') })).toMatchObject({ action: 'CREATE' });
  });

  it('returns CREATE when nothing similar exists', async () => {
    expect(await decider.decide({ candidate: candidate(VEG, 'diet'), similar: [], source: source('s1') })).toEqual({ action: 'CREATE', reason: 'novel topic for this user' });
  });
});

describe('strongestTrust', () => {
  it('returns the highest trust among the sources when they are mixed', () => {
    expect(strongestTrust(record('m', VEG, 'diet', { sources: [source('a', 'tool_output'), source('b', 'user_implicit')] }), DEFAULT_TRUST)).toBe(0.65);
  });
});

describe('createPolicyDecider (trust gate, invariant 10)', () => {
  it('refuses a tool output contradicting a user statement even after a tool corroborated it', async () => {
    const memory = record('m1', VEG, 'diet', { sources: [source('s1', 'user_implicit'), source('t1', 'tool_output')] });
    const decision = await decider.decide({ candidate: candidate('The user eats fish again.', 'diet'), similar: [memory], source: source('t2', 'tool_output') });
    expect(decision).toMatchObject({ action: 'NOOP', targetId: 'm1', corroborate: false });
  });

  it('lets a source as trusted as the strongest behind the memory update it', async () => {
    const memory = record('m1', VEG, 'diet', { sources: [source('t1', 'tool_output'), source('s1', 'user_explicit')] });
    const decision = await decider.decide({ candidate: candidate('The user eats fish again.', 'diet'), similar: [memory], source: source('s2', 'user_explicit') });
    expect(decision).toMatchObject({ action: 'UPDATE', targetId: 'm1' });
  });
});
