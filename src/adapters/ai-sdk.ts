/**
 * engram/ai-sdk: memory as Vercel AI SDK middleware (`wrapLanguageModel`, middleware spec v3).
 * Before a call, the memories relevant to the latest user message go into the system prompt as
 * engram's `<MEMORIES>` block; after the call completed, that user message is ingested. The
 * assistant's text is never stored, a call that failed stores nothing, and ingestion starts
 * only after the last streamed part, so it never delays a token.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Middleware, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { ValidationError, type AssembleOptions, type AssembleOrder, type Memory, type Retrieved, type SourceInput, type Weights } from 'engram';

export interface EngramMiddlewareOptions {
  memory: Memory;
  /** The user whose memories are read and written. A call can name another with `providerOptions: { engram: { userId } }`. */
  userId: string;
  /** engram's app. Default `'default'`. */
  appName?: string;
  /** The conversation: its session-scope memories are retrieved too. Default: a new id per call. */
  sessionId?: string;
  /** What each stored user turn came from. Default `{ type: 'user_implicit', id: sessionId }`. */
  source?: SourceInput;
  /** Memories per call, at most. Default 5. With `order: 'stable'`, a `k` that holds the user's memories and `weights` with `relevance: 0` keep the set, and so the prompt, the same between turns. */
  k?: number;
  /**
   * retrieve's standing profile (default `false`): with `true` every turn's block also holds the
   * few memories that say who the user is (name, home, work, diet, allergies: `PROFILE_TOPICS`),
   * whatever the turn asks, without padding `k`. See `memory.retrieve`'s `profile`.
   */
  profile?: boolean;
  /** retrieve's weights (default engram's). With `relevance: 0` every memory is a candidate whatever the turn says: retrieve's relevance floor applies only while relevance counts. */
  weights?: Weights;
  /**
   * The token budget of the system message (the app's system prompt and the memory block):
   * memories go in with `memory.assemble`, the lowest-ranked left out first. Default: no budget
   * (every retrieved memory goes in).
   */
  maxTokens?: number;
  /** The model's tokenizer for `maxTokens`: `(text) => tokens`. Default `estimateTokens` (an upper bound). */
  countTokens?: (text: string) => number;
  /**
   * `'score'` (default): best first. `'stable'`: by creation, so a turn whose memories did not
   * change sends a byte-identical system prompt and a new memory is appended after the others:
   * the provider's prompt cache keeps the prefix (see `memory.assemble`).
   */
  order?: AssembleOrder;
  /** Called with an ingestion that failed after its call returned; without it, `flush()` rejects with it. */
  onError?: (error: unknown) => void;
}

/** The middleware, plus `flush()`: resolves once every ingestion started so far has finished. */
export interface EngramMiddleware extends LanguageModelV3Middleware {
  /** Waits for pending ingestions; rejects with the first failure since the last flush when no `onError` was given. */
  flush(): Promise<void>;
}

/** Who one call is for, and the user turn it will store. */
interface Turn {
  userId: string;
  appName: string;
  sessionId: string;
  source: SourceInput;
  /** The latest user message's text; undefined when the prompt has none or the call continues a turn (tool steps). */
  text: string | undefined;
}

const OVERRIDES = ['userId', 'appName', 'sessionId'] as const;

