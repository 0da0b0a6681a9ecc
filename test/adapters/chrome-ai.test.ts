/// <reference types="dom-chromium-ai" />
/**
 * engram/chrome-ai against an object implementing the Prompt API's documented shape, installed
 * as `globalThis.LanguageModel` (this Chromium has no built-in model). Each availability state
 * maps to its ModelUnavailableError; an available model gets the seed prompt with the schema as
 * its responseConstraint.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ModelUnavailableError, PluginError } from '../../src/index';
import { chromeExtractor } from '../../src/adapters/chrome-ai';
import { createTestMemory } from '../helpers/memory';

const owner = { userId: 'u_ada', appName: 'default' };
const ingestOptions = { ...owner, sessionId: 's1', source: { type: 'user_explicit' as const, id: 'c1' } };
const messages = [{ role: 'user' as const, content: "I'm vegetarian." }];
const VEG = { content: 'The user follows a vegetarian diet.', topic: 'diet', confidence: 0.9, excerpt: "I'm vegetarian.", importance: 0.7, halfLifeDays: 365 };

/** Chrome's LanguageModel as its IDL documents it; `state` and `answer` script it, `prompts` record it. */
function installLanguageModel(state: Availability, answer: () => Promise<string> = async () => JSON.stringify({ memories: [VEG] })) {
  const log = {
    state,
    prompts: [] as { input: LanguageModelPrompt; options: LanguageModelPromptOptions | undefined }[],
    created: 0,
    destroyed: 0,
    // What availability() and create() were asked about (the Prompt API's expectedInputs/Outputs).
    asked: [] as { call: 'availability' | 'create'; expectedInputs: unknown; expectedOutputs: unknown }[],
  };
  class FakeSession extends EventTarget {
    readonly contextUsage = 0;
    readonly contextWindow = 4096;
    async prompt(input: LanguageModelPrompt, options?: LanguageModelPromptOptions): Promise<string> {
      log.prompts.push({ input, options });
      return answer();
    }
    async clone(): Promise<FakeSession> {
      return new FakeSession();
    }
    destroy(): undefined {
      log.destroyed++;
      return undefined;
    }
  }
  const api = {
    availability: async (options?: LanguageModelCreateCoreOptions): Promise<Availability> => {
      log.asked.push({ call: 'availability', expectedInputs: options?.expectedInputs, expectedOutputs: options?.expectedOutputs });
      return log.state;
    },
    create: async (options?: LanguageModelCreateOptions): Promise<FakeSession> => {
      log.asked.push({ call: 'create', expectedInputs: options?.expectedInputs, expectedOutputs: options?.expectedOutputs });
      if (log.state === 'unavailable') throw new DOMException('The model is unavailable', 'NotSupportedError');
      if (log.state === 'downloadable' || log.state === 'downloading') {
        const monitor = new EventTarget();
        options?.monitor?.(monitor as CreateMonitor);
        for (const loaded of [0.5, 1]) monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
        log.state = 'available';
      }
      log.created++;
      return new FakeSession();
    },
  } satisfies Pick<typeof LanguageModel, 'availability'> & { create(options?: LanguageModelCreateOptions): Promise<Pick<LanguageModel, 'prompt' | 'destroy'>> };
  (globalThis as { LanguageModel?: unknown }).LanguageModel = api;
  return log;
}

afterEach(() => void delete (globalThis as { LanguageModel?: unknown }).LanguageModel);

