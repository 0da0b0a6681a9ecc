/**
 * A loopback server speaking the OpenAI wire format (`/v1/chat/completions`, `/v1/embeddings`)
 * for protocol tests: each request takes the next scripted reply for its path (status, JSON
 * body, headers, delay) and is recorded. No model runs; the protocol is what is under test.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubReply {
  status?: number;
  /** JSON-serialised unless a string (sent as is: a malformed body). */
  body: unknown;
  headers?: Record<string, string>;
  /** Milliseconds before answering (a slow model). */
  delayMs?: number;
}

export interface StubRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  at: number;
}

export interface OpenAIStub {
  /** `http://127.0.0.1:PORT/v1`. */
  baseURL: string;
  requests: StubRequest[];
  /** Queues replies for a path (`'/v1/chat/completions'`, `'/v1/embeddings'`); the last one repeats. */
  reply(path: string, ...replies: (StubReply | ((request: StubRequest) => StubReply))[]): void;
  close(): Promise<void>;
}

/** A chat completion whose message content is `content` (JSON-stringified unless a string). */
export function chatReply(content: unknown, extra: Partial<StubReply> = {}): StubReply {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return { body: { id: 'chatcmpl-stub', object: 'chat.completion', created: 0, model: 'stub', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }] }, ...extra };
}

/** An embeddings answer for `vectors`. */
export function embeddingsReply(vectors: number[][]): StubReply {
  return { body: { object: 'list', model: 'stub', data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })), usage: { prompt_tokens: 0, total_tokens: 0 } } };
}

export async function startOpenAIStub(): Promise<OpenAIStub> {
  const queues = new Map<string, (StubReply | ((request: StubRequest) => StubReply))[]>();
  const requests: StubRequest[] = [];
  const server: Server = createServer((incoming, response) => {
    // CORS, so a page in the browser (the demo) can call it the way it calls a real endpoint.
    response.setHeader('access-control-allow-origin', '*');
    if (incoming.method === 'OPTIONS') {
      response.writeHead(204, { 'access-control-allow-headers': 'content-type, authorization, accept', 'access-control-allow-methods': 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: StubRequest = { path: incoming.url ?? '', headers: incoming.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, at: Date.now() };
      requests.push(request);
      const queue = queues.get(request.path) ?? [];
      const next = queue.length > 1 ? queue.shift()! : queue[0];
      const reply = typeof next === 'function' ? next(request) : (next ?? { status: 404, body: { error: { message: `no stub for ${request.path}` } } });
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (path, ...replies) => void queues.set(path, replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