function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `ai-sdk_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The text of the last user message, and whether it ends the prompt (a new turn, not a tool step). */
function latestUserText(prompt: LanguageModelV3Prompt): { text: string; last: boolean } | undefined {
  let index = prompt.length - 1;
  while (index >= 0 && prompt[index]!.role !== 'user') index--;
  const message = prompt[index];
  if (message?.role !== 'user') return undefined;
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return text.trim() === '' ? undefined : { text, last: index === prompt.length - 1 };
}

/** The owner of one call: the defaults, overridden per call by `providerOptions.engram`. */
function turnOf(options: EngramMiddlewareOptions, params: LanguageModelV3CallOptions): Turn {
  const override = params.providerOptions?.['engram'] ?? {};
  const picked: Record<string, string> = {};
  for (const key of OVERRIDES) {
    const value = override[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new ValidationError(`providerOptions.engram.${key}`, `must be a string (got ${typeof value})`);
    picked[key] = value;
  }
  const sessionId = picked['sessionId'] ?? options.sessionId ?? newId();
  const latest = latestUserText(params.prompt);
  return {
    userId: picked['userId'] ?? options.userId,
    appName: picked['appName'] ?? options.appName ?? 'default',
    sessionId,
    source: options.source ?? { type: 'user_implicit', id: sessionId },
    text: latest?.last ? latest.text : undefined,
  };
}

/** The prompt with `system` as its system message (the first one replaced, or one put in front). */
function withSystem(prompt: LanguageModelV3Prompt, render: (system: string) => string): LanguageModelV3Prompt {
  const index = prompt.findIndex((message) => message.role === 'system');
  if (index < 0) return [{ role: 'system', content: render('').trimStart() }, ...prompt];
  return prompt.map((message, i) => (i === index && message.role === 'system' ? { ...message, content: render(message.content) } : message));
}

/** The largest budget `assemble` takes: what the middleware budgets with when only an order is given. */
const NO_BUDGET = 100_000_000;

/** How one call's system prompt gets its memories: `inject`, or `assemble` when a budget or an order is set. */
function renderer(options: EngramMiddlewareOptions, retrieved: readonly Retrieved[]): (system: string) => string {
  const { memory, maxTokens, countTokens, order } = options;
  if (maxTokens === undefined && order === undefined && countTokens === undefined) return (system) => memory.inject(system, retrieved);
  const assembly: AssembleOptions = { maxTokens: maxTokens ?? NO_BUDGET, ...(countTokens !== undefined ? { countTokens } : {}), ...(order !== undefined ? { order } : {}) };
  return (system) => memory.assemble(system, retrieved, assembly).text;
}

/** Ingestions running after their calls returned, and the failures nobody was told of yet. */
function createIngestQueue(memory: Memory, onError: ((error: unknown) => void) | undefined) {
  const pending = new Set<Promise<void>>();
  const failures: unknown[] = [];
  return {
    /** Stores the turn's user message in the background; a failure goes to onError or the next flush(). */
    after(turn: Turn | undefined): void {
      if (!turn?.text) return;
      const task = memory
        .ingest([{ role: 'user', content: turn.text }], { userId: turn.userId, appName: turn.appName, sessionId: turn.sessionId, source: turn.source })
        .then(
          () => undefined,
          (error: unknown) => void (onError ? onError(error) : failures.push(error)),
        )
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async flush(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
      if (failures.length > 0) throw failures.splice(0)[0];
    },
  };
}

/** `stream` unchanged, calling `done` after its last part was read, unless a part reported an error. */
function onCompletion(stream: ReadableStream<LanguageModelV3StreamPart>, done: () => void): ReadableStream<LanguageModelV3StreamPart> {
  let failed = false;
  return stream.pipeThrough(
    new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
      transform(part, controller) {
        if (part.type === 'error' || (part.type === 'finish' && part.finishReason.unified === 'error')) failed = true;
        controller.enqueue(part);
      },
      // Runs once the last part was handed on, and never when the stream errored or was cancelled.
      flush() {
        if (!failed) done();
      },
    }),
  );
}

/** Memory for `wrapLanguageModel({ model, middleware: engramMiddleware({ memory, userId }) })`. */
export function engramMiddleware(options: EngramMiddlewareOptions): EngramMiddleware {
  if (!options?.memory || typeof options.memory.retrieve !== 'function') throw new ValidationError('options.memory', 'must be an engram Memory (from createMemory())');
  if (typeof options.userId !== 'string' || options.userId === '') throw new ValidationError('options.userId', `must be a non-empty string (got ${String(options.userId)})`);
  const { memory } = options;
  const turns = new WeakMap<LanguageModelV3CallOptions, Turn>();
  const queue = createIngestQueue(memory, options.onError);
  return {
    specificationVersion: 'v3',

    async transformParams({ params }) {
      const turn = turnOf(options, params);
      const query = latestUserText(params.prompt)?.text;
      const retrieved =
        query === undefined
          ? []
          : await memory.retrieve(query, {
              userId: turn.userId,
              appName: turn.appName,
              sessionId: turn.sessionId,
              ...(options.k !== undefined ? { k: options.k } : {}),
              ...(options.weights !== undefined ? { weights: options.weights } : {}),
              ...(options.profile !== undefined ? { profile: options.profile } : {}),
            });
      const next = retrieved.length === 0 ? { ...params } : { ...params, prompt: withSystem(params.prompt, renderer(options, retrieved)) };
      turns.set(next, turn);
      return next;
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (result.finishReason.unified !== 'error') queue.after(turns.get(params));
      return result;
    },

    async wrapStream({ doStream, params }) {
      const result = await doStream();
      return { ...result, stream: onCompletion(result.stream, () => queue.after(turns.get(params))) };
    },

    flush: queue.flush,
  };
}