describe('chromeExtractor', () => {
  it('prompts the built-in model with the seed prompt and the schema as responseConstraint, and stores its facts, when the model is available', async () => {
    const log = installLanguageModel('available');
    const { memory } = await createTestMemory({ extractor: chromeExtractor() });
    await memory.ingest(messages, ingestOptions);
    expect(log.prompts).toHaveLength(1);
    expect(log.prompts[0]!.input).toContain('Extract durable facts about the user');
    expect(log.prompts[0]!.options?.responseConstraint).toMatchObject({ type: 'object', required: ['memories'] });
    expect(log.destroyed).toBe(1);
    expect(await memory.list(owner)).toMatchObject([{ content: VEG.content, topic: 'diet', importance: 0.7, halfLifeDays: 365 }]);
  });

  it('rejects with ModelUnavailableError naming each state, prompting nothing and storing nothing, when the model is not ready', async () => {
    const expected = { unavailable: /unavailable on this device/, downloadable: /must be downloaded first: call prepare\(\)/, downloading: /still downloading/ } as const;
    for (const [state, message] of Object.entries(expected) as [Availability, RegExp][]) {
      const log = installLanguageModel(state);
      const { memory } = await createTestMemory({ extractor: chromeExtractor() });
      const failure = memory.ingest(messages, ingestOptions);
      await expect(failure).rejects.toThrow(ModelUnavailableError);
      await expect(failure).rejects.toMatchObject({ availability: state, message });
      expect(log.prompts).toEqual([]);
      expect(await memory.list({ ...owner, includeInvalid: true })).toEqual([]);
    }
  });

  it("rejects with ModelUnavailableError 'missing' when the browser has no Prompt API", async () => {
    const extractor = chromeExtractor();
    expect(await extractor.availability()).toBe('missing');
    const { memory } = await createTestMemory({ extractor });
    await expect(memory.ingest(messages, ingestOptions)).rejects.toMatchObject({ name: 'ModelUnavailableError', availability: 'missing' });
    await expect(extractor.prepare()).rejects.toThrow(ModelUnavailableError);
  });

  it('downloads through prepare(), reporting progress, and extracts afterwards when the model was downloadable', async () => {
    const log = installLanguageModel('downloadable');
    const extractor = chromeExtractor();
    const progress: number[] = [];
    await extractor.prepare((fraction) => progress.push(fraction));
    expect(progress).toEqual([0.5, 1]);
    expect(await extractor.availability()).toBe('available');
    const { memory } = await createTestMemory({ extractor });
    await memory.ingest(messages, ingestOptions);
    expect(log.created).toBe(1);
    expect(await memory.list(owner)).toHaveLength(1);
  });

  it('names the input and output languages in availability() and create() when asked with the default or given languages', async () => {
    const english = { expectedInputs: [{ type: 'text', languages: ['en'] }], expectedOutputs: [{ type: 'text', languages: ['en'] }] };
    for (const [options, expected] of [
      [{}, english],
      [{ inputLanguages: ['es', 'en'] }, { ...english, expectedInputs: [{ type: 'text', languages: ['es', 'en'] }] }],
    ] as const) {
      const log = installLanguageModel('available');
      const extractor = chromeExtractor(options);
      await extractor.availability();
      const { memory } = await createTestMemory({ extractor });
      await memory.ingest(messages, ingestOptions);
      expect(log.asked.map((entry) => entry.call)).toEqual(['availability', 'availability', 'create']);
      for (const { call, ...asked } of log.asked) expect(asked, call).toEqual(expected);
    }
  });

  it('throws PluginError when inputLanguages is empty or holds an empty tag', () => {
    expect(() => chromeExtractor({ inputLanguages: [] })).toThrow(PluginError);
    expect(() => chromeExtractor({ inputLanguages: ['en', ' '] })).toThrow(/inputLanguages must be non-empty BCP 47 tags/);
  });

  it('rejects with PluginError and stores nothing when the model throws or answers off-schema', async () => {
    for (const answer of [async () => Promise.reject(new DOMException('too long', 'QuotaExceededError')), async () => '{"memories": "none"}']) {
      installLanguageModel('available', answer);
      const { memory } = await createTestMemory({ extractor: chromeExtractor() });
      await expect(memory.ingest(messages, ingestOptions)).rejects.toThrow(PluginError);
      expect(await memory.list({ ...owner, includeInvalid: true })).toEqual([]);
    }
  });
});
