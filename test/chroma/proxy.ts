/**
 * A loopback HTTP proxy in front of a Chroma server that counts requests, for the fault
 * tests: `after(k, action)` runs `action` (kill the server) once the k-th request from now on
 * has been answered, and holds every later request until the action is done, so the (k+1)-th
 * meets the dead server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  readonly host: string;
  readonly port: number;
  /** Requests forwarded since the last `reset`. */
  readonly count: number;
  /** Their methods and paths (`POST /api/v2/…/upsert`), in arrival order. */
  readonly requests: readonly string[];
  reset(): void;
  after(k: number, action: () => Promise<void>): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  let count = 0;
  let requests: string[] = [];
  let trigger: { k: number; action: () => Promise<void> } | undefined;
  let gate: Promise<void> = Promise.resolve();

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    await gate;
    const n = ++count;
    requests.push(`${request.method} ${request.url}`);
    const body = await readBody(request);
    try {
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method!,
        headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
        ...(body.length ? { body: new Uint8Array(body) } : {}),
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(bytes);
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`proxy: the server did not answer (${error instanceof Error ? error.message : String(error)})`);
    }
    if (trigger && n === trigger.k) {
      const { action } = trigger;
      trigger = undefined;
      gate = action();
      await gate;
    }
  }

  const server = createServer((request, response) => void forward(request, response));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    get count() {
      return count;
    },
    get requests() {
      return requests;
    },
    reset() {
      count = 0;
      requests = [];
      trigger = undefined;
    },
    after(k, action) {
      trigger = { k: count + k, action };
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
