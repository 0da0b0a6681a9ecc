import { describe, expectTypeOf, it } from 'vitest';
import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { Decider, Embedder, Extractor, Memory as EngramMemory, MemoryOptions, SourceInput, StorageBackend } from 'engram';
import { engramMiddleware, type EngramMiddleware, type EngramMiddlewareOptions } from 'engram/ai-sdk';
import { createChromaStorage, type ChromaStorageOptions } from 'engram/chroma';
import { chromeExtractor, type ChromeAvailability, type ChromeExtractor, type ChromeExtractorOptions } from 'engram/chrome-ai';
import { Memory, type AddMemoryOptions, type HistoryRow, type MemoryConfig, type MemoryItem, type Message, type SearchMemoryOptions, type SearchResult } from 'engram/mem0';
import { openAIDecider, openAIEmbedder, openAIExtractor, type OpenAIClientLike, type OpenAIEmbedder, type OpenAIExtractorOptions } from 'engram/openai';
import { transformersEmbedder, type TransformersEmbedder, type TransformersEmbedderOptions } from 'engram/transformers';
import type { Cloneable } from './cloneable';

describe('engram/chroma', () => {
  it('makes a storage backend from optional connection options', () => {
    expectTypeOf(createChromaStorage).parameters.toEqualTypeOf<[options?: ChromaStorageOptions]>();
    expectTypeOf(createChromaStorage).returns.toEqualTypeOf<StorageBackend>();
    expectTypeOf<ChromaStorageOptions>().toEqualTypeOf<{
      host?: string | undefined;
      port?: number | undefined;
      ssl?: boolean | undefined;
      tenant?: string | undefined;
      database?: string | undefined;
      collectionPrefix?: string | undefined;
    }>();
    expectTypeOf<ReturnType<typeof createChromaStorage>>().toExtend<NonNullable<MemoryOptions['storage']>>();
  });
});

describe('engram/mem0', () => {
  it('is a class with mem0 OSS v3 method shapes', () => {
    expectTypeOf(Memory).constructorParameters.toEqualTypeOf<[config?: MemoryConfig]>();
    expectTypeOf<Memory['add']>().toEqualTypeOf<(messages: string | Message[], config: AddMemoryOptions) => Promise<SearchResult>>();
    expectTypeOf<Memory['search']>().toEqualTypeOf<(query: string, config: SearchMemoryOptions) => Promise<SearchResult>>();
    expectTypeOf<Memory['get']>().toEqualTypeOf<(memoryId: string) => Promise<MemoryItem | null>>();
    expectTypeOf<Memory['delete']>().returns.toEqualTypeOf<Promise<{ message: string }>>();
    expectTypeOf<Memory['deleteAll']>().returns.toEqualTypeOf<Promise<{ message: string }>>();
    expectTypeOf<Memory['history']>().toEqualTypeOf<(memoryId: string) => Promise<HistoryRow[]>>();
    expectTypeOf<Memory['reset']>().toEqualTypeOf<() => Promise<void>>();
    expectTypeOf<'add' | 'search' | 'getAll' | 'get' | 'update' | 'delete' | 'deleteAll' | 'history' | 'reset'>().toExtend<keyof Memory>();
  });

  it('answers with mem0 result and history rows', () => {
    expectTypeOf<SearchResult['results']>().toEqualTypeOf<MemoryItem[]>();
    expectTypeOf<Pick<MemoryItem, 'id' | 'memory'>>().toEqualTypeOf<{ id: string; memory: string }>();
    expectTypeOf<HistoryRow['action']>().toEqualTypeOf<'ADD' | 'UPDATE' | 'DELETE'>();
    expectTypeOf<Pick<HistoryRow, 'memory_id' | 'previous_value' | 'new_value' | 'is_deleted'>>().toExtend<{ memory_id: string; previous_value: string | null; new_value: string | null; is_deleted: number | boolean }>();
    expectTypeOf<{ memory: EngramMemory }>().toExtend<MemoryConfig>();
  });
});

describe('engram/openai', () => {
  it('builds the three plugins from a connection', () => {
    expectTypeOf(openAIExtractor).returns.toEqualTypeOf<Extractor>();
    expectTypeOf(openAIDecider).returns.toEqualTypeOf<Decider>();
    expectTypeOf(openAIEmbedder).returns.toEqualTypeOf<OpenAIEmbedder>();
    expectTypeOf<OpenAIEmbedder>().toExtend<Embedder>();
    expectTypeOf<OpenAIEmbedder['load']>().toEqualTypeOf<() => Promise<number>>();
  });

  it('connects by baseURL or by a client, and needs a model', () => {
    expectTypeOf<{ baseURL: string; model: string }>().toExtend<OpenAIExtractorOptions>();
    expectTypeOf<{ client: OpenAIClientLike; model: string }>().toExtend<OpenAIExtractorOptions>();
    expectTypeOf<{ baseURL: string }>().not.toExtend<OpenAIExtractorOptions>();
    expectTypeOf<{ model: string }>().not.toExtend<OpenAIExtractorOptions>();
  });
});

describe('engram/chrome-ai', () => {
  it('builds an extractor that reports availability and prepares the model', () => {
    expectTypeOf(chromeExtractor).parameters.toEqualTypeOf<[options?: ChromeExtractorOptions]>();
    expectTypeOf<ChromeExtractor>().toExtend<Extractor>();
    expectTypeOf<ChromeExtractor['availability']>().returns.toEqualTypeOf<Promise<ChromeAvailability | 'missing'>>();
    expectTypeOf<ChromeExtractor['prepare']>().toEqualTypeOf<(onProgress?: (fraction: number) => void) => Promise<void>>();
  });
});

describe('engram/transformers', () => {
  it('builds an embedder whose worker spec crosses to the worker as plain data', () => {
    expectTypeOf(transformersEmbedder).parameters.toEqualTypeOf<[options: TransformersEmbedderOptions]>();
    expectTypeOf(transformersEmbedder).returns.toEqualTypeOf<TransformersEmbedder>();
    expectTypeOf<TransformersEmbedder>().toExtend<Embedder>();
    expectTypeOf<Cloneable<TransformersEmbedder['worker']>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<TransformersEmbedderOptions>>().toEqualTypeOf<true>();
    expectTypeOf<{ model: string }>().toExtend<TransformersEmbedderOptions>();
  });
});

describe('engram/ai-sdk', () => {
  it('makes an AI SDK middleware with flush()', () => {
    expectTypeOf(engramMiddleware).parameters.toEqualTypeOf<[options: EngramMiddlewareOptions]>();
    expectTypeOf(engramMiddleware).returns.toEqualTypeOf<EngramMiddleware>();
    expectTypeOf<EngramMiddleware>().toExtend<LanguageModelV3Middleware>();
    expectTypeOf<EngramMiddleware['flush']>().toEqualTypeOf<() => Promise<void>>();
    expectTypeOf<{ memory: EngramMemory; userId: string }>().toExtend<EngramMiddlewareOptions>();
    expectTypeOf<{ memory: EngramMemory }>().not.toExtend<EngramMiddlewareOptions>();
    expectTypeOf<EngramMiddlewareOptions['source']>().toEqualTypeOf<SourceInput | undefined>();
  });
});
