import { describe, expectTypeOf, it } from 'vitest';
import {
  createMemory,
  type ChatMessage,
  type Fact,
  type ForgetReport,
  type HistoryEntry,
  type IngestOptions,
  type ListOptions,
  type Memory,
  type MemoryOptions,
  type MemoryRecord,
  type ListedMemory,
  type MemoryKind,
  type Operation,
  type OwnerOptions,
  type PruneOptions,
  type RememberOptions,
  type Retrieved,
  type RetrieveOptions,
  type Scope,
  type SourceType,
  type Weights,
} from 'engram';

const source = { type: 'user_implicit', id: 'conversation-1' } as const;

describe('createMemory', () => {
  it('takes optional options and resolves to a Memory', () => {
    expectTypeOf(createMemory).parameters.toEqualTypeOf<[memoryOptions?: MemoryOptions]>();
    expectTypeOf(createMemory).returns.toEqualTypeOf<Promise<Memory>>();
  });

  it('accepts the options DESIGN.md names, each optional', () => {
    type Named = 'name' | 'indexedDB' | 'IDBKeyRange' | 'worker' | 'embedder' | 'extractor' | 'decider' | 'clock' | 'exclusiveTopics' | 'trust' | 'candidateThreshold' | 'storage' | 'reembed';
    expectTypeOf<Named>().toExtend<keyof MemoryOptions>();
    expectTypeOf<Record<string, never>>().toExtend<MemoryOptions>();
    expectTypeOf<MemoryOptions['name']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<MemoryOptions['worker']>().toEqualTypeOf<'auto' | 'off' | undefined>();
    expectTypeOf<MemoryOptions['clock']>().toEqualTypeOf<(() => number) | undefined>();
    expectTypeOf<MemoryOptions['reembed']>().toEqualTypeOf<'auto' | 'manual' | undefined>();
    expectTypeOf<MemoryOptions['candidateThreshold']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<{ trust: { tool_output: number } }>().toExtend<MemoryOptions>();
  });

  it('refuses a misspelt or mistyped option', () => {
    expectTypeOf<{ worker: 'on' }>().not.toExtend<MemoryOptions>();
    expectTypeOf<{ clock: number }>().not.toExtend<MemoryOptions>();
    expectTypeOf<{ trust: { spam: number } }>().not.toExtend<MemoryOptions>();
  });
});

