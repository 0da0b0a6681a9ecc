/** Records, candidates and a plan context for the consolidation unit tests. */
import { createPolicyDecider, type Decider } from '../../src/consolidate/decider';
import type { EmbeddedCandidate, PlanContext, PlanTarget } from '../../src/consolidate/plan';
import { createHashEmbedder } from '../../src/embed/hash-embedder';
import { DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, type Candidate, type MemoryRecord, type Source, type SourceType } from '../../src/schema';
import { createSequentialIds } from '../helpers/memory';

export const embedder = createHashEmbedder();
export const T = Date.UTC(2026, 0, 1);
export const TARGET: PlanTarget = { userId: 'u', appName: 'default', scope: 'user' };

export function source(id: string, type: SourceType = 'user_implicit', at = T): Source {
  return { type, id, excerpt: `excerpt of ${id}`, at };
}

export function record(id: string, content: string, topic: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id,
    userId: 'u',
    appName: 'default',
    scope: 'user',
    topic,
    content,
    importance: 0.5,
    halfLifeDays: 365,
    confidence: 0.65,
    sources: [source('s1')],
    createdAt: T,
    updatedAt: T,
    history: [{ at: T, event: 'created', reason: 'novel topic for this user' }],
    embedding: embedder.embedOne(content),
    embedderId: embedder.id,
    ...overrides,
  };
}

export function item(content: string, topic: string, from: Source, confidence = 0.9): EmbeddedCandidate {
  const candidate: Candidate = { content, topic, confidence, excerpt: from.excerpt, importance: 0.5, halfLifeDays: 365 };
  return { candidate, embedding: embedder.embedOne(content), source: from };
}

export function context(decider?: Decider, now = T + 1000): PlanContext {
  return {
    decider: decider ?? createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: new Set(DEFAULT_EXCLUSIVE_TOPICS) }),
    trust: DEFAULT_TRUST,
    exclusiveTopics: new Set(DEFAULT_EXCLUSIVE_TOPICS),
    candidateThreshold: 0.6,
    embedderId: embedder.id,
    now,
    newId: createSequentialIds('new_'),
  };
}

export function workingOf(...records: MemoryRecord[]): Map<string, MemoryRecord> {
  return new Map(records.map((r) => [r.id, r]));
}
