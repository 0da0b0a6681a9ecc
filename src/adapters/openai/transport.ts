/**
 * The wire to an OpenAI-shaped model: plain `fetch` against `{ baseURL, apiKey? }`, or any
 * client object with `chat.completions.create` / `embeddings.create` (the `openai` package,
 * WebLLM's engine). Every call gets a timeout, the caller's AbortSignal, and retries with
 * backoff on 429 and 5xx (Retry-After honoured); every failure is a PluginError with the HTTP
 * status when there was one. Nothing here knows about memories.
 */
import { AbortedError, PluginError } from 'engram';

/** Anything shaped like the `openai` client (or WebLLM's `MLCEngine`): only these two calls are used. */
export interface OpenAIClientLike {
  // Parameters typed `never` so any client's own request types fit; engram sends OpenAI's wire format.
  chat?: { completions: { create(body: never, options?: never): PromiseLike<unknown> } };
  embeddings?: { create(body: never, options?: never): PromiseLike<unknown> };
}

interface ConnectionCommon {
  /** Model name sent with every request, e.g. `'gpt-4o-mini'`, `'llama3.1'`. */
  model: string;
  /** Per attempt. Default 30 000 ms. A timed-out attempt is not retried. */
  timeoutMs?: number;
  /** Retries after a 429 or 5xx answer (or a network failure). Default 2. */
  maxRetries?: number;
  /** First backoff; doubles per retry, with jitter, capped at 20 s. A Retry-After header wins. Default 500 ms. */
  retryBaseMs?: number;
  /** Aborts every call of this adapter (pending and future) with AbortedError. */
  signal?: AbortSignal;
}

/** Where the model is: an endpoint spoken to with fetch, or a client object. */
export type OpenAIConnection = ConnectionCommon &
  (
    | {
        /** E.g. `'https://api.openai.com/v1'`, `'http://localhost:11434/v1'` (Ollama). */
        baseURL: string;
        /** Sent as `Authorization: Bearer …`; omit for local servers. */
        apiKey?: string;
        /** Extra headers (an organisation, a proxy token). */
        headers?: Record<string, string>;
      }
    | { client: OpenAIClientLike }
  );

export type Operation = 'chat' | 'embeddings';

export interface Transport {
  readonly model: string;
  /** POSTs `body` (the model name added) to the operation's endpoint; resolves to the parsed JSON answer. */
  call(operation: Operation, body: Record<string, unknown>): Promise<unknown>;
}

const PATHS: Record<Operation, string> = { chat: '/chat/completions', embeddings: '/embeddings' };
const MAX_BACKOFF_MS = 20_000;
/** A Retry-After longer than this is not waited out inside one call. */
const MAX_RETRY_AFTER_MS = 60_000;

/** An HTTP-level failure: retried when `retryable`, after `retryAfterMs` when the server said so. */
class AttemptError extends PluginError {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | undefined,
    options: { cause?: unknown; status?: number },
  ) {
    super(message, options);
  }
}

const retryableStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function abortReason(signal: AbortSignal, what: string): AbortedError {
  return new AbortedError(`${what} was aborted by the caller's signal; nothing was stored`, { cause: signal.reason });
}