describe('Memory', () => {
  it('ingests messages for an owner and resolves to the operations', () => {
    expectTypeOf<Memory['ingest']>().toEqualTypeOf<(messages: readonly ChatMessage[], options: IngestOptions) => Promise<Operation[]>>();
    expectTypeOf<{ userId: string; sessionId: string; source: typeof source }>().toExtend<IngestOptions>();
    expectTypeOf<{ userId: string; appName: string; sessionId: string; source: typeof source }>().toExtend<IngestOptions>();
    expectTypeOf<{ sessionId: string; source: typeof source }>().not.toExtend<IngestOptions>();
    expectTypeOf<{ userId: string; source: typeof source }>().not.toExtend<IngestOptions>();
    expectTypeOf<ChatMessage['role']>().toEqualTypeOf<'user' | 'assistant' | 'system' | 'tool'>();
  });

  it('remembers one fact, with scope and userId optional', () => {
    expectTypeOf<Memory['remember']>().toEqualTypeOf<(fact: Fact, options: RememberOptions) => Promise<Operation>>();
    expectTypeOf<{ content: string; topic: string }>().toExtend<Fact>();
    expectTypeOf<{ scope: 'app'; source: { type: 'bootstrapped'; id: string } }>().toExtend<RememberOptions>();
    expectTypeOf<RememberOptions['scope']>().toEqualTypeOf<Scope | undefined>();
  });

  it('retrieves the top k as Retrieved, each with its score parts', () => {
    expectTypeOf<Memory['retrieve']>().toEqualTypeOf<(query: string, options: RetrieveOptions) => Promise<Retrieved[]>>();
    expectTypeOf<{ userId: string; appName: string; sessionId: string; scopes: Scope[]; k: number; weights: Partial<Weights> }>().toExtend<RetrieveOptions>();
    expectTypeOf<{ userId: string; weights: { recency: number } }>().toExtend<RetrieveOptions>();
    expectTypeOf<{ appName: string }>().not.toExtend<RetrieveOptions>();
    expectTypeOf<Pick<Retrieved, 'memory' | 'score' | 'relevance' | 'recency' | 'importance'>>().toEqualTypeOf<{ memory: MemoryRecord; score: number; relevance: number; recency: number; importance: number }>();
  });

  it('injects synchronously and forgets a source with a report', () => {
    expectTypeOf<Memory['inject']>().toEqualTypeOf<(system: string, retrieved: readonly Retrieved[]) => string>();
    expectTypeOf<Memory['forgetSource']>().toEqualTypeOf<(sourceId: string | readonly string[], options: OwnerOptions) => Promise<ForgetReport>>();
    expectTypeOf<ForgetReport['erased']>().toEqualTypeOf<string[]>();
    expectTypeOf<ForgetReport['regenerated']>().toEqualTypeOf<{ from: string; to: string | null }[]>();
  });

  it('takes the owner on every read', () => {
    expectTypeOf<Memory['list']>().toEqualTypeOf<(options: ListOptions) => Promise<ListedMemory[]>>();
    expectTypeOf<ListedMemory>().toEqualTypeOf<MemoryRecord & { kind: MemoryKind }>();
    expectTypeOf<MemoryKind>().toEqualTypeOf<'fact' | 'episode'>();
    expectTypeOf<Memory['get']>().toEqualTypeOf<(id: string, owner: OwnerOptions) => Promise<MemoryRecord>>();
    expectTypeOf<Memory['history']>().toEqualTypeOf<(id: string, owner: OwnerOptions) => Promise<HistoryEntry[]>>();
    expectTypeOf<{ userId: string; includeInvalid: boolean }>().toExtend<ListOptions>();
    expectTypeOf<OwnerOptions>().toEqualTypeOf<{ userId: string; appName?: string | undefined }>();
    expectTypeOf<Memory['get']>().parameter(1).not.toEqualTypeOf<OwnerOptions | undefined>();
  });

  it('prunes below a floor and closes', () => {
    expectTypeOf<{ userId: string; floor: number }>().toExtend<PruneOptions>();
    expectTypeOf<{ userId: string }>().not.toExtend<PruneOptions>();
    expectTypeOf<Memory['close']>().toEqualTypeOf<() => Promise<void>>();
  });
});

describe('schema types', () => {
  it('keeps the record shape DESIGN.md names', () => {
    expectTypeOf<MemoryRecord['scope']>().toEqualTypeOf<Scope>();
    expectTypeOf<Scope>().toEqualTypeOf<'user' | 'session' | 'app'>();
    expectTypeOf<SourceType>().toEqualTypeOf<'bootstrapped' | 'user_explicit' | 'user_implicit' | 'tool_output'>();
    expectTypeOf<MemoryRecord['embedding']>().toEqualTypeOf<Float32Array>();
    expectTypeOf<MemoryRecord['sessionId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Pick<MemoryRecord, 'id' | 'userId' | 'appName' | 'topic' | 'content' | 'embedderId'>>().toEqualTypeOf<{ id: string; userId: string; appName: string; topic: string; content: string; embedderId: string }>();
    expectTypeOf<Pick<MemoryRecord, 'importance' | 'halfLifeDays' | 'confidence' | 'createdAt' | 'updatedAt'>>().toEqualTypeOf<{ importance: number; halfLifeDays: number; confidence: number; createdAt: number; updatedAt: number }>();
    expectTypeOf<HistoryEntry['event']>().toEqualTypeOf<'created' | 'corroborated' | 'superseded' | 'erased' | 'regenerated' | 'pruned'>();
    expectTypeOf<Operation['action']>().toEqualTypeOf<'CREATE' | 'UPDATE' | 'NOOP'>();
    expectTypeOf<Pick<Operation, 'memoryId' | 'content' | 'reason'>>().toEqualTypeOf<{ memoryId: string; content: string; reason: string }>();
  });
});