function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal, what));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!, what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** One attempt's signal: fires on the caller's abort or after `timeoutMs`; `timedOut()` tells which. */
function attemptSignal(outer: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => controller.abort(outer!.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

async function viaFetch(connection: Extract<OpenAIConnection, { baseURL: string }>, operation: Operation, body: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const url = `${connection.baseURL.replace(/\/+$/, '')}${PATHS[operation]}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...connection.headers };
  if (connection.apiKey) headers['authorization'] = `Bearer ${connection.apiKey}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
  const text = await response.text();
  if (!response.ok) {
    const detail = text.slice(0, 200).replace(/\s+/g, ' ');
    throw new AttemptError(`POST ${url} answered HTTP ${response.status}: ${detail}`, retryableStatus(response.status), parseRetryAfter(response.headers.get('retry-after')), {
      status: response.status,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PluginError(`POST ${url} answered HTTP ${response.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 80))}`, { cause: error, status: response.status });
  }
}

/** The `openai` client's errors carry `status` and `headers`; a client without them fails as a network error would. */
function fromClientError(error: unknown, operation: Operation): AttemptError {
  const status = typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : undefined;
  const headers = (error as { headers?: { get?: (name: string) => string | null } })?.headers;
  const retryAfter = typeof headers?.get === 'function' ? parseRetryAfter(headers.get('retry-after')) : undefined;
  const detail = error instanceof Error ? error.message : String(error);
  return new AttemptError(`the client's ${operation} call failed${status !== undefined ? ` with HTTP ${status}` : ''}: ${detail}`, status === undefined || retryableStatus(status), retryAfter, {
    cause: error,
    ...(status !== undefined ? { status } : {}),
  });
}

async function viaClient(client: OpenAIClientLike, operation: Operation, body: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const api = operation === 'chat' ? client.chat?.completions : client.embeddings;
  if (typeof api?.create !== 'function') {
    throw new PluginError(`the client has no ${operation === 'chat' ? 'chat.completions' : 'embeddings'}.create(); pass an OpenAI-shaped client or a { baseURL } instead`);
  }
  // The client's own retries are turned off: this transport retries, once, with one policy.
  const call = Promise.resolve(api.create(body as never, { signal, maxRetries: 0 } as never)).catch((error: unknown) => {
    throw fromClientError(error, operation);
  });
  // A client that ignores the signal (a fake engine, WebLLM) must still not outlive the timeout.
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  return Promise.race([call, aborted]);
}

/** The transport for one adapter; the retry policy, timeout and abort apply to both kinds of connection. */
export function createTransport(connection: OpenAIConnection, component: string): Transport {
  if (typeof connection?.model !== 'string' || connection.model === '') throw new PluginError(`${component} needs options.model (the model name to send)`);
  if (!('client' in connection) && typeof connection.baseURL !== 'string') throw new PluginError(`${component} needs options.baseURL (e.g. 'http://localhost:11434/v1') or options.client`);
  const timeoutMs = connection.timeoutMs ?? 30_000;
  const maxRetries = connection.maxRetries ?? 2;
  const baseMs = connection.retryBaseMs ?? 500;

  async function attempt(operation: Operation, body: Record<string, unknown>): Promise<unknown> {
    const scope = attemptSignal(connection.signal, timeoutMs);
    try {
      return 'client' in connection ? await viaClient(connection.client, operation, body, scope.signal) : await viaFetch(connection, operation, body, scope.signal);
    } catch (error) {
      if (connection.signal?.aborted) throw abortReason(connection.signal, `${component}'s ${operation} call`);
      if (scope.timedOut()) throw new PluginError(`${component}'s ${operation} call to '${connection.model}' did not answer within ${timeoutMs} ms; nothing was stored. Retry, or raise options.timeoutMs`, { cause: error });
      if (error instanceof PluginError) throw error;
      // fetch itself failed: no server listening, DNS, a reset connection.
      throw new AttemptError(`${component}'s ${operation} call to '${connection.model}' failed before an answer: ${error instanceof Error ? error.message : String(error)}`, true, undefined, { cause: error });
    } finally {
      scope.dispose();
    }
  }

  return {
    model: connection.model,
    async call(operation, body) {
      for (let retry = 0; ; retry++) {
        try {
          return await attempt(operation, { ...body, model: connection.model });
        } catch (error) {
          if (!(error instanceof AttemptError) || !error.retryable || retry >= maxRetries) {
            if (error instanceof AttemptError) {
              const options = { cause: error.cause, ...(error.status !== undefined ? { status: error.status } : {}) };
              throw new PluginError(`${error.message}; nothing was stored (after ${retry + 1} attempt${retry ? 's' : ''})`, options);
            }
            throw error;
          }
          const backoff = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry * (0.5 + Math.random() / 2));
          await sleep(Math.min(error.retryAfterMs ?? backoff, MAX_RETRY_AFTER_MS), connection.signal, `${component}'s ${operation} call`);
        }
      }
    },
  };
}
